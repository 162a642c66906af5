"""The edit that lists NAME=value lines in a `.deepspeed_env` file: the file made, or the
missing lines added at its end in its own line endings, never a name it already has."""

from __future__ import annotations

import os
import re

from . import gates as G
from .findings import Edit
from .outside import current, digest
from .parse.words import is_name
from .text import Source

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

# DeepSpeed's runner splits each line at its first '=' and puts `export NAME=value` in the
# command it runs on every node: a value with blanks or shell syntax would not arrive as it is
_PLAIN = re.compile(r"[A-Za-z0-9_.,:/@%+-]+")


def listable(value: str) -> bool:
    """Whether a value can be written as a .deepspeed_env line and reach the nodes unchanged."""
    return bool(_PLAIN.fullmatch(value))


def names_in(text: str) -> set:
    """The names a .deepspeed_env text sets (its NAME=value lines, as the flow reads them)."""
    out = set()
    for line in text.splitlines():
        name, eq, _value = line.partition("=")
        if eq and is_name(name.strip()):
            out.add(name.strip())
    return out


def env_file_edit(folder: str, pairs: list) -> Optional[Edit]:
    """The edit of `folder/.deepspeed_env` that lists pairs ((name, value), in order): the file
    created, or the lines of names it lacks appended; None when it has them all, a value cannot
    be written, or the file cannot be read as text."""
    if not pairs or not all(is_name(n) and listable(v) for n, v in pairs):
        return None
    path = os.path.abspath(os.path.join(folder, G.DEEPSPEED_ENV_FILE))
    data = current(path)
    if data is None:
        if os.path.lexists(path):
            return None  # a folder, a dangling link, a file packgate may not read
        return Edit(0, 0, "".join(f"{n}={v}\n" for n, v in pairs), path=path, create=True)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    present = names_in(text)
    missing = [(n, v) for n, v in dict(pairs).items() if n not in present]
    if not missing:
        return None
    eol = Source(text).eol if data.count(b"\n") else "\n"
    lead = eol if data and not data.endswith(b"\n") else ""
    return Edit(len(data), len(data), lead + "".join(f"{n}={v}{eol}" for n, v in missing),
                path=path, digest=digest(data))
