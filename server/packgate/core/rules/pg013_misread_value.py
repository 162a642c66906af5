"""PG013 misread-value: a value the training code reads differently from how it is spelled."""

from __future__ import annotations

from .. import gates as G
from ..findings import Applicability
from ..flow import ValKind
from .base import Context, shown, value_edit
from .rule import EXAMPLE_LAUNCH, FixText, Rule, Text

_CODE = ("aiak_training_llm/training/global_vars.py",
         'import os\n\n\ndef tracker():\n'
         '    if os.environ.get("ENABLE_SWANLAB", "0") == "1":\n'
         '        return "swanlab"\n'
         '    return None\n')

RULE = Rule(
    code="PG013",
    name="misread-value",
    severity="warning",
    summary_en="A value the training code reads differently from how it is spelled",
    summary_zh="训练代码对某个值的理解与它的写法不同",
    problem_en=(
        "The code decides what a value means, not its spelling. `ENABLE_SWANLAB` is compared with "
        "the string `\"1\"`, so `export ENABLE_SWANLAB=true` leaves the tracker off, silently; a "
        "variable tested with `if v:` is on for `0` and `false` alike; one whose value must be one "
        "of a fixed set (`PATCH_EMBED_TYPE`: `TP_LINEAR`, `LINEAR` or `CONV2D` after `.upper()`) "
        "falls to the code's other branch for anything else. The rule reads each variable's parse "
        "from the workspace's code (the comparison, its values, a case change before it) and "
        "judges the value every launch is given."),
    problem_zh=(
        "值的含义由代码决定，而不是由写法决定。`ENABLE_SWANLAB` 是与字符串 `\"1\"` 比较的，所以 "
        "`export ENABLE_SWANLAB=true` 会静默地让追踪保持关闭；用 `if v:` 判断的变量，`0` 和 `false` 都算打开；"
        "必须取固定几个值之一的变量（`PATCH_EMBED_TYPE`：`.upper()` 之后为 `TP_LINEAR`、`LINEAR` 或 `CONV2D`），"
        "其他值都会走到代码的另一个分支。本规则从工作区代码中读出每个变量的解析方式（比较、比较的值、比较前的大小写转换），"
        "并判断每次启动得到的值。"),
    rationale_en="Write the value the way the code compares it (the message says which values it accepts).",
    rationale_zh="按代码比较的方式书写这个值（消息会列出代码接受的值）。",
    exceptions_en=(
        "A value whose parse raises (`int(\"true\")`) is PG005 `invalid-value`, not this rule. A "
        "value that spells neither on nor off (`2` where the code compares with `\"1\"`) is not "
        "reported: the code reads it as off, and nothing says that was not meant. Nothing is "
        "reported when no Python code of the workspace reads the variable."),
    exceptions_zh=(
        "解析时会抛异常的值（`int(\"true\")`）属于 PG005 `invalid-value`，不归本规则。既不表示开也不表示关的值"
        "（代码与 `\"1\"` 比较时写成 `2`）不报告：代码把它当作关闭，也没有迹象表明这不是本意。"
        "工作区中没有 Python 代码读取该变量时不报告。"),
    bad="#!/bin/bash\nexport ENABLE_SWANLAB=true\n" + EXAMPLE_LAUNCH,
    good="#!/bin/bash\nexport ENABLE_SWANLAB=1\n" + EXAMPLE_LAUNCH,
    messages={
        "off": Text(
            "{name}={shown} is read as off: the code {how} ({where}), which {shown} does not match; "
            "use {value}",
            "{name}={shown} 会被当作关闭：代码{how}（{where}），{shown} 与之不符；请使用 {value}"),
        "on": Text(
            "{name}={shown} is read as on: the code {how} ({where}), so {shown} does not turn it off",
            "{name}={shown} 会被当作打开：代码{how}（{where}），所以 {shown} 并不能关闭它"),
        "choice": Text(
            "{name}={shown} matches none of the values the code accepts: the code {how} ({where})",
            "{name}={shown} 不是代码接受的任何一个值：代码{how}（{where}）"),
    },
    fixes={"value": FixText(
        "Set {name} to {value}", "把 {name} 设为 {value}",
        doc_en="Write the value the code compares with: `ENABLE_SWANLAB=true` becomes `ENABLE_SWANLAB=1` "
               "(the quoting is kept). Offered in the editor only: it changes what the trainer does",
        doc_zh="写成代码所比较的值：`ENABLE_SWANLAB=true` 改为 `ENABLE_SWANLAB=1`（保留原有引号）。"
               "只在编辑器中提供：它会改变训练的行为",
        applicability=Applicability.DISPLAY_ONLY)},
    workspace=(_CODE,),
)

_GIVEN = (ValKind.KNOWN, ValKind.DEFAULT)


def check(ctx: Context) -> None:
    """Exported values the code's comparison reads another way than they are spelled."""
    index = ctx.contract()
    if index is None:
        return
    from ..code.outcome import Kind, reads_by_name, worst  # only a workspace with Python code loads them
    table = reads_by_name(ctx)
    for launch in ctx.flow.launches:
        for path in launch.paths:
            for name, var in path.exported(moved=False).items():  # reads origins and texts only
                a = var.origin
                if a is None or var.val.kind not in _GIVEN or name in G.GATES:
                    continue  # the gates are the profile's (PG001, PG005)
                reads = table.get(name)
                if not reads:
                    continue
                got = worst(reads, var.val.text)
                if got.kind in (Kind.FINE, Kind.RAISES):
                    continue  # a raise is PG005's
                _report(ctx, launch, a, var.val, got, index)


def _report(ctx: Context, launch, a, val, got, index) -> None:
    from ..code.outcome import Kind, place
    read = got.read
    where = place(read, index.root)
    values = ", ".join(f'"{v}"' for v in got.accepted)
    fold_en = {"lower": " in lower case", "upper": " in upper case"}.get(got.fold, "")
    fold_zh = {"lower": "转为小写后", "upper": "转为大写后"}.get(got.fold, "")
    if got.kind is Kind.NO_CHOICE:
        key = "choice"
        how = (f"compares it{fold_en} with {values}", f"将它{fold_zh}与 {values} 比较")
    elif not got.accepted:  # `if v:`: set and not empty is on
        key = "on"
        how = ("only tests whether it is set and not empty", "只判断它是否已设置且非空")
    else:
        key = "off" if got.kind is Kind.OFF else "on"
        how = (f"compares it{fold_en} with {values}", f"将它{fold_zh}与 {values} 比较")
    msg = ctx.message(RULE, key, name=a.name, shown=shown(val), how=how, where=where,
                      value=_spelling(got.accepted))
    fixes = []
    if key == "off" and got.accepted:
        fixes.append(ctx.fix(RULE, "value", [value_edit(a, _spelling(got.accepted), ctx.source)],
                             preferred=True, name=a.name, value=_spelling(got.accepted)))
    end = a.value.end if a.value is not None else a.eq_end
    ctx.emit(RULE, msg, a.name_start, end, fixes=fixes, site=a, launch=launch, dedupe=("misread", a))


def _spelling(accepted: tuple) -> str:
    """The value a fix writes: "1" when the code accepts it, else the first the code compares with."""
    return "1" if "1" in accepted else (accepted[0] if accepted else "")
