"""The static pre-passes over the model, all walking it with parse.visit.children():
which variables can reach a check (relevant_names), what the walk may step over (Inertness),
whether a function's arguments matter, and which positional parameters a body reads."""

from __future__ import annotations

from collections import Counter
from ..records import tuple_record

from .. import gates as G
from ..parse.model import (Assign, AssignMode, Block, Case, Command, ExportNames, FuncDef, Lit, Loop,
                           Opaque, Opaque_, Ref, SetOpt, Unset)
from ..parse.visit import children
from .arith import read_names
from .commands import (ACTIVE, ASSIGNS, CHILD_SHELLS, OPAQUE, READS_ALL_ARGS, REACHING, STATUS, acts, attributes,
                       base_name)
from .declare import DECLARATIONS
from .effects import Attribute
from .walk import MAX_CALL_DEPTH

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

# statements a walk cannot step over: the declarations (they change exports, attributes or
# options, or end the path), a function definition, and an opaque statement (it may)
_CHANGES = tuple(DECLARATIONS) + (FuncDef, Opaque_)
# statements that make a function's arguments matter when they run in it (an exit does not)
_USES_ARGS = (Assign, ExportNames, Unset, SetOpt, FuncDef, Opaque_)
# (an enum's member read off its class is slow: values.py says why)
_LOCAL, _DECLARE, _INTEGER = AssignMode.LOCAL, AssignMode.DECLARE, Attribute.INTEGER
_NAMEREF = Attribute.NAMEREF


class Inertness:
    """What the walk may step over: statements and function bodies that change nothing a check
    sees (it reads the functions the recorder holds)."""

    def __init__(self, inp, rec) -> None:
        self.inp, self.rec = inp, rec
        self.args_cache: dict = {}  # FuncDef -> the positional parameters its body reads
        self.inert_cache: dict = {}  # (Block, fn_version) -> (inert, the functions the answer read)

    def inert(self, block: Block, depth: int = 0) -> bool:
        """True when walking block can change nothing a check sees (no assignment that matters,
        no export, exit, launch, source or call of a function that is not inert itself)."""
        key = (block, self.rec.fn_version)  # a function defined later can change the answer
        cached = self.inert_cache.get(key)
        if cached is not None:
            result, used = cached
            self.rec.looked_up.extend(used)  # the answer read these functions' bodies
            return result
        if depth > MAX_CALL_DEPTH:  # a long chain of calls: assume it matters (and stay shallow)
            return False
        self.inert_cache[key] = (False, ())  # recursion (a function calling itself) is not inert
        mark = len(self.rec.looked_up)
        result = self.quiet([block], depth)
        self.inert_cache[key] = (result, tuple(dict.fromkeys(self.rec.looked_up[mark:])))
        return result

    def skippable(self, st) -> bool:
        """Whether the walk can step over one statement: an assignment or a simple command that
        cannot change anything a check sees (inert). Steps over only what changes no path: an
        if, case or && would leave its branch label on the paths that merge after it, and a
        `local` or `declare` in a function is undone on return (the paths remember it).
        Not cached: a command becomes a call once its function is defined."""
        kind = type(st)
        if kind is Assign:
            if st.mode == _LOCAL or st.mode == _DECLARE:
                return False
            return self.quiet_assign(st)  # quiet([st]) without its walk: an assignment holds no statement
        if kind is not Command or not self.quiet([st], 0):
            return False
        if st.words:
            name = st.words[0].text
            if name in self.rec.functions:
                self.rec.called[name] = None  # as walking the call would
        return True

    def quiet(self, stack: list, depth: int) -> bool:
        """inert() for a list of statements (not cached)."""
        relevant = self.inp.relevant
        functions = self.rec.functions
        result = True
        while stack and result:
            st = stack.pop()
            kind = type(st)
            stack.extend(children(st))
            if kind is Assign:
                result = self.quiet_assign(st)
            elif kind is Command:
                first = st.words[0] if st.words else None
                name = first.text if first is not None else None
                base = base_name(name) if name is not None else None
                if st.prefix or name is None or base in ACTIVE and acts(base, st) or st.test is not None or \
                        G.is_python(base) or name in functions or any(w.effects for w in st.words):
                    result = name in functions and not st.prefix
                    if result:
                        self.rec.looked_up.append(name)
                        result = self.inert(functions[name].body, depth + 1)
            elif kind in _CHANGES:
                result = False
            elif kind is Loop and st.var and (relevant is None or st.var in relevant):
                result = False
        return result

    def quiet_assign(self, st: Assign) -> bool:
        """quiet() for one assignment: a gate's or a checked variable's is a site the rules read."""
        relevant = self.inp.relevant
        if relevant is None or st.name in relevant or st.name in G.OTHER_VARS:
            return False
        return not (st.value is not None and st.value.effects or st.array is not None and any(w.effects for w in st.array))

    def uses_args(self, fdef: FuncDef) -> tuple:
        """The positional parameters a call binds: those its body reads (binding costs; most
        helpers read none, `need_dir` reads $1)."""
        cached = self.args_cache.get(fdef)
        if cached is None:
            cached = self.args_cache[fdef] = _reads_positional(fdef.body)
        return cached


@tuple_record
class _Summary:
    """What one top-level statement gives relevant_names (remembered while the statement is
    the same object: an editor's next version takes most statements over)."""

    deps: list  # (name, names its value reads)
    values: list  # (name, words assigned)
    functions: list  # (name, FuncDef)
    commands: list
    arrays: list  # array assignments: their deps once flag-like names are known
    opaque: bool  # a source, . or eval command, a nameref: names can flow where the passes cannot see
    subjects: list  # the words after `case`: a subject the path knows picks the arm
    launch: dict  # id of a word list here -> {(python, flag-like names): the names its launch reads}
    exported: list  # names an export gives the environment (the launch contract reads any of them)
    allexport: bool  # a `set -a`: every assignment after it may be exported
    integers: list  # names declared `-i`: their assignments are arithmetic


def _summarize(top) -> _Summary:
    deps, values, functions, commands, arrays, subjects, exported, integers = [], [], [], [], [], [], [], []
    opaque = allexport = False
    stack = [top]
    while stack:
        st = stack.pop()
        kind = type(st)
        stack.extend(children(st))
        if kind is Assign:
            words = [st.value] if st.value else st.array or []
            if st.value is None and st.array:
                arrays.append(st)
            else:
                deps.append((st.name, _word_refs(words)))
            if st.index is not None or st.keys:
                keys = [st.index] if st.index is not None else [w for _, w in st.keys]
                deps.append((st.name, _word_refs(keys) | {n for w in keys if w.text is not None
                                                          for n in read_names(w.text)}))
            values.append((st.name, words))
            if st.exported:
                exported.append(st.name)
            if st.keyword:
                declared = attributes(st.keyword)
                if _INTEGER in declared:
                    integers.append(st.name)
                if _NAMEREF in declared:
                    opaque = True  # `declare -n R=X`: an assignment to R is one to X
        elif kind is ExportNames:
            if st.exports and not st.negate:
                exported.extend(n for n, _, _ in st.names)
            if "i" in st.attributes:
                integers.extend(n for n, _, _ in st.names)
            if "n" in st.attributes:
                opaque = True
        elif kind is SetOpt:
            allexport = allexport or st.allexport
        elif kind is Command:
            commands.append(st)
            for a in st.prefix:
                deps.append((a.name, _word_refs([a.value] if a.value else [])))
                values.append((a.name, [a.value] if a.value else []))
                exported.append(a.name)  # exported to the command: a launch's prefix is what it is given
            first = st.words[0] if st.words else None
            assigns = ASSIGNS.get(first.text) if first is not None else None
            if assigns is not None:
                deps.extend(assigns(st))
            if first is not None and first.text in OPAQUE:
                opaque = True
            elif first is not None and first.text == "set":
                # `set -a`, `set -ea`, `set -o allexport`: over-approximated, an extra root is cheap
                allexport = allexport or any(w.text is None or w.text == "allexport" or
                                             w.text[:1] == "-" and "a" in w.text for w in st.words[1:])
        elif kind is Loop and st.var:
            deps.append((st.var, _word_refs(st.items or [])))
            values.append((st.var, st.items or []))
        elif kind is FuncDef:
            functions.append((st.name, st))
        elif kind is Case and st.subject is not None:
            subjects.append(st.subject)
    return _Summary(deps, values, functions, commands, arrays, opaque, subjects, {}, exported, allexport, integers)


def _sig(sm: _Summary) -> tuple:
    """Everything relevant_names reads of a summary, as one value: two statements with equal
    sigs give the same relevant names (a function's body by what _passes_args reads of it, the
    rest of it being in the summary already)."""
    return (tuple((n, frozenset(r)) for n, r in sm.deps), tuple((n, _any_flag(w)) for n, w in sm.values),
            tuple((n, _body_shape(f)) for n, f in sm.functions),
            tuple((c.words[0].text if c.words else None, _words_sig(c.words)) for c in sm.commands),
            tuple((a.name, _words_sig(a.array)) for a in sm.arrays), frozenset(_word_refs(sm.subjects)),
            tuple(sm.exported), sm.allexport, tuple(sm.integers), sm.opaque)


def _body_shape(fdef) -> tuple:
    """What _passes_args reads of a function's body, statement by statement: a kind that makes
    the arguments matter, or a command's name, whether assignments precede it and whether a
    word has side effects."""
    out = []
    stack = [fdef.body]
    while stack:
        st = stack.pop()
        stack.extend(children(st))
        kind = type(st)
        if kind in _USES_ARGS:
            out.append(kind.__name__)
        elif kind is Command:
            first = st.words[0] if st.words else None
            out.append((first.text if first is not None else None, bool(st.prefix),
                        any(w.effects for w in st.words)))
    return tuple(out)


def _words_sig(words) -> tuple:
    """What _launch_refs, _any_flag, _any_python and _word_refs read of each word, in order."""
    out = []
    for w in words:
        lead = w.text if w.text is not None else _lead(w)
        out.append((lead == G.MBS_FLAG, lead.startswith(G.MBS_FLAG), lead.startswith("-"), G.names_python(lead),
                    frozenset(_word_refs([w])), w.text is None and _splits(w)))
    return tuple(out)


class RelevanceMemo:
    """relevant_names' memory from one version of a document to the next: the summary of each
    top-level statement, by object, and the answer. Keyed by id(); each entry keeps its object
    alive, so an id is never another's."""

    __slots__ = ("old", "new", "made", "answer")

    def __init__(self, old: "Optional[RelevanceMemo]" = None):
        self.old = old.new if old is not None else {}
        self.new: dict = {}
        self.made: list = []  # the entries made for this version (statements not taken over)
        # the last version's answer: relevant_names gives it again when the statements it
        # summarised anew are equal to those it no longer has
        self.answer = old.answer if old is not None else _UNKNOWN

    def summary(self, top) -> _Summary:
        """_summarize(top), or what it gave for the same object in the last version."""
        hit = self.old.get(id(top))
        if hit is None or hit[0] is not top:
            # the third place holds the summary's _sig once same_as_last needs it: a statement
            # made for one version is the one gone in the next, and its sig is not made twice
            hit = (top, _summarize(top), [])
            self.made.append(hit)
        self.new[id(top)] = hit
        return hit[1]

    def same_as_last(self) -> bool:
        """Whether the statements summarised anew say what the ones gone since the last version said."""
        if self.answer is _UNKNOWN or len(self.made) > _FEW:
            return False  # a new document, or most of it built anew: comparing costs more than the answer
        old = self.old
        gone = [old[key] for key in old.keys() - self.new.keys()]
        return len(gone) == len(self.made) and Counter(map(_kept_sig, gone)) == Counter(map(_kept_sig, self.made))


def _kept_sig(hit: tuple) -> tuple:
    """The _sig of a memo entry's summary (top, summary, [sig]), made on first use and kept."""
    kept = hit[2]
    if not kept:
        kept.append(_sig(hit[1]))
    return kept[0]


_UNKNOWN = object()
_FEW = 16  # statements summarised anew, at most, for same_as_last to compare them


def relevant_names(script, memo: Optional[RelevanceMemo] = None, wide: bool = False) -> Optional[frozenset]:
    """Variables whose value can reach a check: gates, exported names, and what flows into
    launch-like commands (wide: every word a launch is given, as `packgate launches` shows it;
    else the words the checks read: the micro-batch size, what may expand to flags, the entry).

    Static and conservative: a script that sources files or uses `eval` gets None (everything
    is relevant), since names can then flow where this walk cannot see.
    """
    summaries = [memo.summary(top) if memo is not None else _summarize(top) for top in script.body.body]
    if memo is None:
        return _relevant(summaries, wide)
    if not memo.same_as_last():
        memo.answer = _relevant(summaries, wide)
    memo.old, memo.made = {}, []  # the last version's statements are not needed any more
    return memo.answer


def _relevant(summaries: list, wide: bool = False) -> Optional[frozenset]:
    roots = set(G.GATES)
    roots.add(STATUS)  # what an arithmetic command's status reads
    roots.add("IFS")  # what splits every unquoted expansion (Values.fields)
    deps: dict = {}
    values: dict = {}  # name -> every word assigned to it
    functions: dict = {}  # name -> its definitions
    integers: set = set()
    for sm in summaries:
        if sm.opaque:
            return None
        integers.update(sm.integers)
        for name, refs in sm.deps:
            deps.setdefault(name, set()).update(refs)
        for name, words in sm.values:
            values.setdefault(name, []).extend(words)
        for name, fdef in sm.functions:
            functions.setdefault(name, []).append(fdef)
        roots.update(_word_refs(sm.subjects))
        # what a launch is given is the launch contract's: every exported name reaches it
        roots.update(sm.exported)
        if wide:  # a dry run shows every prefix assignment (`NCCL_DEBUG=INFO torchrun`) too
            roots.update(a.name for cmd in sm.commands for a in cmd.prefix)
    if any(sm.allexport for sm in summaries):
        roots.update(values)
    flaggy = frozenset(n for n, words in values.items() if _any_flag(words))

    def launch_refs(sm: _Summary, words, python: Optional[bool]) -> set:
        """_launch_refs, remembered per word list and flag set (python None: an array's
        elements, read as python's arguments when any of them starts with python)."""
        hit = sm.launch.setdefault(id(words), {})
        key = (python, flaggy)
        refs = hit.get(key)
        if refs is None:
            hit.clear()  # one flag set at a time: another means the script changed there
            refs = hit[key] = _launch_refs(words, flaggy, _any_python(words) if python is None
                                           else python)
        return refs

    passing: dict = {}
    for sm in summaries:
        for a in sm.arrays:
            # read like a launch's words: its first element may be the command ("${CMD[@]}")
            deps.setdefault(a.name, set()).update(_word_refs(a.array) if wide else launch_refs(sm, a.array, None))
        for cmd in sm.commands:
            first = cmd.words[0] if cmd.words else None
            name = first.text if first is not None else None
            base = base_name(name) if name is not None else None
            if name in functions:
                if _passes_args(functions[name], functions, passing):
                    roots.update(_word_refs(cmd.words))
                    roots.update(str(i) for i in range(10))
            elif base in G.LAUNCHERS or (base is not None and G.is_python(base)):
                roots.update(_word_refs(cmd.words) if wide else launch_refs(sm, cmd.words, G.is_python(base)))
                roots.update(str(i) for i in range(10))
            elif name is None or base in REACHING and acts(base, cmd):
                roots.update(_word_refs(cmd.words))
                roots.update(str(i) for i in range(10))
            if cmd.stdin is not None and cmd.stdin.text is None and \
                    any(w.text is not None and base_name(w.text) in CHILD_SHELLS for w in cmd.words):
                roots.update(_word_refs([cmd.stdin]))  # `bash <<EOF`: this shell expands the script
    for name in integers:  # `declare -i N`: what is assigned to N is arithmetic over the names it spells
        deps.setdefault(name, set()).update(n for w in values.get(name, ()) if w is not None and w.text is not None
                                            for n in read_names(w.text))
    relevant, todo = set(), list(roots)
    while todo:
        n = todo.pop()
        if n in relevant:
            continue
        relevant.add(n)
        todo.extend(deps.get(n, ()))
    if INDIRECT in relevant:
        return None
    return frozenset(relevant)


def _any_flag(words) -> bool:
    """Whether the literal text any of the words starts with is an option's (`-`)."""
    for w in words:
        lead = w.text
        if (lead if lead is not None else _lead(w)).startswith("-"):
            return True
    return False


def _any_python(words) -> bool:
    """Whether the literal text any of the words starts with names a Python interpreter."""
    for w in words:
        lead = w.text
        if lead is None:
            lead = _lead(w)
        if "python" in lead and G.names_python(lead):  # (no call for the words that cannot)
            return True
    return False


def _lead(word) -> str:
    """The literal text a word starts with ('' when it starts with an expansion)."""
    if word is None:
        return ""
    if word.text is not None:
        return word.text
    first = word.parts[0] if word.parts else None
    return first.text if isinstance(first, Lit) else ""


def _splits(word) -> bool:
    """Whether a word can expand to other than exactly one argument: an unquoted expansion, or
    an array's every element ("${A[@]}"), at any depth (${A:+${B[@]}})."""
    stack = list(word.parts)
    while stack:
        p = stack.pop()
        if isinstance(p, Ref):
            if p.array_all or not p.quoted:
                return True
            if p.arg is not None:
                stack.extend(p.arg.parts)
        elif not isinstance(p, Lit):
            return True  # $(...), $((...)), globs: not worth proving one word
    return False


def _launch_refs(words, flaggy: set, python: bool = False) -> set:
    """The names a launch's words read that a check can see.

    The checks read the gates from the environment, and from the arguments only the
    micro-batch size (a flag and the word after it) and the packing-data switches. So a quoted
    scalar word such as "--data-path" "$DATA_PATH" contributes nothing; what can expand to flags
    (unquoted expansions, arrays, a variable assigned a flag-like value), the command word, the
    word after a micro-batch flag and, for python, the words up to the script or module (they
    decide whether it is a training launch) do.
    """
    out: set = set()
    take_next = False
    head = True
    mbs = G.MBS_FLAG
    for i, w in enumerate(words):
        lead = w.text
        if lead is not None and not python:  # a literal: reads nothing, may be the flag
            take_next = lead == mbs
            continue
        refs = w.refs
        if refs is None:
            refs = w.refs = _refs_of(w)
        lead = _lead(w)
        take = i == 0 or take_next or head and python
        take_next = lead == mbs
        if refs and not take:
            take = lead.startswith(mbs) or bool(refs & flaggy) or _splits(w)
        if refs & flaggy:
            take_next = True
        if take:
            out.update(refs)
        if python and i > 0 and head and not lead.startswith("-"):
            head = False  # the script or the module after -m: taken, and the head ends
    return out


def _passes_args(defs: list, functions: dict, memo: dict, depth: int = 0) -> bool:
    """Whether calling a function can make its arguments matter to a check: its body assigns,
    exports, unsets, sets options, defines functions, launches, sources, evals, or calls a
    function that does. A helper that only prints or tests (`log`, `need_dir`) does not."""
    key = defs[0]  # the first definition stands for them all
    if key in memo:
        return memo[key]
    if depth > MAX_CALL_DEPTH:
        return True
    memo[key] = True  # recursion: assume it matters
    result = False
    stack = [d.body for d in defs]
    while stack and not result:
        st = stack.pop()
        kind = type(st)
        stack.extend(children(st))
        if kind in _USES_ARGS:
            result = True
        elif kind is Command:
            first = st.words[0] if st.words else None
            name = first.text if first is not None else None
            base = base_name(name) if name is not None else None
            if st.prefix or name is None or any(w.effects for w in st.words):
                result = True
            elif name in functions:
                result = _passes_args(functions[name], functions, memo, depth + 1)
            elif base in REACHING and acts(base, st) or G.is_python(base):
                result = True
    memo[key] = result
    return result


def _reads_positional(block) -> tuple:
    """The positional parameters (1..9) the words below block read: all of them when a word
    reads $@, $* or $#, or when a command can read them where these words do not show it
    (commands.READS_ALL_ARGS: source, eval, shift, set)."""
    read: set = set()
    stack = [block]
    while stack:
        st = stack.pop()
        stack.extend(children(st))
        words = []
        if isinstance(st, Command):
            words = list(st.words) + [a.value for a in st.prefix if a.value]
            if st.words and st.words[0].text in READS_ALL_ARGS:
                return _ALL_ARGS
        elif isinstance(st, Assign):
            words = [st.value] if st.value else list(st.array or [])
        elif isinstance(st, Loop) and st.items:
            words = list(st.items)
        refs = _word_refs(words) & _POSITIONAL_NAMES
        if refs & {"@", "*", "#"}:
            return _ALL_ARGS
        read |= refs
    return tuple(i for i in range(1, 10) if str(i) in read)


_POSITIONAL_NAMES = frozenset([str(i) for i in range(1, 10)] + ["@", "*", "#"])
_ALL_ARGS = tuple(range(1, 10))


def _word_refs(words) -> set:
    """The names the words expand (${A:-$B} expands A and B)."""
    out = set()
    for w in words:
        if w is not None and w.text is None:  # (a literal word expands nothing)
            refs = w.refs
            if refs is None:
                refs = w.refs = _refs_of(w)  # kept on the word: an editor's next analysis reuses it
            if refs:
                out |= refs
    return out


_NO_REFS = frozenset()
# the name an indirect expansion (`${!X}`) stands for among the names a word reads: when it is
# relevant, the variable it reads may be any, so every variable is
INDIRECT = "!"


def _refs_of(word) -> frozenset:
    if word.text is not None:
        return _NO_REFS
    out = set()
    stack = list(word.parts)
    while stack:
        p = stack.pop()
        if isinstance(p, Ref):
            out.add(p.name)
            if p.indirect:
                out.add(INDIRECT)  # the name it reads comes at run time
            if p.arg is not None:
                stack.extend(p.arg.parts)
            if p.index is not None:
                stack.extend(p.index.parts)
                if p.index.text is not None:  # an indexed array's subscript is arithmetic: its names count
                    out.update(read_names(p.index.text))
        elif isinstance(p, Opaque) and p.text:  # `$(( EXPR ))`: the names it spells
            out.update(read_names(p.text))
    return frozenset(out) if out else _NO_REFS
