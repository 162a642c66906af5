"""PG006 lost-export: a gate exported in a child process the launch never sees."""

from __future__ import annotations

from ..findings import Edit
from ..parse import Assign, ExportNames, SubKind
from .base import Context
from .rule import EXAMPLE_LAUNCH, FixText, Rule, Text

RULE = Rule(
    code="PG006",
    name="lost-export",
    severity="error",
    summary_en="A gate is exported where the launch cannot see it",
    summary_zh="开关在启动命令看不到的地方导出",
    problem_en=(
        "An export inside `( ... )`, `$( ... )`, a pipeline stage or a background job (`cmd &`) "
        "changes a child process and vanishes with it. The setup line "
        "`export OFFLINE_PACKED_DATA='1' & export OFFLINE_PACKING_BMR='1'` runs the first export "
        "in the background, so the launch never sees `OFFLINE_PACKED_DATA`."),
    problem_zh=(
        "在 `( ... )`、`$( ... )`、管道的某一段或后台任务（`cmd &`）中的 export 只改变子进程，随子进程一起消失。"
        "`export OFFLINE_PACKED_DATA='1' & export OFFLINE_PACKING_BMR='1'` 这一行会在后台执行第一个 export，"
        "所以启动命令永远看不到 `OFFLINE_PACKED_DATA`。"),
    rationale_en="Run the export as a plain statement of the launching shell (`;` or a new line, not `&`).",
    rationale_zh="请把 export 作为启动 shell 的普通语句执行（用 `;` 或换行，而不是 `&`）。",
    exceptions_en="An export followed by the launch inside the same subshell is fine.",
    exceptions_zh="在同一个子 shell 中先 export 再启动是正确的。",
    bad=(
        "#!/bin/bash\nexport OFFLINE_PACKED_DATA='1' & export OFFLINE_PACKING_BMR='1'\n"
        + EXAMPLE_LAUNCH),
    good=(
        "#!/bin/bash\nexport OFFLINE_PACKED_DATA='1'\nexport OFFLINE_PACKING_BMR='1'\n"
        + EXAMPLE_LAUNCH),
    messages={
        "background": Text(
            "export {name} runs in a background job (the '&'), so it never reaches {launch}; "
            "use ';' or a new line",
            "export {name} 在后台任务中执行（因为 '&'），永远到不了 {launch}；请改用 ';' 或换行"),
        "subshell": Text(
            "export {name} happens inside a subshell and is gone before {launch}; export it in the "
            "launching shell",
            "export {name} 发生在子 shell 中，到 {launch} 时已经不存在；请在启动 shell 中导出"),
        "pipeline": Text(
            "export {name} runs in a pipeline stage (its own subshell) and is gone before {launch}",
            "export {name} 在管道的一段（独立的子 shell）中执行，到 {launch} 时已经不存在"),
        "cmdsubst": Text(
            "export {name} runs inside a command substitution and is gone before {launch}",
            "export {name} 在命令替换中执行，到 {launch} 时已经不存在"),
        "child": Text(
            "export {name} runs in a child shell (bash -c / a container) with no launch after it",
            "export {name} 在子 shell（bash -c / 容器）中执行，之后没有启动命令"),
    },
    fixes={
        "split": FixText(
            "Run the export in the launching shell", "在启动 shell 中执行该 export",
            doc_en="Run the export in the launching shell: the `&` after it becomes a new line, "
                   "or the `( ... )` around a group of plain exports is removed",
            doc_zh="让 export 在启动 shell 中执行：把其后的 `&` 换成换行，或去掉只包含 export 的 `( ... )`",
            profile_bound=True),
    },
)


def check(ctx: Context) -> None:
    """Gate exports made in a child process that the launch never sees."""
    for a, sub in ctx.flow.lost:
        # the launch the export misses: the first one after it
        at = ctx.flow.sourced_at.get(a, (a.start, a.end))[0] if a.file else a.start
        later = [l for l in ctx.flow.launches if l.start > at]
        launch = later[0] if later else (ctx.flow.launches[0] if ctx.flow.launches else None)
        if a.name not in ctx.live and a.name not in ctx.profile.dead:
            continue
        if a.name in ctx.profile.dead:
            continue  # PG002 already says it does nothing
        name = ctx.launch_name(launch) if launch is not None else ("the launch", "启动命令")
        msg = ctx.message(RULE, sub.kind, name=a.name, launch=name)
        fixes = []
        edits = _split(ctx, sub)
        if edits:
            fixes.append(ctx.fix(RULE, "split", edits, preferred=True))
        related = [ctx.launch_related(launch)] if launch is not None else []
        ctx.emit(RULE, msg, a.name_start, a.name_end, fixes=fixes, related=related, site=a)


def _split(ctx: Context, sub) -> list:
    data = ctx.source.data
    if sub.kind == SubKind.BACKGROUND and sub.amp_end:
        stop = sub.amp_end
        while stop < len(data) and data[stop] in b" \t":
            stop += 1
        begin = sub.amp_start
        while begin > 0 and data[begin - 1] in b" \t":
            begin -= 1
        line_end = ctx.source.line_end(ctx.source.line_of(stop))
        rest = data[stop:line_end].strip()
        if not rest or rest.startswith(b"#"):
            return [Edit(begin, sub.amp_end, "")]
        return [Edit(begin, stop, ctx.source.eol + ctx.source.indentation(sub.start))]
    if sub.kind == SubKind.SUBSHELL and sub.body is not None and sub.body.body:
        inner = sub.body.body
        if all(isinstance(s, (Assign, ExportNames)) for s in inner):
            first = min(s.start if not isinstance(s, Assign) else s.decl_start for s in inner)
            last = max(s.end if not isinstance(s, Assign) else s.decl_end for s in inner)
            return [Edit(sub.start, first, ""), Edit(last, sub.end, "")]
    return []
