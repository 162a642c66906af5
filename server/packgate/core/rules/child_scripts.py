"""The shell scripts a launcher runs as child processes (`bash child.sh`, `./child.sh`, `srun bash
child.sh`) and the variable names they expand. The flow follows `source` and `bash -c` strings;
a child script file runs in its own process and sees what the launcher exported, so a name only
it reads is read all the same (PG012 never calls it stale)."""

from __future__ import annotations

import os
import re

from ..files import decode, read_file
from ..flow import ValKind
from ..parse.model import Command
from ..parse.visit import walk
from ..records import record

_SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh"})
# compiled (and cached) by re on first use: only a workspace with Python code (PG012) reads them
_EXPANDS = r"\$\{?([A-Za-z_][A-Za-z0-9_]*)"
_NAMES_SCRIPT = r"[\w./-]+\.sh\b"  # a grandchild named in a child's text
MAX_DEPTH = 3  # children of children followed
MAX_FILES = 20


@record(frozen=True)
class ChildReads:
    """What the launcher's child scripts expand."""

    names: frozenset  # every name a child script that could be read expands
    unresolved: tuple  # how the launcher names a child it runs that could not be read


def expanded_names(text: str) -> frozenset:
    """Every name a script's text expands (`$X`, `${X...}`; comments too: it only ever silences)."""
    return frozenset(re.findall(_EXPANDS, text))


def child_reads(ctx) -> ChildReads:
    """The names the child scripts of ctx's script expand (cached per analysis)."""
    got = ctx.cache.get("child_reads")
    if got is None:
        got = ctx.cache["child_reads"] = _child_reads(ctx)
    return got


def _child_reads(ctx) -> ChildReads:
    named, unresolved = _named(ctx)
    if not named:
        return ChildReads(frozenset(), tuple(unresolved))
    bases = [os.path.dirname(os.path.abspath(ctx.path))] if ctx.path else []
    index = ctx.contract()
    if index is not None:
        bases.append(index.root)
    names: set = set()
    seen: set = set()
    todo = [(word, 0) for word in named]
    while todo and len(seen) < MAX_FILES:
        word, depth = todo.pop()
        path = _resolve(word, bases)
        if path is None:
            if depth == 0:  # the launcher runs it: what it reads is unknown
                unresolved.append(word)
            continue  # a grandchild named in a comment or a string: nothing to go on
        if path in seen:
            continue
        seen.add(path)
        data, _ = read_file(path)
        if data is None:
            if depth == 0:
                unresolved.append(word)
            continue
        text, _ = decode(data)
        names.update(expanded_names(text))
        if depth + 1 < MAX_DEPTH:
            here = os.path.dirname(path)
            todo.extend((os.path.join(here, w) if not os.path.isabs(w) else w, depth + 1)
                        for w in re.findall(_NAMES_SCRIPT, text))
    return ChildReads(frozenset(names), tuple(unresolved))


def _named(ctx) -> tuple:
    """(the child scripts the launcher names literally, those it names with an expansion)."""
    named, unresolved = [], []
    for st in walk(ctx.script.body):
        if type(st) is not Command or not st.words:
            continue
        words = st.words
        first = words[0].text
        if first is None:
            if words[0].raw.endswith(".sh"):
                unresolved.append(words[0].raw)
            continue
        if first.endswith(".sh"):
            named.append(first)
            continue
        at = next((k for k, w in enumerate(words) if w.text is not None and os.path.basename(w.text) in _SHELLS),
                  None)
        if at is None:
            continue
        for w in words[at + 1:]:
            if w.text is not None and w.text.startswith("-"):
                if "c" in w.text[1:] and not w.text.startswith("--"):
                    break  # `bash -c STRING`: the flow walks the string
                continue
            if w.text is None:
                unresolved.append(w.raw)
            else:
                named.append(w.text)
            break
    for launch in ctx.flow.launches:  # `srun bash child.sh`, `torchrun --no-python child.sh`
        for p in launch.paths:
            for v in p.raw_args:  # texts only: the offsets need not be this version's
                if v.kind in (ValKind.KNOWN, ValKind.DEFAULT) and v.text.endswith(".sh"):
                    named.append(v.text)
    return list(dict.fromkeys(named)), list(dict.fromkeys(unresolved))


def _resolve(word: str, bases: list):
    """The file a child script's word names, relative to the launcher's folder or the root."""
    if os.path.isabs(word):
        return word if os.path.isfile(word) else None
    for base in bases:
        path = os.path.normpath(os.path.join(base, word))
        if os.path.isfile(path):
            return path
    return None
