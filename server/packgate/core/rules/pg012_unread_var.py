"""PG012 unread-var: a variable exported to a launch that no code in the workspace reads, in a
family of names the code does read: stale, or a typo."""

from __future__ import annotations

import re

from .. import gates as G
from ..files import read_file
from ..findings import Applicability, Edit
from . import pg002_dead_var
from .base import Context
from .rule import EXAMPLE_LAUNCH, FixText, Rule, Text

_CODE = ("aiak_training_llm/models/encoder.py",
         'import os\n\n\ndef patch_embed():\n'
         '    kind = os.environ.get("PATCH_EMBED_TYPE", "linear")\n'
         '    scale = float(os.environ.get("PATCH_EMBED_SCALE", "1.0"))\n'
         '    return kind, scale\n')


def _library_table(lang: str) -> str:
    """The rule page's table of the names programs outside the workspace read."""
    from ..code.libraries import table
    return table(lang)


RULE = Rule(
    code="PG012",
    name="unread-var",
    severity="warning",
    summary_en="A variable exported to the trainer that no code in the workspace reads, beside names it does read",
    summary_zh="导出给训练进程的变量，工作区代码从不读取它，却读取同一族的其他变量",
    problem_en=(
        "The launch exports `PATCH_EMBED_TYPES`; the training code reads `PATCH_EMBED_TYPE` and "
        "`PATCH_EMBED_SCALE`, never `PATCH_EMBED_TYPES`. The trainer starts with its default and "
        "nothing says so: the setting is a typo, or it outlived the code that read it. A name is "
        "in a family the code reads when it shares its prefix up to its last `_` with a name "
        "the code reads (`OFFLINE_PACKING_BMX` with `OFFLINE_PACKING_BMR`); names of other "
        "families are left alone, since the launcher may use them for anything."),
    problem_zh=(
        "启动命令导出了 `PATCH_EMBED_TYPES`；训练代码读取的是 `PATCH_EMBED_TYPE` 和 `PATCH_EMBED_SCALE`，"
        "从不读取 `PATCH_EMBED_TYPES`。训练以默认值启动且毫无提示：这个设置要么是拼写错误，要么读取它的代码早已不在。"
        "若一个名字与代码读取的某个名字在最后一个 `_` 之前的前缀相同（如 `OFFLINE_PACKING_BMX` 与 "
        "`OFFLINE_PACKING_BMR`），它就属于代码读取的同一族；其他族的名字不报告，启动脚本可能另有用途。"),
    rationale_en=(
        "Spell the name as the code reads it (the message names the closest one and where the code "
        "reads it), or remove the export once nothing reads it."),
    rationale_zh="按代码读取的拼写写这个名字（消息给出最接近的名字及代码读取它的位置）；若已无人读取，就删掉这个导出。",
    exceptions_en=(
        "Never reported: names a program outside the workspace reads (the table below); names a "
        "child script the launcher runs reads (`bash child.sh`, `srun bash child.sh`: when the "
        "launcher runs one it cannot read, nothing is reported); names the launcher expands itself "
        "(`optimizer.lr=${OV2_LR}`); the packing gates, which the profile decides (a gate the "
        "profile knows the code no longer reads, `OFFLINE_PACKING_VQA` under `ov2`, is PG002 "
        "`dead-var`: the case of this rule where the name was read once, so this rule stays "
        "silent there); names a Python file of the workspace that could not be parsed mentions; and "
        "every name when no Python code of the workspace was found.\n\n"
        "Names read outside the workspace:"),
    exceptions_zh=(
        "以下情况从不报告：工作区之外的程序读取的名字（见下表）；启动脚本运行的子脚本读取的名字（`bash child.sh`、"
        "`srun bash child.sh`；若它运行的子脚本无法读取，则什么都不报告）；启动脚本自己展开的名字"
        "（`optimizer.lr=${OV2_LR}`）；packing 开关，由配置决定（配置知道代码已不再读取的开关，如 `ov2` 下的 "
        "`OFFLINE_PACKING_VQA`，由 PG002 `dead-var` 报告：它是本规则中“名字曾被读取过”的情形，本规则在那里不报告）；"
        "工作区中无法解析的 Python 文件提到的名字；以及找不到工作区 Python 代码时的所有名字。\n\n工作区之外读取的名字："),
    exceptions_table=_library_table,
    bad="#!/bin/bash\nexport PATCH_EMBED_TYPES=conv2d\n" + EXAMPLE_LAUNCH,
    good="#!/bin/bash\nexport PATCH_EMBED_TYPE=conv2d\n" + EXAMPLE_LAUNCH,
    messages={
        "typo": Text(
            "{name} is exported to {launch} but no code in the workspace reads it: did you mean "
            "{closest} (read at {where})?",
            "{name} 被导出给 {launch}，但工作区中没有代码读取它：是不是想写 {closest}（读取位置 {where}）？"),
        "family": Text(
            "{name} is exported to {launch} but no code in the workspace reads it, though the code "
            "reads other {prefix}* names: stale, or did you mean {closest} (read at {where})?",
            "{name} 被导出给 {launch}，但工作区中没有代码读取它，而代码读取同族的其他 {prefix}* 名字："
            "已过时，还是想写 {closest}（读取位置 {where}）？"),
    },
    fixes={"rename": FixText(
        "Rename {name} to {closest}", "把 {name} 改名为 {closest}",
        doc_en="Where one name the code reads is close to the exported one (at most two letters "
               "apart), rename the export: `export PATCH_EMBED_TYPES=conv2d` becomes "
               "`export PATCH_EMBED_TYPE=conv2d`. Unsafe: the trainer then reads a value it ignored "
               "before. Removing the export is never offered: a program outside the workspace may read it",
        doc_zh="若代码读取的某个名字与导出的名字很接近（最多相差两个字符），就改名：`export PATCH_EMBED_TYPES=conv2d` "
               "改为 `export PATCH_EMBED_TYPE=conv2d`。不安全：训练随后会读到它此前忽略的值。从不提供删除导出："
               "工作区之外的程序可能读取它",
        applicability=Applicability.UNSAFE)},
    workspace=(_CODE,),
)

CLOSE = 2  # edits between two names for one to be a likely typo of the other


def family(name: str) -> str:
    """The name's prefix up to and with its last `_` ('' when it has none or nothing follows)."""
    cut = name.rfind("_")
    return name[:cut + 1] if 0 < cut < len(name) - 1 else ""


def check(ctx: Context) -> None:
    """Exported names no workspace code reads, next to names of their family it does read."""
    index = ctx.contract()
    if index is None:
        return
    read = index.names_read()
    if not read or not ctx.flow.launches:
        return
    from ..code.libraries import library_of  # a workspace with Python code: the only runs that need it
    from .child_scripts import child_reads, expanded_names
    expanded = children = None
    for launch in ctx.flow.launches:
        for path in launch.paths:
            for name, var in path.exported(moved=False).items():  # reads origins and texts only
                a = var.origin
                if a is None or name in read or name in G.GATES or pg002_dead_var.reports(ctx, name):
                    continue
                prefix = family(name)
                kin = sorted(r for r in read if prefix and r.startswith(prefix))
                if not kin or library_of(name) is not None:
                    continue
                if expanded is None:
                    expanded = expanded_names(ctx.source.text)
                    children = child_reads(ctx)
                if children.unresolved:
                    return  # a child script the launcher runs may read any of them
                if name in expanded or name in children.names or name in _unparsed_text(ctx, index):
                    continue
                _report(ctx, launch, a, name, prefix, kin, index)


def _unparsed_text(ctx: Context, index) -> _Mentions:
    """The text of the workspace's Python files the index could not parse (a syntax error, an
    encoding): what they read is unknown, so a name they mention is not called stale."""
    got = ctx.cache.get("unparsed_text")
    if got is None:
        chunks = []
        for facts in index.files.values():
            if facts.skipped:
                data, _ = read_file(facts.path)
                if data is not None:
                    chunks.append(data)
        got = ctx.cache["unparsed_text"] = _Mentions(b"\n".join(chunks))
    return got


class _Mentions:
    """`name in mentions`: whether the bytes hold the name as a word."""

    __slots__ = ("data",)

    def __init__(self, data: bytes):
        self.data = data

    def __contains__(self, name: str) -> bool:
        return bool(self.data) and re.search(rb"(?<![A-Za-z0-9_])" + re.escape(name.encode()) +
                                             rb"(?![A-Za-z0-9_])", self.data) is not None


def _report(ctx: Context, launch, a, name: str, prefix: str, kin: list, index) -> None:
    from ..code.outcome import place
    from ..spelling import edit_distance as distance
    ranked = sorted(kin, key=lambda r: (distance(name, r), r))
    closest = ranked[0]
    gap = distance(name, closest)
    unique = len(ranked) == 1 or distance(name, ranked[1]) > gap
    where = place(index.reads_of(closest)[0], index.root)
    close = gap <= CLOSE and unique
    msg = ctx.message(RULE, "typo" if close else "family", name=name, closest=closest, where=where,
                      prefix=prefix, launch=_to(ctx, launch))
    fixes = []
    if close and a.exported:  # `X=1; export X`: renaming the assignment alone would not do
        fixes.append(ctx.fix(RULE, "rename", [Edit(a.name_start, a.name_end, closest)], preferred=True,
                             name=name, closest=closest))
    ctx.emit(RULE, msg, a.name_start, a.name_end, fixes=fixes, site=a, launch=launch, dedupe=("unread", a))


def _to(ctx: Context, launch) -> tuple:
    """What the name is exported to, in English and Chinese: a launch, or (a file without one,
    meant to be sourced) the environment it leaves to the launches of whoever sources it."""
    if launch.implicit:
        return ("the environment this file leaves", "本文件留下的环境")
    return ctx.launch_name(launch)
