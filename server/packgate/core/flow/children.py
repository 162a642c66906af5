"""Child shells: `bash -c '...'` and `docker run [-e NAME[=value]] IMAGE CMD`, as the handlers in
commands.py found them (their effects.RunChild, RunContainer). A child starts from what its
parent exported (a container from what environ.py's transforms of its options give: nothing but
its -e options); what it exports is lost when it ends."""

from __future__ import annotations

from itertools import islice

from .. import gates as G
from ..parse import parse_bytes
from ..parse.model import AssignMode, Command, Lit, Occurrence, OccurrenceKind, Sub, SubKind, Word
from .environ import Clear, EnvFile, PassHost, SetVar
from .effects import ChildEnv
from .facts import Lost, Origin, Val, ValKind, Var
from .state import State

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

MAX_CHILD_DEPTH = 3


class Children:
    """The walk's child shells and containers, walked by the walker on copies of the path."""

    def __init__(self, inp, where, rec, evaluator, declarations, applier, walker, sourcing) -> None:
        self.inp, self.where, self.rec, self.evaluator = inp, where, rec, evaluator
        self.declarations, self.applier, self.walker, self.sourcing = declarations, applier, walker, sourcing

    def inner_script(self, word: Word, whole: bool = False):
        """The model of a `bash -c` string (parsed once per place), noted for its directives;
        whole: the word's bytes are the script as they are (a here-document has no quotes). In
        a sourced file the word's offsets are that file's, and so are its bytes."""
        file = self.where.file_stack[-1] if self.where.sourced else None
        key = (word.start, word.end) if file is None else (file, word.start, word.end)
        if key in self.rec.child_cache:
            return self.rec.child_cache[key]
        data = self.inp.data if file is None else self.sourcing.file_bytes[file]
        raw = data[word.start:word.end]
        base = word.start
        if word.quote and len(raw) >= 2 and not whole:
            raw, base = raw[1:-1], word.start + 1
        script = parse_bytes(raw, base=base, file=file)
        self.rec.child_cache[key] = script
        if file is None:  # its directives are the document's (a sourced file's are not read)
            self.rec.children.append(script)
            self.rec.child_log.append(key)
        return script

    def shell_c(self, c, script_word: Word, s: State, how: ChildEnv = ChildEnv.EXPORTED) -> None:
        """`bash -c SCRIPT` (or `bash <<'EOF'`: how) on path s: SCRIPT runs in a child shell that
        sees what this one exported, as far as its wrappers pass it (c: the commands.Call: `env
        -i`, sudo's reset). For `bash <<EOF` this shell expands the text first: the child reads
        this shell's unexported variables' values too, and still does not hand them on."""
        if self.where.child_depth >= MAX_CHILD_DEPTH or (self.where.sourced and how is not ChildEnv.EXPORTED):
            return
        reach = c.reach
        kept = (reach.kept if reach is not None else frozenset()) if c.clears else None
        passes = {k: v for k, v in s.vars.items() if v.exported and (kept is None or k in kept)}
        if how is ChildEnv.EXPANDED:
            passes = {**{k: v._replace(exported=False) for k, v in s.vars.items()
                         if v is not None and not v.exported}, **passes}
        child = State(passes, labels=s.labels, relevant=self.inp.relevant, cleared=c.clears or s.cleared)
        for a in c.prefix:
            if a.mode != AssignMode.ENV_UNSET:
                self.declarations.assign(child, a)
            else:
                child.drop(a.name)
        if reach is not None and reach.unknown:
            for gate in G.GATES:
                child.set(gate, Var(Val(ValKind.UNKNOWN, via=reach.unknown, origin=Origin.UNKNOWN), True, None))
        self.run_child(script_word, child, parent=s, whole=how is not ChildEnv.EXPORTED)

    def split_string(self, c, word: Word, s: State) -> None:
        """`env -S 'NAME=1 CMD ...'` on path s: the string, split into words, is the command env
        runs with what this shell exported and the assignments before it (c: the commands.Call)."""
        child = State({} if c.clears else {k: v for k, v in s.vars.items() if v.exported}, labels=s.labels,
                      relevant=self.inp.relevant, cleared=c.clears or s.cleared)
        for a in c.prefix:
            if a.mode != AssignMode.ENV_UNSET:
                self.declarations.assign(child, a)
            else:
                child.drop(a.name)
        self.run_child(word, child, parent=s)

    def run_child(self, word: Word, child: State, parent: Optional[State] = None, whole: bool = False) -> None:
        """Walk a child shell's script; its exports are lost when it launches nothing."""
        script = self.inner_script(word, whole)
        self.where.child_depth += 1
        try:
            before = self.rec.sub_launches
            marker = len(self.rec.gate_sites)
            self.walker.block(script.body, [child])
            if self.rec.sub_launches == before:
                for a, _ in islice(self.rec.gate_sites.values(), marker, None):
                    if a.exported:
                        self.rec.made += 1
                        sub = Sub(word.start, word.end, kind=SubKind.CHILD)
                        self.walker.lose(a, sub)
                        if parent is not None:
                            parent.lost[a.name] = Lost(a, sub)
        finally:
            self.where.child_depth -= 1

    def run_container(self, c, e, s: State) -> None:
        """`docker run [options] IMAGE CMD` on path s: CMD runs in a container that sees only its
        -e options (c: the commands.Call; e: the handler's effects.RunContainer, its env the
        transforms of environ.py)."""
        words = c.words
        exported = {k: v for k, v in s.vars.items() if v.exported}
        container = State({} if any(type(t) is Clear for t in e.env) else dict(exported), labels=s.labels,
                          container=True, docker_at=words[e.run_at].end, relevant=self.inp.relevant,
                          host_exported=frozenset(exported))
        for t in e.env:
            kind = type(t)
            if kind is SetVar:
                self.container_set(container, t)
            elif kind is PassHost:
                self.container_pass(container, s, t)
            elif kind is EnvFile:
                container.env_file = True
        if e.shell:
            if e.script is not None and self.where.child_depth < MAX_CHILD_DEPTH:
                self.run_child(e.script, container)
        elif e.command:
            first = words[e.command[0]]
            sub_cmd = Command(first.start, c.cmd.end, words=[words[k] for k in e.command],
                              name_start=first.start, name_end=first.end)
            self.applier.command_in(sub_cmd, container)

    def container_set(self, container: State, t: SetVar) -> None:
        """One `-e NAME=value`: set in the container."""
        word, strip = t.word, t.strip
        if strip and word.parts and isinstance(word.parts[0], Lit):
            lit = word.parts[0]
            word = Word([Lit(lit.text[strip:], lit.start + strip, lit.end)] + word.parts[1:],
                        word.start + strip, word.end)
        self.declarations.assign(container, self.declarations.word_assign(word, AssignMode.DOCKER))

    def container_pass(self, container: State, host: State, t: PassHost) -> None:
        """One `-e NAME`: the host's NAME passed when the host exported it."""
        name = t.name
        var = host.vars.get(name)
        if var is not None and var.exported:
            container.set(name, var)
            self.evaluator.mark_read(var)
        elif var is not None and var.origin is not None:
            # the host only assigned it: -e NAME passes nothing, the way a missing export does
            container.set(name, Var(var.val, False, var.origin))
            self.evaluator.mark_read(var)
        if name in G.GATES:
            self.rec.extra_occ.append(Occurrence(name, t.word.start + t.strip, t.word.end, OccurrenceKind.DOCKER))
