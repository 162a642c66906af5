"""`case` patterns as the walk matches them against a subject the path knows: a plain word or a
glob of `*`, `?` and `[...]`; a pattern with quoting, an expansion or extglob is not told here."""

from __future__ import annotations

from fnmatch import fnmatchcase

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

_NOT_A_GLOB = frozenset("\"'$\\(){}[]")  # quoting, expansions, extglob: patterns not matched here
_GLOB = frozenset("*?[")


def case_match(pattern: str, subject: Optional[str]) -> Optional[bool]:
    """Whether a case pattern (`a|b*`) matches a subject: None when it cannot be told here."""
    alternatives = pattern.split("|")
    if "*" in alternatives:
        return True
    if subject is None or any(not _NOT_A_GLOB.isdisjoint(p) for p in alternatives):
        return None
    # a pattern without *, ? or [ matches itself only (fnmatch would compile a regex for it)
    return any(fnmatchcase(subject, p) if not _GLOB.isdisjoint(p) else subject == p for p in alternatives)


def case_covers(earlier: str, pattern: str) -> bool:
    """Whether every subject a plain pattern matches is matched by an earlier pattern."""
    plain = pattern.split("|")
    if any(not _NOT_A_GLOB.isdisjoint(p) or not _GLOB.isdisjoint(p) for p in plain):
        return False
    return all(case_match(earlier, p) is True for p in plain)
