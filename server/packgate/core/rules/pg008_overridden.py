"""PG008 overridden: an exported variable's assignment (a gate's, exported or not) overwritten
before any launch reads it."""

from __future__ import annotations

import re
from bisect import bisect_left

from .. import gates as G
from ..findings import Applicability, Related
from ..flow import Val, ValKind
from ..parse import Assign, AssignMode
from ..parse.model import Command, ExportNames, FuncDef, Opaque, SetOpt, Unset
from ..parse.visit import walk
from .base import Context, removal, shown, site_value, value_edit
from .rule import EXAMPLE_LAUNCH, FixText, Rule, Text, pick

RULE = Rule(
    code="PG008",
    name="overridden",
    severity="information",
    summary_en="An exported variable (or a gate) is assigned again before any launch reads it",
    summary_zh="导出的变量（或开关）在被任何启动命令读取之前又被赋值",
    problem_en=(
        "The last assignment before the launch wins; an earlier one that nothing reads is "
        "misleading, especially when the two disagree. Seventeen LLaVA-OneVision-2 launchers "
        "export `PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128` and, on the next line, "
        "`PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.72`: PyTorch reads one "
        "comma-separated list, so the first setting is lost. A gate's assignment is reported "
        "wherever the next one comes; any other exported variable's only when nothing between "
        "the two could have read it: no command runs in between (a program sees the exported "
        "value) and the script does not expand it (`echo $X`)."),
    problem_zh=(
        "启动之前最后一次赋值才生效；更早的、没有被任何命令读到的赋值会误导读者，尤其是两者不一致时。"
        "LLaVA-OneVision-2 有十七个启动脚本先导出 `PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128`，"
        "紧接着下一行又导出 `PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.72`：PyTorch 读取的是"
        "一个逗号分隔的列表，所以第一个设置丢失了。开关的赋值无论下一次赋值在哪里都会报告；其他导出变量只在两次赋值"
        "之间没有任何东西可能读到它时才报告：中间没有运行命令（程序能看到导出的值），脚本也没有展开它（`echo $X`）。"),
    rationale_en="Keep one assignment per gate, next to its companion.",
    rationale_zh="每个开关只保留一次赋值，并与另一个开关放在一起。",
    exceptions_en=(
        "Exporting the same value twice in a row is harmless; it is reported as information only. "
        "A variable other than a gate is not reported when a command runs between the two "
        "assignments (it may read the first value from its environment), when the script expands "
        "it in between, or when either assignment lives in a sourced file."),
    exceptions_zh=(
        "连续两次导出相同的值没有危害；只作为 information 提示。开关以外的变量在以下情况不报告：两次赋值之间运行了命令"
        "（它可能从环境中读到第一个值）、脚本在两次赋值之间展开了它，或其中一次赋值位于被 source 的文件中。"),
    bad=(
        "#!/bin/bash\nexport OFFLINE_PACKING_BMR=0\nexport OFFLINE_PACKING_BMR=1\n"
        "export OFFLINE_PACKED_DATA=1\n" + EXAMPLE_LAUNCH),
    good=(
        "#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
        + EXAMPLE_LAUNCH),
    messages={
        "overwritten": Text(
            "{name}={value} is overwritten on line {by_line} before any launch reads it",
            "{name}={value} 在被任何启动命令读取之前就在第 {by_line} 行被覆盖"),
        "unset": Text(
            "{name}={value} is unset on line {by_line} before any launch reads it",
            "{name}={value} 在被任何启动命令读取之前就在第 {by_line} 行被 unset"),
        "list": Text(
            "{name}={value} is overwritten on line {by_line} before any launch reads it: {library} "
            "reads one list of options separated by \"{sep}\", so only the second assignment's "
            "options are kept; join both into one",
            "{name}={value} 在被任何启动命令读取之前就在第 {by_line} 行被覆盖：{library} 读取的是用 "
            "\"{sep}\" 分隔的一个选项列表，所以只保留了第二次赋值的选项；请把两者合并为一个"),
    },
    fixes={"remove": FixText(
        "Remove the overwritten assignment", "删除被覆盖的赋值",
        doc_en="Remove the earlier assignment that nothing reads (`export OFFLINE_PACKING_BMR=0` "
               "above `export OFFLINE_PACKING_BMR=1`)",
        doc_zh="删除没有被读取的较早赋值（`export OFFLINE_PACKING_BMR=1` 之前的 "
               "`export OFFLINE_PACKING_BMR=0`）",
        applicability=Applicability.DISPLAY_ONLY, profile_bound=True),
        "join": FixText(
            "Join both into {name}={joined}", "合并为 {name}={joined}",
            doc_en="For a variable whose value is one list of options (`PYTORCH_CUDA_ALLOC_CONF`), "
                   "remove the first assignment and give the second both lists: "
                   "`PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128,garbage_collection_threshold:0.72`. "
                   "Unsafe: the trainer then runs with a setting it never had",
            doc_zh="对于值是一个选项列表的变量（`PYTORCH_CUDA_ALLOC_CONF`），删除第一次赋值，并把两个列表合并到第二次赋值中："
                   "`PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128,garbage_collection_threshold:0.72`。"
                   "不安全：训练随后会带着一个它从未生效过的设置运行",
            applicability=Applicability.UNSAFE)},
)


_ONE_COMMAND = (AssignMode.PREFIX, AssignMode.ENV, AssignMode.DOCKER)  # for one command only


def check(ctx: Context) -> None:
    """An assignment that nothing reads before it is replaced."""
    for a, by in ctx.flow.overwritten:
        if a.mode in _ONE_COMMAND:
            continue
        if a.name not in G.GATES:
            _variable(ctx, a, by)
            continue
        if a.name not in ctx.live:
            continue
        val = site_value(ctx, a)
        key = "overwritten" if isinstance(by, Assign) else "unset"
        where = ctx.flow.overwritten_in.get(by)
        if where is not None:  # in a sourced file: the line of the `source` command, and a link into the file
            by_file, via = where
            by_line = ctx.line(via[0])
            related = [Related(by.start, by.end, pick(ctx.lang, "overwritten here", "在这里被覆盖"), by_file)]
        else:
            by_line = ctx.line(by.start)
            related = [ctx.related(by.start, by.end, "overwritten here", "在这里被覆盖")]
        msg = ctx.message(RULE, key, name=a.name, value=shown(val), by_line=by_line)
        fix = ctx.fix(RULE, "remove", [removal(ctx, a)], preferred=True)
        ctx.emit(RULE, msg, a.name_start, a.name_end, fixes=[fix], related=related, site=a)


def _variable(ctx: Context, a: Assign, by) -> None:
    """An exported variable other than a gate, assigned again with nothing between that could
    read it (the flow records every exported variable's overwrite; a gate's rule is above)."""
    if a.file is not None or by in ctx.flow.overwritten_in:
        return  # in a sourced file: what runs between the two is not in this text
    if isinstance(by, Assign) and by.mode in _ONE_COMMAND:
        return
    if by.start < a.decl_end or not _nothing_reads_between(ctx, a, by):
        return
    value = _written(ctx, a)
    by_line = ctx.line(by.start)
    related = [ctx.related(by.start, by.end, "overwritten here", "在这里被覆盖")]
    from ..code.libraries import library_of  # rarely reached: the library table loads only here
    row = library_of(a.name)
    joined = _joined(ctx, a, by, row.list_separator) if row is not None and row.list_separator else None
    if joined is not None:
        msg = ctx.message(RULE, "list", name=a.name, value=shown(value), by_line=by_line,
                          library=row.library, sep=row.list_separator)
        edits = [removal(ctx, a), value_edit(by, joined, ctx.source)]
        fixes = [ctx.fix(RULE, "join", edits, preferred=True, name=a.name, joined=joined)] \
            if _removable(a, by) else []
    else:
        key = "overwritten" if isinstance(by, Assign) else "unset"
        msg = ctx.message(RULE, key, name=a.name, value=shown(value), by_line=by_line)
        fixes = [ctx.fix(RULE, "remove", [removal(ctx, a)], preferred=True, profile_bound=False)] \
            if _removable(a, by) else []
    ctx.emit(RULE, msg, a.name_start, a.name_end, fixes=fixes, related=related)


def _nothing_reads_between(ctx: Context, a: Assign, by) -> bool:
    """No command runs between the two statements (a program would see the exported value) and
    the text between expands neither the name nor a command substitution."""
    lo, hi = a.decl_end, by.start
    between = ctx.source.data[lo:hi]
    if b"$(" in between or b"`" in between:
        return False
    if re.search(rb"\$\{?" + a.name.encode() + rb"(?![A-Za-z0-9_])", between) is not None:
        return False
    body = ctx.script.body.body
    starts = ctx.cache.get("top_starts")
    if starts is None:
        starts = ctx.cache["top_starts"] = [st.start for st in body]
    i, j = bisect_left(starts, a.start + 1) - 1, bisect_left(starts, by.start + 1) - 1
    if i >= 0 and body[i] is a and j >= 0 and body[j] is by:
        # both at the top level (the usual two lines in a row): only what stands between counts
        return all(type(st) in _READS_NOTHING for st in body[i + 1:j])
    commands = ctx.cache.get("command_starts")
    if commands is None:
        commands = ctx.cache["command_starts"] = sorted(st.start for st in walk(ctx.script.body)
                                                        if type(st) is Command)
    k = bisect_left(commands, lo)
    return not (k < len(commands) and commands[k] < hi)


# statements that run no program: what stands between two top-level assignments without
# reading the first (a function's definition runs nothing either)
_READS_NOTHING = (Assign, ExportNames, Unset, SetOpt, FuncDef)


def _written(ctx: Context, a: Assign) -> Val:
    """The value an assignment writes, as the script spells it."""
    if a.value is None:
        return Val(ValKind.KNOWN, "")
    if a.value.text is not None:
        return Val(ValKind.KNOWN, a.value.text)
    raw = ctx.source.data[a.value.start:a.value.end].decode("utf-8", "replace")
    return Val(ValKind.UNKNOWN, via=raw)


def _joined(ctx: Context, a: Assign, by: Assign, sep: str):
    """Both lists of options as one, when both are literal and set different options; else None."""
    if not isinstance(by, Assign) or a.value is None or by.value is None:
        return None
    first, second = a.value.text, by.value.text
    if not first or not second:
        return None
    keys = [part.split(":", 1)[0].strip() for part in first.split(sep) + second.split(sep)]
    if len(set(keys)) != len(keys):
        return None  # the second resets an option of the first: it was meant to win
    return first + sep + second


def _removable(a: Assign, by) -> bool:
    """Whether removing the first assignment changes nothing else: it only sets the value (no
    attribute, no expansion that runs or assigns), and the second exports on its own."""
    if a.mode not in (AssignMode.PLAIN, AssignMode.EXPORT) or a.array is not None:
        return False
    if a.value is not None and (a.value.effects or a.value.text is None and any(
            type(p) is Opaque for p in a.value.parts)):
        return False
    return not isinstance(by, Assign) or by.exported or not a.exported  # an unset, or an export
