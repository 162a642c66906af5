"""What one environment read is, as records: how the code parses the value and what its default
is. Light on purpose: the rules name these kinds on every check, while only a workspace's
index needs the reader (envreads.py, which parses Python)."""

from __future__ import annotations

from ..records import TextEnum, record


class Parse(TextEnum):
    """What the code makes of the value."""

    INT_EQ = "int-eq"  # int(v) == N (values: the Ns; negated for != / not in)
    STR_EQ = "str-eq"  # v == "s"
    STR_NE = "str-ne"  # v != "s"
    IN_SET = "in-set"  # v in ("a", "b") (negated for not in)
    INT = "int"  # int(v), otherwise used
    FLOAT = "float"
    BOOL_INT = "bool-int"  # bool(int(v))
    LOWER_EQ = "lower-eq"  # v.lower() == "s" (or .casefold())
    LOWER_IN = "lower-in"
    UPPER_EQ = "upper-eq"
    UPPER_IN = "upper-in"
    PRESENCE = "presence"  # "X" in os.environ, v is None / is not None
    TRUTHY = "truthy"  # if v: (set and not empty)
    PATH = "path"  # handed to open(), os.path.*, Path()
    STRING = "string"  # used as text (formatted, split, concatenated)
    UNKNOWN = "unknown"  # stored, returned or passed on: its parse is not in sight


class Default(TextEnum):
    """What the read gives when the variable is unset."""

    LITERAL = "literal"  # EnvRead.default holds it
    NONE = "none"  # get() without a default: None
    REQUIRED = "required"  # os.environ["X"]: KeyError
    UNKNOWN = "unknown"  # a default that is not a literal
    NOT_APPLICABLE = "n/a"  # a presence test reads no value


@record(frozen=True)
class EnvRead:
    """One place in the workspace's Python code that reads an environment variable."""

    name: str
    parse: Parse
    values: tuple  # the literals the value is compared with (after its parse)
    negated: bool  # compared with != or not in
    default_kind: Default
    default: object  # the literal default (Default.LITERAL), else None
    file: str
    line: int  # 1-based
    column: int  # 1-based, code points
    parsed_line: int  # where the parse happens (the read's line, or a later use of its variable)
