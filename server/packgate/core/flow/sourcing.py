"""Following `source FILE` / `. FILE`: finding the file (or a `# packgate source=` directive's),
refusing cycles, depth and unsafe paths, and walking it in this shell."""

from __future__ import annotations

import os
from typing import Optional

from ..parse import parse_bytes
from ..parse.model import Command, DirectiveKind, Word
from .facts import Reason, Stop, Unfollowed, UnfollowedKind, Val, ValKind
from .state import State

MAX_SOURCE_DEPTH = 8
_GIVEN = (ValKind.KNOWN, ValKind.DEFAULT)


class Sourcing:
    """The walk's `source` (a part of flow.analysis.Flow)."""

    def source(self, cmd: Command, word: Word, val: Val, s: State) -> list:
        """Run a sourced file in this shell, when it can be found and read safely."""
        override = self.source_directive(cmd)
        where = (word.start, word.end) if self.via is None else self.via
        if override is not None:
            target = override
        elif val.kind in _GIVEN and val.text:
            target = val.text
        else:
            self.unfollowed.append(Unfollowed(*where, Reason(UnfollowedKind.DYNAMIC, val.via or "?")))
            return [s]
        if self.loader is None:  # following is off (no file location): nothing more to say
            return [s]
        if "\0" in target:
            self.unfollowed.append(Unfollowed(*where, Reason(UnfollowedKind.REFUSED, "a path with a NUL byte")))
            return [s]
        written = target
        current = self.file_stack[-1]
        if not os.path.isabs(target):
            if current is None:
                self.unfollowed.append(Unfollowed(*where, Reason(UnfollowedKind.RELATIVE, target)))
                return [s]
            target = os.path.join(os.path.dirname(current), target)
        target = os.path.normpath(target)

        real = os.path.realpath(target)
        chain = [p for p in self.file_stack if p]
        if real in {os.path.realpath(p) for p in chain}:
            cycle = " → ".join(os.path.basename(p) for p in chain + [real])
            self.unfollowed.append(Unfollowed(*where, Reason(UnfollowedKind.CYCLE, cycle)))
            return [s]
        if len(self.file_stack) > MAX_SOURCE_DEPTH:
            self.unfollowed.append(Unfollowed(*where, Reason(UnfollowedKind.DEPTH, written)))
            return [s]
        self.dependencies.add(real)
        script = self.source_cache.get(real)
        if script is None:
            text, reason = self.loader(target)
            if text is None:
                self.unfollowed.append(Unfollowed(*where, Reason(UnfollowedKind.REFUSED, f"{written}: {reason}")))
                self.source_cache[real] = False
                return [s]
            self.foreign[real] = text
            script = parse_bytes(text.encode("utf-8", "surrogatepass"), file=real)
            self.source_cache[real] = script
        elif script is False:
            return [s]
        outer_via = self.via
        if self.via is None:
            self.via = (cmd.start, cmd.end)
        self.file_stack.append(real)
        self.sourced = True
        try:
            out = self.block(script.body, [s])
        finally:
            self.file_stack.pop()
            self.sourced = len(self.file_stack) > 1
            self.via = outer_via
        for st in out:
            if st.done == Stop.RETURN:
                st.done = Stop.NONE
        return out

    def source_directive(self, cmd: Command) -> Optional[str]:
        """The path of a `# packgate source=PATH` comment that covers this command."""
        if self.via is not None:
            return None
        for d in self.script.directives:
            if d.kind == DirectiveKind.SOURCE and d.values and d.scope_start <= cmd.start < d.scope_end:
                path = d.values[0]
                if not os.path.isabs(path) and self.path:
                    path = os.path.join(os.path.dirname(self.path), path)
                return path
        return None
