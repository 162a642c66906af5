"""Words: literal text, parameter expansions, command substitutions and quoting, read off
tree-sitter nodes into Word records (with every variable mention noted as an Occurrence)."""

from __future__ import annotations

import re

from .. import gates as G
from .ansi_c import decode as ansi_c_text
from .grammar import KIND_NAMES, NAMED, kind, kinds
from .model import Lit, Occurrence, OccurrenceKind, Opaque, Ref, Sub, SubKind, Transform, Word

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

MAX_DEPTH = 120  # deeper constructs are kept as opaque: a hostile depth cannot overflow the stack
MBS_FLAG = G.MBS_FLAG
_GATES = G.GATES
_EXPAND, _FLAG = OccurrenceKind.EXPAND, OccurrenceKind.FLAG

_SELF = r"""(?:"?\$\{?(?:0|BASH_SOURCE(?:\[0\])?)\}?"?)"""
_DIRNAME = r"""(?:"?\$\(\s*dirname\s+(?:--\s+)?""" + _SELF + r"""\s*\)"?)"""
# compiled on first use (re keeps it): every start would pay for it, few scripts need it
_SCRIPT_DIR = (r"""^\$\(\s*(?:dirname\s+(?:--\s+)?""" + _SELF + r"""|cd\s+(?:--\s+)?"""
               + _DIRNAME + r"""\s*(?:&&|;)\s*pwd(?:\s+-P)?)\s*\)$""")


SUBSTITUTION = "the output of a command"  # the reason of a command substitution's Opaque


class WordBuilder:
    """The word half of the builder: needs `data`, `base`, `occurrences`, `_pre`, `literals` and
    `shapes` (dicts: a literal word's text -> (raw, text, flag), a string's or expansion's ->
    _shape) and `block()` from the statement half (build.Builder)."""

    def text(self, node) -> str:
        """The node's source text."""
        return self.data[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def s(self, node) -> int:
        """The node's start in the document."""
        return node.start_byte + self.base

    def e(self, node) -> int:
        """The node's end in the document."""
        return node.end_byte + self.base

    def word(self, node, d: int) -> Word:
        """The Word of a node that is one shell word."""
        k = node.kind_id
        if (k == _K_WORD or k == _K_NUMBER) and not node.child_count:  # literal text
            sb, eb = node.start_byte, node.end_byte
            raw_b = self.data[sb:eb]
            known = self.literals.get(raw_b)  # (a launcher repeats its words: decoded once)
            if known is None:
                raw = raw_b.decode("utf-8", "replace")
                txt = _unescape(raw, False) if "\\" in raw else raw
                known = self.literals[raw_b] = (raw, txt, txt.startswith(MBS_FLAG))
            raw, txt, flag = known
            base = self.base
            s, e = sb + base, eb + base
            if flag:
                self._flag(txt, s)
            return Word([Lit(txt, s, e)], s, e, "", raw, txt)
        if k in _SHAPED:
            # a launcher writes the same strings again and again: the common ones, a quoted
            # string without expansions or one plain expansion, are built from their shape
            # (_shape), worked out once per text (these kinds never share one); others of text
            # and expansions only, from what the general walk gave for the same text
            # (_template). (The general walk, _word, gives the same parts at several times the
            # cost.)
            sb, eb = node.start_byte, node.end_byte
            raw_b = self.data[sb:eb]
            shape = self.shapes.get(raw_b)
            if shape is None:
                shape = self.shapes[raw_b] = _shape(raw_b, k)
            if shape[0] is _LITERAL:
                _, raw, txt, inner, quote, flag = shape
                base = self.base
                s, e = sb + base, eb + base
                if flag:
                    self._flag(txt, s + inner)
                return Word([Lit(txt, s + inner, e - inner)] if txt or quote != '"' else [], s, e, quote, raw, txt)
            if shape[0] is _ONE_EXPANSION:
                _, raw, name, ns, ne, inner, array_all, quoted, gated, refs = shape
                base = self.base
                s, e = sb + base, eb + base
                self.occurrences.append(Occurrence(name, s + ns, s + ne, _EXPAND))
                ref = Ref(name, s + inner, e - inner, s + ns, s + ne, "", None, array_all, quoted)
                return Word([ref], s, e, '"' if quoted else "", raw, None, gated, refs)
            if shape[0] is _TEMPLATE and d + shape[1] < MAX_DEPTH:  # (deeper, the walk may give an Opaque)
                return self._from_template(shape, sb + self.base)
            o0 = len(self.occurrences)
            if k == _K_STRING and d < MAX_DEPTH:  # (deeper, the general walk keeps it opaque)
                w = self._quoted(node, raw_b, sb, eb, d)
            else:
                w = self._word(node, d, KIND_NAMES[k])
            if shape is _TO_LEARN or shape is _SEEN:  # learnt when seen again (most words are not)
                self.shapes[raw_b] = _SEEN if shape is _TO_LEARN else self._template(w, o0)
            return w
        return self._word(node, d, KIND_NAMES[k])

    def _template(self, w: Word, o0: int) -> tuple:
        """What the general walk gave for a word (w, its occurrences from o0 on), kept for the
        same text elsewhere: (_TEMPLATE, how deep its expansions nest, the word, the names it
        expands: its `refs`, which the flow's relevance pass reads of every word) with offsets
        from its start (_template_word), when it holds text and expansions only and noted one
        occurrence per expansion and flag (as _template_built and _from_template do); else
        _GENERAL."""
        found = _template_word(w, w.start)
        if found is None:
            return _GENERAL
        depth, template, noted = found
        for p in w.parts:  # the flags _finished noted, after the expansions
            if p.__class__ is Lit and p.text.startswith(MBS_FLAG):
                rest = p.text[len(MBS_FLAG):]
                noted += rest == "" or rest.startswith("=")
        if len(self.occurrences) - o0 != noted:
            return _GENERAL  # it noted something else: left to the general walk
        return _TEMPLATE, depth + 2, template, _expanded_names(w)

    def _from_template(self, shape: tuple, s: int) -> Word:
        """A word built from a _TEMPLATE shape (_template), its text starting at s."""
        w = self._template_built(shape[2], s)
        w.refs = shape[3]
        for p in w.parts:
            if p.__class__ is Lit and p.text.startswith(MBS_FLAG):
                self._flag(p.text, p.start)
        return w

    def _template_built(self, template: tuple, s: int) -> Word:
        """The Word of a template (_template_word) at s, its expansions noted as occurrences."""
        start, end, quote, raw, text, effects, items = template
        parts: list = []
        for item in items:
            if len(item) == 3:
                parts.append(Lit(item[0], s + item[1], s + item[2]))
                continue
            name, a, b, ns, ne, op, arg, array_all, quoted = item
            self.occurrences.append(Occurrence(name, s + ns, s + ne, _EXPAND))
            parts.append(Ref(name, s + a, s + b, s + ns, s + ne, op,
                             None if arg is None else self._template_built(arg, s), array_all, quoted))
        return Word(parts, s + start, s + end, quote, raw, text, effects)

    def _flag(self, txt: str, start: int) -> None:
        """A literal starting with --micro-batch-size: an occurrence of the flag when it is the
        whole text or followed by `=`."""
        rest = txt[len(MBS_FLAG):]
        if rest == "" or rest.startswith("="):
            self.occurrences.append(Occurrence(MBS_FLAG, start, start + len(MBS_FLAG), _FLAG))

    def _matched_ref(self, m, at: int, start: int, end: int, quoted: bool) -> Ref:
        """The Ref of a match of _REF_BODY whose offsets count from at (start, end: the
        expansion's span), its name recorded as an occurrence."""
        last = m.lastindex  # 1: ${X}, 2: ${A[@]}, 3: $X
        g = 3 if last == 3 else 1
        ns, ne = m.span(g)
        ns += at
        ne += at
        name = m[g].decode("ascii")
        self.occurrences.append(Occurrence(name, ns, ne, _EXPAND))
        return Ref(name, start, end, ns, ne, "", None, last == 2, quoted)

    def _quoted(self, node, raw_b: bytes, sb: int, eb: int, d: int) -> Word:
        """A double-quoted string with expansions: the parts the general walk gives, in one pass
        over its children: text and plain expansions ("${A}/x", "$A:$B") read directly, the rest
        (a command substitution, an operator) through parts()."""
        data, base = self.data, self.base
        parts: list = []
        prev = sb + 1
        for c in node.children:
            k = c.kind_id
            if k == _K_QUOTE:
                continue
            cs, ce = c.start_byte, c.end_byte
            if cs > prev:  # whitespace folded between children is literal text
                parts.append(Lit(data[prev:cs].decode("utf-8", "replace"), prev + base, cs + base))
            if k == _K_STRING_CONTENT:
                txt = data[cs:ce].decode("utf-8", "replace")
                parts.append(Lit(_unescape(txt, True) if "\\" in txt else txt, cs + base, ce + base))
            elif (k == _K_EXPANSION or k == _K_SIMPLE_EXPANSION) and (m := _ONE_REF.match(data, cs, ce)) is not None:
                parts.append(self._matched_ref(m, base, cs + base, ce + base, True))
            elif k == _K_EXPANSION:  # (what parts() does with it: d + 1 is never too deep here)
                parts.append(self.expansion(c, d + 1, True))
            else:
                self.parts(c, parts, d + 1, True)
            prev = ce
        if eb - 1 > prev:
            parts.append(Lit(data[prev:eb - 1].decode("utf-8", "replace"), prev + base, eb - 1 + base))
        return self._finished(Word(parts, sb + base, eb + base, '"', raw_b.decode("utf-8", "replace")))

    def _word(self, node, d: int, t: str) -> Word:
        parts: list = []
        quote = ""
        if t == "raw_string":
            quote = "'"
        elif t == "string":
            quote = '"'
        self.parts(node, parts, d, quoted=False)
        return self._finished(Word(parts, self.s(node), self.e(node), quote, self.text(node)))

    def _finished(self, w: Word) -> Word:
        """A word built from its parts, completed: its literal text, whether evaluating it has
        effects, and the --micro-batch-size flags among its literal parts."""
        literal, effects = True, False
        for p in w.parts:
            cls = p.__class__
            if cls is Lit:
                if p.text.startswith(MBS_FLAG):
                    self._flag(p.text, p.start)
                continue
            literal = False
            if cls is Ref and not effects:  # (_has_effects, without a call for a plain expansion)
                effects = p.op in _EFFECT_OPS or p.name in _GATES or \
                    ((p.arg is not None or p.index is not None) and _has_effects((p,)))
        if literal:
            w.text = "".join([p.text for p in w.parts])
        else:
            w.effects = effects
        return w

    def parts(self, node, out: list, d: int, quoted: bool) -> None:
        """The parts of node (a word or a piece of one) appended to out; quoted: inside "..."."""
        k = node.kind_id
        base = self.base
        s, e = node.start_byte + base, node.end_byte + base
        if d > MAX_DEPTH:
            out.append(Opaque("too deeply nested", s, e))
            return
        if k in _LITERAL_PARTS:
            out.append(Lit(_unescape(self.text(node), quoted), s, e))
        elif k == _K_RAW_STRING and quoted:  # `"${X:-'0'}"`: inside "...", single quotes are text
            out.append(Lit(self.text(node), s, e))
        elif k == _K_RAW_STRING:
            txt = self.text(node)
            out.append(Lit(txt[1:-1] if len(txt) >= 2 else "", s + 1, e - 1))
        elif k == _K_ANSI_C_STRING:
            out.append(Lit(ansi_c_text(self.data[node.start_byte + 2:node.end_byte - 1]), s + 2, e - 1))
        elif k == _K_STRING or k == _K_TRANSLATED_STRING:
            data = self.data
            prev_end = node.start_byte + (1 if k == _K_STRING else 2)
            for c in node.children:
                if c.kind_id == _K_QUOTE:
                    continue
                # whitespace folded between children of a string is literal text
                cs = c.start_byte
                if cs > prev_end:
                    out.append(Lit(data[prev_end:cs].decode("utf-8", "replace"), prev_end + base, cs + base))
                self.parts(c, out, d + 1, True)
                prev_end = c.end_byte
            if e - base - 1 > prev_end and k == _K_STRING:
                gap = data[prev_end:e - base - 1].decode("utf-8", "replace")
                if gap:
                    out.append(Lit(gap, prev_end + base, e - 1))
        elif k == _K_CONCATENATION:
            for c in node.children:
                self.parts(c, out, d + 1, quoted)
        elif k == _K_SIMPLE_EXPANSION:
            named = node.named_children
            if not named:
                out.append(Lit(self.text(node), s, e))
                return
            vn = named[0]
            name = self.text(vn)
            vs, ve = vn.start_byte + base, vn.end_byte + base
            self.occurrences.append(Occurrence(name, vs, ve, _EXPAND))
            out.append(Ref(name, s, e, vs, ve, "", None, False, quoted))
        elif k == _K_EXPANSION:
            out.append(self.expansion(node, d, quoted))
        elif k == _K_COMMAND_SUBSTITUTION and re.match(_SCRIPT_DIR, self.text(node)):
            # $(dirname "$0"), $(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd): the script's folder
            out.append(Opaque("script-dir", s, e))
        elif k == _K_COMMAND_SUBSTITUTION or k == _K_PROCESS_SUBSTITUTION:
            saved, self._pre = getattr(self, "_pre", []), []
            body = self.block(node.children, d + 1, s, e)
            self._pre = saved + [Sub(s, e, kind=SubKind.CMDSUBST, body=body)]
            out.append(Opaque(SUBSTITUTION, s, e))
        elif k == _K_ARITHMETIC_EXPANSION:
            self.collect_refs(node, d + 1)
            raw = self.text(node)
            inner = raw[3:-2] if raw.startswith("$((") and raw.endswith("))") else ""
            out.append(Opaque("arithmetic", s, e, inner))
        elif k == _K_DOLLAR:
            out.append(Lit("$", s, e))
        else:
            self.collect_refs(node, d + 1)
            out.append(Opaque(KIND_NAMES[k], s, e))

    def expansion(self, node, d: int, quoted: bool):
        """`${...}`: a Ref (its name, operator, argument word, subscript, the transform the walk
        can follow), or an Opaque for the forms the walk cannot read."""
        name, ns, ne, op, arg, array_all = "", 0, 0, "", None, False
        arg_nodes = []
        ops: list = []  # every operator after the name, and the nodes after each (pieces)
        pieces: list = []
        seen_op = bang = length = False
        index = None
        data, base = self.data, self.base
        for i, c in enumerate(node.children):
            k = c.kind_id
            if k == _K_OPEN_EXPANSION or k == _K_CLOSE_BRACE:
                continue
            # every `operator` of an expansion is a token (named children never are one)
            if k not in NAMED and node.field_name_for_child(i) == "operator":
                if k == _K_BANG and not name and not seen_op and not bang:
                    bang = True  # ${!X}, ${!P@}: indirection, the names with a prefix
                    continue
                if k == _K_HASH and not name and not seen_op and not bang and not length:
                    length = True  # ${#X}
                    continue
                op = data[c.start_byte:c.end_byte].decode("utf-8", "replace")
                seen_op = True
                ops.append(op)
                pieces.append([])
                continue
            if not seen_op and (k == _K_VARIABLE_NAME or k == _K_SPECIAL_VARIABLE_NAME) and not name:
                ns, ne = c.start_byte, c.end_byte
                name = data[ns:ne].decode("utf-8", "replace")
                ns += base
                ne += base
                continue
            if not seen_op and k == _K_SUBSCRIPT and not name:
                vn = c.child_by_field_name("name")
                idx = c.child_by_field_name("index")
                if vn is not None:
                    name, ns, ne = self.text(vn), self.s(vn), self.e(vn)
                if idx is not None and self.text(idx) in ("@", "*"):
                    array_all = True
                elif idx is not None:
                    index = self.subscript(idx, d)
                continue
            if seen_op:
                arg_nodes.append(c)
                pieces[-1].append(c)
            elif k == _K_HASH or k == _K_BANG:
                op = "other"
        s, e = node.start_byte + base, node.end_byte + base
        if not name or (bang and (index is not None or array_all or op not in _NAMES_OPS)) \
                or (length and (ops or bang or array_all or index is not None)):
            return Opaque("expansion", s, e)  # (${#A[@]}: an array's length, not followed)
        self.occurrences.append(Occurrence(name, ns, ne, _EXPAND))
        if bang:
            return Ref(name, s, e, ns, ne, "", None, False, quoted, None, op == "", op != "")
        if length:
            return Ref(name, s, e, ns, ne, "other", None, False, quoted, None, transform=Transform("length"))
        if op and op not in _ARG_OPS:
            op = "other"
        replacement_at = None
        if arg_nodes:
            parts: list = []
            second = pieces[1][0] if len(pieces) > 1 and pieces[1] else None
            for c in arg_nodes:
                if c is second:
                    replacement_at = len(parts)
                self.parts(c, parts, d + 1, quoted)
            arg = Word(parts, arg_nodes[0].start_byte + base, arg_nodes[-1].end_byte + base)
        elif op in _ARG_OPS:
            arg = Word([], ne, ne)
        transform = _transform(data, base, ops, pieces, arg, replacement_at, e - 1) if op == "other" else None
        return Ref(name, s, e, ns, ne, op, arg, array_all, quoted, index, transform=transform)

    def subscript(self, node, d: int) -> Word:
        """An array subscript (`${A[key]}`, `A[key]=v`): a word, or an arithmetic expression's
        text as a literal (its expansions make it unknown)."""
        if node.type in _SUBSCRIPT_WORDS:
            return self.word(node, d)
        raw = self.text(node)
        s, e = self.s(node), self.e(node)
        if "$" in raw or "`" in raw:
            self.collect_refs(node, d + 1)
            return Word([Opaque("arithmetic", s, e)], s, e, "", raw)
        return Word([Lit(raw, s, e)], s, e, "", raw, raw)

    def keyed_element(self, node, d: int):
        """`[key]=value` in an array literal: (key, value) words, or None for a plain element."""
        kids = node.children
        if node.type != "concatenation" or len(kids) < 3 or kids[0].type != "word" or self.text(kids[0]) != "[":
            return None
        close = next((k for k in range(1, len(kids) - 1) if kids[k].type == "word" and self.text(kids[k]) == "]"
                      and self.text(kids[k + 1]).startswith("=")), None)
        if close is None or close == 1:
            return None
        key = self.word(kids[1], d) if close == 2 else self._from_nodes(kids[1:close], d)
        eq = kids[close + 1]
        parts: list = []
        after = self.text(eq)[1:]
        if after:
            parts.append(Lit(_unescape(after, False), self.s(eq) + 1, self.e(eq)))
        for c in kids[close + 2:]:
            self.parts(c, parts, d + 1, False)
        start = self.s(eq) + 1
        return key, self._finished(Word(parts, start, self.e(node), "", self.text(node)[start - self.s(node):]))

    def _from_nodes(self, nodes: list, d: int) -> Word:
        """One word of several sibling nodes (a subscript written in pieces)."""
        parts: list = []
        for c in nodes:
            self.parts(c, parts, d + 1, False)
        s, e = self.s(nodes[0]), self.e(nodes[-1])
        return self._finished(Word(parts, s, e, "", self.data[nodes[0].start_byte:nodes[-1].end_byte]
                                   .decode("utf-8", "replace")))

    def collect_refs(self, node, d: int) -> None:
        """Record variable mentions below node (iteratively) without modelling them."""
        stack = [node]
        while stack:
            n = stack.pop()
            if n.type == "variable_name":
                self.occurrences.append(Occurrence(self.text(n), self.s(n), self.e(n), _EXPAND))
            elif n.type == "command_substitution":
                parts: list = []
                self.parts(n, parts, d + 1, False)
                continue
            stack.extend(n.children)


_K_WORD, _K_NUMBER, _K_STRING, _K_RAW_STRING = kind("word"), kind("number"), kind("string"), kind("raw_string")
_K_EXPANSION, _K_SIMPLE_EXPANSION = kind("expansion"), kind("simple_expansion")
_K_QUOTE, _K_STRING_CONTENT = kind('"'), kind("string_content")  # (no `$"` token: a translated string opens with `$`)
_K_ANSI_C_STRING, _K_TRANSLATED_STRING = kind("ansi_c_string"), kind("translated_string")
_K_CONCATENATION = kind("concatenation")
_K_COMMAND_SUBSTITUTION, _K_PROCESS_SUBSTITUTION = kind("command_substitution"), kind("process_substitution")
_K_ARITHMETIC_EXPANSION, _K_DOLLAR = kind("arithmetic_expansion"), kind("$")
_K_OPEN_EXPANSION, _K_CLOSE_BRACE, _K_BANG, _K_HASH = kind("${"), kind("}"), kind("!"), kind("#")
_K_VARIABLE_NAME, _K_SPECIAL_VARIABLE_NAME = kind("variable_name"), kind("special_variable_name")
_K_SUBSCRIPT, _K_REGEX = kind("subscript"), kind("regex")
# the nodes a part reads as literal text
_LITERAL_PARTS = kinds("word", "number", "string_content", "extglob_pattern", "special_variable_name")

_ARG_OPS = frozenset((":-", "-", ":=", "=", ":+", "+"))  # the operators of ${X<op>word} a Ref keeps
_EFFECT_OPS = frozenset((":=", "="))  # those that assign
_NAMES_OPS = frozenset(("", "@", "*"))  # ${!X}, ${!P@}, ${!P*}
_REMOVALS = frozenset(("#", "##", "%", "%%"))  # the transforms a Transform follows (flow/transforms.py)
_REPLACEMENTS = frozenset(("/", "//", "/#", "/%"))
_CASES = frozenset(("^", "^^", ",", ",,"))
# the kinds word() builds from their shape where it can
_SHAPED = kinds("word", "number", "string", "raw_string", "expansion", "simple_expansion")
_LITERAL, _ONE_EXPANSION, _TEMPLATE = "literal", "one expansion", "template"  # the shapes' tags
_GENERAL = ("general",)  # the shape of a word the general walk builds every time
_TO_LEARN, _SEEN = ("to learn",), ("seen",)  # those of a word it builds once or twice (word(), _template)
# subscript nodes read as words (others are arithmetic: their text)
_SUBSCRIPT_WORDS = frozenset(("number", "string", "raw_string", "simple_expansion", "expansion",
                              "concatenation", "command_substitution"))
# one expansion and nothing else, quoted or not: `"${X}"`, `"$X"`, `"${A[@]}"`, `${X}`, `$X`
# (groups: the braced name, its [@] or [*] subscript, the bare name)
# (possessive `*+`: a name never gives back characters to what follows it, so a word that is
# more than one expansion fails at once instead of backtracking through the name)
_REF_BODY = rb"\$(?:\{([A-Za-z_][A-Za-z0-9_]*+)(\[[@*]\])?\}|([A-Za-z_][A-Za-z0-9_]*+))"
_ONE_REF_QUOTED = re.compile(rb'"' + _REF_BODY + rb'"\Z')
_ONE_REF = re.compile(_REF_BODY + rb"\Z")


def is_name(text: str) -> bool:
    """Whether text is a shell variable name ([A-Za-z_][A-Za-z0-9_]*), without a regex to compile."""
    return text.isascii() and text.isidentifier()


def _has_effects(parts) -> bool:
    """True when evaluating the parts assigns (${X:=d}) or consults a gate."""
    stack = list(parts)
    while stack:
        p = stack.pop()
        if p.__class__ is Ref:
            if p.op in _EFFECT_OPS or p.name in _GATES:
                return True
            if p.arg is not None:
                stack.extend(p.arg.parts)
            if p.index is not None:
                stack.extend(p.index.parts)
    return False


def _shape(raw_b: bytes, k: int) -> tuple:
    """How word() builds a word of kind k written raw_b: (_LITERAL, raw, text, its offset from
    either end, quote, whether it starts with --micro-batch-size) for a literal string;
    (_ONE_EXPANSION, raw, name, the name's start and end from the word's start, the expansion's
    offset from either end, array_all, quoted, whether it names a gate, the names it expands:
    its Word's `refs`) for one plain
    expansion; _TO_LEARN for another string or expansion (the general walk builds it, _template
    keeps what it gave); else _GENERAL."""
    if k == _K_WORD or k == _K_NUMBER:  # (one with children: a number with an expansion, `10#$x`)
        return _GENERAL
    raw = raw_b.decode("utf-8", "replace")
    if k == _K_RAW_STRING or (k == _K_STRING and len(raw_b) >= 2 and "$" not in raw and "`" not in raw
                              and "\\" not in raw):
        txt = raw[1:-1]
        return _LITERAL, raw, txt, 1, "'" if k == _K_RAW_STRING else '"', txt.startswith(MBS_FLAG)
    quoted = k == _K_STRING
    m = (_ONE_REF_QUOTED if quoted else _ONE_REF).match(raw_b)
    if m is None:
        return _TO_LEARN
    last = m.lastindex  # 1: ${X}, 2: ${A[@]}, 3: $X
    g = 3 if last == 3 else 1
    name = m[g].decode("ascii")
    ns, ne = m.span(g)
    return _ONE_EXPANSION, raw, name, ns, ne, 1 if quoted else 0, last == 2, quoted, name in _GATES, frozenset((name,))


def _expanded_names(w: Word) -> frozenset:
    """The names a word of text and plain expansions expands, at any depth (${A:-$B}: A and B):
    the `refs` the flow's relevance pass would work out for it (a _TEMPLATE's words hold no
    subscript, indirection or arithmetic)."""
    names = set()
    stack = list(w.parts)
    while stack:
        p = stack.pop()
        if p.__class__ is Ref:
            names.add(p.name)
            if p.arg is not None:
                stack.extend(p.arg.parts)
    return frozenset(names)


def _transform(data: bytes, base: int, ops: list, pieces: list, arg: Optional[Word], replacement_at,
               closing: int) -> Optional[Transform]:
    """The Transform of `${X<ops...>}` (pieces: the nodes after each operator; arg: their
    parts, the replacement's from replacement_at; closing: where `}` is) where the walk can
    follow it; None for the others (`${X@Q}`, a quoted or expanded pattern)."""
    def text(nodes: list) -> str:
        return data[nodes[0].start_byte:nodes[-1].end_byte].decode("utf-8", "replace")
    first = ops[0]
    if first in _REMOVALS or first in _REPLACEMENTS or first in _CASES:
        if len(pieces[0]) > 1 or (pieces[0] and pieces[0][0].kind_id != _K_REGEX):
            return None
        pattern = text(pieces[0]) if pieces[0] else ""
        if any(c in pattern for c in "$`'\"") or pattern.startswith("~"):
            return None
        if first in _REMOVALS and len(ops) == 1:
            return Transform(first, pattern)
        if first in _CASES and len(ops) == 1 and not pattern:
            return Transform(first)
        if first in _REPLACEMENTS and (len(ops) == 1 or (len(ops) == 2 and ops[1] == "/")):
            if replacement_at is None:  # `${X/p}`, `${X/p/}`: the match removed
                return Transform(first, pattern, Word([], closing, closing))
            rest = arg.parts[replacement_at:]
            return Transform(first, pattern, Word(rest, pieces[1][0].start_byte + base, arg.end))
        return None
    if first == ":" and len(ops) <= 2 and pieces[0] and all(o == ":" for o in ops):
        if len(ops) == 1:
            return Transform(":", offset=text(pieces[0]))
        return Transform(":", offset=text(pieces[0]), length=text(pieces[1]) if pieces[1] else "0")
    if first == "@" and len(ops) == 2 and ops[1] in ("U", "L", "u") and not any(pieces):
        return Transform("@" + ops[1])
    return None


def _template_word(w: Word, at: int) -> Optional[tuple]:
    """(how deep its expansions' words nest, the word with offsets from at: (start, end, quote,
    raw, text, effects, its parts: (text, start, end) for a Lit, (name, start, end, name_start,
    name_end, op, the template of its word or None, array_all, quoted) for a Ref), how many
    expansions it holds); None when a part is anything else (an Opaque, a subscript, an
    indirection)."""
    items, depth, refs = [], 0, 0
    for p in w.parts:
        cls = p.__class__
        if cls is Lit:
            items.append((p.text, p.start - at, p.end - at))
        elif cls is Ref and p.index is None and not p.indirect and not p.prefix_names and p.transform is None:
            refs += 1
            arg = None
            if p.arg is not None:
                found = _template_word(p.arg, at)
                if found is None:
                    return None
                depth = max(depth, found[0] + 1)
                arg = found[1]
                refs += found[2]
            items.append((p.name, p.start - at, p.end - at, p.name_start - at, p.name_end - at, p.op, arg,
                          p.array_all, p.quoted))
        else:
            return None
    return depth, (w.start - at, w.end - at, w.quote, w.raw, w.text, w.effects, tuple(items)), refs


def _unescape(text: str, quoted: bool) -> str:
    if "\\" not in text:
        return text
    if quoted:
        return re.sub(r"\\([$`\"\\\n])", r"\1", text)
    return re.sub(r"\\(.)", r"\1", text, flags=re.S)
