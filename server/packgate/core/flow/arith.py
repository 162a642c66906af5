"""Bash arithmetic (`(( ))`, `let`, a `declare -i` variable's assignments), evaluated over
what the script spells: integer literals (decimal, 0x, leading-0 octal, BASE#digits) and
variables whose values the path knows. Anything else (a variable the path does not know, an
array element, a division by zero, a syntax bash would refuse) makes the result unknown: None.

`evaluate(text, lookup)` returns the value and the assignments the expression makes, in order
((name, value or None)); lookup(name) gives a variable's text, None when unknown, "" when unset.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Callable, Optional

MAX_DEPTH = 16  # a variable whose value is an expression naming another...: bash's limit is higher
_MASK = (1 << 64) - 1

_TOKEN = re.compile(r"\s*(?:(?P<num>[0-9][0-9A-Za-z_@#]*)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|"
                    r"(?P<op>\*\*=|<<=|>>=|\+\+|--|\*\*|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&^|]=|[-+*/%<>=!~&^|?:,()]))")
_REF = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*|[0-9]))")


class Unknown(Exception):
    """The expression's value cannot be told here."""


def _signed(v: int) -> int:
    """Wrap to bash's 64-bit signed integers."""
    v &= _MASK
    return v - (1 << 64) if v >> 63 else v


def number(text: str) -> int:
    """An integer constant as bash reads it (raises Unknown for what it would refuse)."""
    try:
        if "#" in text:
            base, _, digits = text.partition("#")
            b = int(base, 10)
            if not 2 <= b <= 64:
                raise Unknown(text)
            if b > 36:
                raise Unknown(text)  # @ and _ digits: rare, not modelled
            return int(digits, b)
        if text[:2] in ("0x", "0X"):
            return int(text[2:], 16)
        if len(text) > 1 and text[0] == "0":
            return int(text, 8)
        return int(text, 10)
    except ValueError:
        raise Unknown(text) from None


class _Parser:
    """A precedence-climbing evaluator over one expression's tokens (bash's operator table)."""

    def __init__(self, text: str, lookup: Callable[[str], Optional[str]], depth: int):
        self.tokens, self.at = _tokens(text), 0
        self.lookup, self.depth = lookup, depth
        self.assigned: list = []
        self.values: dict = {}  # what this expression assigned so far: later reads see it

    def peek(self) -> Optional[str]:
        return self.tokens[self.at][1] if self.at < len(self.tokens) else None

    def take(self) -> tuple:
        tok = self.tokens[self.at]
        self.at += 1
        return tok

    def expect(self, op: str) -> None:
        if self.peek() != op:
            raise Unknown(op)
        self.at += 1

    def variable(self, name: str) -> int:
        if name in self.values:
            return self.values[name]
        text = self.lookup(name)
        if text is None:
            raise Unknown(name)
        text = text.strip()
        if text == "":
            return 0
        if self.depth >= MAX_DEPTH:
            raise Unknown(name)
        value, _ = _evaluate(text, self.lookup, self.depth + 1)
        if value is None:
            raise Unknown(name)
        return value

    def assign(self, name: str, value: int) -> int:
        value = _signed(value)
        self.values[name] = value
        self.assigned.append((name, value))
        return value

    # comma < assignment < ?: < || < && < | < ^ < & < == != < < > <= >= < << >> < + - < * / % < ** < unary
    def comma(self) -> int:
        v = self.assignment()
        while self.peek() == ",":
            self.at += 1
            v = self.assignment()
        return v

    def assignment(self) -> int:
        if self.at + 1 < len(self.tokens) and self.tokens[self.at][0] == "name" and \
                self.tokens[self.at + 1][1] in _ASSIGN_OPS:
            name = self.take()[1]
            op = self.take()[1]
            right = self.assignment()
            if op == "=":
                return self.assign(name, right)
            return self.assign(name, _binary(op[:-1], self.variable(name), right))
        return self.ternary()

    def ternary(self) -> int:
        cond = self.binary(0)
        if self.peek() != "?":
            return cond
        self.at += 1
        yes = self.assignment()
        self.expect(":")
        no = self.assignment()
        return yes if cond else no

    def binary(self, level: int) -> int:
        if level == len(_LEVELS):
            return self.power()
        left = self.binary(level + 1)
        ops = _LEVELS[level]
        while self.peek() in ops:
            op = self.take()[1]
            right = self.binary(level + 1)
            left = _binary(op, left, right)
        return left

    def power(self) -> int:
        base = self.unary()
        if self.peek() == "**":
            self.at += 1
            exp = self.power()  # right-associative
            if exp < 0:
                raise Unknown("**")
            return _signed(base ** min(exp, 4096)) if abs(base) > 1 else _signed(base ** exp)
        return base

    def unary(self) -> int:
        tok = self.peek()
        if tok in ("+", "-", "!", "~"):
            self.at += 1
            v = self.unary()
            return v if tok == "+" else _signed(-v) if tok == "-" else int(not v) if tok == "!" else _signed(~v)
        if tok in ("++", "--"):
            self.at += 1
            kind, name = self.take() if self.at < len(self.tokens) else ("", "")
            if kind != "name":
                raise Unknown(tok)
            return self.assign(name, self.variable(name) + (1 if tok == "++" else -1))
        return self.postfix()

    def postfix(self) -> int:
        if self.at >= len(self.tokens):
            raise Unknown("end")
        kind, text = self.take()
        if kind == "num":
            return _signed(number(text))
        if kind == "name":
            if self.peek() in ("++", "--"):
                op = self.take()[1]
                old = self.variable(text)
                self.assign(text, old + (1 if op == "++" else -1))
                return old
            if self.peek() == "[":
                raise Unknown(text)  # an array element
            return self.variable(text)
        if text == "(":
            v = self.comma()
            self.expect(")")
            return v
        raise Unknown(text)


_ASSIGN_OPS = frozenset(("=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="))
_LEVELS = (("||",), ("&&",), ("|",), ("^",), ("&",), ("==", "!="), ("<", ">", "<=", ">="), ("<<", ">>"),
           ("+", "-"), ("*", "/", "%"))


def _binary(op: str, a: int, b: int) -> int:
    if op == "||":
        return int(bool(a) or bool(b))
    if op == "&&":
        return int(bool(a) and bool(b))
    if op in ("/", "%"):
        if b == 0:
            raise Unknown("division by 0")
        q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)  # C's truncation
        return _signed(q if op == "/" else a - q * b)
    if op in ("<<", ">>"):
        if b < 0:
            raise Unknown(op)
        return _signed(a << min(b, 64)) if op == "<<" else _signed(a >> min(b, 64))
    return _signed(_SIMPLE[op](a, b))


_SIMPLE = {"|": lambda a, b: a | b, "^": lambda a, b: a ^ b, "&": lambda a, b: a & b,
           "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b), "<": lambda a, b: int(a < b),
           ">": lambda a, b: int(a > b), "<=": lambda a, b: int(a <= b), ">=": lambda a, b: int(a >= b),
           "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b}


def _tokens(text: str) -> list:
    out, at = [], 0
    text = text.rstrip()
    while at < len(text):
        m = _TOKEN.match(text, at)
        if m is None or m.end() == at:
            raise Unknown(text[at:])
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        at = m.end()
    return out


def expand(text: str, lookup: Callable[[str], Optional[str]]) -> Optional[str]:
    """The expression with its `$X` / `${X}` replaced by their values (bash expands them before
    it evaluates); None when one is unknown or another expansion is in it."""
    if "$" not in text and "`" not in text:
        return text
    if "`" in text or "$(" in text:
        return None
    unknown = False

    def one(m) -> str:
        nonlocal unknown
        v = lookup(m.group(1) or m.group(2))
        if v is None:
            unknown = True
            return ""
        return v

    out = _REF.sub(one, text)
    return None if unknown or "$" in out else out


def _evaluate(text: str, lookup, depth: int) -> tuple:
    try:
        p = _Parser(text, lookup, depth)
        if not p.tokens:
            return 0, []
        value = p.comma()
        if p.at != len(p.tokens):
            return None, None
        return value, p.assigned
    except (Unknown, RecursionError):
        return None, None


def evaluate(text: str, lookup: Callable[[str], Optional[str]]) -> tuple:
    """(value or None, [(name, value or None)] the assignments it makes) of one expression.

    When the value is unknown, the names it would assign (those written before an assignment
    operator or next to ++/--) are returned with None: they change, to what is not known."""
    expanded = expand(text, lookup)
    if expanded is not None:
        value, assigned = _evaluate(expanded, lookup, 0)
        if value is not None:
            return value, assigned
    return None, [(name, None) for name in assigned_names(text)]


_ASSIGNED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[[^\]]*\]\s*)?(?:(?:\*\*|<<|>>|[-+*/%&^|])?=(?!=)|\+\+|--)|"
                       r"(?:\+\+|--)\s*([A-Za-z_][A-Za-z0-9_]*)")


def assigned_names(text: str) -> list:
    """The names an expression may assign, as written (for the unknown case and the static passes)."""
    out = []
    for m in _ASSIGNED.finditer(text):
        name = m.group(1) or m.group(2)
        if name not in out:
            out.append(name)
    return out


_NAMES = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def read_names(text: str) -> frozenset:
    """Every name an expression mentions (what its value may depend on, for the static passes)."""
    return frozenset(m.group(0) for m in _NAMES.finditer(text)
                     if not (m.start() > 0 and text[m.start() - 1] in "0123456789#"))
