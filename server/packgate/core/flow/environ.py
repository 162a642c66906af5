"""What a wrapper does to the environment its child gets, as data: a few transform records and
one table, WRAPPERS, from a wrapper's name to its option syntax (core/gates.py) and the reader
that turns its words into transforms. commands.py's handlers return the transforms inside their
effects (effects.Environ for a wrapper, effects.RunContainer for `docker run`); apply.py and
children.py apply them. Adding a wrapper is a row here (one that only keeps the environment:
a row of gates.WRAPPER_SYNTAX) and an oracle case.

A reader gets the row's syntax, the command's words (their texts, names, and the words) and the
index of the first word after the wrapper's name; it returns the transforms in the order the
words give them and the index of the command the wrapper runs (None: it runs none).
"""

from __future__ import annotations

from typing import Callable

from .. import gates as G
from ..parse.model import Lit, Word
from ..parse.words import is_name
from ..records import record

# ---------------------------------------------------------------- the transforms


@record(frozen=True)
class Keep:
    """The child gets this shell's exported environment and the command's prefix (`nohup`,
    `timeout 5`, `numactl -N 0`, `exec`...)."""


@record(frozen=True)
class SetVar:
    """`env NAME=value`, `docker run -e NAME=value`: the name set in the child's environment;
    strip: the length of an option glued to the word (`--env=`, `-e`)."""

    word: Word
    strip: int = 0


@record(frozen=True)
class UnsetVar:
    """`env -u NAME`: the name removed from the child's environment (start, end: the option's span)."""

    name: str
    start: int
    end: int


@record(frozen=True)
class Clear:
    """`env -i`, `docker run`: the child starts from nothing but the transforms after this."""


@record(frozen=True)
class PassHost:
    """`docker run -e NAME`: the host's NAME passed to the child when the host exported it."""

    word: Word
    name: str
    strip: int = 0


@record(frozen=True)
class EnvFile:
    """`docker run --env-file FILE`: the child gets more names, from a file whose contents are unknown."""


KEEP, CLEAR, ENV_FILE = Keep(), Clear(), EnvFile()
_KEEPS = (KEEP,)


# ---------------------------------------------------------------- the readers


def keep(syntax: tuple, names, words: list, i: int) -> tuple:
    """A wrapper that keeps the environment: its options (those of syntax that take a value
    skip the next word too) and its operands (taskset's mask, timeout's duration) come before
    the command."""
    takes, operands = syntax
    n = len(words)
    while i < n:
        t = names[i]
        if t == "--":
            i += 1
            break
        if not t.startswith("-") or t == "-":
            break
        i += 2 if t in takes else 1  # `-N 0`; `--cpunodebind=0` and `-N0` are one word
    return _KEEPS, i + operands


SPLIT_STRING = frozenset(("-S", "--split-string"))
_IGNORE_ENVIRONMENT = frozenset(("-i", "-", "--ignore-environment"))


def _assigns(word: Word) -> bool:
    """Whether a word's literal start is `NAME=` (`PATH="$PATH"` too)."""
    lead = word.parts[0] if word.parts else None
    if type(lead) is not Lit:
        return False
    eq = lead.text.find("=")
    return eq > 0 and is_name(lead.text[:eq])


def read_env(syntax: tuple, names, words: list, i: int) -> tuple:
    """`env X=1 -u Y -i CMD`: set, unset, clear (what came before too), in order; the command is
    the first other word. `-S STRING` stops here: the index is the option's (the string, split
    into words, is the command: commands.env)."""
    takes = syntax[0]
    out: list = []
    n = len(words)
    while i < n:
        t = names[i]
        if _assigns(words[i]):
            out.append(SetVar(words[i]))
            i += 1
        elif t in SPLIT_STRING and i + 1 < n:
            break
        elif t in _IGNORE_ENVIRONMENT:
            out.append(CLEAR)
            i += 1
        elif t in takes and i + 1 < n:
            out.append(UnsetVar(names[i + 1], words[i].start, words[i + 1].end))
            i += 2
        elif t.startswith("-"):
            i += 1
        else:
            break
    return tuple(out), i


def _container_var(word: Word, spec: str, strip: int = 0):
    """One `-e` option's operand: NAME=value sets, NAME passes the host's."""
    return SetVar(word, strip) if "=" in spec else PassHost(word, spec, strip)


def read_docker_run(syntax: tuple, names, words: list, i: int) -> tuple:
    """`docker run [options] IMAGE CMD` from the word after `run`: the container starts from
    nothing (Clear), then its `-e`/`--env` options and `--env-file`s in order; the index is the
    image's (None: no image)."""
    takes = syntax[0]
    out: list = [CLEAR]
    n = len(words)
    while i < n:
        t = names[i]
        if t in ("-e", "--env") and i + 1 < n:
            out.append(_container_var(words[i + 1], names[i + 1]))
            i += 2
        elif t.startswith("--env="):
            out.append(_container_var(words[i], t[len("--env="):], len("--env=")))
            i += 1
        elif t.startswith("-e") and len(t) > 2 and "=" in t:
            out.append(_container_var(words[i], t[2:], 2))
            i += 1
        elif t == "--env-file" or t.startswith("--env-file="):
            out.append(ENV_FILE)
            i += 1 if "=" in t else 2
        elif t in takes:
            i += 2
        elif t.startswith("-"):
            i += 1
        else:
            return tuple(out), i
    return tuple(out), None


# ---------------------------------------------------------------- the table


@record(frozen=True)
class Wrapper:
    """A wrapper's row: its option syntax (gates.py: the options that take the next word, the
    operands before the command) and the reader of its words."""

    syntax: tuple
    read: Callable[[tuple, object, list, int], tuple]


# wrapper name (its base name) -> its row; `docker` reads the words after `run`
WRAPPERS: dict[str, Wrapper] = {
    **{name: Wrapper(syntax, keep) for name, syntax in G.WRAPPER_SYNTAX.items()},
    "env": Wrapper(G.ENV_SYNTAX, read_env),
    "docker": Wrapper(G.DOCKER_RUN_SYNTAX, read_docker_run),
}


def read(name: str, names, words: list, i: int) -> tuple:
    """The transforms of the wrapper `name` whose first word after its name is at i, and the
    index of the command it runs (None: none)."""
    row = WRAPPERS[name]
    return row.read(row.syntax, names, words, i)
