"""The gate combination each path gives a launch: what PG001, PG007, the hover and the inlay
hints judge."""

from __future__ import annotations

from .. import gates as G
from .base import Context, gate_state, one_line
from .rule import pick

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
            pattern, _, subject = key[5:].partition("\x1f")  # flow.facts.CASE_SUBJECT
            en = zh = f"case {one_line(pattern)})"
            if subject:
                subject = one_line(subject.strip('"'))
                en, zh = (f"`case {subject}` is none of the above", f"`case {subject}` 不匹配以上各项") \
                    if pattern == "*" else (f"`case {subject}` = `{one_line(pattern)}`",) * 2
        elif key.startswith("test:"):
            kind, name, against = key[5:].split(":", 2)
            en, zh = _TESTED.get(kind, (key, key))
            en, zh = (t.format(name=name, against=one_line(against)) for t in (en, zh))
        parts.append(pick(ctx.lang, f"{en} (line {line})", f"{zh}（第 {line} 行）"))
    return " → ".join(parts)


# a path a test decided (flow.facts.test_key): what the test said of the variable
_TESTED = {
    "empty": ("when `${name}` is empty", "`${name}` 为空时"),
    "nonempty": ("when `${name}` is not empty", "`${name}` 非空时"),
    "eq": ("when `${name}` is `{against}`", "`${name}` 为 `{against}` 时"),
    "ne": ("when `${name}` is not `{against}`", "`${name}` 不为 `{against}` 时"),
}
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
        text = one_line(v.text) if v.kind in ("known", "default") else "unset" if v.kind == "unset" else "?"
        bits.append(f"{G.short(n)}={text}")
    return " ".join(bits)
