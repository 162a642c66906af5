"""`.gitignore` and `.ignore` files, read the way ruff reads them (the Rust `ignore` crate).

A folder walk (core/files.py `walk`) asks `Ignores.ignored(path, is_dir)` for each entry, with
the ignore files of the folders above it stacked in a chain. The rules:

- a pattern file is `.gitignore` (only inside a Git repository: a folder with `.git` at or above
  the walked folder), `.git/info/exclude` at the repository's root, or `.ignore` (anywhere);
- the files of the walked folder's parents count, up to the repository's root (outside a
  repository: none above the walked folder); a folder's patterns are relative to that folder;
- blank lines and `#` comments are skipped, `\\#` and `\\!` are literal, trailing blanks are
  dropped unless escaped; `!` re-includes; a leading or middle `/` anchors the pattern to its
  folder, else it matches at any depth; a trailing `/` matches folders only; `*`, `?`, `[...]`
  stop at `/`; `**/`, `/**/` and `/**` cross folders (any other `**` is `*`);
- within a file the last matching pattern decides, a deeper folder's file decides before a
  shallower one's, and a `.ignore` match anywhere in the chain decides before any `.gitignore`
  match (the crate's order); a file below an ignored folder is never reached, so it cannot be
  re-included (as in Git).

Not read: Git's global excludes file (`core.excludesFile`), which depends on the user's
configuration, not the repository's.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

GITIGNORE, IGNORE = ".gitignore", ".ignore"
_CLASSES = {"alnum": "a-zA-Z0-9", "alpha": "a-zA-Z", "blank": " \\t", "cntrl": "\\x00-\\x1f\\x7f",
            "digit": "0-9", "graph": "!-~", "lower": "a-z", "print": " -~", "punct": "!-/:-@\\[-`{-~",
            "space": " \\t\\n\\r\\f\\v", "upper": "A-Z", "xdigit": "0-9A-Fa-f"}


@dataclass(frozen=True)
class Rule:
    """One pattern of an ignore file."""

    pattern: str  # as written (for messages and tests)
    regex: "re.Pattern[str]"  # matched against the path relative to the file's folder
    negate: bool
    dir_only: bool
    name: Optional[str] = None  # without a slash: the regex of the last part it matches alone


def _strip_trailing_blanks(line: str) -> str:
    """Trailing spaces and tabs go, unless the last one is escaped with a backslash."""
    end = len(line)
    while end and line[end - 1] in " \t":
        backslashes = 0
        i = end - 2
        while i >= 0 and line[i] == "\\":
            backslashes += 1
            i -= 1
        if backslashes % 2:
            break
        end -= 1
    return line[:end]


def _class(glob: str, i: int) -> tuple[Optional[str], int]:
    """The regex of a `[...]` starting at glob[i], and the index after it; (None, i) if unclosed."""
    j = i + 1
    out = []
    if j < len(glob) and glob[j] in "!^":
        out.append("^")
        j += 1
    first = True
    while j < len(glob):
        ch = glob[j]
        if ch == "]" and not first:
            body = "".join(out)
            # a class never matches the separator, as in Git's wildmatch with WM_PATHNAME
            return ("[" + body + "/]" if body.startswith("^") else "(?!/)[" + body + "]"), j + 1
        first = False
        if ch == "[" and glob.startswith("[:", j):
            end = glob.find(":]", j + 2)
            name = glob[j + 2:end] if end > 0 else ""
            if name in _CLASSES:
                out.append(_CLASSES[name])
                j = end + 2
                continue
        if ch == "\\" and j + 1 < len(glob):
            j += 1
            ch = glob[j]
        if ch == "-" and out and out[-1] not in ("^", "") and j + 1 < len(glob) and glob[j + 1] != "]":
            out.append("-")
        else:
            out.append(re.escape(ch))
        j += 1
    return None, i


def translate(glob: str) -> str:
    """The regex (whole-path match) of an anchored glob relative to its folder, `**` included."""
    out = []
    i, n = 0, len(glob)
    while i < n:
        if glob.startswith("**", i):
            at_start = i == 0
            after = i + 2
            if (at_start or glob[i - 1] == "/") and (after == n or glob[after] == "/"):
                if after == n:  # `x/**`: everything inside (the `/` is already written)
                    out.append(".*")
                    i = after
                    continue
                out.append("(?:.*/)?")  # `**/`: zero or more folders
                i = after + 1
                continue
            while i < n and glob[i] == "*":  # any other run of stars is one star
                i += 1
            out.append("[^/]*")
            continue
        ch = glob[i]
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            regex, end = _class(glob, i)
            if regex is not None:
                out.append(regex)
                i = end
                continue
            out.append(re.escape(ch))
        elif ch == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(glob[i]))
        else:
            out.append(re.escape(ch))
        i += 1
    return "".join(out)


def parse_line(line: str) -> Optional[Rule]:
    """The rule of one line of an ignore file, or None for a blank line or a comment."""
    line = line.rstrip("\r\n")
    if not line or line.startswith("#"):
        return None
    line = _strip_trailing_blanks(line)
    written = line
    negate = line.startswith("!")
    if negate:
        line = line[1:]
    elif line.startswith("\\!") or line.startswith("\\#"):
        line = line[1:]
    dir_only = line.endswith("/")
    if dir_only:
        line = line.rstrip("/")
    if not line:
        return None
    anchored = "/" in line
    line = line.lstrip("/") if line.startswith("/") else line
    if not line:
        return None
    body = translate(line)
    if anchored:
        return Rule(written, re.compile(body + r"\Z", re.DOTALL), negate, dir_only)
    return Rule(written, re.compile("(?:.*/)?" + body + r"\Z", re.DOTALL), negate, dir_only, body + r"\Z")


def parse(text: str) -> tuple[Rule, ...]:
    """The rules of an ignore file's text, in order."""
    return tuple(rule for rule in map(parse_line, text.splitlines()) if rule is not None)


def _read(path: str) -> tuple[Rule, ...]:
    try:
        with open(path, "rb") as handle:
            data = handle.read(1024 * 1024)
    except OSError:
        return ()
    return parse(data.decode("utf-8", "replace"))


class Matcher:
    """The rules of one ignore file, joined into a regex of the paths and one of the last part
    (for the rules without a slash, which match at any depth), each for files and for folders:
    the alternatives run from the last rule back, so the first that matches is the last
    matching rule (a walk asks once per entry, and a .gitignore can hold a hundred patterns)."""

    def __init__(self, rules: tuple[Rule, ...]):
        self.rules = rules
        numbered = list(enumerate(rules))[::-1]
        self.files = self._joined([(i, r) for i, r in numbered if not r.dir_only])
        self.dirs = self._joined(numbered)

    @staticmethod
    def _joined(rules: list) -> tuple:
        def one(chosen: list):
            if not chosen:
                return None
            # the rules' own groups are non-capturing: group k is alternative k
            return re.compile("|".join(f"({pattern})" for _, pattern in chosen), re.DOTALL), \
                tuple(i for i, _ in chosen)
        return (one([(i, r.name) for i, r in rules if r.name is not None]),
                one([(i, r.regex.pattern) for i, r in rules if r.name is None]))

    def __bool__(self) -> bool:
        return bool(self.rules)

    def decide(self, rel: str, is_dir: bool) -> Optional[bool]:
        """True (ignored), False (re-included by `!`) or None (no rule of the file matches)."""
        by_name, by_path = self.dirs if is_dir else self.files
        last = -1
        if by_name is not None:
            found = by_name[0].match(rel.rpartition("/")[2])
            if found is not None:
                last = by_name[1][found.lastindex - 1]
        if by_path is not None:
            found = by_path[0].match(rel)
            if found is not None:
                last = max(last, by_path[1][found.lastindex - 1])
        return None if last < 0 else not self.rules[last].negate


def _decide(rules: tuple[Rule, ...], rel: str, is_dir: bool) -> Optional[bool]:
    """Matcher.decide, one rule at a time (the reference the tests compare it with)."""
    for rule in reversed(rules):
        if rule.dir_only and not is_dir:
            continue
        if rule.regex.match(rel):
            return not rule.negate
    return None


@dataclass(frozen=True)
class Level:
    """One folder's ignore files: their folder (absolute) and rules."""

    folder: str
    git: Matcher  # .gitignore (and .git/info/exclude at the repository's root)
    plain: Matcher  # .ignore


def repository_root(folder: str) -> Optional[str]:
    """The nearest folder at or above folder holding `.git` (a folder, or a file for a worktree)."""
    folder = os.path.abspath(folder)
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


class Ignores:
    """The ignore files in force at one folder of a walk (its own and its parents')."""

    def __init__(self, levels: tuple[Level, ...], in_git: bool):
        self.levels = levels
        self.in_git = in_git
        # (the folder with a separator, its matcher), the deepest first: .ignore, then .gitignore
        deepest = levels[::-1]
        self._order = tuple((lv.folder.rstrip(os.sep) + os.sep, m) for which in ("plain", "git")
                            for lv in deepest for m in (getattr(lv, which),) if m)

    @classmethod
    def at(cls, root: str) -> "Ignores":
        """The chain for a walk starting at folder root: the files of root's parents up to the
        repository's root, and root's own."""
        root = os.path.abspath(root)
        repo = repository_root(root)
        folders = []
        folder = root
        while True:
            folders.append(folder)
            if repo is None or folder == repo:
                break
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
        made = cls((), repo is not None)
        for folder in reversed(folders):
            names = set()
            for name in (GITIGNORE, IGNORE):
                if os.path.isfile(os.path.join(folder, name)):
                    names.add(name)
            made = made.enter(folder, names, repo_root=folder == repo)
        return made

    def enter(self, folder: str, names, repo_root: bool = False) -> "Ignores":
        """The chain below folder, given the names of its entries (only `.gitignore`, `.ignore`
        and `.git` are looked at: no extra system call for a folder without them)."""
        levels, in_git = self.levels, self.in_git
        if not repo_root and ".git" in names:
            # a repository starts here (below the walked folder, or a nested one): the
            # .gitignore files above it are another repository's
            repo_root, in_git = True, True
            levels = tuple(Level(lv.folder, Matcher(()), lv.plain) for lv in levels if lv.plain)
        git: tuple[Rule, ...] = ()
        if in_git:
            if repo_root:
                git = _read(os.path.join(folder, ".git", "info", "exclude"))
            if GITIGNORE in names:
                git += _read(os.path.join(folder, GITIGNORE))
        plain = _read(os.path.join(folder, IGNORE)) if IGNORE in names else ()
        if git or plain:
            levels = levels + (Level(folder, Matcher(git), Matcher(plain)),)
        if levels is self.levels and in_git == self.in_git:
            return self
        return Ignores(levels, in_git)

    def ignored(self, path: str, is_dir: bool) -> bool:
        """Whether an absolute, normalised path in the walk is ignored by the chain."""
        for prefix, matcher in self._order:
            if path.startswith(prefix):
                rel = path[len(prefix):]
                decided = matcher.decide(rel if os.sep == "/" else rel.replace(os.sep, "/"), is_dir)
                if decided is not None:
                    return decided
        return False
