"""The argparse options one Python file defines, and to which parser or helper parameter.

Per file: every `ArgumentParser(...)` construction (a ParserDef), every `add_argument` call
(an OptionDef) on the parser, on a group of it (`add_argument_group`,
`add_mutually_exclusive_group`), or on a function's parameter (`def _add_x_args(parser)`),
the calls that hand a parser or a parameter on to another function (followed by index.py,
across files too), and whether unknown arguments are tolerated (`parse_known_args`,
Megatron's `ignore_unknown_args=True`). Reading only: nothing is imported or run.
"""

from __future__ import annotations

import ast

from ..records import factory, record
from .reading import Parsed, column

# type=, choices=, nargs= or action= is there but is not a literal packgate can read (not "?":
# that is nargs="?")
UNKNOWN_TYPE = "<not a literal>"
MODULE = "<module>"  # the qualname of a file's top-level code
_GROUPS = frozenset({"add_argument_group", "add_mutually_exclusive_group"})
_PARSERS = frozenset({"ArgumentParser"})


@record(frozen=True)
class OptionDef:
    """One option (or positional argument) a parser defines."""

    strings: tuple  # option strings as written, and `--no-x` for BooleanOptionalAction's `--x`
    dest: str
    type: object  # None (no type=: the text as is), "int", "float", a callable's name, UNKNOWN_TYPE
    choices: object  # None, a tuple of literals, or UNKNOWN_TYPE when not a literal
    nargs: object  # None, an int, "?", "*", "+", "...", or UNKNOWN_TYPE
    action: object  # None (store), "store_true", "BooleanOptionalAction", a class's name...
    file: str
    line: int
    column: int
    function: str  # the qualname of the function that adds it
    default: str = ""  # `default=`: a literal's repr or a dotted name, else UNKNOWN_TYPE; "" when absent
    help: str = ""  # `help=` when it is a string literal, else ""

    @property
    def positional(self) -> bool:
        """A positional argument, not an option."""
        return not any(s.startswith("-") for s in self.strings)


@record(frozen=True)
class ParserDef:
    """One `ArgumentParser(...)` construction."""

    file: str
    line: int
    column: int
    function: str
    allow_abbrev: object  # True (argparse's default), False, or None when not a literal
    add_help: bool
    has_parents: bool  # parents=[...]: options of other parsers, not followed
    prefix_chars: object = "-"  # what starts an option; None when not a literal


@record(frozen=True)
class Target:
    """What a name holds: a parser built in this file (its ParserDef) or parameter `index` of the
    function, or a group of either."""

    parser: object  # a ParserDef, or None for a parameter
    index: int = -1


@record(frozen=True)
class Handoff:
    """`f(parser)`: a call that gives a parser (or a parameter) to another function."""

    function: str  # the caller's qualname
    target: Target
    callee: str  # the name called, as written: `f` or `mod.f`
    argument: int  # the argument index the target is passed at
    line: int


@record
class FileOptions:
    """Everything options.py reads in one file."""

    file: str
    parsers: list = factory(list)
    options: list = factory(list)  # (Target, OptionDef)
    handoffs: list = factory(list)
    hooks: list = factory(list)  # (Target, line): `provider(parser)` with provider a parameter
    passed: list = factory(list)  # (name as written, line): functions handed to a call as values
    known_args: list = factory(list)  # (Target or None, line): `.parse_known_args(...)`
    strict_args: list = factory(list)  # (Target or None, line): `.parse_args()` of the command line
    # (Target or None, line): `.parse_args(words)`, a list of the code's own (not None nor
    # sys.argv[1:]): what it parses need not be the launch's words
    given_args: list = factory(list)
    ignore_unknown: list = factory(list)  # lines of a call with `ignore_unknown_args=True`
    # (Target, line, why, qualname): what adds options packgate cannot list (`add_argument(*names)`,
    # `add_subparsers`), so the target's option set is not complete
    opaque: list = factory(list)
    imports: dict = factory(dict)  # local name -> (module, name or None), level-resolved later
    defs: set = factory(set)  # qualnames of functions defined here


def file_options(parsed: Parsed, file: str) -> FileOptions:
    """The options, parsers and hand-offs of one parsed file."""
    out = FileOptions(file)
    for piece in parsed.pieces:
        _Reader(out, parsed, piece).module(piece.tree)
    known = out.defs | set(out.imports)
    out.passed = [(ref, line) for ref, line in out.passed if ref.split(".")[0] in known]
    return out


class _Reader:
    """Reads one tree function by function; bindings are per function, in source order."""

    def __init__(self, out: FileOptions, parsed: Parsed, piece):
        self.out, self.parsed, self.piece = out, parsed, piece
        self.qualname = MODULE

    def module(self, tree) -> None:
        self.function(tree, MODULE, [])

    def function(self, node, qualname: str, params: list) -> None:
        out = self.out
        if qualname != MODULE:
            out.defs.add(qualname)
        outer, self.qualname = self.qualname, qualname
        binds: dict = {p: Target(None, i) for i, p in enumerate(params)}
        # the function's own nodes in source order; nested functions and classes are read as
        # their own, and an add_argument call once read is not entered (its help texts and
        # defaults are most of an arguments file's nodes)
        stack = list(reversed(list(ast.iter_child_nodes(node))))
        while stack:
            stmt = stack.pop()
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = [a.arg for a in stmt.args.posonlyargs + stmt.args.args]
                inner = stmt.name if qualname == MODULE else f"{qualname}.{stmt.name}"
                self.function(stmt, inner, args)
                continue
            if isinstance(stmt, ast.ClassDef):
                self.function(stmt, stmt.name if qualname == MODULE else f"{qualname}.{stmt.name}", [])
                continue
            if isinstance(stmt, (ast.Lambda, ast.Constant, ast.Name)):
                continue
            if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                if qualname == MODULE:
                    self.imports(stmt)
                continue
            if isinstance(stmt, ast.Assign):
                target = self.target(stmt.value, binds)
                for t in stmt.targets:
                    if isinstance(t, ast.Name) and target is not None:
                        binds[t.id] = target
            elif isinstance(stmt, ast.Call) and self.call(stmt, qualname, params, binds):
                continue
            stack.extend(reversed(list(ast.iter_child_nodes(stmt))))
        self.qualname = outer

    def imports(self, stmt) -> None:
        if isinstance(stmt, ast.Import):
            for a in stmt.names:
                self.out.imports[a.asname or a.name.split(".")[0]] = (a.name if a.asname else a.name.split(".")[0], None, 0)
        else:
            for a in stmt.names:
                self.out.imports[a.asname or a.name] = (stmt.module or "", a.name, stmt.level)

    def target(self, expr, binds):
        """What an expression holds, when it is a parser, a parameter or a group of one."""
        if isinstance(expr, ast.Name):
            return binds.get(expr.id)
        if not isinstance(expr, ast.Call):
            return None
        func = expr.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in _PARSERS:
            return Target(self.parser(expr))
        if name in _GROUPS and isinstance(func, ast.Attribute):
            return self.target(func.value, binds)
        # `parser = _add_x_args(parser)`: the helper hands back the parser it was given
        for arg in expr.args:
            if isinstance(arg, ast.Name) and arg.id in binds:
                return binds[arg.id]
        return None

    def parser(self, call) -> ParserDef:
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        abbrev = _literal(kw["allow_abbrev"]) if "allow_abbrev" in kw else True
        add_help = _literal(kw["add_help"]) if "add_help" in kw else True
        prefix = _literal(kw["prefix_chars"]) if "prefix_chars" in kw else "-"
        line = call.lineno + self.piece.line0
        made = ParserDef(self.out.file, line, column(self.parsed.lines, line, call.col_offset + self.piece.col0),
                         self.qualname, abbrev if isinstance(abbrev, bool) else None,
                         add_help is not False, "parents" in kw, prefix if isinstance(prefix, str) else None)
        if made not in self.out.parsers:
            self.out.parsers.append(made)
        return made

    def call(self, call, qualname: str, params: list, binds: dict) -> bool:
        """Read one call; True when it was an add_argument (nothing inside it is read then)."""
        out = self.out
        line = call.lineno + self.piece.line0
        func = call.func
        if _last_name(func) in _PARSERS:  # built but not kept in a name (`return ArgumentParser(...)`)
            self.parser(call)
        for k in call.keywords:
            if k.arg == "ignore_unknown_args" and _literal(k.value) is True:
                out.ignore_unknown.append(line)
        for value in list(call.args) + [k.value for k in call.keywords]:
            ref = _dotted(value)
            if ref is not None and ref not in binds:
                out.passed.append((ref, line))
        if isinstance(func, ast.Attribute):
            receiver = self.target(func.value, binds)
            if func.attr == "add_argument" and receiver is not None:
                out.options.extend((receiver, o) for o in self.option(call, qualname))
                if not all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in call.args):
                    out.opaque.append((receiver, line, "option strings that are not literals", qualname))
                return True
            if func.attr == "add_subparsers" and receiver is not None:
                out.opaque.append((receiver, line, "subcommands (add_subparsers)", qualname))
            if func.attr == "parse_known_args":
                out.known_args.append((receiver, line))
            elif func.attr == "parse_args":
                given = [a for a in call.args[:1]] + [k.value for k in call.keywords if k.arg == "args"]
                if any(not _command_line(a) for a in given):
                    out.given_args.append((receiver, line))
                else:
                    out.strict_args.append((receiver, line))
        if isinstance(func, ast.Name) and func.id in params:
            for arg in call.args:
                t = self.target(arg, binds)
                if t is not None:
                    out.hooks.append((t, line))
            return False
        callee = _dotted(func)
        if callee is None:
            return False
        for i, arg in enumerate(call.args):
            t = self.target(arg, binds) if isinstance(arg, ast.Name) else None
            if t is not None:
                out.handoffs.append(Handoff(qualname, t, callee, i, line))
        return False

    def option(self, call, qualname: str) -> list:
        strings = tuple(a.value for a in call.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
        if not strings:
            return []
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        spread = any(k.arg is None for k in call.keywords)  # `**kwargs`: action and nargs unknown
        action = UNKNOWN_TYPE if spread and "action" not in kw else None
        if "action" in kw:
            a = kw["action"]
            action = a.value if isinstance(a, ast.Constant) else _last_name(a) or UNKNOWN_TYPE
        if action == "BooleanOptionalAction":
            strings = strings + tuple("--no-" + s[2:] for s in strings if s.startswith("--"))
        typ = UNKNOWN_TYPE if spread and "type" not in kw else None
        if "type" in kw:
            typ = _last_name(kw["type"]) or ("lambda" if isinstance(kw["type"], ast.Lambda) else UNKNOWN_TYPE)
        choices = UNKNOWN_TYPE if spread and "choices" not in kw else None
        if "choices" in kw:
            value = _literal(kw["choices"])
            choices = tuple(value) if isinstance(value, (list, tuple, set, frozenset)) else UNKNOWN_TYPE
        nargs = UNKNOWN_TYPE if spread and "nargs" not in kw else None
        if "nargs" in kw:
            value = _literal(kw["nargs"])
            nargs = value if isinstance(value, (int, str)) else UNKNOWN_TYPE
        dest = _literal(kw["dest"]) if "dest" in kw else None
        if not isinstance(dest, str):
            longs = [s for s in strings if s.startswith("--")]
            first = longs[0] if longs else strings[0]
            dest = first.lstrip("-").replace("-", "_")
        line = call.lineno + self.piece.line0
        return [OptionDef(strings, dest, typ, choices, nargs, action, self.out.file, line,
                          column(self.parsed.lines, line, call.col_offset + self.piece.col0), qualname,
                          _default_text(kw["default"]) if "default" in kw else "", _help_text(kw.get("help")))]


def _default_text(node) -> str:
    """A default as the editor shows it: a literal's repr, a name as dotted, else UNKNOWN_TYPE
    (never unparsed: an arguments file has a thousand of them and the index must stay cheap)."""
    if isinstance(node, ast.Constant):
        return repr(node.value)
    if isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.UnaryOp)):
        value = _literal(node)
        return UNKNOWN_TYPE if value is UNKNOWN_TYPE else repr(value)
    return _dotted(node) or UNKNOWN_TYPE


def _help_text(node) -> str:
    """A help text given as a string literal (implicitly joined ones included), else ""."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else ""


def _command_line(node) -> bool:
    """`None` or `sys.argv[1:]`: what argparse parses when given nothing."""
    if isinstance(node, ast.Constant) and node.value is None:
        return True
    return (isinstance(node, ast.Subscript) and _dotted(node.value) == "sys.argv"
            and isinstance(node.slice, ast.Slice) and node.slice.upper is None and node.slice.step is None
            and isinstance(node.slice.lower, ast.Constant) and node.slice.lower.value == 1)


def _literal(node):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return UNKNOWN_TYPE


def _last_name(node):
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _dotted(node):
    """`f` or `a.b.f` as written, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))
