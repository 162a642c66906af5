"""PG001 missing-companion and PG007 path-dependent: the gate combination at each launch."""

from __future__ import annotations

from .. import gates as G
from ..fixes import insert_statement_after, quote_like
from ..model import Edit
from .base import Context, gate_state, shown, value_edit

WRONG = ("leak", "corrupt")


def path_verdict(ctx: Context, path) -> tuple[str, object, object]:
    """(verdict, encoding Seen that decides, batch Seen) for one path to a launch."""
    enc = [path.gates[g] for g in ctx.profile.encoding]
    batch = path.gates[ctx.profile.batch]
    if path.sft or path.pretrain:
        return "online", None, batch
    enc_states = [gate_state(s, ctx.profile, n) for s, n in zip(enc, ctx.profile.encoding)]
    b = gate_state(batch, ctx.profile, ctx.profile.batch)
    if "on" in enc_states:
        e, enc_seen = "on", enc[enc_states.index("on")]
    elif "unknown" in enc_states:
        e, enc_seen = "unknown", enc[enc_states.index("unknown")]
    elif "invalid" in enc_states:
        e, enc_seen = "invalid", enc[enc_states.index("invalid")]
    else:
        e, enc_seen = "off", enc[-1]
    if "unknown" in (e, b):
        return "unknown", enc_seen, batch
    if "invalid" in (e, b):
        return "invalid", enc_seen, batch
    return G.COMBOS[(e == "on", b == "on")], enc_seen, batch


def label_text(ctx: Context, labels: tuple) -> str:
    """A path described by its branch decisions."""
    if not labels:
        return ctx.lang == "zh" and "直接执行" or "straight through"
    parts = []
    for offset, key in labels[-2:]:
        line = ctx.line(offset)
        en, zh = _LABELS.get(key.split(":")[0], (key, key))
        if key.startswith("case:"):
            en, zh = f"case {key[5:]})", f"case {key[5:]})"
        parts.append(_pick(ctx.lang, f"{en} (line {line})", f"{zh}（第 {line} 行）"))
    return " → ".join(parts)


def _pick(lang: str, en: str, zh: str) -> str:
    return zh if lang == "zh" else en if lang == "en" else f"{en} / {zh}"


_LABELS = {
    "then": ("if taken", "if 成立"),
    "elif": ("elif taken", "elif 成立"),
    "else": ("else", "else 分支"),
    "no-branch": ("no if branch taken", "if 各分支都未进入"),
    "case-none": ("no case matched", "case 未匹配"),
    "&&-ran": ("&& right side ran", "&& 右侧执行"),
    "&&-skipped": ("&& right side skipped", "&& 右侧未执行"),
    "||-ran": ("|| right side ran", "|| 右侧执行"),
    "||-skipped": ("|| right side skipped", "|| 右侧未执行"),
    "loop-ran": ("loop body ran", "循环体执行"),
    "loop-skipped": ("loop body skipped", "循环体未执行"),
}


def combo_text(ctx: Context, path) -> str:
    """BMR=1 PACKED_DATA=0 style summary of one path."""
    names = list(ctx.profile.encoding) + [ctx.profile.batch]
    bits = []
    for n in names:
        v = path.gates[n].val
        bits.append(f"{G.short(n)}={v.text if v.kind in ('known', 'default') else ('unset' if v.kind == 'unset' else '?')}")
    return " ".join(bits)


def check_pg001(ctx: Context) -> None:
    """Exactly one gate of the pair on, the same on every path."""
    for launch in ctx.flow.launches:
        verdicts = [path_verdict(ctx, p) for p in launch.paths]
        kinds = {v[0] for v in verdicts}
        if not kinds or not kinds <= set(WRONG) or len(kinds) != 1:
            continue
        for path, (verdict, enc, batch) in zip(launch.paths, verdicts):
            if verdict == "leak":
                on, off = enc, batch
                on_name = _origin_name(enc) or ctx.profile.encoding[-1]
                off_name = ctx.profile.batch
            else:
                on, off = batch, enc
                on_name = ctx.profile.batch
                off_name = ctx.profile.encoding[-1]
                # name the encoding gate the script itself tried to set, if any
            if _explained(off, ctx):
                continue
            _report_pg001(ctx, launch, verdict, on, off, on_name, off_name, path)


def _origin_name(seen) -> str:
    return seen.origin.name if seen is not None and seen.origin is not None else ""


def _explained(off, ctx: Context) -> bool:
    """The off gate was set to on but lost: PG004 / PG006 report the cause instead."""
    if off.unexported is not None and off.unexported.name in ctx.live:
        return True
    if off.lost is not None and off.lost[0].name in ctx.live:
        return True
    return False


def _report_pg001(ctx: Context, launch, verdict, on, off, on_name, off_name, path=None) -> None:
    a = on.origin
    line = ctx.line(launch.name_start)
    if off.val.kind in ("known", "default"):
        off_state = (f"{off.val.text!r}", f"为 {off.val.text!r}")
    else:
        off_state = ("not set", "未设置")
    on_value = repr(on.val.text) if on.val.kind in ("known", "default") else shown(on.val)
    msg = ctx.text("PG001", "messages", verdict, on=on_name, off=off_name, on_value=on_value,
                   off_state=off_state, launch=ctx.launch_name(launch), line=line)
    related = [ctx.launch_related(launch)]
    if off.origin is not None:
        related.append(ctx.site_related(off.origin, f"{off_name} is set to {off.val.text!r} here",
                                        f"{off_name} 在这里被设为 {off.val.text!r}"))
    fixes = []
    if a is not None and a.file is not None:
        # the gate is on in a sourced file: add the companion right after the `source` line
        via = ctx.flow.site_via.get(id(a))
        quote = a.value.quote if a.value is not None else ""
        if via is not None:
            edit = insert_statement_after(ctx.source, via[1], f"export {off_name}={quote_like(quote, '1')}",
                                          before=via[0])
            fixes.append(ctx.fix("PG001", "insert", [edit], preferred=True, off=off_name, on=on_name,
                                 value=quote_like(quote, "1")))
        ctx.emit("PG001", msg, a.name_start, a.name_end, fixes=fixes, related=related, site=a,
                 keep_fixes=True, dedupe=(id(a), verdict), data={"launch": [launch.start, launch.end]})
        return
    if a is not None:
        quote = a.value.quote if a.value is not None else ""
        if off.origin is not None and off.origin.file is None and off.origin.mode != "param-default":
            if off.val.kind == "default" and off.val.lit is not None and not off.val.foreign:
                edit = Edit(off.val.lit[0], off.val.lit[1], "1")  # keep the caller's override
            else:
                edit = value_edit(off.origin, "1", ctx.source)
            fixes.append(ctx.fix("PG001", "set", [edit],
                                 preferred=True, off=off_name, value=quote_like(quote, "1")))
        else:
            fixes.append(ctx.fix("PG001", "insert", [_companion_edit(ctx, a, off_name, quote, off, path)],
                                 preferred=True, off=off_name, on=on_name,
                                 value=quote_like(quote, "1")))
        fixes.append(ctx.fix("PG001", "turn-off", [value_edit(a, "0", ctx.source)], safe=False,
                             on=on_name))
        start, end = a.name_start, a.name_end
    else:
        start, end = launch.name_start, launch.name_end
    ctx.emit("PG001", msg, start, end, fixes=fixes, related=related,
             dedupe=(start, end, verdict), data={"launch": [launch.start, launch.end]})


def _companion_edit(ctx: Context, a, off_name: str, quote: str, off=None, path=None) -> Edit:
    value = quote_like(quote, "1")
    if path is not None and path.docker_at >= 0:
        # the launch runs in a container: it needs the variable on `docker run`
        spec = off_name if off_name in path.host_exported else f"{off_name}={value}"
        return Edit(path.docker_at, path.docker_at, f" -e {spec}")
    if off is not None and off.removed is not None and off.removed[1] > a.decl_end:
        # an unset / export -n removes it after the gate: add the export after that
        return insert_statement_after(ctx.source, off.removed[1], f"export {off_name}={value}",
                                      before=off.removed[0])
    if a.mode == "prefix":
        return Edit(a.end, a.end, f" {off_name}={value}")
    if a.mode == "env":
        return Edit(a.end, a.end, f" {off_name}={value}")
    if a.mode == "docker":
        return Edit(a.end, a.end, f" -e {off_name}={value}")
    keyword = a.keyword if a.keyword and a.exported and a.keyword.split()[0] in ("export", "declare", "typeset") \
        else "export"
    return insert_statement_after(ctx.source, a.decl_end, f"{keyword} {off_name}={value}",
                                  before=a.decl_start)


def check_pg007(ctx: Context) -> None:
    """Paths that disagree about the combination, at least one of them wrong."""
    for launch in ctx.flow.launches:
        verdicts = [path_verdict(ctx, p) for p in launch.paths]
        kinds = {v[0] for v in verdicts} - {"unknown", "invalid"}
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
            tag = {"ok": "✓", "off": "—", "online": "✓"}.get(verdict, "✗")
            own = tuple(label for label in path.labels if label not in shared)
            described.append(f"{label_text(ctx, own or path.labels)}: {combo} {tag}")
            for s in (enc, batch):
                if s is not None and s.origin is not None:
                    related.append(ctx.site_related(s.origin, f"{s.origin.name} set here ({combo})",
                                                    f"{s.origin.name} 在此设置（{combo}）"))
        msg = ctx.text("PG007", "messages", "paths", launch=ctx.launch_name(launch),
                       line=ctx.line(launch.name_start), paths="; ".join(described[:4]))
        ctx.emit("PG007", msg, launch.name_start, launch.name_end, related=related[:8])
