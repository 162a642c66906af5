"""tree-sitter-bash -> the script model: blocks, compound statements and directives.

`Builder.statement` looks a node's kind up in STATEMENTS (node type, by its kind_id -> a small
method); the simple commands and declarations are in simple.py, the words in words.py. The
paths every launcher takes (statements, commands, assignments, words) compare kind_ids, not
`Node.type` strings, and read text off the source's bytes. Recursion is bounded
by MAX_DEPTH: deeper constructs are kept as opaque statements.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from operator import attrgetter

from .contain import folded, piece
from .control import case_statement, function, if_statement, loop, test
from .grammar import ASCII_ONLY, KIND_NAMES, NAMED, PARSER, kind, kinds
from .model import (AndOr, Block, Command, Directive, DirectiveKind, Lit, Opaque, Occurrence, OccurrenceKind,
                    Opaque_, Script, Stmt, Sub, SubKind, Top, Unset, Word)
from .reuse import move_top, reusable
from .simple import _K_COMMENT, _PLAIN, SimpleBuilder
from .words import MAX_DEPTH

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

# a pattern, compiled on first use (re keeps it): most scripts hold no directive
DIRECTIVE = r"#\s*packgate\s+(disable|profile|source)\s*=\s*(\S+)"
# a comment that means to be a directive and is not one: `# packgate: disable=`, `#packgate
# disable PG001`, `# packgate disabled=`, `# Packgate Disable=` (intended() reads it)
LOOKALIKE = r"(?i)#\s*packgate(?![a-z0-9])([ \t]*[:_-]?[ \t]*)([a-z]+)(?![a-z0-9])([ \t]*[=:][ \t]*|[ \t]+|$)(\S*)"
KEYWORDS = ("disable", "profile", "source")
# what users of other linters write for disable (ruff's noqa, pylint's ignore...)
SYNONYMS = {"ignore": "disable", "noqa": "disable", "nolint": "disable", "skip": "disable",
            "suppress": "disable", "off": "disable", "disables": "disable", "disabled": "disable"}
# a plausible value when the `=` is missing: a rule code or name, `all`; a profile; a path
_RULE_LIKE = r"(?i:all|pg\d+|[a-z]+(?:-[a-z]+)+)"
_VALUE_LIKE = {"disable": _RULE_LIKE + "(," + _RULE_LIKE + ")*,?$",
               "profile": r"(?i)(ov\d+|three-gate|auto)$",
               "source": r"\S*(/|\.(sh|bash|env|conf|cfg))\S*$"}


def intended(text: str) -> Optional[str]:
    """The directive a `# packgate ...` comment that is not one means (`# packgate
    disable=PG001`), or None when it does not look like a directive at all.

    A keyword spelled another way (`disabled`, `Disable`, `ignore`), a `:` or `-` after
    `packgate`, a `:` for the `=` or nothing after it; a missing `=` only when what follows is a
    plausible value (`# packgate disable PG001`, not `# packgate disable the check`); a list
    with blanks in it (`disable=PG001, PG002` or `disable=PG001 PG002`: the blank ends it)."""
    m = re.search(DIRECTIVE, text)
    if m is not None:
        tail = text[m.end():]
        if (m.group(2).endswith(",") and tail.strip()) or re.match(r"[ \t]+(,|(?i:pg\d+)(?![\w-]))", tail):
            values = [v for v in m.group(2).split(",") if v]
            at = 0
            while True:  # the list goes on up to prose
                more = re.match(r"[ \t]*,?[ \t]*([^\s,]+)", tail[at:])
                if more is None or not re.match(_RULE_LIKE + "$", more.group(1)):
                    break
                values.append(more.group(1))
                at += more.end()
            return f"# packgate {m.group(1)}={','.join(values)}"
        return None
    m = re.search(LOOKALIKE, text)
    if m is None:
        return None
    word, eq, value = m.group(2), m.group(3), m.group(4)
    key = word.lower()
    meant = key if key in KEYWORDS else SYNONYMS.get(key)
    if meant is None:
        from difflib import get_close_matches  # only for a comment that names packgate
        close = get_close_matches(key, KEYWORDS, n=1, cutoff=0.75)
        meant = close[0] if close else None
    if meant is None:
        return None
    if "=" not in eq and not re.match(_VALUE_LIKE[meant], value):
        return None  # prose: `# packgate disable the check here`
    value = value.rstrip("\r")
    return f"# packgate {meant}={value}" if value else f"# packgate {meant}=VALUE"


class Builder(SimpleBuilder):
    """Builds the model of one text (a whole document, a sourced file or a `bash -c` body)."""

    def __init__(self, data: bytes, base: int = 0, file: Optional[str] = None, tops: Optional[dict] = None):
        self.file = file
        self.tops = tops  # when set: record the top-level statements (start -> Top) here
        self.data = data
        self.base = base  # offset of `data` inside the real document (for `bash -c "..."` bodies)
        self.directives: list[Directive] = []
        self.occurrences: list[Occurrence] = []
        self.statements: list[tuple[int, int]] = []
        self.pending: list[Directive] = []
        self.seen_command = False
        self._pre: list = []  # command substitutions met in the words of the statement being built
        self.literals: dict = {}  # the literal words met, and the shapes of the strings (words.py)
        self.shapes: dict = {}

    # -- blocks
    def block(self, nodes, depth: int, start: int, end: int) -> Block:
        """The statements of a run of sibling nodes (comments become directives)."""
        body: list[Stmt] = []
        self.run(nodes, depth, body)
        return Block(start, end, body)

    def run(self, nodes, depth: int, body: list) -> None:
        """The statements of a run of sibling nodes, added to body."""
        items, kinds = [], []
        for n in nodes:
            k = n.kind_id
            if k in NAMED or k == _K_AMP:
                items.append(n)
                kinds.append(k)
        top = depth == 0 and self.tops is not None
        base, count = self.base, len(items)
        i = 0
        while i < count:
            node, k = items[i], kinds[i]
            if k == _K_COMMENT:
                found = len(self.directives)
                self.comment(node)
                if top and len(self.directives) == found:  # a plain comment: the next parse takes it over
                    self.tops[node.start_byte] = Top(node.end_byte, "comment", [], [], [])
                i += 1
                continue
            if k == _K_AMP:
                i += 1
                continue
            amp = items[i + 1] if i + 1 < count and kinds[i + 1] == _K_AMP else None
            if self.pending:  # the directives waiting for a command cover this one
                for dct in self.pending:
                    dct.scope_start, dct.scope_end = node.start_byte + base, node.end_byte + base
                self.pending = []
            if top:
                stmts = self.top_statement(node, k, amp)
            else:
                # a command of a block: what a `# packgate disable=` line before it covers
                self.statements.append((node.start_byte + base, node.end_byte + base))
                build = STATEMENTS.get(k)  # (statement()'s dispatch without its call: most pass here)
                stmts = build(self, node, depth + 1) if build is not None and depth <= MAX_DEPTH \
                    else self.statement(node, depth, k)
                if amp is not None:
                    stmts = self.background(node, stmts, amp)
            self.seen_command = True
            body.extend(stmts)
            i += 1 if amp is None else 2

    def reused_program(self, root, kept: list) -> Block:
        """The top level of a document after an edit: the items of the last parse in `kept`
        ((new start, Top, delta), reuse.reusable) taken over, moved, without visiting their
        nodes; only the root's children between them are built (where the edit was, and the
        statements a last parse could not keep: those with a directive, say)."""
        body: list[Stmt] = []
        data, at, nodes = self.data, 0, None
        # in a tree with an error, the pieces between kept items come by index (_broken_parts)
        broken = _broken_parts(root.children, kept) if root.has_error else None
        if broken is not None:
            kept, pieces, tail = broken
        for start, top, delta in kept:
            if broken is not None:
                gap, own = pieces[start]
                if gap:
                    self.run(gap, 0, body)
            elif start > at and data[at:start].strip(_BETWEEN):
                nodes = root.children if nodes is None else nodes
                self.run(_children_between(nodes, at, start), 0, body)
            if self._pre and top.type != "comment":
                # a command substitution left over by the statement before (a `case` subject's)
                # runs before this one: what the last parse kept of it lacks it
                nodes = root.children if nodes is None else nodes
                self.run(own if broken is not None else _children_between(nodes, start, top.end + delta), 0, body)
                at = top.end + delta
                continue
            at = top.end + delta
            self.take(start, top, delta, body)
        if broken is not None:
            self.run(tail, 0, body)
        elif data[at:].strip(_BETWEEN):
            self.run(_children_between(root.children if nodes is None else nodes, at, len(data)), 0, body)
        return Block(0, len(data), body)

    def take(self, start: int, top: Top, delta: int, body: list) -> None:
        """One item of the last parse taken over, moved by delta, into body."""
        if delta:
            move_top(top, delta)
        self.tops[start] = top
        if top.type == "comment":
            return
        self.occurrences.extend(top.occurrences)
        self.statements.extend(top.statements)
        waiting, self.pending = self.pending, []
        for dct in waiting:
            dct.scope_start, dct.scope_end = top.statements[0]
        self.seen_command = True
        body.extend(top.stmts)

    def contained_program(self, safe: bytes, kept: list, take: bool = True) -> Block:
        """The top level of a document read in pieces (parse/contain.py): the items in kept
        ((new start, Top, delta)) taken over, moved, and every stretch between them parsed on
        its own and built. take=False parses each kept item on its own too (what the same
        pieces give from scratch)."""
        body: list[Stmt] = []
        data, at = self.data, 0
        for start, top, delta in kept:
            if start > at and data[at:start].strip(_BETWEEN):
                self.run(piece(safe, at, start), 0, body)
            at = top.end + delta
            if not take or (self._pre and top.type != "comment"):
                # a command substitution left over by the stretch before runs before this item
                self.run(piece(safe, start, at), 0, body)
                continue
            self.take(start, top, delta, body)
        if data[at:].strip(_BETWEEN):
            self.run(piece(safe, at, len(data)), 0, body)
        return Block(0, len(data), body)

    def background(self, node, stmts: list, amp) -> list:
        """A statement followed by `&` runs in a child process."""
        if amp is None:
            return stmts
        inner = Block(self.s(node), self.e(node), stmts)
        return [Sub(self.s(node), self.e(amp), kind=SubKind.BACKGROUND, body=inner,
                    amp_start=self.s(amp), amp_end=self.e(amp))]

    def top_statement(self, node, k: int, amp=None) -> list:
        """A top-level statement (of kind k), built and recorded for the next parse to take over.

        A statement is recorded only when its model depends on nothing but its own bytes: it
        holds no directive (their scope reaches past it, and one in the first command is
        file-wide), no command substitution is pending around it, tree-sitter found no error in
        it, and it is a statement (error recovery can leave a bare `command_name` or `(` at the
        top level, which read alone would be a command). One that starts at byte 0 is never
        moved (nothing comes before it), so an offset of 0 in a moved statement always means
        "none"."""
        start, end = node.start_byte, (amp if amp is not None else node).end_byte
        o0, s0, d0 = len(self.occurrences), len(self.statements), len(self.directives)
        clean = not self._pre and self.base == 0
        self.statements.append((start, node.end_byte))
        stmts = self.background(node, self.statement(node, 0, k), amp)
        if clean and not self.pending and len(self.directives) == d0 and not self._pre \
                and not node.has_error and k in STATEMENTS:
            self.tops[start] = Top(end, KIND_NAMES[k], stmts, self.occurrences[o0:], self.statements[s0:])
        return stmts

    def comment(self, node) -> None:
        """A `# packgate ...` comment becomes a Directive (others are skipped); one that looks
        like a directive but is not one, a MALFORMED Directive ([its text, what it means]).

        A disable after code on its line (`export X=1  # packgate disable=PG001`) covers that
        line, up to the comment; on its own line it covers the next command, before the first
        command of a file the whole file."""
        at = node.start_byte
        if self.data[at:node.end_byte].lower().find(b"packgate") < 0:  # (`in` raises and clears an error)
            return
        text = self.text(node)
        m = re.search(DIRECTIVE, text)
        meant = intended(text)
        if meant is not None:  # after the directive of the same comment, if it has one
            malformed = Directive(self.s(node), self.e(node), DirectiveKind.MALFORMED,
                                  [text.rstrip("\r"), meant])
        if not m:
            if meant is not None:
                self.directives.append(malformed)
            return
        values = [v for v in m.group(2).split(",") if v]
        d = Directive(self.s(node), self.e(node), DirectiveKind(m.group(1)), values)
        line_start = max(self.data.rfind(b"\n", 0, at), self.data.rfind(b"\r", 0, at)) + 1
        trailing = self.data[line_start:at].strip(b" \t") != b""
        if m.group(1) == "disable" and trailing:
            d.scope_start, d.scope_end = line_start + self.base, self.s(node)
        elif m.group(1) == "disable" and not self.seen_command and self.base == 0:
            d.file_wide = True
        elif m.group(1) in ("disable", "source"):
            self.pending.append(d)
        self.directives.append(d)
        if meant is not None:
            self.directives.append(malformed)

    # -- statements
    def statement(self, node, depth: int, k: Optional[int] = None) -> list:
        """The model of one statement node (a list: some nodes give none, some several); k: its kind_id, if known."""
        if depth > MAX_DEPTH:
            return [Opaque_(self.s(node), self.e(node))]
        build = STATEMENTS.get(node.kind_id if k is None else k)
        # anything else (arithmetic, heredoc bodies, ...): nothing a check reads
        return build(self, node, depth + 1) if build is not None else []

    def plain_assignment(self, node, d: int) -> list:
        a = self.assignment(node, _PLAIN, d)
        return [*self.take_pre(), a] if a else []

    def assignments(self, node, d: int) -> list:
        items = [c for c in node.named_children if c.type == "variable_assignment"]
        return self.plain_assignments(items, self.s(node), self.e(node), d)

    def unset(self, node, d: int) -> list:
        names, option = [], ""
        if any(c.type in _DYNAMIC_NAMES for c in node.named_children):
            # `unset "${!PREFIX@}"`: the names come at run time, the handler's (flow.commands.unset)
            kw = node.children[0]
            words = [self.keyword_word(kw)] + self.argument_words(node.children[1:], d)
            return [Command(self.s(node), self.e(node), [], words, self.s(kw), self.e(kw), self.take_pre())]
        for c in node.named_children:
            if c.type in ("variable_name", "word"):
                name = self.text(c)
                if name.startswith("-"):
                    option += name[1:]
                    continue
                names.append((name, self.s(c), self.e(c)))
                self.occurrences.append(Occurrence(name, self.s(c), self.e(c), OccurrenceKind.UNSET))
        return [Unset(self.s(node), self.e(node), names=names, option=option)]

    def compound(self, node, d: int) -> list:
        kids = node.children
        if kids and kids[0].kind_id == _K_DOUBLE_PAREN:
            return self.arithmetic(node, d)
        return [self.block(kids, d, self.s(node), self.e(node))]

    def arithmetic(self, node, d: int) -> list:
        """`(( expr ))`: a command named `((` whose one word is the expression's text (its
        handler, flow.commands.arith, evaluates it as `let` does)."""
        kids = node.children
        s, e = self.s(node), self.e(node)
        inner_s = kids[0].end_byte
        inner_e = kids[-1].start_byte if len(kids) > 1 and kids[-1].type == "))" else node.end_byte
        self.collect_refs(node, d + 1)
        raw = self.data[inner_s:inner_e].decode("utf-8", "replace")
        head = Word([Lit("((", s, self.e(kids[0]))], s, self.e(kids[0]), "", "((", "((")
        expr = Word([Lit(raw, inner_s + self.base, inner_e + self.base)], inner_s + self.base,
                    inner_e + self.base, "", raw, raw)
        return [Command(s, e, [], [head, expr], s, self.e(kids[0]), self.take_pre())]

    def subshell(self, node, d: int) -> list:
        s, e = self.s(node), self.e(node)
        return [Sub(s, e, kind=SubKind.SUBSHELL, body=self.block(node.children, d, s, e))]

    def redirected(self, node, d: int) -> list:
        body = node.child_by_field_name("body")
        stdin = None
        for c in node.children:
            k = c.kind_id
            if k == _K_HERESTRING:
                stdin = self.herestring(c, d)
            elif k == _K_HEREDOC:
                stdin = self.heredoc(c, d)
        out = self.statement(body, d) if body is not None else []
        if stdin is not None and body is not None and body.kind_id == _K_COMMAND and out and type(out[-1]) is Command:
            out[-1].stdin = stdin
        return out

    def heredoc(self, node, d: int) -> Optional[Word]:
        """A here-document's text as a word: literal with a quoted delimiter (`<<'EOF'`), else
        its expansions read as in a double-quoted string."""
        start = next((c for c in node.children if c.type == "heredoc_start"), None)
        body = next((c for c in node.children if c.type == "heredoc_body"), None)
        if start is None or body is None:
            return None
        s, e = self.s(body), self.e(body)
        raw = self.text(body)
        quoted = any(ch in self.text(start) for ch in "'\\\"")
        if any(c.type == "<<-" for c in node.children):  # `<<-`: bash drops each line's leading tabs
            if not quoted:
                self.collect_refs(body, d + 1)
                return Word([Opaque("here-document", s, e)], s, e, '"', raw)
            raw = "\n".join(line.lstrip("\t") for line in raw.split("\n"))
            return Word([Lit(raw, s, e)], s, e, "'", raw, raw)
        if quoted:
            return Word([Lit(raw, s, e)], s, e, "'", raw, raw)
        parts: list = []
        prev = body.start_byte
        for c in body.children:
            if c.start_byte > prev:
                parts.append(Lit(self.data[prev:c.start_byte].decode("utf-8", "replace"),
                                 prev + self.base, c.start_byte + self.base))
            if c.type == "heredoc_content":
                txt = self.text(c)
                parts.append(Lit(txt.replace("\\$", "$") if "\\" in txt else txt, self.s(c), self.e(c)))
            else:
                self.parts(c, parts, d + 1, True)
            prev = c.end_byte
        if body.end_byte > prev:
            parts.append(Lit(self.data[prev:body.end_byte].decode("utf-8", "replace"), prev + self.base, e))
        if "\\" in raw and body.child_count == 0:
            parts = [Lit(raw.replace("\\$", "$"), s, e)]
        return self._finished(Word(parts, s, e, '"', raw))

    def pipeline(self, node, d: int) -> list:
        kids = node.children
        stages = [c for c in kids if c.kind_id in _STAGES]
        pipes = [c for c in kids if c.kind_id in _PIPES]
        base = self.base
        out = []
        for idx, stage in enumerate(stages):
            s, e = stage.start_byte + base, stage.end_byte + base
            sub = Sub(s, e, kind=SubKind.PIPELINE, body=Block(s, e, self.statement(stage, d)))
            if idx < len(pipes):
                pipe = pipes[idx]
                sub.pipe_start, sub.pipe_end = pipe.start_byte + base, pipe.end_byte + base
            out.append(sub)
        return [Block(self.s(node), self.e(node), out)]

    def and_or(self, node, d: int) -> list:
        s, e = self.s(node), self.e(node)
        # list := stmt (&& | ||) stmt, left-nested
        left_nodes, op, right_nodes, op_start = [], "&&", [], s
        for c in node.children:
            k = c.kind_id
            if k == _K_COMMENT:
                continue
            if k in _AND_OR:
                op, op_start = KIND_NAMES[k], c.start_byte + self.base
                left_nodes, right_nodes = right_nodes, []
                continue
            right_nodes.append(c)
        left = Block(s, op_start, [x for n in left_nodes for x in self.statement(n, d)])
        right = Block(op_start, e, [x for n in right_nodes for x in self.statement(n, d)])
        return [AndOr(s, e, left=left, op=op, right=right, op_start=op_start)]

    def negated(self, node, d: int) -> list:
        out = []
        for c in node.named_children:
            out.extend(self.statement(c, d))
        return [Block(self.s(node), self.e(node), out, negate=True)]

    def comment_statement(self, node, d: int) -> list:
        self.comment(node)
        return []

    def error(self, node, d: int) -> list:
        """What tree-sitter could not parse, as a block of what it recognised inside. Nothing in
        it is recorded for a later parse to take over: it was read in the error's context, which
        a parse of its bytes alone would not share."""
        tops, self.tops = self.tops, None
        try:
            return [self.block(node.children, d, self.s(node), self.e(node))]
        finally:
            self.tops = tops


# what may lie between two top-level items and hold nothing to build
_BETWEEN = b" \t\r\n;"


def _broken_parts(children: list, kept: list) -> tuple:
    """reused_program's pieces in a tree with a syntax error: (the kept items still taken over,
    {their start: (the root's children to build before it, its own nodes)}, the children after
    the last). Error recovery can leave zero-width nodes in blanks and put an unchanged
    statement inside an ERROR node, so the root's children are walked by index, and an item is
    taken over only where it is still a child of the root, with its type and extent (and no
    `&` newly after it)."""
    index = {c.start_byte: i for i, c in enumerate(children)}  # a zero-width node yields to the one after it
    taken, pieces, at = [], {}, 0
    for start, top, delta in kept:
        i, end = index.get(start), top.end + delta
        if i is None or i < at or children[i].type != top.type:
            continue
        n = 1 if children[i].end_byte == end else 2
        if n == 2 and not (i + 1 < len(children) and children[i + 1].type == "&" and children[i + 1].end_byte == end):
            continue
        if n == 1 and i + 1 < len(children) and children[i + 1].type == "&":
            continue
        taken.append((start, top, delta))
        pieces[start] = (children[at:i], children[i:i + n])
        at = i + n
    return taken, pieces, children[at:]


def _children_between(nodes: list, start: int, end: int) -> list:
    """Of the root's children, those from the first that ends after start to the last that
    starts before end. (Node.first_child_for_byte would find the first without listing the
    root's children, but tree_sitter 0.26 crashes when there is none.)"""
    i = bisect_right(nodes, start, key=_END)
    j = i
    while j < len(nodes) and nodes[j].start_byte < end:
        j += 1
    return nodes[i:j]


_END = attrgetter("end_byte")


# unset operands whose names come at run time
_DYNAMIC_NAMES = frozenset(("string", "concatenation", "simple_expansion", "expansion"))


# tree-sitter-bash node type -> the Builder method that models it (looked up by kind_id)
STATEMENTS = {kind(t): build for t, build in {
    "command": Builder.command,
    "declaration_command": Builder.declaration,
    "variable_assignment": Builder.plain_assignment,
    "variable_assignments": Builder.assignments,
    "unset_command": Builder.unset,
    "compound_statement": Builder.compound,
    "subshell": Builder.subshell,
    "redirected_statement": Builder.redirected,
    "pipeline": Builder.pipeline,
    "list": Builder.and_or,
    "negated_command": Builder.negated,
    "if_statement": if_statement,
    "case_statement": case_statement,
    "while_statement": loop,
    "for_statement": loop,
    "c_style_for_statement": loop,
    "function_definition": function,
    "test_command": test,
    "comment": Builder.comment_statement,
    "ERROR": Builder.error,
}.items()}
_K_AMP = kind("&")
_STAGES = NAMED - {_K_COMMENT}  # a pipeline's commands
_K_DOUBLE_PAREN, _K_COMMAND = kind("(("), kind("command")
_K_HERESTRING, _K_HEREDOC = kind("herestring_redirect"), kind("heredoc_redirect")
_PIPES, _AND_OR = kinds("|", "|&"), kinds("&&", "||")


def parse_bytes(data: bytes, base: int = 0, old_tree=None, file: Optional[str] = None,
                previous: Optional[Script] = None, edits: Optional[list] = None,
                keep: bool = False, cuts: Optional[list] = None) -> Script:
    """Parse bash bytes into a Script model (base: offset of data within the outer document).

    An editor's document passes keep=True, and on the next version the edited old tree, the
    model it gave (previous) and the edits since ((start, old end, new end) byte offsets, each
    on the text the one before it left): the top-level statements no edit touched are then
    taken from that model, moved, instead of being built again. That holds with a syntax error
    too: tree-sitter keeps the nodes outside its changed ranges as they were, and only a
    statement that is still a child of the root is taken over (_broken_parts).

    Unless the edit broke a statement so that tree-sitter folded untouched items into it
    (contain.folded): then the text is read in pieces (Builder.contained_program), the items
    no edit touched taken over and the stretches between them parsed on their own; the model
    says where it cut (Script.cuts) and keeps the old tree for the next parse, which reads the
    text whole again once it parses. cuts: the (start, end) items to read apart, from scratch.
    """
    # tree-sitter-bash's scanner calls isdigit() on raw code points (undefined above 255; it
    # crashes on some astral characters after `{`). Non-ASCII bytes only ever sit in words,
    # strings and comments, so the parser gets them as `x`: the same byte offsets, no risk.
    # The model still reads the real bytes.
    safe = data.translate(ASCII_ONLY) if not data.isascii() else data
    tree = PARSER.parse(safe, old_tree) if old_tree is not None else PARSER.parse(safe)
    root = tree.root_node
    keep = keep and base == 0 and file is None
    kept = contained = None
    if keep and old_tree is not None:
        changed = [(r.start_byte, r.end_byte) for r in old_tree.changed_ranges(tree)]
        kept = reusable(previous, edits, changed)
        if kept is not None and root.has_error:
            untouched = reusable(previous, edits, ())
            if folded(root, untouched, edits):
                contained = untouched
    b = Builder(data, base, file, {} if keep else None)
    if cuts is not None and base == 0 and file is None:
        body = b.contained_program(safe, [(s, Top(e, "", [], [], []), 0) for s, e in cuts], take=False)
    elif contained is not None:
        cuts = [(start, top.end + delta) for start, top, delta in contained]
        body = b.contained_program(safe, contained)
        tree = old_tree  # the next parse starts from the tree that still parses as the model reads
    elif kept is not None:
        body = b.reused_program(root, kept)
    else:
        body = b.block(root.children, 0, base, base + len(data))
    for dct in b.pending:  # a trailing directive covers nothing
        dct.scope_start, dct.scope_end = -1, -1
    return Script(body, b.directives, b.occurrences, b.statements, root.has_error, tree, tops=b.tops, cuts=cuts)
