"""What a command does to the environment, as data: the records a handler of commands.COMMANDS
returns (ShellCheck's CFG.hs `CFApplyEffects`). apply.py applies them to the paths; neither it
nor the walk knows a command's name, and the static passes read the same table.

A handler returns a sequence of these, applied in order to the path the command runs on (an
effect that walks something, `Source` or `RunHere`, may leave several paths for the ones after
it); `Next` and `AsCommand`, when present, come last and say what happens to the rest of the
command's words.
"""

from __future__ import annotations

from ..parse.model import Word
from ..records import TextEnum, record
from .facts import Stop, Val

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

# ---------------------------------------------------------------- what runs next


@record(frozen=True)
class Next:
    """The word at `at` is the command (a wrapper: `nohup`, `timeout 5`, `env X=1`, `exec`);
    `replaces`: nothing of this shell runs after it (`exec`)."""

    at: int
    replaces: bool = False


@record(frozen=True)
class AsCommand:
    """The command then runs as what it names: a launch, a function call, or nothing the walk
    follows (`shift` moves the positional parameters and still calls a function named so)."""


# ---------------------------------------------------------------- the environment a wrapper gives


@record(frozen=True)
class Environ:
    """`env X=1 -u Y`, `nohup`, `timeout 5`...: what the wrapper does to the environment of the
    command it runs, as environ.py's transforms in order (Keep, SetVar, UnsetVar, Clear)."""

    transforms: tuple


# ---------------------------------------------------------------- this shell's variables


@record(frozen=True)
class SetValue:
    """The name gets a value no assignment site gives (`read NAME`, `eval`); exported None
    keeps the name's export mark."""

    name: str
    val: Val
    exported: Optional[bool] = None
    array: Optional[tuple] = None  # `mapfile A`: the elements (val is the first)
    local: bool = False  # `declare "$v=1"` in a function: undone when it returns


@record(frozen=True)
class AssignWord:
    """`export NAME=value` reached as a command: the word's assignment, exported or not (`-n`);
    from `declare`/`local` (mode), with the declaration's keyword and options as written."""

    word: Word
    exported: bool
    mode: str = "export"  # a parse.model.AssignMode
    keyword: str = ""


class Attribute(TextEnum):
    """An attribute a declaration gives a name, by its `declare` option letter."""

    EXPORTED = "x"
    READONLY = "r"  # later assignments and `unset` fail
    INTEGER = "i"  # assignments are evaluated arithmetically
    INDEXED = "a"
    ASSOC = "A"  # keys are strings
    NAMEREF = "n"  # the name refers to another variable (not followed here)
    GLOBAL = "g"  # `declare -g` in a function: not local to it
    LOWER = "l"
    UPPER = "u"
    TRACE = "t"


def attributes_of(letters: str) -> frozenset:
    """The Attributes that option letters give (`declare -ri` gives "ri"); other letters none."""
    return frozenset(a for a in Attribute if a.value in letters)


@record(frozen=True)
class Declare:
    """Names declared without a value: `export NAME`, `export -n NAME`, `readonly NAME`,
    `declare -i -A NAME`, `local NAME`. export: True marks them exported, False removes the
    mark (`export -n`), None leaves it; local: the declaration fails outside a function (and
    declares nothing there)."""

    names: tuple  # of (name, start, end)
    start: int
    end: int
    attributes: frozenset = frozenset()  # of Attribute
    export: Optional[bool] = None
    local: bool = False


@record(frozen=True)
class UnsetNames:
    """`unset NAME...` (functions: `unset -f`; namerefs: `unset -n`, none here), the command's span;
    site: the model's statement it is (an overwrite points at it: the parser moves a statement
    in place after an edit, an effect's span stays as it was)."""

    names: tuple  # of (name, start, end)
    start: int
    end: int
    functions: bool = False
    namerefs: bool = False
    site: object = None


@record(frozen=True)
class UnreadNames:
    """`export "$k=$v"` with k read at run time, `export $(grep ... .env | xargs)`: names made
    from what packgate cannot read (detail: the word as written) are exported; after it the
    gates are unknown, and PG009 says what could not be seen. exports False: they are assigned,
    not exported (`read "$k"`, `printf -v "$k"`): each gate keeps its export mark. kind: what
    PG009 says (None: that of exports). noted_only: PG009's note alone, the handler's other
    effects say what the gates become (a function's `local "$k=$v"`)."""

    start: int
    end: int
    detail: str
    exports: bool = True
    kind: object = None
    noted_only: bool = False


# ---------------------------------------------------------------- options, status, stopping


class Option(TextEnum):
    """A shell option a path carries (the State field of that name)."""

    ALLEXPORT = "allexport"
    ERREXIT = "errexit"
    NOUNSET = "nounset"


@record(frozen=True)
class SetOption:
    """`set -e` / `set +e` / `set -o errexit`...: the option on or off."""

    option: Option
    on: bool


@record(frozen=True)
class NewPositional:
    """`set -- ARGS`, `shift`: the positional parameters change, so what tests said of them goes;
    args: the new ones (Vals, values.CALLER_ARGS standing for the caller's), shift: how many
    `shift` drops (-1: a count the path does not know)."""

    args: Optional[tuple] = None
    shift: int = 0


@record(frozen=True)
class Status:
    """The exit status the command leaves: OK, FAILED, a Tested (a test the path cannot decide)
    or None (unknown)."""

    status: object


@record(frozen=True)
class StopPath:
    """`exit`, `return`, `break`, `continue`: the path stops here (until its loop or call ends)."""

    how: Stop


# ---------------------------------------------------------------- other scripts this one runs


@record(frozen=True)
class Source:
    """`source FILE` / `. FILE`: the file runs in this shell (sourcing.py), word's value its path."""

    word: Word
    val: Val


@record(frozen=True)
class RunHere:
    """`eval 'literal words'`: the text of word runs in this shell."""

    word: Word


class ChildEnv(TextEnum):
    """What environment a child shell starts from."""

    EXPORTED = "exported"  # `bash -c`: what this shell exported, and the command's prefix
    COMMAND = "command"  # `env -S`: the environment env builds (`-i` clears, `-u` removes)
    STDIN = "stdin"  # `bash <<'EOF'`: as EXPORTED, the here-document's text as it is written
    EXPANDED = "expanded"  # `bash <<EOF`: as STDIN, but this shell expands the text first


@record(frozen=True)
class RunChild:
    """The text of word runs in a child shell (children.py); its exports are lost."""

    word: Word
    env: ChildEnv


@record(frozen=True)
class RunContainer:
    """`docker run [options] IMAGE CMD`: CMD runs in a container that sees only its `-e` options
    (children.py): where `run` is (run_at, an index of the command's words), the environment
    the container gets (environ.py's transforms: Clear, then SetVar, PassHost, EnvFile in the
    order of the options), and what runs in it: the indexes of CMD's words, or, for a child
    shell's `-c STRING`, the string (script; shell: CMD is a child shell)."""

    run_at: int
    env: tuple  # of environ.py's transforms
    command: tuple = ()
    shell: bool = False
    script: Optional[Word] = None
