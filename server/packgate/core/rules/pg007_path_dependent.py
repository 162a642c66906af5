"""PG007 path-dependent: paths that reach a launch with different gate combinations, one wrong."""

from __future__ import annotations

from ..gates import Verdict
from .base import Context
from .packing import WRONG, combo_text, label_text, launch_verdicts
from .rule import EXAMPLE_LAUNCH, Rule, Text

RULE = Rule(
    code="PG007",
    name="path-dependent",
    severity="warning",
    summary_en="Different paths reach the launch with different gate combinations, one of them wrong",
    summary_zh="不同执行路径到达启动命令时开关组合不同，且其中有错误组合",
    problem_en=(
        "An `if`, `case`, `&&` or `||` sets the gates on some paths only. Whether packing is "
        "correct then depends on arguments or the environment at run time."),
    problem_zh="`if`、`case`、`&&` 或 `||` 只在部分路径上设置了开关。packing 是否正确就取决于运行时的参数或环境。",
    rationale_en="Set both gates together in every branch, or both outside the branch.",
    rationale_zh="请在每个分支里同时设置两个开关，或都放到分支之外。",
    exceptions_en="A stage switch that turns packing fully on or fully off in each branch is fine.",
    exceptions_zh="在每个分支中把 packing 完整打开或完整关闭的阶段开关是正确的。",
    bad=(
        "#!/bin/bash\nif [ \"$STAGE\" = 2 ]; then\n  export OFFLINE_PACKING_BMR=1\n"
        "  export OFFLINE_PACKED_DATA=1\nelse\n  export OFFLINE_PACKING_BMR=1\nfi\n"
        + EXAMPLE_LAUNCH),
    good=(
        "#!/bin/bash\nif [ \"$STAGE\" = 2 ]; then\n  export OFFLINE_PACKING_BMR=1\n"
        "  export OFFLINE_PACKED_DATA=1\nelse\n  export OFFLINE_PACKING_BMR=0\n"
        "  export OFFLINE_PACKED_DATA=0\nfi\n" + EXAMPLE_LAUNCH),
    messages={
        "paths": Text(
            "{launch} sees different packing gates depending on the path: {paths}",
            "{launch}看到的 packing 开关取决于执行路径：{paths}"),
    },
    fixes={},
)


_TAGS = {Verdict.OK: "✓", Verdict.OFF: "—", Verdict.ONLINE: "✓"}  # every other verdict: ✗


def check(ctx: Context) -> None:
    """Paths that disagree about the combination, at least one of them wrong."""
    for launch in ctx.flow.launches:
        verdicts = launch_verdicts(ctx, launch)
        kinds = {v[0] for v in verdicts} - {Verdict.UNKNOWN, Verdict.INVALID}
        if len(kinds) < 2 or not kinds & set(WRONG):
            continue
        described, related = [], [ctx.launch_related(launch)]
        # one path per combination: the first (paths that differ only where no check looks are
        # merged into the first as the walk goes, so the same path is described either way)
        firsts: dict = {}
        for path, verdict in zip(launch.paths, verdicts):
            firsts.setdefault(combo_text(ctx, path), (path, verdict))
        # a decision every described path took the same way (an `|| exit 1` guard, say) tells
        # them apart no better than none: each is named by the decisions the others did not take
        named = [path for path, _ in firsts.values()]
        shared = set(named[0].labels).intersection(*(p.labels for p in named[1:]))
        for combo, (path, (verdict, enc, batch)) in firsts.items():
            tag = _TAGS.get(verdict, "✗")
            own = tuple(label for label in path.labels if label not in shared)
            described.append(f"{label_text(ctx, own or path.labels)}: {combo} {tag}")
            for s in (enc, batch):
                if s is not None and s.origin is not None:
                    related.append(ctx.site_related(s.origin, f"{s.origin.name} set here ({combo})",
                                                    f"{s.origin.name} 在此设置（{combo}）"))
        msg = ctx.message(RULE, "paths", launch=ctx.launch_name(launch),
                          line=ctx.line(launch.name_start), paths="; ".join(described[:4]))
        ctx.emit(RULE, msg, launch.name_start, launch.name_end, related=related[:8], launch=launch)
