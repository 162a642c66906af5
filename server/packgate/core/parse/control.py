"""The builders of the control statements (if, case, loops, functions, `[[ ]]` tests), as
functions of the Builder they read the tree with (build.STATEMENTS names them beside the
Builder's own methods; each is called as `build(builder, node, depth)`)."""

from __future__ import annotations

from .brace import words_of
from .grammar import KIND_NAMES, kind, kinds
from .model import Block, Case, Command, FuncDef, If, Lit, Loop, Occurrence, OccurrenceKind, TestForm, Word

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

# the operand nodes a TestForm takes (an expansion, a word, a quoted string)
_TEST_WORDS = kinds("word", "string", "raw_string", "simple_expansion", "expansion")
_K_COMMENT, _K_TEST_OPERATOR = kind("comment"), kind("test_operator")
_K_UNARY, _K_BINARY = kind("unary_expression"), kind("binary_expression")
_EQUALITY = kinds("=", "==", "!=")


def loop(b, node, d: int) -> list:
    """`for`, `while`, `until` and C-style `for`: a Loop of its condition, items and body."""
    s, e = b.s(node), b.e(node)
    cond_nodes = [c for i, c in enumerate(node.children)
                  if node.field_name_for_child(i) == "condition"]
    cond = b.block(cond_nodes, d, s, s) if cond_nodes else None
    items = []
    for i, c in enumerate(node.children):
        if node.field_name_for_child(i) == "value":
            items.extend(words_of(b, c, d))
    var_node = node.child_by_field_name("variable") if node.type == "for_statement" else None
    body_node = node.child_by_field_name("body")
    body = b.block(body_node.children, d, b.s(body_node), b.e(body_node)) \
        if body_node is not None else Block(s, e, [])
    result = Loop(s, e, cond=cond, body=body, keyword=node.children[0].type if node.children else "")
    if var_node is not None and items:
        result.var, result.items = b.text(var_node), items
    return [result]


def function(b, node, d: int) -> list:
    """`name() { ...; }`: a FuncDef of its name and body."""
    s, e = b.s(node), b.e(node)
    name_node = node.child_by_field_name("name")
    body_node = node.child_by_field_name("body")
    name = b.text(name_node) if name_node is not None else ""
    body = Block(s, e, b.statement(body_node, d) if body_node is not None else [])
    return [FuncDef(s, e, name=name, body=body)]


def test(b, node, d: int) -> list:
    """`[[ ... ]]`: the expansions a test reads, as the words of a command, so their reads
    count; a test of one word against emptiness or a literal keeps its form."""
    s, e = b.s(node), b.e(node)
    head = Word([Lit("[[", s, s)], s, s, text="[[")
    found = test_form(b, node, d)
    if found is not None:
        form, subject = found
        return [Command(s, e, words=[head, subject], name_start=s, name_end=s, pre=b.take_pre(),
                        test=form)]
    words = []
    stack = list(reversed(node.named_children))
    while stack:
        n = stack.pop()
        if n.type in ("simple_expansion", "expansion", "command_substitution"):
            words.append(b.word(n, d))
            continue
        if n.type == "variable_name":
            b.occurrences.append(Occurrence(b.text(n), b.s(n), b.e(n), OccurrenceKind.EXPAND))
        stack.extend(reversed(n.named_children))
    return [Command(s, e, words=[head, *words], name_start=s, name_end=s, pre=b.take_pre())]


def test_form(b, node, d: int) -> Optional[tuple]:
    """(TestForm, the tested word) of `[ -z W ]`, `[ -n W ]`, `[[ W = lit ]]`, `[ W != lit ]`
    (else None)."""
    inner = [c for c in node.named_children if c.kind_id != _K_COMMENT]
    if len(inner) != 1:
        return None
    x = inner[0]
    k = x.kind_id
    if k == _K_UNARY:
        op = x.child_by_field_name("operator")
        operands = [c for c in x.named_children if c.kind_id != _K_TEST_OPERATOR]
        if op is None or b.text(op) not in ("-z", "-n") or len(operands) != 1 \
                or operands[0].kind_id not in _TEST_WORDS:
            return None
        return TestForm(b.text(op)), b.word(operands[0], d)
    if k != _K_BINARY:
        return None
    left, op, right = (x.child_by_field_name(f) for f in ("left", "operator", "right"))
    if op is None or op.kind_id not in _EQUALITY or left is None or right is None \
            or left.kind_id not in _TEST_WORDS or not plain_literal(b, right):
        return None
    subject, other = b.word(left, d), b.word(right, d)
    return TestForm("!=" if KIND_NAMES[op.kind_id] == "!=" else "=", other.literal() or ""), subject


def plain_literal(b, node) -> bool:
    """A word with no expansion, no escape and no pattern character (`sft`, "sft", 'sft')."""
    if node.type == "string":
        if any(c.type != "string_content" for c in node.named_children):
            return False
    elif node.type not in ("word", "raw_string"):
        return False
    return not any(ch in b.text(node) for ch in "*?[\\$`")


def if_statement(b, node, d: int) -> list:
    """if / elif / else: an If of its clauses (condition, body, where its keyword is) and else."""
    result = If(b.s(node), b.e(node))
    cond, body, kw = [], [], b.s(node)
    mode = "cond"
    for i, c in enumerate(node.children):
        ctype = c.type
        if ctype in ("if", "fi", "elif_clause", "else_clause"):
            continue
        if ctype == "then":
            mode = "body"
            continue
        if node.field_name_for_child(i) == "condition":
            cond.append(c)
        elif c.is_named:
            (cond if mode == "cond" else body).append(c)
    result.clauses.append((b.block(cond, d, kw, kw), b.block(body, d, kw, b.e(node)), kw))
    for c in node.children:
        if c.type == "elif_clause":
            ccond, cbody, mode = [], [], "cond"
            for x in c.children:
                if x.type in ("elif",):
                    continue
                if x.type == "then":
                    mode = "body"
                    continue
                if x.is_named:
                    (ccond if mode == "cond" else cbody).append(x)
            result.clauses.append((b.block(ccond, d, b.s(c), b.s(c)),
                                   b.block(cbody, d, b.s(c), b.e(c)), b.s(c)))
        elif c.type == "else_clause":
            result.otherwise = b.block(c.children, d, b.s(c), b.e(c))
            result.else_start = b.s(c)
    return [result]


def case_statement(b, node, d: int) -> list:
    """case: a Case of its subject and each arm's pattern, body and end (`;;`, `;&`, `;;&`)."""
    result = Case(b.s(node), b.e(node))
    value = node.child_by_field_name("value")
    if value is not None:
        result.subject = b.word(value, d)
    for c in node.named_children:
        if c.type != "case_item":
            continue
        pats, body = [], []
        seen_paren, end = False, ";;"
        for i, x in enumerate(c.children):
            if x.type == ")" and not seen_paren:
                seen_paren = True
                continue
            if not seen_paren:
                if c.field_name_for_child(i) == "value":
                    pats.append(b.text(x))
            elif c.field_name_for_child(i) in ("termination", "fallthrough"):
                end = x.type
            elif x.is_named:
                body.append(x)
        pattern = "|".join(pats)
        if pattern in ("*", "*)"):
            result.has_default = True
        result.items.append((pattern, b.block(body, d, b.s(c), b.e(c)), b.s(c)))
        result.ends.append(end)
    return [result]
