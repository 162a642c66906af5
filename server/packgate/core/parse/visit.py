"""children(stmt): the statements directly inside a statement, the one walker every static pass
over the model uses (relevance, inertness, summaries, positional reads)."""

from __future__ import annotations

from .model import AndOr, Block, Case, Command, FuncDef, If, Loop, Sub

_NONE: tuple = ()


def _if(st: If) -> list:
    out = [b for cond, body, _ in st.clauses for b in (cond, body)]
    return out + [st.otherwise] if st.otherwise is not None else out


def _loop(st: Loop) -> list:
    return [st.body, st.cond] if st.cond is not None else [st.body]


# model type -> what it holds; assignments, exports, unsets and opaque statements hold nothing
_CHILDREN = {
    Block: lambda st: st.body,
    If: _if,
    Case: lambda st: [b for _, b, _ in st.items],
    AndOr: lambda st: [st.left, st.right],
    Loop: _loop,
    Sub: lambda st: [st.body],
    FuncDef: lambda st: [st.body],
    Command: lambda st: st.pre,  # the command substitutions its words run first
}


def children(st) -> list:
    """The statements (and blocks) directly inside st; () for a leaf. (A loop gives its body
    before its condition: the passes depend on no order, but keep the one they were written with.)"""
    get = _CHILDREN.get(type(st))
    return get(st) if get is not None else _NONE


def walk(top):
    """Every statement at or below top, outer before inner (iterative: depth costs no stack)."""
    stack = [top]
    while stack:
        st = stack.pop()
        yield st
        inner = children(st)
        if inner:
            stack.extend(reversed(inner))
