"""PG003 micro-batch-size: packed training with a micro-batch size other than 1."""

from __future__ import annotations

from .. import gates as G
from ..flow import ValKind
from ..findings import Edit
from .base import Context, gate_state, one_line, via_words
from .rule import FixText, Rule, Text

RULE = Rule(
    code="PG003",
    name="micro-batch-size",
    severity="error",
    summary_en="Packed training with a micro-batch size other than 1",
    summary_zh="packing 训练的 micro-batch size 不为 1",
    problem_en=(
        "When `cu_lengths` are real (`OFFLINE_PACKED_DATA` on, or `--packing-pretrain-data` "
        "passed), the pretrain step asserts `cu_lengths.shape[0] == 1`: with "
        "`--micro-batch-size` above 1 every step fails the assertion."),
    problem_zh=(
        "当 `cu_lengths` 为真实值（打开 `OFFLINE_PACKED_DATA`，或传了 `--packing-pretrain-data`）时，预训练步骤会断言 "
        "`cu_lengths.shape[0] == 1`：`--micro-batch-size` 大于 1 时每一步都会断言失败。"),
    rationale_en=(
        "The size usually comes from a variable with a positional default (`MBS=\"${4:-1}\"`). "
        "A default of 1 is fine even though the caller could override it; any other default is "
        "reported, and a value the script cannot know is reported as information."),
    rationale_zh=(
        "这个值通常来自带位置参数默认值的变量（`MBS=\"${4:-1}\"`）。默认值为 1 时即使调用方可以覆盖也算正确；"
        "其他默认值会被报告，脚本无法确定的值以 information 级别提示。"),
    exceptions_en="`--packing-sft-data` forces the micro-batch size to 1 by itself.",
    exceptions_zh="`--packing-sft-data` 会自行把 micro-batch size 设为 1。",
    bad=(
        "#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
        "torchrun aiak_training_llm/train.py --micro-batch-size 4\n"),
    good=(
        "#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n"
        "torchrun aiak_training_llm/train.py --micro-batch-size 1\n"),
    messages={
        "value": Text(
            "--micro-batch-size is {value} at {launch} while cu_lengths are real "
            "({why}): the pretrain step asserts a micro-batch size of 1. Set it to 1",
            "{launch}启动时 --micro-batch-size 为 {value}，而 cu_lengths 是真实的（{why}）："
            "预训练步骤要求 micro-batch size 为 1。请设为 1"),
        "default": Text(
            "--micro-batch-size defaults to {value} (unless {via} is given) at {launch} "
            "while cu_lengths are real ({why}): the pretrain step asserts 1. Make the default 1",
            "{launch}启动时 --micro-batch-size 默认为 {value}（除非传入 {via}），而 cu_lengths "
            "是真实的（{why}）：预训练步骤要求为 1。请把默认值改为 1"),
        "unknown": Text(
            "--micro-batch-size comes from {via} at {launch}, which the script cannot "
            "know; with packing on ({why}) it must be 1",
            "{launch}启动时 --micro-batch-size 来自 {via}，脚本无法确定其值；"
            "packing 打开时（{why}）它必须为 1"),
    },
    fixes={"one": FixText(
        "Set the micro-batch size to 1", "把 micro-batch size 设为 1",
        doc_en="Write 1 where the size is written: `--micro-batch-size 4` becomes "
               "`--micro-batch-size 1`, and `MBS=\"${4:-4}\"` becomes `MBS=\"${4:-1}\"`",
        doc_zh="在写出该值的地方改为 1：`--micro-batch-size 4` 改为 `--micro-batch-size 1`，"
               "`MBS=\"${4:-4}\"` 改为 `MBS=\"${4:-1}\"`")},
)


def check(ctx: Context) -> None:
    """--micro-batch-size must resolve to 1 whenever cu_lengths are real."""
    for launch in ctx.flow.launches:
        for path in launch.paths:
            if path.sft or path.mbs is None:
                continue  # --packing-sft-data forces the size to 1 itself
            batch = gate_state(path.gates[ctx.profile.batch], ctx.profile, ctx.profile.batch)
            if batch == G.GateState.ON:
                why = f"{ctx.profile.batch}=1"
            elif path.pretrain:
                why = G.PACKING_PRETRAIN
            else:
                continue
            _judge(ctx, launch, path.mbs, path.mbs_flag, why)


def _judge(ctx: Context, launch, mbs, flag, why: str) -> None:
    anchor = mbs.span or flag or (launch.name_start, launch.name_end)
    if mbs.foreign or launch.label.endswith("(sourced)"):
        anchor = (launch.name_start, launch.name_end)
    if mbs.kind == ValKind.UNKNOWN:
        msg = ctx.message(RULE, "unknown", via=via_words(mbs.via), **_naming(ctx, launch, why))
        ctx.emit(RULE, msg, anchor[0], anchor[1], related=[ctx.launch_related(launch)],
                 severity="information", dedupe=(anchor, "unknown"), launch=launch)
        return
    text = mbs.text.strip()
    try:
        number = int(text)
    except ValueError:
        number = None
    if number == 1:  # most paths: nothing to say, so nothing is worded
        return
    common = _naming(ctx, launch, why)
    related = [ctx.launch_related(launch)]
    fixes = []
    if mbs.lit is not None and not mbs.foreign:
        fixes.append(ctx.fix(RULE, "one", [Edit(mbs.lit[0], mbs.lit[1], "1")], preferred=True))
    if mbs.lit is not None and mbs.lit != anchor and not mbs.foreign:
        related.append(ctx.related(mbs.lit[0], mbs.lit[1], f"the value {one_line(text)} comes from here",
                                   f"值 {one_line(text)} 来自这里"))
    key = "default" if mbs.kind == ValKind.DEFAULT else "value"
    msg = ctx.message(RULE, key, value=one_line(text), via=mbs.via, **common)
    ctx.emit(RULE, msg, anchor[0], anchor[1], fixes=fixes, related=related,
             dedupe=(anchor, mbs.lit), launch=launch)


def _naming(ctx: Context, launch, why: str) -> dict:
    """The message fields every PG003 message has: the launch, its line and why 1 is needed."""
    return dict(launch=ctx.launch_name(launch), line=ctx.line(launch.name_start), why=why)
