"""The launch contract under the editor's cursor: the variable or option at an offset of a
launch script, the workspace code that reads or defines it, and what each launch gives it.

Pure lookups over one analysis and the workspace's contract index (core/code/index.py); the
hover, definition, completion and references of the editor render what these return.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Optional

from .code.entry import Entry, EntryKind, entry_of
from .flow import ValKind
from .parse.model import OccurrenceKind
from .records import record

LineReader = Callable[[str, int], Optional[str]]  # (path, 0-based line) -> that line's text

# actions that take no value after the option (argparse's own names)
_NO_VALUE = frozenset({"store_true", "store_false", "store_const", "append_const", "count", "help",
                       "version", "BooleanOptionalAction"})


@record(frozen=True)
class OptionWord:
    """An option word among a launch's trainer arguments (the words after its entry point)."""

    text: str  # the option as written, without `=value`
    start: int  # its bytes in the document
    end: int
    launch: object  # the flow.Launch it is given to
    entry: Optional[Entry]  # the launch's entry point, None when its words cannot tell
    argv: tuple  # the words after the launcher's name on the path it was found on (None: unknown)


@record(frozen=True)
class Given:
    """What one launch gives an option: the values after it on each path (None: unknown)."""

    launch: object
    values: tuple  # per path that passes the option: its value as text, "" for a switch, None unknown


def contract_for(analysis, *, revalidate: bool = False):
    """The contract index of the analysed script's project, or None (no path, no root, no
    Python code). The server passes revalidate=False: its file watcher invalidates instead."""
    path = getattr(analysis, "path", None)
    if not path:
        return None
    from .code.index import contract_index
    from .project import root_of
    root = root_of(path, refresh=revalidate)
    if root is None:
        return None
    index = contract_index(root, revalidate=revalidate)
    return index if index.files else None


def variable_at(analysis, offset: int):
    """The innermost mention of a shell variable under offset (any name, not the flag), or None."""
    if analysis.script is None or analysis.flow is None:
        return None
    best = None
    for o in list(analysis.script.occurrences) + list(analysis.flow.extra_occurrences):
        if o.kind != OccurrenceKind.FLAG and o.start <= offset <= o.end:
            if best is None or (o.end - o.start) < (best.end - best.start):
                best = o
    return best


def word_texts(args) -> tuple:
    """A path's launch words as text (None for a word the script cannot know)."""
    return tuple(v.text if v.kind in (ValKind.KNOWN, ValKind.DEFAULT) else None for v in args)


def trainer_start(command: str, texts: tuple) -> tuple:
    """(entry, index of the first word the trainer gets) of a launch's words; the entry is None
    when the words cannot tell it, and the trainer's words then start after the first unknown one."""
    entry = entry_of(command, list(texts))
    if entry is None:
        unknown = next((j for j, t in enumerate(texts) if t is None), None)
        return None, (len(texts) if unknown is None else unknown + 1)
    for j, word in enumerate(texts):
        if entry.kind is EntryKind.SCRIPT and word == entry.target:
            return entry, j + 1
        if entry.kind is EntryKind.MODULE:
            if word in ("-m", "--module") and j + 1 < len(texts) and texts[j + 1] == entry.target:
                return entry, j + 2
            if word == "-m" + entry.target:
                return entry, j + 1
    return entry, len(texts)


def option_word_at(analysis, offset: int, *, partial: bool = False) -> Optional[OptionWord]:
    """The option word of a launch's trainer arguments under offset (its text up to offset with
    partial, as completion wants it), or None: words the trainer does not get, comments and
    strings that are not launch words are never options."""
    if analysis.script is None or analysis.flow is None:
        return None
    data = analysis.source.data
    for launch in analysis.flow.launches:
        if launch.implicit:
            continue
        for path in launch.paths:
            texts = word_texts(path.args)
            entry, first = trainer_start(launch.command, texts)
            for val in path.args[first:]:
                lit = val.lit
                if val.foreign or lit is None or not lit[0] <= offset <= lit[1] or val.kind != ValKind.KNOWN:
                    continue
                if data[lit[0]:lit[1]] != val.text.encode("utf-8", "surrogateescape"):
                    continue  # the literal is only part of the word: no option text to point at
                text = val.text[:offset - lit[0]] if partial else val.text.partition("=")[0]
                if not text.startswith("-") or (not partial and text in ("-", "--")):
                    continue
                return OptionWord(text, lit[0], lit[0] + len(text.encode()), launch, entry, texts)
    return None


def accepted_options(index, word: OptionWord):
    """The options the launch of an option word accepts (core.code.index.EntryOptions)."""
    return index.options_for(word.entry)


def definitions_of(accepted, option: str) -> tuple:
    """The OptionDefs of the accepted options that define this option string."""
    return tuple(o for o in accepted.options if option in o.strings)


def abbreviated(accepted, option: str) -> tuple:
    """The OptionDefs argparse would take an undefined `--x` for when the parser allows
    abbreviations (`allow_abbrev` True): those with a long option string it begins; more than
    one is argparse's "ambiguous option" error."""
    if accepted.allow_abbrev is not True or not option.startswith("--") or definitions_of(accepted, option):
        return ()
    return tuple(o for o in accepted.options if any(s.startswith(option) for s in o.strings if s.startswith("--")))


def takes_value(option) -> bool:
    """Whether an OptionDef takes a value after it."""
    return option.action not in _NO_VALUE and option.nargs != 0


def given_option(word: OptionWord, defs: tuple) -> Given:
    """What the paths of the word's launch pass the option (defs: its OptionDefs, which say
    whether it takes a value)."""
    switch = bool(defs) and not any(takes_value(d) for d in defs)
    many = any(d.nargs in ("*", "+") or (isinstance(d.nargs, int) and d.nargs > 1) for d in defs)
    values: list = []
    for path in word.launch.paths:
        texts = word_texts(path.args)
        _, first = trainer_start(word.launch.command, texts)
        for j in range(first, len(texts)):
            t = texts[j]
            if t is None:
                continue
            if t == word.text:
                value = "" if switch else _following(texts, j + 1, many)
            elif t.startswith(word.text + "=") and not switch:
                value = t[len(word.text) + 1:]
            else:
                continue
            if value not in values:
                values.append(value)
    return Given(word.launch, tuple(values))


def _following(texts: tuple, j: int, many: bool):
    """The value words after an option: one, or with nargs `*`/`+`/N every word up to the next
    option, space-joined (None when one of them is unknown)."""
    if not many:
        return texts[j] if j < len(texts) else ""
    words = []
    while j < len(texts) and not (texts[j] or "").startswith("-"):
        if texts[j] is None:
            return None
        words.append(texts[j])
        j += 1
    return " ".join(words)


def relative(index, path: str) -> str:
    """A workspace file's path relative to the index's root, with `/`."""
    try:
        rel = os.path.relpath(path, index.root)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel.replace(os.sep, "/")


def file_link(path: str, line: int) -> str:
    """A file URI that opens a Python file at a 1-based line (`#L` is what VS Code reads)."""
    try:
        return f"{Path(path).as_uri()}#L{line}"
    except ValueError:
        return path


def quoted_span(line_text: Optional[str], column: int, word: str) -> tuple:
    """0-based code-point (start, end) of `word` in a string literal of a line, searched from a
    1-based column (a read's or add_argument's call); the call's column, empty, when not there."""
    at = max(column - 1, 0)
    if line_text is not None:
        for quote in ('"', "'"):
            found = line_text.find(quote + word + quote, at)
            if found < 0:
                found = line_text.find(quote + word + quote)
            if found >= 0:
                return found + 1, found + 1 + len(word)
    return at, at


def disk_line(path: str, line: int) -> Optional[str]:
    """One 0-based line of a file on disk (bounded as the index reads), or None."""
    from .pyfiles import MAX_FILE_BYTES
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError:
        return None
    rows = data.decode("utf-8", "replace").split("\n")
    return rows[line].rstrip("\r") if 0 <= line < len(rows) else None
