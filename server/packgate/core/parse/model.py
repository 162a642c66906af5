"""The script model: the statement and word records the builder makes, and the enums of their kinds.

Every record keeps the byte spans a rule may point at or a fix may edit. Kinds and modes are
`str`-valued enums: they compare equal to their text ("export" == AssignMode.EXPORT).
"""

from __future__ import annotations

from ..records import TextEnum, factory, record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional


class AssignMode(TextEnum):
    """How an assignment was written (and so what it does to the variable)."""

    PLAIN = "plain"  # NAME=value
    EXPORT = "export"  # export NAME=value
    DECLARE = "declare"  # declare / typeset NAME=value
    LOCAL = "local"
    READONLY = "readonly"
    PREFIX = "prefix"  # NAME=value cmd: only for that command
    ENV = "env"  # env NAME=value cmd
    ENV_UNSET = "env-unset"  # env -u NAME cmd
    DOCKER = "docker"  # docker run -e NAME=value
    PARAM_DEFAULT = "param-default"  # ${NAME:=value}


class SubKind(TextEnum):
    """Which kind of child process a Sub is."""

    SUBSHELL = "subshell"
    BACKGROUND = "background"
    PIPELINE = "pipeline"
    CMDSUBST = "cmdsubst"
    CHILD = "child"  # bash -c, a container's shell


class OccurrenceKind(TextEnum):
    """How code mentions a variable."""

    ASSIGN = "assign"
    EXPORT = "export"
    EXPAND = "expand"
    UNSET = "unset"
    PREFIX = "prefix"
    ENV = "env"
    DOCKER = "docker"
    FLAG = "flag"  # --micro-batch-size


class DirectiveKind(TextEnum):
    """What a `# packgate KIND=...` comment says."""

    DISABLE = "disable"
    PROFILE = "profile"
    SOURCE = "source"
    # a comment that looks like a directive and is not one (`# packgate: disable=`): values
    # are its text and the directive it means; it does nothing (core.directives warns)
    MALFORMED = "malformed"


@record
class Lit:
    """Literal text (quotes already removed), with the byte span it came from."""

    text: str
    start: int
    end: int


@record
class Ref:
    """A parameter expansion: $X, ${X}, ${X:-word}, ${X:=word}, ${X:+word}, ${A[@]}."""

    name: str
    start: int
    end: int
    name_start: int
    name_end: int
    op: str = ""  # "", ":-", "-", ":=", "=", ":+", "+", or "other"
    arg: Optional["Word"] = None
    array_all: bool = False  # ${A[@]} / ${A[*]}
    quoted: bool = False
    index: Optional["Word"] = None  # ${A[key]}: the subscript (not @ or *)
    indirect: bool = False  # ${!X}: the variable X's value names
    prefix_names: bool = False  # ${!P@} / ${!P*}: the names of the set variables that start with P
    transform: Optional["Transform"] = None  # op "other": what the walk can follow of it


@record
class Transform:
    """What `${#X}`, `${X#p}`, `${X/p/r}`, `${X:o:l}` or `${X^^}` makes of X's value, written in
    a form the walk follows (a pattern without quotes or expansions, a plain offset)."""

    op: str  # "length", "#", "##", "%", "%%", "/", "//", "/#", "/%", ":", "^", "^^", ",", ",,", "@U", "@L", "@u"
    pattern: str = ""  # the removals' and replacements' pattern, as written
    replacement: Optional["Word"] = None  # the replacements' word (its parts are also in the Ref's arg)
    offset: str = ""  # ":": the offset's arithmetic text
    length: Optional[str] = None  # ":": the length's, when given


@record
class Opaque:
    """Something whose value the script cannot know statically ($(...), $((...)), globs...)."""

    reason: str
    start: int
    end: int
    text: str = ""  # `$(( EXPR ))`: the expression, which the walk evaluates where it can


Part = Lit | Ref | Opaque


@record
class Word:
    """One shell word: parts joined without separators."""

    parts: list
    start: int
    end: int
    quote: str = ""  # "'" or '"' when the whole word is one quoted string, else ""
    raw: str = ""
    text: Optional[str] = None  # the literal text when the word has no expansion (set by the builder)
    effects: bool = False  # evaluating it changes or consults state (${X:=d}, a gate's value)
    refs: Optional[frozenset] = None  # the names it expands, at any depth: kept once computed (a shaped word: built)

    def literal(self) -> Optional[str]:
        """The text if the word is fully literal, else None."""
        if all(isinstance(p, Lit) for p in self.parts):
            return "".join(p.text for p in self.parts)
        return None


# ---------------------------------------------------------------- statements

@record
class Stmt:
    """Base of all statements: the byte span of the whole statement."""

    start: int
    end: int


@record
class Assign(Stmt):
    """NAME=value, possibly inside export/declare/local/readonly, or as a command prefix."""

    name: str = ""
    name_start: int = 0
    name_end: int = 0
    value: Optional[Word] = None  # None: `export X=` (empty)
    array: Optional[list] = None  # list[Word] for NAME=( ... )
    append: bool = False
    mode: str = AssignMode.PLAIN
    exported: bool = False
    eq_end: int = 0  # byte just after '='
    decl_start: int = 0  # the enclosing declaration / statement (for fixes)
    decl_end: int = 0
    decl_items: int = 1  # how many names the declaration holds
    keyword: str = ""  # export / declare -x / ... as written
    file: Optional[str] = None  # set for assignments that live in a sourced file
    index: Optional[Word] = None  # A[key]=value: the element's subscript
    keys: Optional[list] = None  # NAME=([k]=v ...): (element's position in array, its key Word)


@record
class ExportNames(Stmt):
    """export NAME... / declare -x NAME... without a value, export -n NAME, readonly NAME."""

    names: list = factory(list)  # [(name, start, end)]
    negate: bool = False
    readonly: bool = False  # `readonly NAME`, `declare -r NAME`: later changes fail
    exports: bool = True  # False: `readonly NAME` alone marks nothing exported
    local: bool = False  # `local NAME`: fails outside a function
    attributes: str = ""  # the attributes declared (`declare -i`, `-a`, `-A`, `-n`): letters of "iaAn"


@record
class Unset(Stmt):
    """unset NAME..."""

    names: list = factory(list)
    option: str = ""  # the letters of its options: "f" functions, "n" namerefs, "v" variables


@record
class SetOpt(Stmt):
    """set -a / set +a / set -o allexport / set +o allexport."""

    allexport: bool = False


@record
class TestForm:
    """A test the walk can decide from what a path knows of one word (its command's second
    word, kept there only: a record is moved once): `-z W`, `-n W`, `W = literal`,
    `W != literal` (`==` is `=`)."""

    op: str  # "-z", "-n", "=" or "!="
    against: str = ""  # the literal of = and !=


@record
class Command(Stmt):
    """A simple command: prefix assignments, then words."""

    prefix: list = factory(list)  # list[Assign] (mode PREFIX)
    words: list = factory(list)  # list[Word]
    name_start: int = 0
    name_end: int = 0
    pre: list = factory(list)  # statements run before (command substitutions)
    test: Optional[TestForm] = None  # `[ ... ]` / `[[ ... ]]` of a form the walk decides
    stdin: Optional[Word] = None  # a here-string's or here-document's text (`read X <<< "1"`, `bash <<'EOF'`)


@record
class Block(Stmt):
    """A sequence of statements."""

    body: list = factory(list)
    negate: bool = False  # `! cmd`: its status inverted
    together: bool = False  # one declaration's assignments: bash expands every value before it assigns any


@record
class If(Stmt):
    """if / elif / else: clauses of (condition, body, label offset)."""

    clauses: list = factory(list)  # [(Block cond, Block body, keyword_start)]
    otherwise: Optional[Block] = None
    else_start: int = 0


@record
class Case(Stmt):
    """case ... in pattern) ... ;; esac."""

    items: list = factory(list)  # [(pattern text, Block, start)]
    has_default: bool = False
    subject: Optional[Word] = None  # the word after `case`
    ends: list = factory(list)  # per item: ";;", ";&" (run the next body too) or ";;&" (test on)


@record
class AndOr(Stmt):
    """left && right / left || right."""

    left: Block = None  # type: ignore[assignment]
    op: str = "&&"
    right: Block = None  # type: ignore[assignment]
    op_start: int = 0


@record
class Loop(Stmt):
    """for / while / until: the body runs zero or more times."""

    cond: Optional[Block] = None
    body: Block = None  # type: ignore[assignment]
    var: str = ""  # for NAME in WORDS: the loop variable
    items: Optional[list] = None  # ... and its words (None: `for NAME` / while / until)
    keyword: str = ""  # while, until or for


@record
class Sub(Stmt):
    """A child process: subshell, background job, pipeline stage or command substitution."""

    kind: str = SubKind.SUBSHELL
    body: Block = None  # type: ignore[assignment]
    # for background jobs: the byte span of the '&' token (a fix replaces it)
    amp_start: int = 0
    amp_end: int = 0
    pipe_start: int = 0
    pipe_end: int = 0


@record
class FuncDef(Stmt):
    """name() { ... }."""

    name: str = ""
    body: Block = None  # type: ignore[assignment]


@record
class Exit(Stmt):
    """exit / return: the path ends here."""

    kind: str = "exit"  # a flow.facts.Stop


@record
class Opaque_(Stmt):
    """A statement too deep or too broken to model."""


@record(eq=True)
class Directive:
    """A `# packgate ...` comment."""

    start: int
    end: int
    kind: str  # a DirectiveKind
    values: list
    scope_start: int = 0
    scope_end: int = 0  # (0, -1): whole file
    file_wide: bool = False


@record
class Occurrence:
    """A mention of a variable (or of --micro-batch-size) in code, for hover and references."""

    name: str
    start: int
    end: int
    kind: str  # an OccurrenceKind


@record(eq=True)
class Script:
    """The parsed model of one script."""

    body: Block
    directives: list
    occurrences: list
    statements: list  # (start, end) of every command of a block (what a directive can cover)
    has_error: bool
    tree: object = None
    _starts: object = None  # statement starts, sorted (engine._innermost_statement's index)
    tops: object = None  # {start: _Top} of the top-level statements a later parse may reuse
    cuts: object = None  # [(start, end)] of the items a text read in pieces kept apart (parse/contain.py)


@record
class Top:
    """One top-level statement's share of a model (or a plain comment, type "comment", which has
    none), kept so that the parse after an edit elsewhere takes it instead of building it again
    (moved when the edit came before it)."""

    end: int
    type: str
    stmts: list
    occurrences: list
    statements: list
    records: object = None  # {record class: its records below stmts}, made on the first move
