"""Simple commands, declarations (export, declare, typeset, local, readonly) and assignments,
read off tree-sitter nodes into Command and Assign records."""

from __future__ import annotations

from .brace import BRACED, braced_words, expansion, joined_word, may_brace, word_nodes, words_of
from .grammar import NAMED, PARSER, kind, kinds
from .model import Assign, AssignMode, Block, Command, ExportNames, Lit, Occurrence, OccurrenceKind, Opaque, Stmt, Word
from .words import _K_SUBSCRIPT, WordBuilder, is_name

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

# declaration items that are no name nor assignment as written: the names come at run time
_DYNAMIC_ITEMS = kinds("string", "raw_string", "concatenation", "simple_expansion", "expansion",
                       "command_substitution")

_F_NAME, _F_VALUE = PARSER.language.field_id_for_name("name"), PARSER.language.field_id_for_name("value")
_K_EQ, _K_PLUS_EQ, _K_ARRAY = kind("="), kind("+="), kind("array")
# an assignment's children: its name, its `=` and its value (a comment or an error is none)
_ASSIGNED, _EQUALS = kinds("variable_name", "subscript"), frozenset((_K_EQ, _K_PLUS_EQ))
_VALUES = NAMED - kinds("comment", "ERROR")
_ELEMENTS = NAMED - {kind("comment")}  # the words of an array literal
_K_COMMAND_NAME, _K_VARIABLE_ASSIGNMENT, _K_COMMENT = kind("command_name"), kind("variable_assignment"), kind("comment")
_K_WORD, _K_VARIABLE_NAME = kind("word"), kind("variable_name")
_K_HERESTRING = kind("herestring_redirect")
# the named children of a command after its name that are its words
_ARGUMENTS = NAMED - {_K_COMMAND_NAME, _K_HERESTRING, _K_COMMENT} - kinds("file_redirect", "heredoc_redirect")

_PLAIN, _PREFIX = AssignMode.PLAIN, AssignMode.PREFIX
_PREFIX_KIND, _ASSIGN_KIND = OccurrenceKind.PREFIX, OccurrenceKind.ASSIGN
_DECLARATION_MODES = {"export": AssignMode.EXPORT, "local": AssignMode.LOCAL, "readonly": AssignMode.READONLY}


def _expanding(builder, children: list) -> bool:
    """Whether brace expansion makes more or other words of some of a declaration's arguments."""
    return any(expansion(builder, group) is not None for group in word_nodes(children))


def _expands(a: Assign) -> bool:
    """Whether an assignment's value, or an element's, expands something (is not literal text)."""
    if a.value is not None and a.value.text is None:
        return True
    return a.array is not None and any(w.text is None for w in a.array)


class SimpleBuilder(WordBuilder):
    """The builder's simple commands and declarations (build.Builder adds blocks and compounds)."""

    def take_pre(self) -> list:
        """The command substitutions met so far, which run before the statement they are in."""
        pre, self._pre = self._pre, []
        return pre

    def declaration(self, node, d: int) -> list:
        kw_node = node.children[0]
        keyword = self.text(kw_node)
        flags = ""
        items = []
        if may_brace(self.data, kw_node.end_byte, node.end_byte) and _expanding(self, [c for c in node.children[1:] if c.is_named]):
            # `export OFFLINE_PACKING_{BMR,DATA}=1`: the words brace expansion makes, for the handler
            return self.declaration_command(node, d)
        for c in node.children[1:]:
            k = c.kind_id
            if k == _K_WORD:
                text = self.text(c)
                if text.startswith(("-", "+")):
                    flags += text
                elif is_name(text):
                    items.append(c)
            elif k == _K_VARIABLE_ASSIGNMENT or k == _K_VARIABLE_NAME:
                items.append(c)
            elif k in _DYNAMIC_ITEMS:
                # `export "$v=1"`, `export "${ENVS[@]}"`: names made at run time, the builtin's handler's
                return self.declaration_command(node, d)
        exported = keyword == "export" or (keyword in ("declare", "typeset", "local") and "x" in flags
                                           and not flags.startswith("+"))
        readonly = keyword == "readonly" or (keyword in ("declare", "typeset", "local") and "r" in flags
                                             and not flags.startswith("+"))
        negate = keyword == "export" and "n" in flags
        attrs = "".join(ch for ch in "iaAn" if ch in flags) if keyword in ("declare", "typeset", "local") \
            and flags.startswith("-") else ""
        if keyword in ("declare", "typeset") and flags.startswith("+") and "x" in flags:
            negate = True
        mode = _DECLARATION_MODES.get(keyword, AssignMode.DECLARE)
        written = keyword + ((" " + flags) if flags else "")
        out: list[Stmt] = []
        assigns: list = []
        names = []
        s, e = self.s(node), self.e(node)
        for c in items:
            if c.kind_id == _K_VARIABLE_ASSIGNMENT:
                a = self.assignment(c, mode, d)
                if a is None:
                    continue
                a.exported = exported and not negate
                a.decl_start, a.decl_end, a.decl_items = s, e, len(items)
                a.keyword = written
                if negate:
                    names.append((a.name, a.name_start, a.name_end))
                out.extend(self.take_pre())
                assigns.append(a)
            else:
                name = self.text(c)
                names.append((name, self.s(c), self.e(c)))
                self.occurrences.append(Occurrence(name, self.s(c), self.e(c), OccurrenceKind.EXPORT))
        if len(assigns) > 1 and any(_expands(a) for a in assigns[1:]):
            # `export A=1 B=$A`: B is given A's value from before the declaration
            out.append(Block(assigns[0].start, assigns[-1].end, assigns, together=True))
        else:
            out.extend(assigns)
        if names and (exported or negate or readonly or attrs):
            out.append(ExportNames(s, e, names=names, negate=negate, readonly=readonly,
                                   exports=exported or negate, local=keyword == "local", attributes=attrs))
        return out

    def declaration_command(self, node, d: int) -> list:
        """A declaration whose names are made at run time, as a command: its words (an
        assignment `NAME=value` as one word) for the builtin's handler in flow.commands."""
        kw = node.children[0]
        words = [self.keyword_word(kw)] + self.argument_words(node.children[1:], d)
        s, e = self.s(node), self.e(node)
        return [Command(s, e, [], words, self.s(kw), self.e(kw), self.take_pre())]

    def argument_words(self, children: list, d: int) -> list:
        """The words of a declaration's or `unset`'s arguments as bash splits them: nodes with no
        gap between them are one word (tree-sitter reads `A_{X,Y}` as a name and the rest),
        brace-expanded; an assignment as one word `NAME=value`."""
        words: list = []
        for group in word_nodes([c for c in children if c.is_named and c.kind_id != _K_COMMENT]):
            found = braced_words(self, group, d) if may_brace(self.data, group[0].start_byte, group[-1].end_byte) \
                else None
            if found is not None:
                words.extend(found)
                continue
            joined = joined_word(self, group, d) if len(group) > 1 else None
            if joined is not None:
                words.append(joined)
                continue
            for c in group:
                words.append(self.assignment_word(c, d) if c.kind_id == _K_VARIABLE_ASSIGNMENT else self.word(c, d))
        return words

    def herestring(self, node, d: int) -> Optional[Word]:
        """What `<<< WORD` gives the command to read: the word and the newline bash adds."""
        operand = [w for w in node.named_children if w.type != "comment"]
        if not operand:
            return None
        w = self.word(operand[0], d)
        stdin = Word(w.parts + [Lit("\n", w.end, w.end)], w.start, w.end, "", w.raw)
        stdin.text, stdin.effects = stdin.literal(), w.effects
        return stdin

    def keyword_word(self, node) -> Word:
        """A builtin's keyword (`export`, `unset`) as the literal word naming the command."""
        text, s, e = self.text(node), self.s(node), self.e(node)
        return Word([Lit(text, s, e)], s, e, "", text, text)

    def assignment_word(self, node, d: int) -> Word:
        """`NAME=value` as one word (its name literal, then its value's parts)."""
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        s, e = self.s(node), self.e(node)
        if name_node is None or name_node.type != "variable_name" or (value_node is not None
                                                                       and value_node.type == "array"):
            return Word([Opaque("declaration", s, e)], s, e, "", self.text(node))
        head_end = value_node.start_byte + self.base if value_node is not None else e
        parts: list = [Lit(self.data[node.start_byte:head_end - self.base].decode("utf-8", "replace"), s, head_end)]
        if value_node is not None:
            self.parts(value_node, parts, d + 1, False)
        return self._finished(Word(parts, s, e, "", self.text(node)))

    def assignment(self, node, mode: str, d: int) -> Optional[Assign]:
        kids = node.children
        n = len(kids)
        if 2 <= n <= 3 and kids[0].kind_id in _ASSIGNED and (k := kids[1].kind_id) in _EQUALS \
                and (n == 2 or kids[2].kind_id in _VALUES):
            # the usual children, read by position (a field look-up makes each node anew)
            name_node, eq, value_node = kids[0], kids[1], kids[2] if n == 3 else None
        else:
            name_node = node.child_by_field_id(_F_NAME)
            value_node = node.child_by_field_id(_F_VALUE)
            eq = None
            for c in kids:  # `=` or `+=` (never a name or value: those are named nodes)
                k = c.kind_id
                if k == _K_EQ or k == _K_PLUS_EQ:
                    eq = c
                    break
        append = eq is not None and k == _K_PLUS_EQ
        if name_node is None:
            return None
        index = None
        if name_node.kind_id == _K_SUBSCRIPT:  # A[i]=v: an element
            inner = name_node.child_by_field_name("name")
            idx = name_node.child_by_field_name("index")
            if idx is not None:
                index = self.subscript(idx, d)
            name_node = inner if inner is not None else name_node
        base = self.base
        name_start, name_end = name_node.start_byte + base, name_node.end_byte + base
        name = self.data[name_start - base:name_end - base].decode("utf-8", "replace")
        s, e = node.start_byte + base, node.end_byte + base
        # (positional: start, end, name, name_start, name_end, value, array, append, mode, exported,
        # eq_end, decl_start, decl_end, decl_items, keyword, file, index)
        a = Assign(s, e, name, name_start, name_end, None, None, append, mode, False,
                   eq.end_byte + base if eq is not None else name_end, s, e, 1, "", self.file, index)
        self.occurrences.append(Occurrence(name, name_start, name_end,
                                           _PREFIX_KIND if mode == _PREFIX else _ASSIGN_KIND))
        if value_node is not None:
            if value_node.kind_id == _K_ARRAY:
                word, keyed = self.word, self.keyed_element
                if self.data.find(b"]=", value_node.start_byte, value_node.end_byte) < 0:  # no `[key]=value` in it
                    if may_brace(self.data, value_node.start_byte, value_node.end_byte):  # `(--x{1,2})`
                        a.array = [w for c in value_node.children if c.kind_id in _ELEMENTS for w in words_of(self, c, d)]
                    else:
                        a.array = [word(c, d) for c in value_node.children if c.kind_id in _ELEMENTS]
                    return a
                a.array = []
                for c in value_node.children:
                    if c.kind_id not in _ELEMENTS:
                        continue
                    pair = keyed(c, d) if c.type == "concatenation" else None
                    if pair is None:
                        a.array.append(word(c, d))
                        continue
                    if a.keys is None:
                        a.keys = []
                    a.keys.append((len(a.array), pair[0]))
                    a.array.append(pair[1])
            else:
                a.value = self.word(value_node, d)
        return a

    def plain_assignments(self, nodes: list, start: int, end: int, d: int) -> list:
        """`A=1 B=2` standing alone: plain assignments sharing one statement's span (so a fix
        exports one of them after it instead of prefixing the whole line with `export`)."""
        out: list[Stmt] = []
        for node in nodes:
            a = self.assignment(node, _PLAIN, d)
            if a:
                a.decl_start, a.decl_end, a.decl_items = start, end, len(nodes)
                out.extend(self.take_pre())
                out.append(a)
        return out

    def glued_comments(self, node, last_assignment, name_node) -> None:
        """The comments between glued assignments and their command's line: directives, as
        between any two statements (a disable on its own line covers the command after it)."""
        for c in node.children:
            if c.kind_id != _K_COMMENT or not last_assignment.end_byte <= c.start_byte < name_node.start_byte:
                continue
            self.seen_command = True  # the assignments before it were statements of their own
            waiting = len(self.pending)
            self.comment(c)
            for dct in self.pending[waiting:]:
                dct.scope_start, dct.scope_end = name_node.start_byte + self.base, node.end_byte + self.base
            del self.pending[waiting:]

    def _line_break(self, before, after) -> bool:
        """True when a line ends (not continued with a backslash) between two nodes."""
        gap = self.data[before.end_byte:after.start_byte]
        return b"\n" in gap.replace(b"\\\r\n", b"").replace(b"\\\n", b"")

    def command(self, node, d: int) -> list:
        """A simple command: its prefix assignments, name and arguments (redirections skipped)."""
        prefix_nodes, words, name_node, here = [], [], None, None
        braced = False  # an argument brace expansion may make several words of
        for i, c in enumerate(node.children):
            k = c.kind_id
            if name_node is not None and k in _ARGUMENTS:  # (the commonest child: tested first)
                words.append(c)  # an `argument`, or another named node after the name
                braced = braced or k in BRACED
            elif k == _K_COMMAND_NAME:  # the `name` field: a command_name is never anything else
                name_node = c
            elif k in NAMED:  # (a redirection or a comment is skipped)
                if k == _K_VARIABLE_ASSIGNMENT and name_node is None:
                    prefix_nodes.append(c)
                elif k == _K_HERESTRING:
                    here = c
            elif name_node is not None and node.field_name_for_child(i) == "argument":
                words.append(c)  # `$`, `=~` or `==`
        out: list[Stmt] = []
        # tree-sitter-bash sometimes glues standalone assignments on one line to the command on
        # the next: a prefix needs the command on the same logical line.
        if prefix_nodes and name_node is not None and self._line_break(prefix_nodes[-1], name_node):
            # each line of them is one statement (`A=1 B=2`: a fix exports one name, not both)
            lines = [[prefix_nodes[0]]]
            for before, p in zip(prefix_nodes, prefix_nodes[1:]):
                if self._line_break(before, p):
                    lines.append([p])
                else:
                    lines[-1].append(p)
            for line in lines:
                out.extend(self.plain_assignments(line, self.s(line[0]), self.e(line[-1]), d))
            self.glued_comments(node, lines[-1][-1], name_node)
            prefix_nodes = []
            glued_at = name_node.start_byte  # the command starts on its own line
        else:
            glued_at = None
        prefix = []
        for p in prefix_nodes:
            a = self.assignment(p, _PREFIX, d)
            if a:
                a.exported = True
                prefix.append(a)
        base = self.base
        s = (node.start_byte if glued_at is None else glued_at) + base
        name_start = name_end = s
        cmd_words = []
        if name_node is not None:
            name_start, name_end = name_node.start_byte + base, name_node.end_byte + base
            inner = name_node.named_children
            cmd_words.append(self.word(inner[0] if inner else name_node, d))
        if braced:  # `env A_{X,Y}=1`: perhaps several words of one
            for w in words:
                cmd_words.extend(words_of(self, w, d))
        else:
            for w in words:
                cmd_words.append(self.word(w, d))
        stdin = self.herestring(here, d) if here is not None else None
        cmd = Command(s, node.end_byte + base, prefix, cmd_words, name_start, name_end, self.take_pre(), None, stdin)
        if not cmd_words:
            # only assignments (e.g. inside `A=1 B=2` glued): they are plain assignments
            for a in prefix:
                a.mode, a.exported = _PLAIN, False
            out.extend(cmd.pre)
            out.extend(prefix)
            return out
        out.append(cmd)
        return out

    # -- words
