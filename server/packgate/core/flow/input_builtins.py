"""The builtins that assign what they read or format: `read`, `mapfile` / `readarray` and
`printf -v` (handlers of the COMMANDS table, commands.py), with what the passes before the walk
read of them. Each handler takes the commands.Call of one command on one path. A name made at
run time that a path cannot tell makes every gate unknown."""

from __future__ import annotations

from ..parse.model import Command, Ref, Word
from ..parse.words import is_name
from .effects import SetValue, Status, UnreadNames
from .facts import Origin, Val, ValKind
from .printf import formatted
from .state import OK

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

_STATUS_OK = Status(OK)


READ = Val(ValKind.UNKNOWN, via="read", origin=Origin.UNKNOWN)
_READ_PLAIN = frozenset(("-r",))  # options that leave the default splitting of one line
_IFS_WHITE = " \t\n"


def stdin_text(c) -> Optional[str]:
    """What the command reads from a here-string or here-document, when the path knows it
    (a here-string gets a newline at its end)."""
    word = c.cmd.stdin
    if word is None or any(a.name == "IFS" for a in c.prefix) or "IFS" in c.s.vars:
        return None
    val = c.vals.flow.value(word, c.s)
    return val.text if val.kind == ValKind.KNOWN else None


def read(c):
    """`read NAME...`: the names get a value the script cannot know; from a here-string the
    path knows, `read [-r] A B` splits its first line on blanks (the last name gets the rest,
    a name past the words gets ""). A name made at run time that the path cannot tell makes
    the gates unknown."""
    options, plain, made_at = _operands(c, _READ_ARGUMENTS)
    if made_at:
        return [SetValue(t, READ) for t in plain if is_name(t)] + _assigned_at_run_time(c, made_at)
    text = stdin_text(c) if all(t in _READ_PLAIN for t in options) else None
    if text is None or "\\" in text and "-r" not in options or not all(is_name(t) for t in plain):
        return [SetValue(t, READ) for t in plain if is_name(t)]
    if "\n" not in text:
        return [SetValue(t, READ) for t in plain]  # no whole line: read fails, but may have set some
    fields = text.split("\n", 1)[0].strip(_IFS_WHITE).split(None, max(len(plain) - 1, 0))
    out: list = [SetValue(name, Val(ValKind.KNOWN, fields[k] if k < len(fields) else ""))
                 for k, name in enumerate(plain)]
    out.append(_STATUS_OK)
    return out


_PRINTF = Val(ValKind.UNKNOWN, via="printf -v", origin=Origin.UNKNOWN)


def printf(c):
    """`printf -v NAME FORMAT [ARGUMENT...]`: NAME gets the formatted text (flow/printf.py) where
    the path knows the format and the arguments, else a value the script cannot know; the
    name keeps its export mark. Without -v, printf only prints."""
    rest = c.rest
    target = _printf_target([c.names[j] for j in rest[:2]])
    if target is None:
        if rest and _names_a_variable(c.words[rest[0]:rest[0] + 2]) and c.vals[rest[1]].kind == ValKind.UNKNOWN:
            return tuple(_assigned_at_run_time(c, rest[1])) + (Status(None),)
        return None
    name, k = target
    if k < len(rest) and c.names[rest[k]] == "--":
        k += 1
    if k >= len(rest):
        return None  # no format: printf refuses, NAME stays as it was
    vals: list = []
    for j in rest[k:]:
        vals.extend(c.vals.flow.values(c.words[j], c.s))
    if not vals or any(v.kind != ValKind.KNOWN and v.kind != ValKind.DEFAULT for v in vals):
        return (SetValue(name, _PRINTF),)
    text = formatted(vals[0].text, [v.text for v in vals[1:]])
    if text is None:
        return (SetValue(name, _PRINTF),)
    default = next((v for v in vals if v.kind == ValKind.DEFAULT), None)
    if default is None:
        return (SetValue(name, Val(ValKind.KNOWN, text)), _STATUS_OK)
    # `printf -v A '%s' "${MBS:-1}"`: the text, unless the caller sets what the default stands for
    return (SetValue(name, Val(ValKind.DEFAULT, text, via=default.via, origin=Origin.DEFAULT, name=default.name)),
            _STATUS_OK)


def _printf_target(texts: list) -> Optional[tuple]:
    """(NAME, the words `-v NAME` took) of printf's first words' texts (`-v NAME`, `-vNAME`); None
    without -v, or for an element (`-v A[1]`) or a name made at run time, which are not followed."""
    first = texts[0] if texts else None
    if first == "-v" and len(texts) >= 2:
        name, k = texts[1], 2
    elif first is not None and first.startswith("-v") and len(first) > 2:
        name, k = first[2:], 1
    else:
        return None
    return (name, k) if name is not None and is_name(name) else None


def _names_a_variable(words: list) -> bool:
    """Whether printf's first two words are `-v` and a word whose text only a path can tell
    (`-v "$name"`): a name made at run time."""
    return len(words) == 2 and words[0].text == "-v" and words[1].text is None


def printf_acts(cmd: Command) -> bool:
    """Whether a printf assigns (`-v NAME`, `-v "$name"`): without -v, it only prints."""
    words = cmd.words[1:3]
    return _names_a_variable(words) or _printf_target([w.text for w in words]) is not None


def printf_assigns(cmd: Command) -> list:
    """What `printf -v NAME` assigns, for the passes before the walk: NAME, from every name its
    words expand."""
    target = _printf_target([w.text for w in cmd.words[1:3]])
    if target is None:
        return []
    reads: frozenset = frozenset()
    for w in cmd.words[1:]:
        reads |= word_refs_of(w)
    return [(target[0], reads)]


def mapfile(c):
    """`mapfile [-t] NAME` / `readarray`: NAME gets the lines of a here-string or here-document
    the path knows (-t: without their newlines); else lines the script cannot know."""
    options, plain, made_at = _operands(c, _MAPFILE_ARGUMENTS)
    if made_at:
        return tuple(_assigned_at_run_time(c, made_at))
    name = plain[-1] if plain else "MAPFILE"
    if not is_name(name):
        return ()
    text = stdin_text(c) if all(t == "-t" for t in options) and len(plain) <= 1 else None
    if text is None:
        return (SetValue(name, READ),)
    strip = "-t" in options
    lines = text.split("\n")
    elems = tuple(Val(ValKind.KNOWN, line if strip else line + "\n") for line in lines[:-1])
    if lines[-1]:
        elems += (Val(ValKind.KNOWN, lines[-1]),)
    return (SetValue(name, elems[0] if elems else Val(ValKind.KNOWN, ""), array=elems), _STATUS_OK)


# the options of read and mapfile that take the next word as their argument
_READ_ARGUMENTS = frozenset("adinNptu")
_MAPFILE_ARGUMENTS = frozenset("dnOsuCc")


def _operands(c, with_argument: frozenset) -> tuple:
    """(the option words' texts, the operands' texts, the index of the first operand whose text
    the path cannot tell, or 0) of `read` / `mapfile`: an option's argument (`-p "$PROMPT"`) is
    neither. (Index 0 is the command's name, never an operand.)"""
    options: list = []
    plain: list = []
    made_at = 0
    rest = c.rest
    k = 0
    while k < len(rest):
        j = rest[k]
        t = c.names[j]
        if not plain and t.startswith("-") and len(t) > 1 and t != "--":
            options.append(t)
            if t[-1] in with_argument:
                k += 1  # `-p PROMPT`: the next word is the option's argument
            k += 1
            continue
        if t == "--" and not plain:
            k += 1
            continue
        plain.append(t)
        if not made_at and c.words[j].text is None and c.vals[j].kind == ValKind.UNKNOWN:
            made_at = j
        k += 1
    return options, plain, made_at


def _assigned_at_run_time(c, j: int) -> list:
    """The effects of an assignment to the name word j gives, made at run time: any gate may be
    the one assigned, so each is unknown after it, its export mark kept; PG009 says so."""
    w = c.words[j]
    return [UnreadNames(w.start, w.end, w.raw or "?", False)]


def read_assigns(cmd: Command) -> list:
    """What `read`, `mapfile` assign from their input, for the passes before the walk."""
    if cmd.stdin is None:
        return []
    reads = word_refs_of(cmd.stdin) | _IFS
    names = [w.text for w in cmd.words[1:] if w.text is not None and is_name(w.text)]
    return [(name, reads) for name in names or ["MAPFILE"]]


_IFS = frozenset(("IFS",))  # how read splits its line: a script's IFS makes it unknown


def word_refs_of(word: Word) -> frozenset:
    """The names a word expands, at any depth (its subscripts too)."""
    out, stack = set(), list(word.parts)
    while stack:
        p = stack.pop()
        if type(p) is Ref:
            out.add(p.name)
            if p.arg is not None:
                stack.extend(p.arg.parts)
            if p.index is not None:
                stack.extend(p.index.parts)
    return frozenset(out)
