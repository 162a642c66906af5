"""`# packgate disable=...` and `# packgate profile=...`, scoped the way ShellCheck scopes its own."""

from __future__ import annotations

from .parse.model import DirectiveKind
from .settings import PROFILES  # the profile names, auto included
from .rules import rule_by_key


def profile_of(directives) -> str | None:
    """The profile a `# packgate profile=NAME` comment selects (the first valid one)."""
    for d in directives:
        if d.kind == DirectiveKind.PROFILE and d.values and d.values[0] in PROFILES:
            return d.values[0]
    return None


def _codes(values) -> set:
    out = set()
    for v in values:
        if v.lower() == "all":
            out.add("all")
            continue
        rule = rule_by_key(v)
        if rule is not None:
            out.add(rule.code)
    return out


def suppressed(finding, directives) -> bool:
    """True when a disable directive covers the finding's start, or the launch that causes
    it (the finding's data["launch"], the launch's byte span): a disable on a launch's line,
    or on the line before it, also silences what that launch gets wrong, such as the PG001
    anchored on an export line above it (a deliberate A/B run)."""
    launch = finding.data.get("launch") if finding.data else None
    if launch is not None and not launch[0] < launch[1]:
        launch = None  # the end of a file without a launch: no directive sits on it
    for d in directives:
        if d.kind != DirectiveKind.DISABLE:
            continue
        codes = _codes(d.values)
        if "all" not in codes and finding.code not in codes:
            continue
        if d.file_wide or d.scope_start <= finding.start < d.scope_end:
            return True
        if launch is not None and launch[0] < d.scope_end and d.scope_start < launch[1]:
            return True
    return False


_LOOKALIKE_DIGITS = str.maketrans("oil", "011")


def _close_rule(value: str) -> str:
    """The rule code or name closest to value (PG001 for PG0O1), or empty when none is close."""
    from difflib import get_close_matches
    from .rules import RULES
    keys = {k.lower(): k for r in RULES for k in (r.code, r.name)}
    # a code typed with a letter for a digit (PG0O1, PG0l1) means that digit: with PG011 as
    # near as PG001 by spelling alone, the lookalike decides
    folded = value.lower()[:2] + value.lower()[2:].translate(_LOOKALIKE_DIGITS)
    if folded[:2] == "pg" and folded in keys:
        return keys[folded]
    from .spelling import edit_distance
    close = get_close_matches(value.lower(), list(keys), n=len(keys), cutoff=0.75)
    # among equal scores the fewest edits win
    close.sort(key=lambda k: edit_distance(value.lower(), k))
    return keys[close[0]] if close else ""


def _meant_values(kind: str, values: list) -> list:
    """The values as meant: each unknown rule replaced by the closest one (when one is close)."""
    if kind != "disable":
        return values
    out = []
    for v in values:
        if v.lower() == "all" or rule_by_key(v) is not None:
            out.append(v)
        else:
            out.append(_close_rule(v) or v)
    return out


def directive_problems(directives) -> list[tuple[int, str]]:
    """(offset, message) for each value a directive does not understand: a rule that does not
    exist in a disable, a profile that does not exist, and each comment that looks like a
    directive but is not one (a MALFORMED directive: `# packgate: disable=...`), with what
    was meant. Such a comment or value is ignored, which a typo should not make silent (a
    wrong profile changes every finding)."""
    return [(start, en) for start, _end, en, _zh in problems(directives)]


def problems(directives) -> list[tuple[int, int, str, str]]:
    """(start, end, English, Chinese) of each directive problem."""
    out = []
    for d in directives:
        if d.kind == DirectiveKind.DISABLE:
            for v in d.values:
                if v.lower() != "all" and rule_by_key(v) is None:
                    close = _close_rule(v)
                    en = f"; did you mean {close}?" if close else ""
                    zh = f"；是否想写 {close}？" if close else ""
                    out.append((d.start, d.end, f"unknown rule {v!r} in a packgate directive; it is ignored{en}",
                                f"packgate 指令中的规则 {v!r} 不存在，已被忽略{zh}"))
        elif d.kind == DirectiveKind.PROFILE:
            for v in d.values[:1]:
                if v not in PROFILES:
                    names = ", ".join(PROFILES)
                    out.append((d.start, d.end, f"unknown profile {v!r} in a packgate directive; it is ignored "
                                                f"(profiles: {names})",
                                f"packgate 指令中的 profile {v!r} 不存在，已被忽略（可选：{names}）"))
        elif d.kind == DirectiveKind.MALFORMED:
            text, meant = d.values[0], d.values[1]
            keyword, _, values = meant.partition("=")
            kind = keyword.rsplit(" ", 1)[-1]
            meant = f"{keyword}={','.join(_meant_values(kind, values.split(',')))}"
            shown = text if len(text) <= 60 else text[:57] + "..."
            out.append((d.start, d.end,
                        f"`{shown}` is not a packgate directive, so it does nothing; did you mean `{meant}`?",
                        f"`{shown}` 不是 packgate 指令，不起作用；是否想写 `{meant}`？"))
    return out


def file_directive(directives):
    """The file-wide disable directive, if the file has one (fixes extend it)."""
    for d in directives:
        if d.kind == DirectiveKind.DISABLE and d.file_wide:
            return d
    return None
