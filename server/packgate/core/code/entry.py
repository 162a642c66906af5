"""A launch's entry point: the script (`torchrun pkg/train.py`, `deepspeed X.py`, `python X.py`)
or module (`python -m pkg.train`, `torchrun -m pkg.train`) it runs, read from its words."""

from __future__ import annotations

import os

from ..gates import LAUNCHER_SWITCHES, PYTHON_VALUE_FLAGS, is_python
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


def entry_of(command: str, argv) -> Entry | None:
    """The entry point of `command argv...` (argv: the words after the command, as text; a
    word packgate cannot know is None), or None when it cannot be told."""
    base = os.path.basename(command)
    python = is_python(base)
    switches = LAUNCHER_SWITCHES.get(base, frozenset())
    module = False
    j = 0
    while j < len(argv):
        word = argv[j]
        if word is None:
            return None
        if word == "--":
            j += 1
            break
        if python and word.startswith("-m") and word != "-m":
            return Entry(EntryKind.MODULE, word[2:])
        if word in ("-m", "--module"):
            if python:
                return Entry(EntryKind.MODULE, argv[j + 1]) if j + 1 < len(argv) and argv[j + 1] else None
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
    if module:
        return Entry(EntryKind.MODULE, word)
    return Entry(EntryKind.SCRIPT, word)
