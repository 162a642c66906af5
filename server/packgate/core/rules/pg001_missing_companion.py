"""PG001 missing-companion: exactly one of the two packing gates is on at a launch."""

from __future__ import annotations

from .. import gates as G
from ..fixes import insert_statement_after, quote_like
from ..flow import NAMED, UNREAD, Origin, ValKind
from ..findings import Applicability, Edit
from ..parse import AssignMode
from .base import Context, shown, value_edit, via_words
from .packing import WRONG, launch_verdicts
from .rule import EXAMPLE_LAUNCH, FixText, Rule, Text

RULE = Rule(
    code="PG001",
    name="missing-companion",
    severity="error",
    summary_en="Only one of the two packing gates is on at a launch",
    summary_zh="启动时两个 packing 开关只打开了一个",
    problem_en=(
        "Packing needs two switches that live in different layers of the training code. "
        "The encoding gate (`OFFLINE_PACKING_BMR` on OV2) makes the data layer encode each "
        "packed sub-sample and build real `cu_lengths`; the batch gate (`OFFLINE_PACKED_DATA`) "
        "makes `batch()` forward those `cu_lengths` to the model. With the encoding gate alone "
        "the model receives the dummy `[[0]]` and every sub-sample attends to the ones packed "
        "before it. With the batch gate alone the forwarded `cu_lengths` do not match the tokens "
        "(on current main every packed sample raises and is skipped). Neither failure stops "
        "training."),
    problem_zh=(
        "packing 需要两个位于训练代码不同层的开关。编码开关（OV2 上是 `OFFLINE_PACKING_BMR`）让数据层对每个"
        "子样本正确编码并构造真实的 `cu_lengths`；batch 开关（`OFFLINE_PACKED_DATA`）让 `batch()` 把这些 "
        "`cu_lengths` 传给模型。只开编码开关时模型拿到占位的 `[[0]]`，每个子样本都会看到排在它前面的子样本；"
        "只开 batch 开关时传过去的 `cu_lengths` 与 token 对不上（当前 main 上每个 packed 样本都会报错并被跳过）。"
        "两种情况训练都不会停下来。"),
    rationale_en=(
        "The combination is what matters, and it is decided by what the launch command inherits. "
        "packgate checks it at every launch (or at the end of a file that only sets variables), "
        "on every path through the script, and points at the gate that is on. Where one gate is "
        "made at run time (a command's output, `read`, a container's `--env-file`) the script "
        "cannot know the pair, and packgate says so as information; a default over such a value "
        "(`X=$(cat f)`, then `${X:-0}`) is a maybe too, unlike a default over the caller's variable."),
    rationale_zh=(
        "关键在于组合，而组合取决于启动命令继承到的环境。packgate 在每个启动命令处（没有启动命令的文件则在文件末尾）、"
        "沿脚本的每条执行路径检查它，并指向已打开的那个开关。若某个开关的值在运行时才产生（命令的输出、`read`、"
        "容器的 `--env-file`），脚本无法确定这对开关的组合，packgate 以 information 级别提示；在这种值上的默认值"
        "（`X=$(cat f)` 之后的 `${X:-0}`）同样只是可能的取值，与调用方变量上的默认值不同。"),
    exceptions_en=(
        "With `--packing-sft-data` the batch layer forwards `cu_lengths` by itself, so the "
        "encoding gate alone is fine. A deliberate A/B control run (encoding gate only, to measure "
        "leakage) is silenced with `# packgate disable=missing-companion` before the export. "
        "When the companion was set but lost (not exported, exported in a background job or "
        "subshell), PG004 or PG006 reports the cause instead."),
    exceptions_zh=(
        "使用 `--packing-sft-data` 时 batch 层自己会传递 `cu_lengths`，此时只开编码开关是正确的。"
        "有意为之的 A/B 对照实验（只开编码开关以测量泄漏）请在 export 之前写 "
        "`# packgate disable=missing-companion` 来静默。若另一个开关设置了但丢失了（未导出、在后台任务或子 shell "
        "中导出），则由 PG004 或 PG006 报告根因。"),
    bad="#!/bin/bash\nexport OFFLINE_PACKING_BMR='1'\n" + EXAMPLE_LAUNCH,
    good=(
        "#!/bin/bash\nexport OFFLINE_PACKING_BMR='1'\nexport OFFLINE_PACKED_DATA='1'\n"
        + EXAMPLE_LAUNCH),
    messages={
        "leak": Text(
            "{on} is {on_value} but {off} is {off_state} at {launch}: real "
            "cu_lengths are built and then dropped, so packed sub-samples attend to each other. "
            "Export {off}='1' as well, or turn {on} off",
            "{launch}启动时 {on} 为 {on_value}，但 {off} {off_state}：构造好的 cu_lengths "
            "被丢弃，packed 子样本之间会互相看到（跨样本注意力泄漏）。请同时导出 {off}='1'，或关闭 {on}"),
        "corrupt": Text(
            "{on} is {on_value} but {off} is {off_state} at {launch}: the forwarded "
            "cu_lengths do not match how the sub-samples were encoded. Export {off}='1' as well, "
            "or turn {on} off",
            "{launch}启动时 {on} 为 {on_value}，但 {off} {off_state}：传给模型的 cu_lengths "
            "与子样本的编码方式不一致。请同时导出 {off}='1'，或关闭 {on}"),
        # the launch runs in a container and the missing gate does not reach it: only -e does
        "leak-container": Text(
            "{on} is {on_value} inside the container of {launch}, but {off} {off_state}: real "
            "cu_lengths are built and then dropped, so packed sub-samples attend to each other. "
            "Add -e {spec} to docker run, or turn {on} off",
            "{launch}的容器内 {on} 为 {on_value}，但 {off} {off_state}：构造好的 cu_lengths "
            "被丢弃，packed 子样本之间会互相看到（跨样本注意力泄漏）。请在 docker run 中加上 -e {spec}，或关闭 {on}"),
        "corrupt-container": Text(
            "{on} is {on_value} inside the container of {launch}, but {off} {off_state}: the "
            "forwarded cu_lengths do not match how the sub-samples were encoded. Add -e {spec} to "
            "docker run, or turn {on} off",
            "{launch}的容器内 {on} 为 {on_value}，但 {off} {off_state}：传给模型的 cu_lengths "
            "与子样本的编码方式不一致。请在 docker run 中加上 -e {spec}，或关闭 {on}"),
        # one gate is decided by the script, the other is made at run time
        "unknown": Text(
            "{known} is {known_state} at {launch} but {unknown} comes from {via}, which the "
            "script cannot know: the two gates must be both 1 or both off",
            "{launch}启动时 {known} {known_state}，但 {unknown} 来自 {via}，脚本无法确定其值："
            "两个开关必须同为 1 或同时关闭"),
    },
    fixes={
        "insert": FixText(
            "Export {off}={value} after {on}", "在 {on} 之后导出 {off}={value}",
            doc_en="Export the missing gate right after the one that is on, with the same quotes: "
                   "`export OFFLINE_PACKED_DATA='1'` after `export OFFLINE_PACKING_BMR='1'`",
            doc_zh="在已打开的开关之后立即导出缺少的那个，引号保持一致：在 `export OFFLINE_PACKING_BMR='1'` "
                   "之后加上 `export OFFLINE_PACKED_DATA='1'`",
            profile_bound=True),
        "set": FixText(
            "Set {off} to {value}", "把 {off} 设为 {value}",
            doc_en="Where the script sets the missing gate to something else, set it to 1: "
                   "`OFFLINE_PACKED_DATA=0` becomes `OFFLINE_PACKED_DATA=1`",
            doc_zh="脚本把缺少的开关设成了别的值时，把它改为 1：`OFFLINE_PACKED_DATA=0` 改为 `OFFLINE_PACKED_DATA=1`",
            profile_bound=True),
        "pass": FixText(
            "Add -e {spec} to docker run", "在 docker run 中加上 -e {spec}",
            doc_en="When the launch runs in a container, pass the missing gate on `docker run`: "
                   "`-e OFFLINE_PACKED_DATA` when the host exports it as 1, `-e OFFLINE_PACKED_DATA=1` "
                   "otherwise (a bare `-e` passes whatever the host has)",
            doc_zh="启动命令在容器中运行时，在 `docker run` 上传入缺少的开关：宿主机已导出为 1 时加 "
                   "`-e OFFLINE_PACKED_DATA`，否则加 `-e OFFLINE_PACKED_DATA=1`（只写 `-e` 传入的是宿主机上的值）",
            profile_bound=True),
        "turn-off": FixText(
            "Turn {on} off instead", "改为关闭 {on}",
            doc_en="Turn the gate that is on off instead (`OFFLINE_PACKING_BMR=0`), so the launch "
                   "trains without packing",
            doc_zh="改为关闭已打开的开关（`OFFLINE_PACKING_BMR=0`），让这次启动不使用 packing",
            applicability=Applicability.DISPLAY_ONLY, profile_bound=True),
    },
)


def check(ctx: Context) -> None:
    """Exactly one gate of the pair on, the same on every path."""
    for launch in ctx.flow.launches:
        verdicts = launch_verdicts(ctx, launch)
        kinds = {v[0] for v in verdicts}
        if G.Verdict.UNKNOWN in kinds:
            _report_unknown(ctx, launch, verdicts)
        if not kinds or not kinds <= set(WRONG) or len(kinds) != 1:
            continue
        for path, (verdict, enc, batch) in zip(launch.paths, verdicts):
            if verdict == G.Verdict.LEAK:
                on, off = enc, batch
                on_name = _origin_name(enc) or ctx.profile.encoding[-1]
                off_name = ctx.profile.batch
            else:
                on, off = batch, enc
                on_name = ctx.profile.batch
                off_name = ctx.profile.encoding[-1]
            if _explained(off, ctx):
                continue
            _report(ctx, launch, verdict, on, off, on_name, off_name, path)


def _report_unknown(ctx: Context, launch, verdicts) -> None:
    """Information where one gate is known and the other is made at run time (a command's
    output, `read`, a file the container reads): the script cannot know the pair."""
    encoding = ctx.profile.encoding[-1]
    for verdict, enc, batch in verdicts:
        if verdict != G.Verdict.UNKNOWN or enc is None:
            continue
        enc_unknown = enc.val.kind == ValKind.UNKNOWN
        if enc_unknown == (batch.val.kind == ValKind.UNKNOWN):
            continue  # both unknown: they may well agree, and nothing is known to compare
        made = (enc if enc_unknown else batch).val
        if made.origin != Origin.UNKNOWN:
            continue  # the caller's variable or argument: the caller's choice, as a caller's default is
        if made == UNREAD or made == NAMED and ctx.flow.unfollowed:
            continue  # after an input packgate could not read (a source, a name): PG009 says so there
        if enc_unknown:
            unknown, unknown_name, known, known_name = enc, _origin_name(enc) or encoding, batch, ctx.profile.batch
        else:
            unknown, unknown_name, known, known_name = batch, ctx.profile.batch, enc, _origin_name(enc) or encoding
        msg = ctx.message(RULE, "unknown", known=known_name, known_state=_state(known.val),
                          unknown=unknown_name, via=via_words(unknown.val.via),
                          launch=ctx.launch_name(launch))
        site = unknown.origin if unknown.origin is not None else known.origin
        if site is not None and site.file is None:
            start, end = site.name_start, site.name_end
        else:
            start, end = launch.name_start, launch.name_end
        related = [ctx.launch_related(launch)]
        if known.origin is not None and known.origin is not site and known.origin.file is None:
            related.append(ctx.site_related(known.origin, f"{known_name} is set to {known.val.text!r} here",
                                            f"{known_name} 在这里被设为 {known.val.text!r}"))
        ctx.emit(RULE, msg, start, end, related=related, severity="information",
                 dedupe=(start, end, "unknown"), launch=launch)


def _origin_name(seen) -> str:
    return seen.origin.name if seen is not None and seen.origin is not None else ""


def _explained(off, ctx: Context) -> bool:
    """The off gate was set to on but lost: PG004 / PG006 report the cause instead."""
    if off.unexported is not None and off.unexported.name in ctx.live:
        return True
    if off.lost is not None and off.lost[0].name in ctx.live:
        return True
    if off.dropped is not None and off.dropped.certain and off.dropped.assign is not None:
        return True  # a wrapper's rules keep it from the launch: PG006 says which
    return False


def _message(ctx: Context, launch, verdict, on, off, on_name, off_name, path) -> str:
    on_value = repr(on.val.text) if on.val.kind in (ValKind.KNOWN, ValKind.DEFAULT) else shown(on.val)
    fields = dict(on=on_name, off=off_name, on_value=on_value, launch=ctx.launch_name(launch),
                  line=ctx.line(launch.name_start))
    if path is not None and path.docker_at >= 0 and off.val.kind == ValKind.UNSET:
        # in a container the host's exports do not count: the cause is the missing -e
        if off_name in path.host_exported:
            state = ("is only exported on the host, and docker run does not pass it (no -e)",
                     "只在宿主机上导出，docker run 没有把它传进容器（没有 -e）")
            spec = off_name if _host_turns_on(ctx, off_name, path) else f"{off_name}='1'"
        else:
            state = ("is not set there", "在容器内未设置")
            spec = f"{off_name}='1'"
        return ctx.message(RULE, f"{verdict}-container", off_state=state, spec=spec, **fields)
    return ctx.message(RULE, verdict, off_state=_state(off.val), **fields)


def _state(val) -> tuple:
    """What a message says of a gate's value the script knows (or knows is not set), in both languages."""
    if val.kind in (ValKind.KNOWN, ValKind.DEFAULT):
        return f"{val.text!r}", f"为 {val.text!r}"
    return "not set", "未设置"


def _report(ctx: Context, launch, verdict, on, off, on_name, off_name, path=None) -> None:
    a = on.origin
    msg = _message(ctx, launch, verdict, on, off, on_name, off_name, path)
    related = [ctx.launch_related(launch)]
    host = _host_export(ctx, off_name, path) if off.val.kind == ValKind.UNSET else None
    if host is not None:
        related.append(ctx.site_related(
            host, f"{off_name} is exported here, on the host: the container does not inherit it",
            f"{off_name} 在这里导出，但只在宿主机上：容器不会继承它"))
    if off.origin is not None:
        related.append(ctx.site_related(off.origin, f"{off_name} is set to {off.val.text!r} here",
                                        f"{off_name} 在这里被设为 {off.val.text!r}"))
    fixes = []
    if a is not None and a.file is not None:
        # the gate is on in a sourced file: add the companion right after the `source` line
        via = ctx.flow.sourced_at.get(a)
        quote = a.value.quote if a.value is not None else ""
        if via is not None:
            edit = insert_statement_after(ctx.source, via[1], f"export {off_name}={quote_like(quote, '1')}",
                                          before=via[0])
            fixes.append(ctx.fix(RULE, "insert", [edit], preferred=True, off=off_name, on=on_name,
                                 value=quote_like(quote, "1")))
        ctx.emit(RULE, msg, a.name_start, a.name_end, fixes=fixes, related=related, site=a,
                 keep_fixes=True, dedupe=(a, verdict), data={"launch": [launch.start, launch.end]})
        return
    if a is not None:
        quote = a.value.quote if a.value is not None else ""
        if off.origin is not None and off.origin.file is None and off.origin.mode != AssignMode.PARAM_DEFAULT:
            if off.val.kind == ValKind.DEFAULT and off.val.lit is not None and not off.val.foreign:
                edit = Edit(off.val.lit[0], off.val.lit[1], "1")  # keep the caller's override
            else:
                edit = value_edit(off.origin, "1", ctx.source)
            fixes.append(ctx.fix(RULE, "set", [edit], preferred=True, off=off_name,
                                 value=quote_like(quote, "1")))
        else:
            fixes.append(_companion_fix(ctx, a, on_name, off_name, quote, off, path))
        fixes.append(ctx.fix(RULE, "turn-off", [value_edit(a, "0", ctx.source)], on=on_name))
        start, end = a.name_start, a.name_end
    else:
        start, end = launch.name_start, launch.name_end
    ctx.emit(RULE, msg, start, end, fixes=fixes, related=related,
             dedupe=(start, end, verdict), data={"launch": [launch.start, launch.end]})


def _host_export(ctx: Context, name: str, path):
    """The last export of name on the host before the `docker run` the launch runs in."""
    if path is None or path.docker_at < 0 or name not in path.host_exported:
        return None
    found = None
    for a, _val in ctx.flow.gate_sites:
        if a.name == name and a.exported and a.file is None and a.mode not in (AssignMode.PREFIX, AssignMode.ENV, AssignMode.DOCKER) \
                and a.start < path.docker_at:
            found = a
    return found


def _host_turns_on(ctx: Context, name: str, path) -> bool:
    """True when `-e NAME` alone turns the gate on in the container: the host's last export of
    it before `docker run` gives it a value that turns it on (else `-e NAME=1` is needed)."""
    a = _host_export(ctx, name, path)
    if a is None:
        return False
    values = [val for site, val in ctx.flow.gate_sites if site is a]
    return bool(values) and all(val.kind in (ValKind.KNOWN, ValKind.DEFAULT)
                                and ctx.profile.judge(name, val.text) == G.GateState.ON for val in values)


def _companion_fix(ctx: Context, a, on_name: str, off_name: str, quote: str, off=None, path=None):
    """The fix that sets the missing gate where the launch will see it."""
    value = quote_like(quote, "1")
    if path is not None and path.docker_at >= 0:
        # the launch runs in a container: it needs the variable on `docker run`
        spec = off_name if _host_turns_on(ctx, off_name, path) else f"{off_name}={value}"
        return ctx.fix(RULE, "pass", [Edit(path.docker_at, path.docker_at, f" -e {spec}")],
                       preferred=True, spec=spec)
    if off is not None and off.removed is not None and off.removed[1] > a.decl_end:
        # an unset / export -n removes it after the gate: add the export after that
        edit = insert_statement_after(ctx.source, off.removed[1], f"export {off_name}={value}",
                                      before=off.removed[0])
    elif a.mode in (AssignMode.PREFIX, AssignMode.ENV):
        edit = Edit(a.end, a.end, f" {off_name}={value}")
    elif a.mode == AssignMode.DOCKER:
        spec = f"{off_name}={value}"
        return ctx.fix(RULE, "pass", [Edit(a.end, a.end, f" -e {spec}")], preferred=True, spec=spec)
    else:
        keyword = a.keyword if a.keyword and a.exported and \
            a.keyword.split()[0] in ("export", "declare", "typeset") else "export"
        edit = insert_statement_after(ctx.source, a.decl_end, f"{keyword} {off_name}={value}",
                                      before=a.decl_start)
    return ctx.fix(RULE, "insert", [edit], preferred=True, off=off_name, on=on_name, value=value)
