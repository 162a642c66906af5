"""A launch's entry point: the script (`torchrun pkg/train.py`, `deepspeed X.py`, `python X.py`)
or module (`python -m pkg.train`, `torchrun -m pkg.train`) it runs, read from its words, and
where in those words it stands: what comes before it is the launcher's, what follows the
program's own argv."""

from __future__ import annotations

import os

from ..gates import LAUNCHER_MODULES, LAUNCHER_SWITCHES, PYTHON_VALUE_FLAGS, is_python
from ..records import TextEnum, record


class EntryKind(TextEnum):
    """A script path or a dotted module."""

    SCRIPT = "script"
    MODULE = "module"


@record(frozen=True)
class Entry:
    """What a launch runs."""

    kind: EntryKind
    target: str  # the path as written, or the dotted module


@record(frozen=True)
class EntryAt:
    """An entry point and where it is in the launch's words."""

    entry: Entry
    index: int  # the word that names it (`-mpkg.train` names a module by itself)
    first: int  # the program's first own word: everything before it is the launcher's


def entry_of(command: str, argv) -> Entry | None:
    """The entry point of `command argv...` (argv: the words after the command, as text; a
    word packgate cannot know is None), or None when it cannot be told."""
    at = entry_at(command, argv)
    return at.entry if at is not None else None


def entry_at(command: str, argv, offset: int = 0) -> EntryAt | None:
    """The entry point of `command argv...` and its place (see entry_of), or None."""
    base = os.path.basename(command)
    python = is_python(base)
    switches = LAUNCHER_SWITCHES.get(base, frozenset())
    module = False
    j = offset
    while j < len(argv):
        word = argv[j]
        if word is None:
            return None
        if word == "--":
            j += 1
            break
        if python and word.startswith("-m") and word != "-m":
            return _module(word[2:], j, argv)
        if word in ("-m", "--module"):
            if python:
                return _module(argv[j + 1], j + 1, argv) if j + 1 < len(argv) and argv[j + 1] else None
            module = True
            j += 1
            continue
        if word == "-c" and python:
            return None  # code on the command line
        if word.startswith("-"):
            takes_value = ("=" not in word and word not in switches
                           and (not python or word in PYTHON_VALUE_FLAGS))
            j += 2 if takes_value else 1
            continue
        break
    if j >= len(argv) or argv[j] is None:
        return None
    word = argv[j]
    return EntryAt(Entry(EntryKind.MODULE if module else EntryKind.SCRIPT, word), j, j + 1)


def _module(name: str, index: int, argv) -> EntryAt | None:
    """`python -m name`: the module, or, for a launcher's module, what that launcher runs."""
    launcher = LAUNCHER_MODULES.get(name)
    if launcher is not None:
        return entry_at(launcher, argv, index + 1)
    return EntryAt(Entry(EntryKind.MODULE, name), index, index + 1)
