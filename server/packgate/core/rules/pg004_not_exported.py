"""PG004 not-exported: a gate assigned but never exported, so the trainer does not see it."""

from __future__ import annotations

from ..fixes import insert_statement_after
from ..findings import Edit
from ..parse import AssignMode
from .base import Context, shown, site_value
from .rule import EXAMPLE_LAUNCH, FixText, Rule, Text

RULE = Rule(
    code="PG004",
    name="not-exported",
    severity="error",
    summary_en="A gate is assigned but never exported, so the trainer does not see it",
    summary_zh="开关被赋值但从未导出，训练进程看不到它",
    problem_en=(
        "`OFFLINE_PACKED_DATA=1` on its own line sets a shell variable. The trainer reads "
        "`os.environ`, which only holds exported variables, so it sees the default 0."),
    problem_zh="单独一行的 `OFFLINE_PACKED_DATA=1` 只设置了 shell 变量。训练进程读取的是 `os.environ`，其中只有导出过的变量，所以它看到的是默认值 0。",
    rationale_en="Use `export`, `declare -x`, a later `export NAME`, or `set -a` before the assignment.",
    rationale_zh="请使用 `export`、`declare -x`、之后再 `export NAME`，或在赋值前 `set -a`。",
    exceptions_en="A prefix assignment (`NAME=1 torchrun ...`) is exported to that command and is fine.",
    exceptions_zh="前缀赋值（`NAME=1 torchrun ...`）会导出给该命令，是正确的。",
    bad="#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nOFFLINE_PACKED_DATA=1\n" + EXAMPLE_LAUNCH,
    good=(
        "#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
        + EXAMPLE_LAUNCH),
    messages={
        "plain": Text(
            "{name}={value} is assigned but never exported before {launch}: the "
            "trainer sees it unset. Add export",
            "{name}={value} 只赋值、在 {launch}之前从未导出：训练进程看到的是未设置。请加上 export"),
    },
    fixes={"export": FixText(
        "Export {name}", "导出 {name}",
        doc_en="Export the gate where it is assigned: `OFFLINE_PACKED_DATA=1` becomes "
               "`export OFFLINE_PACKED_DATA=1`, `declare OFFLINE_PACKED_DATA=1` becomes "
               "`declare -x OFFLINE_PACKED_DATA=1`, and `A=1 OFFLINE_PACKED_DATA=1` gets an "
               "`export OFFLINE_PACKED_DATA` line after it",
        doc_zh="在赋值处导出该开关：`OFFLINE_PACKED_DATA=1` 改为 `export OFFLINE_PACKED_DATA=1`，"
               "`declare OFFLINE_PACKED_DATA=1` 改为 `declare -x OFFLINE_PACKED_DATA=1`，"
               "`A=1 OFFLINE_PACKED_DATA=1` 之后加一行 `export OFFLINE_PACKED_DATA`",
        profile_bound=True)},
)


def check(ctx: Context) -> None:
    """Live gates that are assigned but never exported before the launch."""
    for launch in ctx.flow.launches:
        for path in launch.paths:
            for name in ctx.live:
                a = path.gates[name].unexported
                if a is None:
                    continue
                value = shown(site_value(ctx, a))
                msg = ctx.message(RULE, "plain", name=name, value=value,
                                  launch=ctx.launch_name(launch), line=ctx.line(launch.name_start))
                ctx.emit(RULE, msg, a.name_start, a.name_end, fixes=_export_fixes(ctx, a, name), site=a,
                         related=[ctx.launch_related(launch)], launch=launch)


def _export_fixes(ctx: Context, a, name: str) -> list:
    if a.mode == AssignMode.PLAIN and a.decl_items == 1:
        return [ctx.fix(RULE, "export", [Edit(a.start, a.start, "export ")], preferred=True, name=name)]
    if a.mode == AssignMode.PLAIN:  # `A=1 B=2`: export just this one, after the statement
        edit = insert_statement_after(ctx.source, a.decl_end, f"export {name}", before=a.decl_start)
        return [ctx.fix(RULE, "export", [edit], preferred=True, name=name)]
    if a.mode == AssignMode.DECLARE and a.keyword.split()[0] in ("declare", "typeset"):
        kw = a.keyword.split()[0]
        edit = Edit(a.decl_start, a.decl_start + len(kw), kw + " -x")
        return [ctx.fix(RULE, "export", [edit], preferred=True, name=name)]
    return []
