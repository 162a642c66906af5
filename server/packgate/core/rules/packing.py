"""The gate combination each path gives a launch: what PG001, PG007, the hover and the inlay
hints judge."""

from __future__ import annotations

from .. import gates as G
from ..flow import Label, LabelKind, ValKind
from .base import Context, gate_state, one_line
from .rule import pick

Verdict, _ON, _OFF, _INVALID, _UNKNOWN = (G.Verdict, G.GateState.ON, G.GateState.OFF, G.GateState.INVALID,
                                          G.GateState.UNKNOWN)
WRONG = (Verdict.LEAK, Verdict.CORRUPT)


def path_verdict(ctx: Context, path) -> tuple[G.Verdict, object, object]:
    """(verdict, encoding Seen that decides, batch Seen) for one path to a launch."""
    enc = [path.gates[g] for g in ctx.profile.encoding]
    batch = path.gates[ctx.profile.batch]
    if path.sft or path.pretrain:
        return Verdict.ONLINE, None, batch
    enc_states = [gate_state(s, ctx.profile, n) for s, n in zip(enc, ctx.profile.encoding)]
    b = gate_state(batch, ctx.profile, ctx.profile.batch)
    if _ON in enc_states:
        e, enc_seen = _ON, enc[enc_states.index(_ON)]
    elif _UNKNOWN in enc_states:
        e, enc_seen = _UNKNOWN, enc[enc_states.index(_UNKNOWN)]
    elif _INVALID in enc_states:
        e, enc_seen = _INVALID, enc[enc_states.index(_INVALID)]
    else:
        e, enc_seen = _OFF, enc[-1]
    if e == _UNKNOWN or b == _UNKNOWN:
        return Verdict.UNKNOWN, enc_seen, batch
    if e == _INVALID or b == _INVALID:
        return Verdict.INVALID, enc_seen, batch
    return G.COMBOS[(e == _ON, b == _ON)], enc_seen, batch


def launch_verdicts(ctx: Context, launch) -> list:
    """path_verdict of each path to a launch, judged once per analysis (PG001 and PG007 both
    read them; the context holds the flow and so its launches: an id stays one launch's)."""
    verdicts = ctx.cache.setdefault("verdicts", {})
    found = verdicts.get(id(launch))
    if found is None:
        found = verdicts[id(launch)] = [path_verdict(ctx, p) for p in launch.paths]
    return found


def label_text(ctx: Context, labels: tuple, keep: int = 2) -> str:
    """A path described by its branch decisions (the last `keep` of them; 0: every one)."""
    if not labels:
        return ctx.lang == "zh" and "直接执行" or "straight through"
    parts = []
    for label in labels[-keep:] if keep else labels:
        en, zh = _label_words(label)
        line = ctx.line(label.at)
        parts.append(pick(ctx.lang, f"{en} (line {line})", f"{zh}（第 {line} 行）"))
    return " → ".join(parts)


def _label_words(label: Label) -> tuple[str, str]:
    """One branch decision in English and Chinese."""
    if label.kind == LabelKind.CASE:
        pattern = one_line(label.pattern)
        if not label.subject:
            return (f"case {pattern})",) * 2
        subject = one_line(label.subject.strip('"'))
        if label.pattern == "*":
            return f"`case {subject}` is none of the above", f"`case {subject}` 不匹配以上各项"
        return (f"`case {subject}` = `{pattern}`",) * 2
    if label.kind == LabelKind.TEST:
        en, zh = _TESTED[label.said]
        return tuple(t.format(name=label.name, against=one_line(label.against)) for t in (en, zh))
    return _LABELS[label.kind]


# a path a test decided (Label.said): what the test said of the variable
_TESTED = {
    "empty": ("when `${name}` is empty", "`${name}` 为空时"),
    "nonempty": ("when `${name}` is not empty", "`${name}` 非空时"),
    "eq": ("when `${name}` is `{against}`", "`${name}` 为 `{against}` 时"),
    "ne": ("when `${name}` is not `{against}`", "`${name}` 不为 `{against}` 时"),
}
_LABELS = {
    LabelKind.THEN: ("if taken", "if 成立"),
    LabelKind.ELIF: ("elif taken", "elif 成立"),
    LabelKind.ELSE: ("else", "else 分支"),
    LabelKind.NO_BRANCH: ("no if branch taken", "if 各分支都未进入"),
    LabelKind.CASE_NONE: ("no case matched", "case 未匹配"),
    LabelKind.AND_RAN: ("&& right side ran", "&& 右侧执行"),
    LabelKind.AND_SKIPPED: ("&& right side skipped", "&& 右侧未执行"),
    LabelKind.OR_RAN: ("|| right side ran", "|| 右侧执行"),
    LabelKind.OR_SKIPPED: ("|| right side skipped", "|| 右侧未执行"),
    LabelKind.LOOP_RAN: ("loop body ran", "循环体执行"),
    LabelKind.LOOP_SKIPPED: ("loop body skipped", "循环体未执行"),
}


def combo_text(ctx: Context, path) -> str:
    """BMR=1 PACKED_DATA=0 style summary of one path."""
    names = list(ctx.profile.encoding) + [ctx.profile.batch]
    bits = []
    for n in names:
        v = path.gates[n].val
        text = one_line(v.text) if v.kind in (ValKind.KNOWN, ValKind.DEFAULT) else "unset" if v.kind == ValKind.UNSET else "?"
        bits.append(f"{G.short(n)}={text}")
    return " ".join(bits)
