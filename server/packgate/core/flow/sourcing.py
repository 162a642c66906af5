"""Following `source FILE` / `. FILE`: finding the file (or a `# packgate source=` directive's),
refusing cycles, depth and unsafe paths, and walking it in this shell."""

from __future__ import annotations

import os
import re

from .. import gates as G
from ..parse import parse_bytes
from ..parse.model import Command, DirectiveKind, Opaque, Word
from ..parse.words import SUBSTITUTION
from .facts import NAMED, UNREAD, Reason, Stop, Unfollowed, UnfollowedKind, Val, ValKind, Var, keeps_export
from .state import State

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional

MAX_SOURCE_DEPTH = 8
_GIVEN = (ValKind.KNOWN, ValKind.DEFAULT)
# a gate after a file packgate could not read: whatever the file made of it


def note_unfollowed(rec, where: tuple, kind: UnfollowedKind, detail: str) -> None:
    """PG009's record of an input the walk could not see (or follow), at where."""
    rec.unfollowed.append(Unfollowed(*where, Reason(kind, detail)))


def unread_gates(rec, s: State, where: tuple, kind: Optional[UnfollowedKind], detail: str,
                 exports: bool) -> list:
    """What an input no static reading can see leaves on path s: every gate unknown (exported,
    or with exports False keeping its export mark), and, unless kind is None (said already),
    an Unfollowed record for PG009 at where."""
    if kind is not None:
        note_unfollowed(rec, where, kind, detail)
    for gate in G.GATES:
        if exports:
            s.set(gate, Var(UNREAD, True, None))
        else:
            s.set(gate, Var(NAMED, keeps_export(s.vars.get(gate)) or s.allexport, None))
    return [s]


class Sourcing:
    """The walk's `source`: a sourced file is walked by the walker, in this shell."""

    def __init__(self, inp, where, rec, walker) -> None:
        self.inp, self.where, self.rec, self.walker = inp, where, rec, walker
        self.source_cache: dict = {}  # a sourced file's real path -> its model (False: not followed)
        self.file_bytes: dict = {}  # a sourced file's real path -> its bytes (the model's offsets count in them)
        self.written_files: dict = {}  # a sourced path -> whether the script writes it (writes_file())

    def source(self, cmd: Command, word: Word, val: Val, s: State) -> list:
        """Run a sourced file in this shell, when it can be found and read safely."""
        override = self.source_directive(cmd)
        where = (word.start, word.end) if self.where.via is None else self.where.via
        if override is not None:
            target = override
        elif val.kind in _GIVEN and val.text:
            target = val.text
        elif self.process_substitution(word):
            return self.unread(s, where, UnfollowedKind.PROCESS, self.shown(word))
        else:
            return self.unread(s, where, UnfollowedKind.DYNAMIC, val.via or "?")
        if self.inp.loader is None:  # following is off (no file location): nothing more to say
            return [s]
        if "\0" in target:
            return self.unread(s, where, UnfollowedKind.REFUSED, "a path with a NUL byte")
        written = target
        if self.writes_file(written):  # made (or rewritten) at run time: what is on disk now is not it
            return self.unread(s, where, UnfollowedKind.WRITTEN, written)
        current = self.where.file_stack[-1]
        if not os.path.isabs(target):
            if current is None:
                return self.unread(s, where, UnfollowedKind.RELATIVE, target)
            target = os.path.join(os.path.dirname(current), target)
        target = os.path.normpath(target)

        real = os.path.realpath(target)
        chain = [p for p in self.where.file_stack if p]
        if real in {os.path.realpath(p) for p in chain}:
            cycle = " → ".join(os.path.basename(p) for p in chain + [real])
            note_unfollowed(self.rec, where, UnfollowedKind.CYCLE, cycle)
            return [s]
        if len(self.where.file_stack) > MAX_SOURCE_DEPTH:
            return self.unread(s, where, UnfollowedKind.DEPTH, written)
        self.rec.dependencies.add(real)
        script = self.source_cache.get(real)
        if script is None:
            text, reason = self.inp.loader(target)
            if text is None:
                note_unfollowed(self.rec, where, UnfollowedKind.REFUSED, f"{written}: {reason}")
                self.source_cache[real] = False
                if not os.path.lexists(target):
                    return [s]  # bash says so and goes on: the file sets nothing
                return self.unread(s, where, None, "")
            self.rec.foreign[real] = text
            data = self.file_bytes[real] = text.encode("utf-8", "surrogatepass")
            script = parse_bytes(data, file=real)
            self.source_cache[real] = script
        elif script is False:
            return [s] if not os.path.lexists(target) else self.unread(s, where, None, "")
        outer_via = self.where.via
        if self.where.via is None:
            self.where.via = (cmd.start, cmd.end)
        self.where.file_stack.append(real)
        self.where.sourced = True
        try:
            out = self.walker.block(script.body, [s])
        finally:
            self.where.file_stack.pop()
            self.where.sourced = len(self.where.file_stack) > 1
            self.where.via = outer_via
        for st in out:
            if st.done == Stop.RETURN:
                st.done = Stop.NONE
        return out

    def unread(self, s: State, where: tuple, kind: Optional[UnfollowedKind], detail: str,
               exports: bool = True) -> list:
        """A file (or a command's output) sourced unseen: PG009 says so (kind None: said
        already), and what the gates are after it is unknown on this path (exports False: an
        assignment to a name made at run time, which leaves each gate's export mark)."""
        return unread_gates(self.rec, s, where, kind, detail, exports)

    def writes_file(self, written: str) -> bool:
        """Whether this script's text redirects output into the file it sources (`cat > env.sh`,
        `echo ... >> ./env.sh`, `| tee env.sh`), by the file's name (computed once per name)."""
        found = self.written_files.get(written)
        if found is None:
            name = re.escape(os.path.basename(written).encode("utf-8", "surrogatepass"))
            pattern = rb"(?:>>?|>\||\btee(?:\s+-a)?)\s*[\"']?(?:[^\s\"';&|<>]*/)?" + name + rb"[\"']?(?=[\s;&|)]|$)"
            found = self.written_files[written] = bool(name) and not self.where.sourced and \
                re.search(pattern, self.inp.data) is not None
        return found

    def process_substitution(self, word: Word) -> bool:
        """Whether a sourced word is a process substitution, `<(curl ...)`."""
        parts = word.parts
        return len(parts) == 1 and type(parts[0]) is Opaque and parts[0].reason == SUBSTITUTION and \
            not self.where.sourced and self.inp.data[parts[0].start:parts[0].start + 2] == b"<("

    def shown(self, word: Word) -> str:
        """A word as the script spells it (in this document)."""
        if self.where.sourced:
            return "?"
        return self.inp.data[word.start:word.end].decode("utf-8", "replace")

    def source_directive(self, cmd: Command) -> Optional[str]:
        """The path of a `# packgate source=PATH` comment that covers this command."""
        if self.where.via is not None:
            return None
        for d in self.inp.script.directives:
            if d.kind == DirectiveKind.SOURCE and d.values and d.scope_start <= cmd.start < d.scope_end:
                path = d.values[0]
                if not os.path.isabs(path) and self.inp.path:
                    path = os.path.join(os.path.dirname(self.inp.path), path)
                return path
        return None
