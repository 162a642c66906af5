"""Which rules run on a file, as ruff decides it.

A selector is `ALL` (any case), a rule's code or name, or a code prefix (`PG00`: PG001-PG009,
`PG01`: PG010-PG019, `PG`: every rule). Each layer of settings (the editor's, a configuration
file, the command line) may give `select`, `extend-select` and `ignore`: a layer with `select`
starts again from it, one without starts from what the layers below enabled. Inside a layer
the selectors apply from the least specific to the most specific (`ALL`, then shorter
prefixes, then codes and names), ignores after selects of the same specificity, so
`select = ["ALL"]`, `ignore = ["PG00"]`, `extend-select = ["PG003"]` runs PG003 only.
`per-file-ignores` (glob -> selectors) then removes rules from the files its globs match: a
glob is matched against the file's path relative to the folder of the configuration file
that set it, and against the file's name (in the editor's own settings, without such a
folder, against the absolute path and the name).
"""

from __future__ import annotations

import os
import re
from fnmatch import fnmatchcase

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Iterable, Optional

# compiled (and cached) by re on the first selector that is not a rule: most runs have none
_PREFIX = r"(?i)pg[0-9]*"
EXACT = 1000  # the specificity of a code or a name


def selector(key: str) -> Optional[tuple[int, frozenset]]:
    """(specificity, the codes it selects) of a selector; None when it names no rule."""
    from .rules import RULES, rule_by_key
    if not isinstance(key, str):
        return None
    k = key.strip()
    if k.upper() == "ALL":
        return 0, frozenset(r.code for r in RULES)
    rule = rule_by_key(k)
    if rule is not None:
        return EXACT, frozenset((rule.code,))
    if re.fullmatch(_PREFIX, k):
        codes = frozenset(r.code for r in RULES if r.code.lower().startswith(k.lower()))
        if codes:
            return len(k), codes
    return None


def unknown_selectors(keys: Iterable[str]) -> list[str]:
    """The keys that are not selectors (no rule, prefix of one, or ALL)."""
    return [k for k in keys if selector(k) is None]


def codes_of(keys: Iterable[str]) -> frozenset:
    """Every code the selectors name (unknown ones name none)."""
    out: set = set()
    for k in keys:
        found = selector(k)
        if found is not None:
            out |= found[1]
    return frozenset(out)


def resolve(carried: Optional[Iterable[str]], select: Iterable[str], extend_select: Iterable[str],
            ignore: Iterable[str]) -> frozenset:
    """The codes one layer enables: from its select (when it gives one) or from carried (what
    the layers below enabled; None: every rule), then its selectors by specificity."""
    from .rules import RULES
    select, extend_select, ignore = tuple(select), tuple(extend_select), tuple(ignore)
    # a select that names no rule at all is no select (reported where it was read)
    given = bool(codes_of(select))
    picks = []
    for keys, on in ((select + extend_select, True), (ignore, False)):
        for k in keys:
            found = selector(k)
            if found is not None:
                picks.append((found[0], not on, found[1], on))
    updates: dict = {}
    for _, _, codes, on in sorted(picks, key=lambda p: (p[0], p[1])):
        for code in codes:
            updates[code] = on
    if given:
        enabled: set = set()
    else:
        enabled = set(carried) if carried is not None else {r.code for r in RULES}
    for code, on in updates.items():
        (enabled.add if on else enabled.discard)(code)
    return frozenset(enabled)


def layered(settings, select: Iterable[str] = (), extend_select: Iterable[str] = (),
            ignore: Iterable[str] = ()):
    """settings with one more layer of rule selection on top (the command line's, a
    configuration file's): what the layers so far enabled is carried under it."""
    from .records import replace
    below = resolve(settings.carried, settings.select, settings.extend_select, settings.ignore)
    return replace(settings, carried=tuple(sorted(below)), select=tuple(select),
                   extend_select=tuple(extend_select), ignore=tuple(ignore))


def enabled_codes(settings, path: Optional[str] = None) -> frozenset:
    """The codes that run on the file at path under settings (per-file-ignores applied)."""
    codes = resolve(settings.carried, settings.select, settings.extend_select, settings.ignore)
    if path and settings.per_file_ignores:
        dropped: set = set()
        for pattern, base, keys in settings.per_file_ignores:
            if matches(path, pattern, base):
                dropped |= codes_of(keys)
        codes = codes - dropped
    return codes


def _variants(pattern: str) -> set:
    """pattern and what it also means as a glob of paths: `**/` may match no folder, and a
    trailing `/**` the folder itself and everything below it."""
    out = {pattern}
    if pattern.endswith("/**"):
        out.add(pattern[:-3])
    changed = True
    while changed:
        changed = False
        for p in list(out):
            if "**/" in p:
                for i in [m.start() for m in re.finditer(r"\*\*/", p)]:
                    shorter = p[:i] + p[i + 3:]
                    if shorter not in out:
                        out.add(shorter)
                        changed = True
    return out


def matches(path: str, pattern: str, base: Optional[str]) -> bool:
    """Whether a per-file-ignores glob matches the file at path (see the module docstring)."""
    pattern = pattern.replace(os.sep, "/").removeprefix("./")
    full = os.path.realpath(path).replace(os.sep, "/")
    names = [os.path.basename(full)]
    if base is not None:
        try:
            rel = os.path.relpath(full, os.path.realpath(base)).replace(os.sep, "/")
        except ValueError:
            rel = None
        if rel is not None and rel != ".." and not rel.startswith("../"):
            names.append(rel)
    else:
        names.append(full)
    return any(fnmatchcase(name, p) for p in _variants(pattern) for name in names)
