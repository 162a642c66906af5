"""Library functions: those the script never calls, judged where they were defined, after the
top-level walk. An editor's next walk takes a function's walk over from the last one (its log
entries, moved by the edit) when nothing it reads can differ: the same body, walked from the
same definition paths, with the same functions, the same launches-or-not and the same entries
in the tables whose membership it tests."""

from __future__ import annotations

from itertools import islice
from ..records import tuple_record

from .incremental import Unmapped, compose, moved_states
from .record import NAMES, Scalars
from .state import State

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional


@tuple_record
class LibraryRun:
    """One library function walked: what from, and which entries of the logs it added."""

    name: str
    fdef: object
    forks: list  # the paths where it was defined (the Define's list, by identity)
    moves: Optional[tuple]  # the chain of Moves those paths still needed
    functions: dict  # the functions table it was walked with (a copy)
    called: frozenset  # the functions called before it
    launched: bool  # whether a launch had been seen before it (the walk reads that)
    before: tuple  # len() of each log of TABLES before it ...
    after: tuple  # ... and after
    scalars: Scalars  # the counters before it ...
    scalars_after: Scalars  # ... and after
    clean: bool  # it read no file and made nothing up (no `bash -c`, `${X:=d}`, sourced file)


class Library:
    """The library functions' walks, after the top-level walk."""

    def __init__(self, inp, rec, where, walker, sourcing, incremental) -> None:
        self.inp, self.rec, self.where, self.walker, self.sourcing = inp, rec, where, walker, sourcing
        self.incremental = incremental
        self.library_runs: list = []  # of LibraryRun, in the order they were walked

    def library_functions(self) -> None:
        """Functions never called: judged where they were defined (or taken over from the last walk)."""
        old = self.old_library_runs()
        for name, fdef in list(self.rec.functions.items()):
            if name in self.rec.called:
                continue
            self.rec.called[name] = None
            forks, moves = self.rec.def_states.get(name, ([State({}, relevant=self.inp.relevant)], None))
            before, scalars = self.rec.lens(), self.rec.scalars()
            called, functions, launched = frozenset(self.rec.called), dict(self.rec.functions), bool(self.rec.launches)
            deps = len(self.rec.dependencies)
            run = old.get(name)
            if run is None or not self.take_library_run(run, fdef, forks, moves):
                self.where.call_steps = 0
                self.walker.call(fdef, moved_states(forks, self.incremental.mapper(moves)))
            after = self.rec.scalars()
            # a child shell's model is kept by place (child_cache): with any, a walk may reuse one
            clean = after.made == scalars.made and len(self.rec.dependencies) == deps and not self.rec.children
            self.library_runs.append(LibraryRun(name, fdef, forks, moves, functions, called, launched,
                                                before, self.rec.lens(), scalars, after, clean))

    def old_library_runs(self) -> dict:
        """The last walk's library runs that may be taken over, by name ({} when none can)."""
        r = self.incremental.resume_from
        if r is None or r.logs is None or r.sourced or r.relevant != self.inp.relevant or r.path != self.inp.path \
                or self.rec.dependencies or self.sourcing.source_cache or self.rec.children:
            return {}
        return {run.name: run for run in r.library if run.clean}

    def take_library_run(self, run: LibraryRun, fdef, forks: list, moves: Optional[tuple]) -> bool:
        """Append the last walk's entries of run (moved by the edit) in place of walking fdef
        again, when the walk would be the same; False (nothing changed) when it may not be."""
        # the cheap looks first (an edited function fails the last): comparing the paths moves them
        if run.fdef is not fdef or run.launched != bool(self.rec.launches) \
                or run.scalars.truncated != self.rec.truncated or run.called != self.rec.called.keys() \
                or not _same_table(run.functions, self.rec.functions):
            return False
        # a Define kept from before the edit keeps its Moves (its paths lie before the edit);
        # one taken over after it has the edit's composed in; one walked again is compared
        if (run.forks is not forks or moves not in (run.moves, compose(run.moves, self.incremental.moves))) \
                and not self.incremental.same_states(forks, moves, run.forks, compose(run.moves, self.incremental.moves)):
            return False
        logs = dict(zip(NAMES, self.incremental.resume_from.logs))
        at = dict(zip(NAMES, run.before))
        if any(self.tested_differently(mine.keys(), islice(logs[name], at[name]), forks)
               for name, mine in self.rec.tested()):
            return False
        try:
            entries = self.incremental.moved_entries(run.before, run.after)
        except Unmapped:
            return False
        for put, rows in zip(self.rec.putters(), entries):
            for entry in rows:
                put(entry)
        was, now = run.scalars, run.scalars_after
        self.rec.truncated = now.truncated
        self.rec.sub_launches += now.sub_launches - was.sub_launches
        self.rec.fn_version += now.fn_version - was.fn_version
        return True

    def tested_differently(self, mine, theirs, forks: list) -> bool:
        """Whether a key in one of two tables' key sets only is one a library function's walk
        may test: an assignment in a function body, or where a definition path's value came from."""
        differ = mine ^ set(theirs)
        if not differ:
            return False
        bodies = list(self.rec.functions.values())
        origins = {v.origin for s in forks for vs in (s.vars,) + s.frames for v in vs.values()
                   if v is not None and v.origin is not None}
        return any(a in origins or any(f.start <= a.start < f.end for f in bodies) for a in differ)


def _same_table(a: dict, b: dict) -> bool:
    """Two functions tables with the same definitions (the same objects) under the same names."""
    return len(a) == len(b) and all(b.get(n) is f for n, f in a.items())
