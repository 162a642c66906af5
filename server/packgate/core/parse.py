"""tree-sitter-bash -> a small model of what a script does (statements, words, directives).

The model keeps byte spans of everything a rule may point at or a fix may edit. Recursion is
bounded by MAX_DEPTH: deeper constructs are kept as opaque statements, so a hostile nesting depth
costs nothing and cannot overflow the stack.
"""

from __future__ import annotations

import re
from typing import Optional, Union

import tree_sitter

from .records import factory, record


MAX_DEPTH = 120
MBS_FLAG = "--micro-batch-size"



def _bash_grammar():
    """tree-sitter-bash's grammar. The package's __init__ imports importlib.resources (with
    tempfile, shutil, bz2, lzma: about 5 ms, a twentieth of `packgate check one.sh`) only to
    read query files packgate never uses, so its compiled `_binding` module is loaded on its
    own when it is where the wheels put it; otherwise through the package as usual."""
    try:
        import importlib.machinery
        import os
        spec = importlib.machinery.PathFinder.find_spec("tree_sitter_bash")
        folder = spec.submodule_search_locations[0]
        suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
        found = [f for f in os.listdir(folder) if f.startswith("_binding.") and f.endswith(suffixes)]
        path = os.path.join(folder, found[0])
        loader = importlib.machinery.ExtensionFileLoader("tree_sitter_bash._binding", path)
        module = loader.create_module(importlib.machinery.ModuleSpec("tree_sitter_bash._binding", loader, origin=path))
        loader.exec_module(module)
        return module.language()
    except Exception:  # another layout: the package's own way
        import tree_sitter_bash
        return tree_sitter_bash.language()


_LANGUAGE = tree_sitter.Language(_bash_grammar())


def new_parser() -> tree_sitter.Parser:
    """A tree-sitter parser for bash."""
    return tree_sitter.Parser(_LANGUAGE)


_PARSER = new_parser()
_ASCII_ONLY = bytes(range(128)) + b"x" * 128


# ---------------------------------------------------------------- words

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


@record
class Opaque:
    """Something whose value the script cannot know statically ($(...), $((...)), globs...)."""

    reason: str
    start: int
    end: int


Part = Union[Lit, Ref, Opaque]


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
    refs: Optional[frozenset] = None  # the names it expands, at any depth: computed on first use, kept

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
    mode: str = "plain"  # plain | export | declare | local | readonly | prefix | env | docker
    exported: bool = False
    eq_end: int = 0  # byte just after '='
    decl_start: int = 0  # the enclosing declaration / statement (for fixes)
    decl_end: int = 0
    decl_items: int = 1  # how many names the declaration holds
    keyword: str = ""  # export / declare -x / ... as written
    file: Optional[str] = None  # set for assignments that live in a sourced file


@record
class ExportNames(Stmt):
    """export NAME... / declare -x NAME... without a value, or export -n NAME."""

    names: list = factory(list)  # [(name, start, end)]
    negate: bool = False


@record
class Unset(Stmt):
    """unset NAME..."""

    names: list = factory(list)


@record
class SetOpt(Stmt):
    """set -a / set +a / set -o allexport / set +o allexport."""

    allexport: bool = False


@record
class Command(Stmt):
    """A simple command: prefix assignments, then words."""

    prefix: list = factory(list)  # list[Assign] (mode="prefix")
    words: list = factory(list)  # list[Word]
    name_start: int = 0
    name_end: int = 0
    pre: list = factory(list)  # statements run before (command substitutions)


@record
class Block(Stmt):
    """A sequence of statements."""

    body: list = factory(list)


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


@record
class Sub(Stmt):
    """A child process: subshell, background job, pipeline stage or command substitution."""

    kind: str = "subshell"
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

    kind: str = "exit"


@record
class Opaque_(Stmt):
    """A statement too deep or too broken to model."""


@record(eq=True)
class Directive:
    """A `# packgate ...` comment."""

    start: int
    end: int
    kind: str  # "disable" | "profile" | "source"
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
    kind: str  # assign | export | expand | unset | prefix | env | docker | flag


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


@record
class _Top:
    """One top-level statement's share of a model, kept so that the parse after an edit
    elsewhere takes it instead of building it again (moved when the edit came before it)."""

    end: int
    type: str
    stmts: list
    occurrences: list
    statements: list


_SELF = r"""(?:"?\$\{?(?:0|BASH_SOURCE(?:\[0\])?)\}?"?)"""
_DIRNAME = r"""(?:"?\$\(\s*dirname\s+(?:--\s+)?""" + _SELF + r"""\s*\)"?)"""
_SCRIPT_DIR = re.compile(r"""^\$\(\s*(?:dirname\s+(?:--\s+)?""" + _SELF + r"""|cd\s+(?:--\s+)?"""
                         + _DIRNAME + r"""\s*(?:&&|;)\s*pwd(?:\s+-P)?)\s*\)$""")
_DIRECTIVE = re.compile(r"#\s*packgate\s+(disable|profile|source)\s*=\s*(\S+)")
_DECL_KEYWORDS = {"export", "declare", "typeset", "local", "readonly"}
_INTERESTING = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class _Builder:
    def __init__(self, data: bytes, base: int = 0, file: Optional[str] = None,
                 tops: Optional[dict] = None, reuse: Optional[dict] = None):
        self.file = file
        self.tops = tops  # when set: record the top-level statements (start -> _Top) here
        self.reuse = reuse  # new start -> (_Top, how far it moved) of the last parse
        self.data = data
        self.base = base  # offset of `data` inside the real document (for `bash -c "..."` bodies)
        self.directives: list[Directive] = []
        self.occurrences: list[Occurrence] = []
        self.statements: list[tuple[int, int]] = []
        self.pending: list[Directive] = []
        self.seen_command = False

    # -- helpers
    def text(self, node) -> str:
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def s(self, node) -> int:
        return node.start_byte + self.base

    def e(self, node) -> int:
        return node.end_byte + self.base

    # -- blocks
    def block(self, nodes, depth: int, start: int, end: int) -> Block:
        body: list[Stmt] = []
        items, types = [], []
        for n in nodes:
            if n.is_named:
                items.append(n)
                types.append(n.type)
            elif n.type == "&":
                items.append(n)
                types.append("&")
        i = 0
        while i < len(items):
            node, t = items[i], types[i]
            if t == "comment":
                self.comment(node)
                i += 1
                continue
            if t == "&":
                i += 1
                continue
            background = i + 1 < len(items) and types[i + 1] == "&"
            waiting, self.pending = self.pending, []
            amp = items[i + 1] if background else None
            if depth == 0 and self.tops is not None:
                stmts = self.top_statement(node, t, amp)
            else:
                # a command of a block: what a `# packgate disable=` line before it covers
                self.statements.append((self.s(node), self.e(node)))
                stmts = self.background(node, self.statement(node, depth, t), amp)
            self.seen_command = True
            for dct in waiting:
                dct.scope_start, dct.scope_end = self.s(node), self.e(node)
            body.extend(stmts)
            i += 2 if background else 1
        return Block(start, end, body)

    def background(self, node, stmts: list, amp) -> list:
        """A statement followed by `&` runs in a child process."""
        if amp is None:
            return stmts
        inner = Block(self.s(node), self.e(node), stmts)
        return [Sub(self.s(node), self.e(amp), kind="background", body=inner,
                    amp_start=self.s(amp), amp_end=self.e(amp))]

    def top_statement(self, node, t: str, amp=None) -> list:
        """A top-level statement: taken from the last parse when it is the same statement
        (same type and bytes, only moved), else built and recorded for the next parse.

        A statement is recorded only when its model depends on nothing but its own bytes: it
        holds no directive (their scope reaches past it, and one in the first command is
        file-wide), no command substitution is pending around it, and tree-sitter found no
        error in it. One that starts at byte 0 is never moved (nothing comes before it), so an
        offset of 0 in a moved statement always means "none"."""
        start, end = node.start_byte, (amp if amp is not None else node).end_byte
        if self.reuse:
            hit = self.reuse.get(start)
            if hit is not None and hit[0].end + hit[1] == end and hit[0].type == t:
                top, delta = hit
                if delta:
                    # moved in place: the last model is dropped once this one is built (a copy
                    # would cost twice as much, and statements are moved on most keystrokes)
                    for x in top.stmts:
                        _move(x, delta)
                    for o in top.occurrences:
                        o.start += delta
                        o.end += delta
                    top = _Top(end, t, top.stmts, top.occurrences,
                               [(a + delta, b + delta) for a, b in top.statements])
                self.occurrences.extend(top.occurrences)
                self.statements.extend(top.statements)
                self.tops[start] = top
                return top.stmts
        o0, s0, d0 = len(self.occurrences), len(self.statements), len(self.directives)
        clean = not getattr(self, "_pre", None) and self.base == 0
        self.statements.append((start, node.end_byte))
        stmts = self.background(node, self.statement(node, 0, t), amp)
        if clean and not self.pending and len(self.directives) == d0 and not getattr(self, "_pre", None) \
                and not node.has_error:
            self.tops[start] = _Top(end, t, stmts, self.occurrences[o0:], self.statements[s0:])
        return stmts

    def comment(self, node) -> None:
        if b"packgate" not in self.data[node.start_byte:node.end_byte]:
            return
        m = _DIRECTIVE.search(self.text(node))
        if not m:
            return
        values = [v for v in m.group(2).split(",") if v]
        d = Directive(self.s(node), self.e(node), m.group(1), values)
        if m.group(1) == "disable" and not self.seen_command and self.base == 0:
            d.file_wide = True
        elif m.group(1) in ("disable", "source"):
            self.pending.append(d)
        self.directives.append(d)

    # -- statements
    def statement(self, node, depth: int, t: Optional[str] = None) -> list:
        if t is None:
            t = node.type
        s, e = self.s(node), self.e(node)
        if depth > MAX_DEPTH:
            return [Opaque_(s, e)]
        d = depth + 1
        if t == "command":
            return self.command(node, d)
        if t == "declaration_command":
            return self.declaration(node, d)
        if t == "variable_assignment":
            a = self.assignment(node, "plain", d)
            return [*self.take_pre(), a] if a else []
        if t == "variable_assignments":
            out = []
            items = [c for c in node.named_children if c.type == "variable_assignment"]
            for c in items:
                a = self.assignment(c, "plain", d)
                if a:
                    a.decl_start, a.decl_end, a.decl_items = s, e, len(items)
                    out.extend(self.take_pre())
                    out.append(a)
            return out
        if t == "unset_command":
            names = []
            for c in node.named_children:
                if c.type in ("variable_name", "word"):
                    name = self.text(c)
                    if name.startswith("-"):
                        continue
                    names.append((name, self.s(c), self.e(c)))
                    self.occurrences.append(Occurrence(name, self.s(c), self.e(c), "unset"))
            return [Unset(s, e, names=names)]
        if t in ("compound_statement",):
            return [self.block(node.children, d, s, e)]
        if t == "subshell":
            return [Sub(s, e, kind="subshell", body=self.block(node.children, d, s, e))]
        if t == "redirected_statement":
            body = node.child_by_field_name("body")
            out = []
            for c in node.children:
                if c.type == "herestring_redirect":
                    for w in c.named_children:
                        self.word(w, d)
            return self.statement(body, d) if body is not None else out
        if t == "pipeline":
            stages = [c for c in node.named_children if c.type != "comment"]
            pipes = [c for c in node.children if c.type in ("|", "|&")]
            out = []
            for idx, stage in enumerate(stages):
                inner = self.statement(stage, d)
                sub = Sub(self.s(stage), self.e(stage), kind="pipeline",
                          body=Block(self.s(stage), self.e(stage), inner))
                if idx < len(pipes):
                    sub.pipe_start, sub.pipe_end = self.s(pipes[idx]), self.e(pipes[idx])
                out.append(sub)
            return [Block(s, e, out)]
        if t == "list":
            kids = [c for c in node.children if c.type != "comment"]
            # list := stmt (&& | ||) stmt, left-nested
            left_nodes, op, right_nodes, op_start = [], "&&", [], s
            for c in kids:
                if c.type in ("&&", "||"):
                    op, op_start = c.type, self.s(c)
                    left_nodes, right_nodes = right_nodes, []
                    continue
                right_nodes.append(c)
            left = Block(s, op_start, [x for n in left_nodes for x in self.statement(n, d)])
            right = Block(op_start, e, [x for n in right_nodes for x in self.statement(n, d)])
            return [AndOr(s, e, left=left, op=op, right=right, op_start=op_start)]
        if t == "negated_command":
            out = []
            for c in node.named_children:
                out.extend(self.statement(c, d))
            return out
        if t == "if_statement":
            return [self.if_statement(node, d)]
        if t == "case_statement":
            return [self.case_statement(node, d)]
        if t in ("while_statement", "for_statement", "c_style_for_statement"):
            cond_nodes = [c for i, c in enumerate(node.children)
                          if node.field_name_for_child(i) == "condition"]
            cond = self.block(cond_nodes, d, s, s) if cond_nodes else None
            items = []
            for i, c in enumerate(node.children):
                if node.field_name_for_child(i) == "value":
                    items.append(self.word(c, d))
            var_node = node.child_by_field_name("variable") if t == "for_statement" else None
            body_node = node.child_by_field_name("body")
            body = self.block(body_node.children, d, self.s(body_node), self.e(body_node)) \
                if body_node is not None else Block(s, e, [])
            loop = Loop(s, e, cond=cond, body=body)
            if var_node is not None and items:
                loop.var, loop.items = self.text(var_node), items
            return [loop]
        if t == "function_definition":
            name_node = node.child_by_field_name("name")
            body_node = node.child_by_field_name("body")
            name = self.text(name_node) if name_node is not None else ""
            body = Block(s, e, self.statement(body_node, d) if body_node is not None else [])
            return [FuncDef(s, e, name=name, body=body)]
        if t in ("test_command",):
            # the expansions a test reads, as the words of a command, so their reads count
            words = []
            stack = list(reversed(node.named_children))
            while stack:
                n = stack.pop()
                if n.type in ("simple_expansion", "expansion", "command_substitution"):
                    words.append(self.word(n, d))
                    continue
                if n.type == "variable_name":
                    self.occurrences.append(Occurrence(self.text(n), self.s(n), self.e(n), "expand"))
                stack.extend(reversed(n.named_children))
            test = Word([Lit("[[", s, s)], s, s, text="[[")
            return [Command(s, e, words=[test, *words], name_start=s, name_end=s, pre=self.take_pre())]
        if t == "comment":
            self.comment(node)
            return []
        if t == "ERROR":
            return [self.block(node.children, d, s, e)]
        # anything else (arithmetic, heredoc bodies, ...): look for expansions only
        return []

    def take_pre(self) -> list:
        pre, self._pre = getattr(self, "_pre", []), []
        return pre

    def if_statement(self, node, d: int) -> If:
        result = If(self.s(node), self.e(node))
        cond, body, kw = [], [], self.s(node)
        mode = "cond"
        for i, c in enumerate(node.children):
            ctype = c.type
            if ctype == "if":
                continue
            if ctype == "then":
                mode = "body"
                continue
            if ctype == "fi":
                continue
            if ctype in ("elif_clause", "else_clause"):
                continue
            if node.field_name_for_child(i) == "condition":
                cond.append(c)
            elif c.is_named:
                (cond if mode == "cond" else body).append(c)
        result.clauses.append((self.block(cond, d, kw, kw), self.block(body, d, kw, self.e(node)), kw))
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
                result.clauses.append((self.block(ccond, d, self.s(c), self.s(c)),
                                       self.block(cbody, d, self.s(c), self.e(c)), self.s(c)))
            elif c.type == "else_clause":
                result.otherwise = self.block(c.children, d, self.s(c), self.e(c))
                result.else_start = self.s(c)
        return result

    def case_statement(self, node, d: int) -> Case:
        result = Case(self.s(node), self.e(node))
        value = node.child_by_field_name("value")
        if value is not None:
            self.word(value, d)
        for c in node.named_children:
            if c.type != "case_item":
                continue
            pats, body = [], []
            seen_paren = False
            for i, x in enumerate(c.children):
                if x.type == ")" and not seen_paren:
                    seen_paren = True
                    continue
                if not seen_paren:
                    if c.field_name_for_child(i) == "value":
                        pats.append(self.text(x))
                elif x.is_named and c.field_name_for_child(i) != "termination":
                    body.append(x)
            pattern = "|".join(pats)
            if pattern in ("*", "*)"):
                result.has_default = True
            result.items.append((pattern, self.block(body, d, self.s(c), self.e(c)), self.s(c)))
        return result

    def declaration(self, node, d: int) -> list:
        kw_node = node.children[0]
        keyword = self.text(kw_node)
        flags = ""
        items = []
        for c in node.children[1:]:
            if c.type == "word" and self.text(c).startswith(("-", "+")):
                flags += self.text(c)
            elif c.type in ("variable_assignment", "variable_name"):
                items.append(c)
            elif c.type in ("word",) and _INTERESTING.match(self.text(c)):
                items.append(c)
        exported = keyword == "export" or (keyword in ("declare", "typeset") and "x" in flags
                                           and not flags.startswith("+"))
        negate = keyword == "export" and "n" in flags
        if keyword in ("declare", "typeset") and flags.startswith("+") and "x" in flags:
            negate = True
        mode = {"export": "export", "local": "local", "readonly": "readonly"}.get(keyword, "declare")
        written = keyword + ((" " + flags) if flags else "")
        out: list[Stmt] = []
        names = []
        s, e = self.s(node), self.e(node)
        for c in items:
            if c.type == "variable_assignment":
                a = self.assignment(c, mode, d)
                if a is None:
                    continue
                a.exported = exported and not negate
                a.decl_start, a.decl_end, a.decl_items = s, e, len(items)
                a.keyword = written
                if negate:
                    out.extend(self.take_pre())
                    out.append(a)
                    names.append((a.name, a.name_start, a.name_end))
                    continue
                out.extend(self.take_pre())
                out.append(a)
            else:
                name = self.text(c)
                names.append((name, self.s(c), self.e(c)))
                self.occurrences.append(Occurrence(name, self.s(c), self.e(c), "export"))
        if names and (exported or negate):
            out.append(ExportNames(s, e, names=names, negate=negate))
        return out

    def assignment(self, node, mode: str, d: int) -> Optional[Assign]:
        # one pass over the children: name, `=` or `+=`, value (field lookups by name cost more)
        name_node = value_node = eq = None
        append = False
        field = node.field_name_for_child
        for i, c in enumerate(node.children):
            f = field(i)
            if f == "name":
                name_node = c
            elif f == "value":
                if value_node is None:
                    value_node = c
            elif eq is None:
                t = c.type
                if t == "=" or t == "+=":
                    eq, append = c, t == "+="
        if name_node is None:
            return None
        if name_node.type == "subscript":  # A[i]=v: an element, never a gate
            inner = name_node.child_by_field_name("name")
            name_node = inner if inner is not None else name_node
        base = self.base
        name_start, name_end = name_node.start_byte + base, name_node.end_byte + base
        name = self.data[name_start - base:name_end - base].decode("utf-8", "replace")
        s, e = node.start_byte + base, node.end_byte + base
        a = Assign(s, e, name=name, name_start=name_start, name_end=name_end, append=append, mode=mode,
                   eq_end=eq.end_byte + base if eq is not None else name_end,
                   decl_start=s, decl_end=e, file=self.file)
        self.occurrences.append(Occurrence(name, name_start, name_end,
                                           "prefix" if mode == "prefix" else "assign"))
        if value_node is not None:
            if value_node.type == "array":
                a.array = [self.word(c, d) for c in value_node.children if c.is_named and c.type != "comment"]
            else:
                a.value = self.word(value_node, d)
        return a

    def command(self, node, d: int) -> list:
        prefix_nodes, words, name_node = [], [], None
        field = node.field_name_for_child
        for i, c in enumerate(node.children):
            f = field(i)
            if f == "name":
                name_node = c
            elif f == "argument":
                words.append(c)
            elif name_node is None or c.is_named:
                t = c.type
                if t == "variable_assignment" and name_node is None:
                    prefix_nodes.append(c)
                elif t in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
                    continue
                elif name_node is not None and t != "comment":
                    words.append(c)
        out: list[Stmt] = []
        # tree-sitter-bash sometimes glues standalone assignments on one line to the command on
        # the next: a prefix needs the command on the same logical line.
        if prefix_nodes and name_node is not None:
            gap = self.data[prefix_nodes[-1].end_byte:name_node.start_byte]
            if b"\n" in gap.replace(b"\\\r\n", b"").replace(b"\\\n", b""):
                for p in prefix_nodes:
                    a = self.assignment(p, "plain", d)
                    if a:
                        out.extend(self.take_pre())
                        out.append(a)
                prefix_nodes = []
        prefix = []
        for p in prefix_nodes:
            a = self.assignment(p, "prefix", d)
            if a:
                a.exported = True
                prefix.append(a)
        cmd_words = []
        if name_node is not None:
            inner = name_node.named_children[0] if name_node.named_children else name_node
            cmd_words.append(self.word(inner, d))
        for w in words:
            cmd_words.append(self.word(w, d))
        s = self.s(node)
        cmd = Command(s, self.e(node), prefix=prefix, words=cmd_words,
                      name_start=self.s(name_node) if name_node is not None else s,
                      name_end=self.e(name_node) if name_node is not None else s,
                      pre=self.take_pre())
        if not cmd_words:
            # only assignments (e.g. inside `A=1 B=2` glued): they are plain assignments
            for a in prefix:
                a.mode, a.exported = "plain", False
            out.extend(cmd.pre)
            out.extend(prefix)
            return out
        out.append(cmd)
        return out

    # -- words
    def word(self, node, d: int) -> Word:
        t = node.type
        if t in _PLAIN_WORDS:
            # the common case, a literal word or a quoted string without expansions: built
            # directly (the general walk below gives the same parts, at several times the cost)
            sb, eb = node.start_byte, node.end_byte
            raw_b = self.data[sb:eb]
            if (b"$" in raw_b or b"`" in raw_b or b"\\" in raw_b or eb - sb < 2) if t == "string" else \
                    (t != "raw_string" and node.child_count):
                if t == "string":
                    m = _ONE_REF_QUOTED.match(raw_b)
                    if m is not None:
                        return self._one_ref(m, raw_b, sb, True)
                return self._word(node, d, t)
            raw = raw_b.decode("utf-8", "replace")
            s, e = sb + self.base, eb + self.base
            if t == "string" or t == "raw_string":
                txt = raw[1:-1]
                parts = [Lit(txt, s + 1, e - 1)] if txt or t == "raw_string" else []
                w = Word(parts, s, e, '"' if t == "string" else "'", raw, txt)
            else:
                txt = _unescape(raw, False) if "\\" in raw else raw
                parts = [Lit(txt, s, e)]
                w = Word(parts, s, e, "", raw, txt)
            if txt.startswith(MBS_FLAG):
                rest = txt[len(MBS_FLAG):]
                if rest == "" or rest.startswith("="):
                    start = parts[0].start
                    self.occurrences.append(Occurrence(MBS_FLAG, start, start + len(MBS_FLAG), "flag"))
            return w
        if t == "expansion" or t == "simple_expansion":
            sb = node.start_byte
            raw_b = self.data[sb:node.end_byte]
            m = _ONE_REF.match(raw_b)
            if m is not None:
                return self._one_ref(m, raw_b, sb, False)
        return self._word(node, d, t)

    def _one_ref(self, m, raw_b: bytes, sb: int, quoted: bool) -> Word:
        """A word that is one plain expansion, "${X}", "$X", "${A[@]}" or the same unquoted
        (most arguments of a launcher): the parts the general walk gives, read off the bytes."""
        base = self.base
        s, e = sb + base, sb + len(raw_b) + base
        g = 1 if m.start(1) >= 0 else 3
        ns, ne = m.start(g) + s, m.end(g) + s
        name = m.group(g).decode("ascii")
        self.occurrences.append(Occurrence(name, ns, ne, "expand"))
        inner = 1 if quoted else 0
        ref = Ref(name, s + inner, e - inner, ns, ne, array_all=m.start(2) >= 0, quoted=quoted)
        w = Word([ref], s, e, '"' if quoted else "", raw_b.decode("ascii"))
        w.effects = name in _GATE_NAMES
        return w

    def _word(self, node, d: int, t: str) -> Word:
        parts: list = []
        quote = ""
        if t == "raw_string":
            quote = "'"
        elif t == "string":
            quote = '"'
        self.parts(node, parts, d, quoted=False)
        w = Word(parts, self.s(node), self.e(node), quote, self.text(node))
        w.text = w.literal()
        if w.text is None:
            w.effects = _has_effects(parts)
        for p in parts:
            if isinstance(p, Lit) and p.text.startswith(MBS_FLAG):
                rest = p.text[len(MBS_FLAG):]
                if rest == "" or rest.startswith("="):
                    self.occurrences.append(Occurrence(MBS_FLAG, p.start, p.start + len(MBS_FLAG), "flag"))
        return w

    def parts(self, node, out: list, d: int, quoted: bool) -> None:
        t = node.type
        if d > MAX_DEPTH:
            out.append(Opaque("too deeply nested", self.s(node), self.e(node)))
            return
        if t in ("word", "number", "string_content", "extglob_pattern", "special_variable_name"):
            out.append(Lit(_unescape(self.text(node), quoted), self.s(node), self.e(node)))
        elif t == "raw_string":
            txt = self.text(node)
            out.append(Lit(txt[1:-1] if len(txt) >= 2 else "", self.s(node) + 1, self.e(node) - 1))
        elif t == "ansi_c_string":
            txt = self.text(node)
            out.append(Lit(txt[2:-1], self.s(node) + 2, self.e(node) - 1))
        elif t in ("string", "translated_string"):
            prev_end = node.start_byte + (1 if t == "string" else 2)
            for c in node.children:
                if c.type == '"' or c.type == '$"':
                    continue
                # whitespace folded between children of a string is literal text
                if c.start_byte > prev_end:
                    gap = self.data[prev_end:c.start_byte].decode("utf-8", "replace")
                    out.append(Lit(gap, prev_end + self.base, c.start_byte + self.base))
                self.parts(c, out, d + 1, quoted=True)
                prev_end = c.end_byte
            if node.end_byte - 1 > prev_end and t == "string":
                gap = self.data[prev_end:node.end_byte - 1].decode("utf-8", "replace")
                if gap:
                    out.append(Lit(gap, prev_end + self.base, node.end_byte - 1 + self.base))
        elif t == "concatenation":
            for c in node.children:
                self.parts(c, out, d + 1, quoted)
        elif t == "simple_expansion":
            vn = next((c for c in node.named_children), None)
            if vn is None:
                out.append(Lit(self.text(node), self.s(node), self.e(node)))
                return
            name = self.text(vn)
            self.occurrences.append(Occurrence(name, self.s(vn), self.e(vn), "expand"))
            out.append(Ref(name, self.s(node), self.e(node), self.s(vn), self.e(vn), quoted=quoted))
        elif t == "expansion":
            out.append(self.expansion(node, d, quoted))
        elif t == "command_substitution" and _SCRIPT_DIR.match(self.text(node)):
            # $(dirname "$0"), $(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd): the script's folder
            out.append(Opaque("script-dir", self.s(node), self.e(node)))
        elif t == "command_substitution" or t == "process_substitution":
            saved, self._pre = getattr(self, "_pre", []), []
            body = self.block(node.children, d + 1, self.s(node), self.e(node))
            self._pre = saved + [Sub(self.s(node), self.e(node), kind="cmdsubst", body=body)]
            out.append(Opaque("the output of a command", self.s(node), self.e(node)))
        elif t == "arithmetic_expansion":
            self.collect_refs(node, d + 1)
            out.append(Opaque("arithmetic", self.s(node), self.e(node)))
        elif t in ("$",):
            out.append(Lit("$", self.s(node), self.e(node)))
        else:
            self.collect_refs(node, d + 1)
            out.append(Opaque(t, self.s(node), self.e(node)))

    def expansion(self, node, d: int, quoted: bool):
        name, ns, ne, op, arg, array_all = "", 0, 0, "", None, False
        arg_nodes = []
        seen_op = False
        field = node.field_name_for_child
        for i, c in enumerate(node.children):
            t = c.type
            if t == "${" or t == "}":
                continue
            if field(i) == "operator":
                op = self.text(c)
                seen_op = True
                continue
            if not seen_op and (t == "variable_name" or t == "special_variable_name") and not name:
                name, ns, ne = self.text(c), self.s(c), self.e(c)
                continue
            if not seen_op and t == "subscript" and not name:
                vn = c.child_by_field_name("name")
                idx = c.child_by_field_name("index")
                if vn is not None:
                    name, ns, ne = self.text(vn), self.s(vn), self.e(vn)
                if idx is not None and self.text(idx) in ("@", "*"):
                    array_all = True
                continue
            if seen_op:
                arg_nodes.append(c)
            elif t == "#" or t == "!":
                op = "other"
        if not name:
            return Opaque("expansion", self.s(node), self.e(node))
        self.occurrences.append(Occurrence(name, ns, ne, "expand"))
        if op not in ("", ":-", "-", ":=", "=", ":+", "+"):
            op = "other"
        if arg_nodes:
            parts: list = []
            for c in arg_nodes:
                self.parts(c, parts, d + 1, quoted)
            arg = Word(parts, self.s(arg_nodes[0]), self.e(arg_nodes[-1]))
        elif op in (":-", "-", ":=", "=", ":+", "+"):
            arg = Word([], ne, ne)
        return Ref(name, self.s(node), self.e(node), ns, ne, op=op, arg=arg, array_all=array_all,
                   quoted=quoted)

    def collect_refs(self, node, d: int) -> None:
        """Record variable mentions below node (iteratively) without modelling them."""
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type == "variable_name":
                self.occurrences.append(Occurrence(self.text(n), self.s(n), self.e(n), "expand"))
            elif n.type == "command_substitution":
                parts: list = []
                self.parts(n, parts, d + 1, False)
                continue
            stack.extend(n.children)


_GATE_NAMES = ("OFFLINE_PACKING_BMR", "OFFLINE_PACKED_DATA", "OFFLINE_PACKING_VQA")
_PLAIN_WORDS = frozenset(("word", "number", "string", "raw_string"))
# one expansion and nothing else, quoted or not: `"${X}"`, `"$X"`, `"${A[@]}"`, `${X}`, `$X`
# (groups: the braced name, its [@] or [*] subscript, the bare name)
_REF_BODY = rb"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(\[[@*]\])?\}|([A-Za-z_][A-Za-z0-9_]*))"
_ONE_REF_QUOTED = re.compile(rb'"' + _REF_BODY + rb'"\Z')
_ONE_REF = re.compile(_REF_BODY + rb"\Z")


def _has_effects(parts) -> bool:
    """True when evaluating the parts assigns (${X:=d}) or consults a gate."""
    stack = list(parts)
    while stack:
        p = stack.pop()
        if isinstance(p, Ref):
            if p.op in (":=", "=") or p.name in _GATE_NAMES:
                return True
            if p.arg is not None:
                stack.extend(p.arg.parts)
    return False


def _unescape(text: str, quoted: bool) -> str:
    if "\\" not in text:
        return text
    if quoted:
        return re.sub(r"\\([$`\"\\\n])", r"\1", text)
    return re.sub(r"\\(.)", r"\1", text, flags=re.S)


def parse_bytes(data: bytes, base: int = 0, old_tree=None, file: Optional[str] = None,
                previous: Optional[Script] = None, edits: Optional[list] = None,
                keep: bool = False) -> Script:
    """Parse bash bytes into a Script model (base: offset of data within the outer document).

    An editor's document passes keep=True, and on the next version the edited old tree, the
    model it gave (previous) and the edits since ((start, old end, new end) byte offsets, each
    on the text the one before it left): the top-level statements no edit touched are then
    taken from that model, moved, instead of being built again.
    """
    # tree-sitter-bash's scanner calls isdigit() on raw code points (undefined above 255; it
    # crashes on some astral characters after `{`). Non-ASCII bytes only ever sit in words,
    # strings and comments, so the parser gets them as `x`: the same byte offsets, no risk.
    # The model still reads the real bytes.
    safe = data.translate(_ASCII_ONLY) if not data.isascii() else data
    tree = _PARSER.parse(safe, old_tree) if old_tree is not None else _PARSER.parse(safe)
    root = tree.root_node
    keep = keep and base == 0 and file is None
    reuse = _reusable(previous, edits) if keep and old_tree is not None and not root.has_error else None
    b = _Builder(data, base, file, {} if keep else None, reuse)
    body = b.block(root.children, 0, base, base + len(data))
    for dct in b.pending:  # a trailing directive covers nothing
        dct.scope_start, dct.scope_end = -1, -1
    return Script(body, b.directives, b.occurrences, b.statements, root.has_error, tree, tops=b.tops)


def _reusable(previous: Optional[Script], edits: Optional[list]) -> Optional[dict]:
    """The previous model's top-level statements that no edit touched, by where they start
    now: new start -> (_Top, how far it moved)."""
    if previous is None or edits is None or not previous.tops or previous.has_error:
        return None
    out = {}
    for start, top in previous.tops.items():
        s, e = start, top.end
        for a, old_end, new_end in edits:
            if e < a:  # before the edit (not touching it)
                continue
            if s > old_end:  # after it: moved
                s += new_end - old_end
                e += new_end - old_end
                continue
            break  # touched
        else:
            out[s] = (top, s - start)
    return out


_POSITIONS = frozenset(("start", "end", "name_start", "name_end", "eq_end", "decl_start", "decl_end",
                        "amp_start", "amp_end", "pipe_start", "pipe_end", "else_start", "op_start"))


class _Movers(dict):
    """record class -> its moving function, generated on first use."""

    def __missing__(self, cls):
        mover = self[cls] = _make_mover(cls)
        return mover


_MOVERS = _Movers()
_SCALARS = frozenset(("text", "raw", "name", "quote", "op", "mode", "keyword", "kind", "reason", "var", "file",
                      "array_all", "quoted", "effects", "append", "exported", "decl_items", "negate",
                      "allexport", "has_default", "refs"))
_TUPLE_LISTS = frozenset(("names", "clauses", "items"))  # lists that may hold (.., offset) tuples


def _move(obj, delta: int) -> None:
    """Move a model record's byte offsets (and those of everything below it) by delta, in
    place. An offset of 0 stays 0: it means "none" (a moved statement starts after byte 0)."""
    _MOVERS[obj.__class__](obj, delta)


def _move_list(value: list, delta: int) -> None:
    for i, x in enumerate(value):
        if x.__class__ is tuple:  # (name, start, end), (cond, body, start), (pattern, body, start)
            value[i] = tuple((y + delta if y else y) if y.__class__ is int
                             else (y if y.__class__ is str else _moved_in(y, delta)) for y in x)
        else:
            _MOVERS[x.__class__](x, delta)


def _moved_in(value, delta: int):
    _MOVERS[value.__class__](value, delta)
    return value


def _make_mover(cls):
    """The moving function for one record class, generated once: the fields are known, so the
    walk below it costs one call per record (a generic walk costs several)."""
    lines = []
    for name in cls.__record_fields__:
        if name in _POSITIONS:
            lines.append(f"    if o.{name}: o.{name} += d")
        elif name in _SCALARS:
            continue
        elif name in _TUPLE_LISTS:
            lines.append(f"    v = o.{name}\n    if v: ml(v, d)")
        else:  # a record, or a list of records
            lines.append(f"    v = o.{name}\n    if v is not None:\n        if v.__class__ is list:\n"
                         f"            for x in v: M[x.__class__](x, d)\n        else: M[v.__class__](v, d)")
    env = {"M": _MOVERS, "ml": _move_list}
    exec("def move(o, d):\n" + ("\n".join(lines) or "    pass") + "\n", env)
    return env["move"]


def comment_interior(tree, data: bytes, start: int, end: int, inserted: bytes = b"") -> bool:
    """Whether replacing the byte range [start, end) of data with inserted (no line break)
    stays inside the text of one ordinary comment (after its `#`), so that it changes no syntax
    and no finding: not on the first line (a `#!` there moves the file-wide disable fix), not a
    `# packgate ...` directive before or after.

    tree describes data (edited with Tree.edit since its last parse is fine: tree-sitter moves
    the nodes with each edit); what it reports is checked against the bytes.
    """
    if tree is None or start > end or end > len(data):
        return False
    root = tree.root_node
    node = root.descendant_for_byte_range(start - 1, start) if start == end and start > 0 \
        else root.descendant_for_byte_range(start, end)
    if node is None or node.type != "comment":
        return False
    s, e = node.start_byte, node.end_byte
    if e > len(data):
        return False
    if data[e - 1:e] == b"\r":
        e -= 1  # tree-sitter-bash ends a comment after the \r of a CRLF
    if not (s < start and end <= e):
        return False
    text = data[s:e]
    if not text.startswith(b"#") or text.startswith(b"#!") or b"\n" in text or b"\r" in text:
        return False
    if e < len(data) and data[e] not in b"\r\n":
        return False  # a comment runs to the end of its line
    if s > 0 and data[s - 1] not in b" \t\r\n;&|(){}":
        return False  # `a#b` is a word, not a comment
    if s == 0 or b"\n" in inserted or b"\r" in inserted or b"\0" in inserted:
        return False
    after = data[s:start] + inserted + data[end:e]
    return b"packgate" not in text.lower() and b"packgate" not in after.lower()
