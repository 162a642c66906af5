"""Environment reads in one Python file: the name, how the value is parsed, its default, where.

A read is `os.environ.get("X", d)`, `os.getenv("X", d)`, `os.environ["X"]`,
`os.environ.setdefault("X", d)` or `"X" in os.environ`, also through a local alias (`import os as
_os`, `from os import environ, getenv`, `env = os.environ`). How the value is parsed is read off
what the code does to it next (`int(v) == 1`, `v == "1"`, `v.upper() in {...}`...), following a
value through plain local assignments in the same function (`v = os.environ.get("X", "0")`, then
`if int(v) == 1:`). Aliases and constants are the file's, whatever their scope.
"""

from __future__ import annotations

import ast

from .reading import Parsed, column, marked_lines
from .readkinds import Default, EnvRead, Parse  # noqa: F401  (read from here as well)


# how strongly a use says how the value is read: a parse that can raise wins
_RANK = {Parse.INT_EQ: 9, Parse.BOOL_INT: 9, Parse.INT: 8, Parse.FLOAT: 8, Parse.STR_EQ: 7, Parse.STR_NE: 7,
         Parse.IN_SET: 7, Parse.LOWER_EQ: 7, Parse.LOWER_IN: 7, Parse.UPPER_EQ: 7, Parse.UPPER_IN: 7,
         Parse.PRESENCE: 5, Parse.TRUTHY: 5, Parse.PATH: 4, Parse.STRING: 3, Parse.UNKNOWN: 0}
_PATH_CALLS = frozenset({"open", "Path", "PurePath", "PosixPath", "listdir", "makedirs", "mkdir", "scandir",
                         "glob", "exists", "isdir", "isfile", "join", "abspath", "realpath", "expanduser",
                         "dirname", "basename", "load_from_disk", "rmtree", "copy", "chdir"})
_STRIPS = frozenset({"strip", "lstrip", "rstrip"})
_TEXT_METHODS = frozenset({"split", "rsplit", "startswith", "endswith", "replace", "format", "encode", "find",
                           "partition", "splitlines", "isdigit", "isnumeric"})
_FOLLOW_HOPS = 3
# state of the value on the way up: as read, after int(), after .lower(), after .upper()
_RAW, _INT, _LOWER, _UPPER = range(4)


class Names:
    """What a file's names mean: os itself, os.environ, getenv-like functions, string constants."""

    __slots__ = ("os", "environ", "getenv", "consts")

    def __init__(self):
        self.os, self.environ, self.getenv, self.consts = {"os"}, set(), set(), {}

    def learn(self, node, module_level: bool) -> None:
        """Take one import or assignment into account."""
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name == "os":
                    self.os.add(a.asname or "os")
        elif isinstance(node, ast.ImportFrom) and node.module == "os" and not node.level:
            for a in node.names:
                if a.name == "environ":
                    self.environ.add(a.asname or a.name)
                elif a.name == "getenv":
                    self.getenv.add(a.asname or a.name)
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name, value = node.targets[0].id, node.value
            if self.is_environ(value):
                self.environ.add(name)
            elif self.is_getenv(value):
                self.getenv.add(name)
            elif module_level and isinstance(value, ast.Constant) and isinstance(value.value, str):
                self.consts[name] = value.value

    def is_environ(self, node) -> bool:
        """os.environ, or a name for it."""
        if isinstance(node, ast.Name):
            return node.id in self.environ
        return (isinstance(node, ast.Attribute) and node.attr == "environ"
                and isinstance(node.value, ast.Name) and node.value.id in self.os)

    def is_getenv(self, node) -> bool:
        """os.getenv, os.environ.get / .setdefault, or a name for one."""
        if isinstance(node, ast.Name):
            return node.id in self.getenv
        if not isinstance(node, ast.Attribute):
            return False
        if node.attr == "getenv":
            return isinstance(node.value, ast.Name) and node.value.id in self.os
        return node.attr in ("get", "setdefault") and self.is_environ(node.value)

    def text(self, node):
        """A string literal or a module constant's value, else None."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return self.consts.get(node.id)
        return None


def env_reads(parsed: Parsed, file: str) -> list:
    """Every environment read in a parsed file, in line order."""
    names = Names()
    learned = []
    for piece in parsed.pieces:  # module-level imports and aliases (the rest are on hit lines)
        for node in piece.tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign)):
                learned.append((node, piece, True))
    hits = {i + 1 for i, _ in marked_lines(parsed.data)}
    walks = []
    for piece in parsed.pieces:
        if piece.header:
            continue
        walk = _Walk(piece, hits)
        walk.run()
        learned.extend((n, piece, m) for n, m in walk.learned)
        walks.append(walk)
    # imports first, then assignments in source order (`env = _os.environ` needs `import os as _os`)
    learned.sort(key=lambda t: (isinstance(t[0], ast.Assign), t[0].lineno + t[1].line0))
    for node, _, module_level in learned:
        names.learn(node, module_level)
    aliases = names.environ | names.getenv
    if aliases:  # lines that use an alias (`env.get("X")`) hold reads too
        more = _alias_lines(parsed.lines, aliases) - hits
        if more:
            for walk in walks:
                walk.extend(more)
    found = []
    for walk in walks:
        piece = walk.piece
        for node in walk.order:
            hit = _read(node, names)
            if hit is None:
                continue
            name, value_node, default_kind, default = hit
            if default_kind is Default.NOT_APPLICABLE:
                kind, values, negated, at, lit = Parse.PRESENCE, (), False, node, None
            else:
                kind, values, negated, at, lit = _use(value_node, _RAW, walk, _FOLLOW_HOPS)
            if lit is not None and default_kind in (Default.NONE, Default.REQUIRED):
                default_kind, default = Default.LITERAL, lit  # os.environ.get("X") or "0"
            line = node.lineno + piece.line0
            found.append(EnvRead(name, kind, values, negated, default_kind, default, file, line,
                                 column(parsed.lines, line, node.col_offset + piece.col0), at.lineno + piece.line0))
    found.sort(key=lambda r: (r.line, r.column))
    return found


def _alias_lines(lines: list, aliases) -> set:
    """1-based numbers of the lines that use an alias of os.environ or os.getenv."""
    import re
    marks = [re.compile(rb"\b" + re.escape(a.encode()) + rb"\b").search for a in aliases]
    return {i for i, line in enumerate(lines, start=1) if any(m(line) for m in marks)}


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)


class _Walk:
    """One piece's nodes on the lines that may hold a read (the rest of a function is walked
    only when a read's value is followed through a local variable)."""

    __slots__ = ("piece", "hits", "parents", "scopes", "order", "learned", "loads", "_full", "_pending")

    def __init__(self, piece, hits: set):
        self.piece = piece
        self.hits = {h - piece.line0 for h in hits}
        self.parents: dict = {}
        self.scopes: dict = {}
        self.order: list = []  # visited nodes, for the read search
        self.learned: list = []  # (import or assignment, module level)
        self.loads: dict = {}  # scope -> name -> loads, filled when a scope is walked whole
        self._full: set = set()
        self._pending: list = []  # nodes skipped: their subtree spans no hit line

    def _spans_hit(self, node) -> bool:
        start = getattr(node, "lineno", None)
        if start is None:
            return True
        end = node.end_lineno or start
        if end - start < 8:
            return any(h in self.hits for h in range(start, end + 1))
        return any(start <= h <= end for h in self.hits)

    def run(self, roots=None) -> None:
        tree = self.piece.tree
        stack = roots if roots is not None else [(tree, tree)]
        pending = self._pending
        while stack:
            node, scope = stack.pop()
            inner = node if isinstance(node, _SCOPES) else scope
            self.scopes[node] = scope
            self.order.append(node)
            if isinstance(node, (ast.Import, ast.ImportFrom, ast.Assign)) and scope is not tree:
                self.learned.append((node, False))
            for child in ast.iter_child_nodes(node):
                self.parents[child] = node
                if self._spans_hit(child):
                    stack.append((child, inner))
                else:
                    pending.append((child, inner))

    def extend(self, more: set) -> None:
        """Walk the skipped subtrees that span lines found to hold reads after all."""
        self.hits |= {h - self.piece.line0 for h in more}
        again, self._pending = self._pending, []
        roots = []
        for child, scope in again:
            (roots if self._spans_hit(child) else self._pending).append((child, scope))
        self.run(roots)

    def loads_in(self, scope, name: str) -> list:
        """The loads of a name in a scope (its whole subtree walked once, parents recorded)."""
        if scope not in self._full:
            self._full.add(scope)
            table = self.loads.setdefault(scope, {})
            stack = [(scope, scope)]
            while stack:
                node, sc = stack.pop()
                inner = node if isinstance(node, _SCOPES) and node is not scope else sc
                self.scopes.setdefault(node, sc)
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and sc is scope:
                    table.setdefault(node.id, []).append(node)
                for child in ast.iter_child_nodes(node):
                    self.parents.setdefault(child, node)
                    stack.append((child, inner))
        return self.loads[scope].get(name, [])


def _read(node, names: Names):
    """(name, the node whose value is the read's, default kind, default) when node reads a variable."""
    if isinstance(node, ast.Call) and node.args and names.is_getenv(node.func):
        name = names.text(node.args[0])
        if name is None:
            return None
        given = node.args[1] if len(node.args) > 1 else next(
            (k.value for k in node.keywords if k.arg in ("default", "value")), None)
        if given is None:
            return name, node, Default.NONE, None
        try:
            return name, node, Default.LITERAL, _hashable(ast.literal_eval(given))
        except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
            return name, node, Default.UNKNOWN, None
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and names.is_environ(node.value):
        name = names.text(node.slice)
        return None if name is None else (name, node, Default.REQUIRED, None)
    if (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn))
            and names.is_environ(node.comparators[0])):
        name = names.text(node.left)
        return None if name is None else (name, node, Default.NOT_APPLICABLE, None)
    return None


def _hashable(value):
    if isinstance(value, (list, set, frozenset, tuple)):
        return tuple(_hashable(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((repr(k), _hashable(v)) for k, v in value.items()))
    return value


def _literals(node):
    """The literal values of a compared operand (a constant, or a tuple/list/set of them), else None."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError):
        return None
    if isinstance(value, (tuple, list, set, frozenset)):
        return tuple(sorted(value, key=repr))
    if isinstance(value, dict):
        return tuple(sorted(value, key=repr))
    return (value,)


def _use(node, state, walk, hops):
    """(parse, values, negated, the node where it is parsed, a literal default from `or`) of the
    value node holds."""
    lit = None
    cur = node
    parents = walk.parents
    while True:
        up = parents.get(cur)
        if up is None:
            return Parse.UNKNOWN, (), False, cur, lit
        if isinstance(up, ast.Call) and up.args and up.args[0] is cur:
            fn = up.func.id if isinstance(up.func, ast.Name) else up.func.attr if isinstance(up.func, ast.Attribute) else ""
            if fn == "int" and state == _RAW:
                state, cur = _INT, up
                continue
            if fn == "bool" and state == _INT:
                return Parse.BOOL_INT, (), False, up, lit
            if fn == "bool":
                return Parse.TRUTHY, (), False, up, lit
            if fn == "float" and state == _RAW:
                return Parse.FLOAT, (), False, up, lit
            if fn == "str" and state != _INT:
                cur = up
                continue
            if fn in _PATH_CALLS and state == _RAW:
                return Parse.PATH, (), False, up, lit
            return _settled(state), (), False, up, lit
        if isinstance(up, ast.Attribute) and up.value is cur and isinstance(parents.get(up), ast.Call) \
                and parents[up].func is up and state != _INT:
            call = parents[up]
            if up.attr in ("lower", "casefold"):
                state, cur = _LOWER, call
                continue
            if up.attr == "upper":
                state, cur = _UPPER, call
                continue
            if up.attr in _STRIPS:
                cur = call
                continue
            return (Parse.STRING if up.attr in _TEXT_METHODS else Parse.UNKNOWN), (), False, call, lit
        if isinstance(up, ast.BoolOp) and isinstance(up.op, ast.Or) and up.values[0] is cur and state == _RAW:
            last = up.values[-1]
            if isinstance(last, ast.Constant):
                lit = last.value
            cur = up
            continue
        if isinstance(up, ast.Compare) and len(up.ops) == 1:
            op = up.ops[0]
            other = up.comparators[0] if up.left is cur else up.left
            if isinstance(op, (ast.Is, ast.IsNot)):
                return Parse.PRESENCE, (), isinstance(op, ast.IsNot), up, lit
            values = _literals(other)
            negated = isinstance(op, (ast.NotEq, ast.NotIn))
            if values is None or not isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)):
                return _settled(state), (), False, up, lit
            member = isinstance(op, (ast.In, ast.NotIn))
            if member and up.left is not cur:
                return _settled(state), (), False, up, lit  # "x" in v: a substring test
            kind = {_INT: Parse.INT_EQ,
                    _LOWER: Parse.LOWER_IN if member else Parse.LOWER_EQ,
                    _UPPER: Parse.UPPER_IN if member else Parse.UPPER_EQ}.get(state)
            if kind is None:
                kind = Parse.IN_SET if member else Parse.STR_NE if negated else Parse.STR_EQ
            return kind, values, negated, up, lit
        if _is_test(up, cur):
            return (Parse.TRUTHY if state == _RAW else _settled(state)), (), False, up, lit
        if isinstance(up, (ast.Assign, ast.AnnAssign)) and up.value is cur and hops > 0:
            targets = up.targets if isinstance(up, ast.Assign) else [up.target]
            if len(targets) == 1 and isinstance(targets[0], ast.Name):
                return _follow(targets[0], up, state, walk, hops, lit)
            return _settled(state), (), False, up, lit
        if isinstance(up, (ast.FormattedValue, ast.JoinedStr)) or (
                isinstance(up, ast.BinOp) and isinstance(up.op, (ast.Add, ast.Mod))):
            return (_settled(state) if state != _RAW else Parse.STRING), (), False, up, lit
        return _settled(state), (), False, up, lit


def _settled(state) -> Parse:
    return Parse.INT if state == _INT else Parse.UNKNOWN


def _is_test(up, cur) -> bool:
    if isinstance(up, (ast.If, ast.While, ast.IfExp, ast.Assert)) and up.test is cur:
        return True
    if isinstance(up, ast.UnaryOp) and isinstance(up.op, ast.Not):
        return True
    return isinstance(up, ast.BoolOp) and isinstance(up.op, ast.And)


def _follow(target, assign, state, walk, hops, lit):
    """The strongest use of a local variable after its assignment."""
    scope = walk.scopes.get(assign)
    after = (assign.end_lineno or assign.lineno, assign.end_col_offset or 0)
    best = (Parse.UNKNOWN, (), False, assign, lit)
    for use in walk.loads_in(scope, target.id) if scope is not None else ():
        if (use.lineno, use.col_offset) < after:
            continue
        kind, values, negated, at, _ = _use(use, state, walk, hops - 1)
        if _RANK[kind] > _RANK[best[0]] or (_RANK[kind] == _RANK[best[0]] and kind is not Parse.UNKNOWN
                                             and at.lineno < best[3].lineno):
            best = (kind, values, negated, at, lit)
    if best[0] is Parse.UNKNOWN and state == _INT:
        return Parse.INT, (), False, assign, lit
    return best
