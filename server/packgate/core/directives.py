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
    """True when a disable directive covers the finding's start."""
    for d in directives:
        if d.kind != DirectiveKind.DISABLE:
            continue
        codes = _codes(d.values)
        if "all" not in codes and finding.code not in codes:
            continue
        if d.file_wide or d.scope_start <= finding.start < d.scope_end:
            return True
    return False


def directive_problems(directives) -> list[tuple[int, str]]:
    """(offset, message) for each value a directive does not understand: a rule that does not
    exist in a disable, a profile that does not exist. Such a value is ignored, which a typo
    should not make silent (a wrong profile changes every finding)."""
    out = []
    for d in directives:
        if d.kind == DirectiveKind.DISABLE:
            for v in d.values:
                if v.lower() != "all" and rule_by_key(v) is None:
                    out.append((d.start, f"unknown rule {v!r} in a packgate directive; it is ignored"))
        elif d.kind == DirectiveKind.PROFILE:
            for v in d.values[:1]:
                if v not in PROFILES:
                    out.append((d.start, f"unknown profile {v!r} in a packgate directive; it is ignored "
                                         f"(profiles: {', '.join(PROFILES)})"))
    return out


def file_directive(directives):
    """The file-wide disable directive, if the file has one (fixes extend it)."""
    for d in directives:
        if d.kind == DirectiveKind.DISABLE and d.file_wide:
            return d
    return None
