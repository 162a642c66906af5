"""PG008 overridden: a gate assignment overwritten before any launch reads it."""

from __future__ import annotations

from ..findings import Applicability, Related
from ..parse import Assign, AssignMode
from .base import Context, removal, shown, site_value
from .rule import EXAMPLE_LAUNCH, FixText, Rule, Text, pick

RULE = Rule(
    code="PG008",
    name="overridden",
    severity="information",
    summary_en="A gate assignment is overwritten before any launch reads it",
    summary_zh="开关的赋值在被任何启动命令读取之前就被覆盖",
    problem_en=(
        "The last assignment before the launch wins; an earlier one that nothing reads is "
        "misleading, especially when the two disagree."),
    problem_zh="启动之前最后一次赋值才生效；更早的、没有被任何命令读到的赋值会误导读者，尤其是两者不一致时。",
    rationale_en="Keep one assignment per gate, next to its companion.",
    rationale_zh="每个开关只保留一次赋值，并与另一个开关放在一起。",
    exceptions_en="Exporting the same value twice in a row is harmless; it is reported as information only.",
    exceptions_zh="连续两次导出相同的值没有危害；只作为 information 提示。",
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
    },
    fixes={"remove": FixText(
        "Remove the overwritten assignment", "删除被覆盖的赋值",
        doc_en="Remove the earlier assignment that nothing reads (`export OFFLINE_PACKING_BMR=0` "
               "above `export OFFLINE_PACKING_BMR=1`)",
        doc_zh="删除没有被读取的较早赋值（`export OFFLINE_PACKING_BMR=1` 之前的 "
               "`export OFFLINE_PACKING_BMR=0`）",
        applicability=Applicability.DISPLAY_ONLY, profile_bound=True)},
)


def check(ctx: Context) -> None:
    """A gate assignment that nothing reads before it is replaced."""
    for a, by in ctx.flow.overwritten:
        if a.mode in (AssignMode.PREFIX, AssignMode.ENV, AssignMode.DOCKER) or a.name not in ctx.live:
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
