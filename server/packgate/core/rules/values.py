"""PG003 micro-batch-size and PG005 invalid-value: values judged the way the trainer judges them."""

from __future__ import annotations

from .. import gates as G
from ..model import Edit
from .base import Context, gate_state, shown, value_edit


def check_pg003(ctx: Context) -> None:
    """--micro-batch-size must resolve to 1 whenever cu_lengths are real."""
    for launch in ctx.flow.launches:
        for path in launch.paths:
            if path.sft or path.mbs is None:
                continue  # --packing-sft-data forces the size to 1 itself
            batch = gate_state(path.gates[ctx.profile.batch], ctx.profile, ctx.profile.batch)
            if batch == "on":
                why = f"{ctx.profile.batch}=1"
            elif path.pretrain:
                why = G.PACKING_PRETRAIN
            else:
                continue
            mbs = path.mbs
            anchor = mbs.span or path.mbs_flag or (launch.name_start, launch.name_end)
            if mbs.foreign or launch.label.endswith("(sourced)"):
                anchor = (launch.name_start, launch.name_end)
            common = dict(launch=ctx.launch_name(launch), line=ctx.line(launch.name_start), why=why)
            related = [ctx.launch_related(launch)]
            if mbs.kind == "unknown":
                via = mbs.via or "?"
                msg = ctx.text("PG003", "messages", "unknown", via=via, **common)
                ctx.emit("PG003", msg, anchor[0], anchor[1], related=related,
                         severity="information", dedupe=(anchor, "unknown"))
                continue
            text = mbs.text.strip()
            try:
                number = int(text)
            except ValueError:
                number = None
            if number == 1:
                continue
            fixes = []
            if mbs.lit is not None and not mbs.foreign:
                fixes.append(ctx.fix("PG003", "one", [Edit(mbs.lit[0], mbs.lit[1], "1")], preferred=True))
            if mbs.lit is not None and mbs.lit != anchor and not mbs.foreign:
                related.append(ctx.related(mbs.lit[0], mbs.lit[1], f"the value {text} comes from here",
                                           f"值 {text} 来自这里"))
            key = "default" if mbs.kind == "default" else "value"
            msg = ctx.text("PG003", "messages", key, value=text, via=mbs.via, **common)
            ctx.emit("PG003", msg, anchor[0], anchor[1], fixes=fixes, related=related,
                     dedupe=(anchor, mbs.lit))


def check_pg005(ctx: Context) -> None:
    """A live gate (or another int-parsed variable) whose value int() rejects."""
    for a, val in ctx.flow.gate_sites:
        if val.kind not in ("known", "default"):
            continue
        name = a.name
        if name in G.GATES:
            if name not in ctx.live:
                continue
            if ctx.profile.parse_of(name) == "str":
                if val.text in ("1", "0", ""):
                    continue
                key = "string"
            elif G.int_gate(val.text) != "invalid":
                continue
            else:
                key = "value"
            reads = [r for r in ctx.profile.reads if r.name == name]
            if reads:
                where = f"{reads[0].path}:{reads[0].line}"
            elif name == G.VQA:
                where = "the LLaVA-OneVision-1.5 encoding gate"
            else:
                where = G.VAR_DOCS[name].read_at
        elif name in ("TE_EXTRA_STATE_MISSING_CHECK", "MEGATRON_LOGGING_LEVEL"):
            if G.int_gate(val.text) != "invalid":
                continue
            where = G.OTHER_VARS[name][0]
            key = "level" if name == "MEGATRON_LOGGING_LEVEL" else "value"
        elif name == "SCATTER_BEFORE_PATCH_EMBED":
            if val.text in ("1", "0", ""):
                continue
            where, key = G.OTHER_VARS[name][0], "string"
        else:
            continue
        msg = ctx.text("PG005", "messages", key, name=name, shown=shown(val), where=where)
        choices = ("20", "30") if key == "level" else ("1", "0")
        fixes = [ctx.fix("PG005", "value", [value_edit(a, v, ctx.source)], safe=False,
                         preferred=(v == choices[0]), name=name, value=v) for v in choices]
        start = a.name_start
        end = a.value.end if a.value is not None else a.eq_end
        ctx.emit("PG005", msg, start, end, fixes=fixes, site=a)
