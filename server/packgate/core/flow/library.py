"""Library functions: those the script never calls, judged where they were defined, after the
top-level walk. An editor's next walk takes a function's walk over from the last one (its log
entries, moved by the edit) when nothing it reads can differ: the same body, walked from the
same definition paths, with the same functions, the same launches-or-not and the same entries
in the tables whose membership it tests."""

# No `from __future__ import annotations` in this module: typing compiles every string
# annotation of a NamedTuple's fields, and the first compile makes CPython build its ~120 AST
# classes, a twentieth of a cold `packgate check` (tests/core/test_purity.py keeps it at none).

from itertools import islice
from typing import NamedTuple, Optional

from .incremental import NAMES, TABLES, Scalars, Unmapped, compose, moved_states
from .state import State

# the tables a walk tests keys of (setdefault, `in`): a key in one walk only, where a library
# function may test it, makes its walk differ
_TESTED = ("gate_sites", "overwrites", "read")


class LibraryRun(NamedTuple):
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
    """The library functions' walks (a part of flow.analysis.Flow)."""

    def library_functions(self) -> None:
        """Functions never called: judged where they were defined (or taken over from the last walk)."""
        old = self.old_library_runs()
        for name, fdef in list(self.functions.items()):
            if name in self.called:
                continue
            self.called[name] = None
            forks, moves = self.def_states.get(name, ([State({}, relevant=self.relevant)], None))
            before, scalars = self.lens(), self.scalars()
            called, functions, launched = frozenset(self.called), dict(self.functions), bool(self.launches)
            deps = len(self.dependencies)
            run = old.get(name)
            if run is None or not self.take_library_run(run, fdef, forks, moves):
                self.call_steps = 0
                self.call(fdef, moved_states(forks, self.mapper(moves)))
            after = self.scalars()
            # a child shell's model is kept by place (child_cache): with any, a walk may reuse one
            clean = after.made == scalars.made and len(self.dependencies) == deps and not self.children
            self.library_runs.append(LibraryRun(name, fdef, forks, moves, functions, called, launched,
                                                before, self.lens(), scalars, after, clean))

    def old_library_runs(self) -> dict:
        """The last walk's library runs that may be taken over, by name ({} when none can)."""
        r = self.resume_from
        if r is None or r.logs is None or r.sourced or r.relevant != self.relevant or r.path != self.path \
                or self.dependencies or self.source_cache or self.children:
            return {}
        return {run.name: run for run in r.library if run.clean}

    def take_library_run(self, run: LibraryRun, fdef, forks: list, moves: Optional[tuple]) -> bool:
        """Append the last walk's entries of run (moved by the edit) in place of walking fdef
        again, when the walk would be the same; False (nothing changed) when it may not be."""
        if run.fdef is not fdef:
            return False
        # a Define kept from before the edit keeps its Moves (its paths lie before the edit);
        # one taken over after it has the edit's composed in; one walked again is compared
        if (run.forks is not forks or moves not in (run.moves, compose(run.moves, self.moves))) \
                and not self.same_states(forks, moves, run.forks, compose(run.moves, self.moves)):
            return False
        if run.launched != bool(self.launches) or run.scalars.truncated != self.truncated \
                or run.called != self.called.keys() or not _same_table(run.functions, self.functions):
            return False
        logs = dict(zip(NAMES, self.resume_from.logs))
        at = dict(zip(NAMES, run.before))
        if any(self.tested_differently(getattr(self, name).keys(), islice(logs[name], at[name]), forks)
               for name in _TESTED):
            return False
        try:
            entries = self.moved_entries(run.before, run.after)
        except Unmapped:
            return False
        for t, rows in zip(TABLES, entries):
            put = self.putter(t)
            for entry in rows:
                put(entry)
        was, now = run.scalars, run.scalars_after
        self.truncated = now.truncated
        self.sub_launches += now.sub_launches - was.sub_launches
        self.fn_version += now.fn_version - was.fn_version
        return True

    def tested_differently(self, mine, theirs, forks: list) -> bool:
        """Whether a key in one of two tables' key sets only is one a library function's walk
        may test: an assignment in a function body, or where a definition path's value came from."""
        differ = mine ^ set(theirs)
        if not differ:
            return False
        bodies = list(self.functions.values())
        origins = {v.origin for s in forks for vs in (s.vars,) + s.frames for v in vs.values()
                   if v is not None and v.origin is not None}
        return any(a in origins or any(f.start <= a.start < f.end for f in bodies) for a in differ)


def _same_table(a: dict, b: dict) -> bool:
    """Two functions tables with the same definitions (the same objects) under the same names."""
    return len(a) == len(b) and all(b.get(n) is f for n, f in a.items())
