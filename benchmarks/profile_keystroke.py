"""Where a keystroke's time goes on the server's path, phase by phase (for RESULTS.md).

    .venv/bin/python benchmarks/profile_keystroke.py [--lines 250|2000] [--spots 100] [--slowest 0.1]
        [--breaking 0.2] [--by-place] [--phases] [--cpu]

Replays the keystrokes of `make bench` (lsp_bench.keystroke_spots) through the session the
server uses (splice into the kept tree, analysis with the previous version's tree, model and
walk, conversion to protocol types) and the JSON the server writes for publishDiagnostics,
under cProfile, and prints each phase's share of the total. cProfile slows Python code more
than C code (tree-sitter's parse), so the shares are a guide to where to look, not timings.
With --slowest F, a first replay times every keystroke without the profiler, and a second one,
the same keystrokes from a fresh session, profiles only the slowest fraction F of them: what
sets the p95. With --breaking F, that share of the spots types at the end of a `then`, `fi`,
`do`, `done`, `esac`, `;;`, `{` or `}` line, breaking a compound statement's syntax
(lsp_bench.keystroke_spots); the 2,000-line launcher is the one `make bench` types into,
generated with an if/then/fi and a for/do/done in every stage. --by-place profiles nothing: it
times each kind of spot's keystrokes, their re-parse and their walk, against a full lint. --cpu
times with this thread's CPU time instead of the wall clock: on a machine other work shares, the
slowest keystrokes are then those that cost the most, not those another process interrupted.
--phases profiles nothing either: it times each phase of every keystroke (PLACES, wrapped for the
replay) and prints their mean over the slowest fraction (--slowest, default a tenth), over all of
them and over a full lint: what the keystrokes that set the p95 spend, without the profiler's bias
towards Python code, beside what a lint spends (a phase both pay alike moves the ratio little).
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pstats
import statistics
import sys
import time
from contextlib import contextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "server"), str(HERE)]

import lsp_bench as lb  # noqa: E402
from generate import generate  # noqa: E402
from lsprotocol import types  # noqa: E402

from packgate.lsp import convert  # noqa: E402
from packgate.lsp.session import Session  # noqa: E402

# (phase, file suffix, function name): cumulative times, chosen so that none holds another
PHASES = [
    ("splice: the edit applied to the text, the Source and the kept tree", "lsp/session.py", "splice"),
    ("re-parse and model reuse (core/parse parse_bytes)", "parse/build.py", "parse_bytes"),
    ("relevance (flow/relevance relevant_names)", "flow/relevance.py", "relevant_names"),
    ("library functions (flow/library library_functions)", "flow/library.py", "library_functions"),
    ("walk from the last checkpoint (flow/incremental top)", "flow/incremental.py", "top"),
    ("profile and settings (engine resolve_profile)", "core/engine.py", "resolve_profile"),
    ("conversion to protocol types (convert.to_diagnostics)", "lsp/convert.py", "to_diagnostics"),
    ("serialization of publishDiagnostics (cattrs + json)", "profile_keystroke.py", "serialize"),
]


clock = time.perf_counter  # what every time here is read with (--cpu: time.thread_time)


def serialize(converter, uri: str, version: int, diagnostics) -> str:
    """What pygls writes for one publishDiagnostics."""
    note = types.PublishDiagnosticsNotification(
        params=types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=diagnostics))
    return json.dumps(converter.unstructure(note))


def rules_time(stats: pstats.Stats) -> float:
    """The checks (core/rules/*.py check functions), summed."""
    return sum(v[3] for (f, _, name), v in stats.stats.items() if "/core/rules/" in f and name == "check")


def replay(text: str, spots: list, profile: cProfile.Profile | None = None,
           profiled: frozenset = frozenset(), each=None, opened=None) -> list[float]:
    """Type the spots' keystrokes into a fresh session as the server does: the seconds each took
    (the keystrokes numbered in profiled run under profile; each(n), if given, called after the n-th;
    opened(), if given, once the document is open, before the first)."""
    session, uri = Session(), "file:///packgate-bench/profile.sh"
    features, converter = convert.ClientFeatures(), convert.converter()  # the server's
    session.analysis(uri, 0, text)
    if opened is not None:
        opened()
    times: list[float] = []
    for spot in spots:
        for rng, new, _ in lb.spot_edits(text, spot):
            on = profile is not None and (not profiled or len(times) in profiled)
            t0 = clock()
            if on:
                profile.enable()
            source = session.source(uri, text)
            start, end = convert.change_offsets(source, types.TextDocumentContentChangePartial(range=rng, text=new),
                                                "utf-16")
            text = session.splice(uri, source, start, end, new)
            entry, _ = session.analysis(uri, len(times) + 1, text, full=False)
            rendered = convert.to_diagnostics(entry.analysis.findings, entry.analysis.source, uri, len(times) + 1,
                                              features, entry.analysis.source_for)
            serialize(converter, uri, len(times) + 1, rendered)
            if on:
                profile.disable()
            times.append(clock() - t0)
            if each is not None:
                each(len(times) - 1)
    return times


# the engine's ways into the flow's walk: an editor's document takes the second where the engine has it
WALKS = ("analyze_flow", "analyze_flow_for_editor")


@contextmanager
def wrapped(places: list, spent: dict):
    """While inside, each (owner, attribute, key) of places adds the seconds its calls take to
    spent[key] (an attribute holding a dict of functions, the checks: each of them, into the
    same key); put back on the way out."""
    def timed(fn, key):
        def call(*args, **kwargs):
            t0 = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[key] = spent.get(key, 0.0) + clock() - t0
        return call

    undo = []
    try:
        for owner, name, key in places:
            original = getattr(owner, name)
            undo.append((owner, name, original))
            setattr(owner, name, {code: timed(fn, key) for code, fn in original.items()}
                    if type(original) is dict else timed(original, key))
        yield
    finally:
        for owner, name, original in reversed(undo):
            setattr(owner, name, original)


def by_place(text: str, spots: list) -> dict:
    """Median seconds of a keystroke by the kind of its spot (the syntax-breaking ones by word,
    the others together) and by whether it typed or deleted: name -> (count, whole keystroke,
    re-parse and model, walk), timed without a profiler (parse.edit's reparse, which the engine
    imports when it runs, and the engine's ways into the walk, WALKS, wrapped for this replay only)."""
    import packgate.core.engine as engine
    import packgate.core.parse.edit as edit
    spent: dict = {}
    split: list = []  # per keystroke: (re-parse, walk)

    def each(n: int) -> None:
        split.append((spent.get("parse", 0.0), spent.get("walk", 0.0)))
        spent.clear()

    places = [(edit, "reparse", "parse")] + [(engine, name, "walk") for name in WALKS if hasattr(engine, name)]
    with wrapped(places, spent):
        times = replay(text, spots, each=each, opened=spent.clear)
    rows: dict = {}
    for n, (whole, (parse, walk)) in enumerate(zip(times, split)):
        spot = spots[n // 2]
        name = f"{spot[0] if lb.breaks_syntax(spot) else 'the other spots'}, {'typed' if n % 2 == 0 else 'deleted'}"
        rows.setdefault(name, []).append((whole, parse, walk))
    return {name: (len(v),) + tuple(statistics.median(x[i] for x in v) for i in range(3))
            for name, v in sorted(rows.items())}


# (module, attribute, phase) wrapped by --phases; "of which" phases run inside the one above them
PLACES = [
    ("packgate.lsp.session", "Session.splice", "splice: the edit applied to the text, the Source and the kept tree"),
    ("packgate.core.parse.edit", "reparse", "re-parse and model reuse"),
    ("packgate.core.engine", "parse_bytes", "re-parse and model reuse"),  # a lint's parse (never a keystroke's)
    ("packgate.core.flow.analysis", "relevant_names", "relevance"),
    ("packgate.core.flow.incremental", "Incremental.top", "walk from the last checkpoint"),
    ("packgate.core.flow.incremental", "Incremental.resync", "  of which: tries to take the rest over"),
    ("packgate.core.flow.incremental", "Incremental.checkpoint", "  of which: checkpoints taken"),
    ("packgate.core.flow.library", "Library.library_functions", "library functions"),
    ("packgate.core.engine", "CHECKS", "the checks (core/rules/*)"),
    ("packgate.lsp.convert", "to_diagnostics", "conversion to protocol types"),
    (__name__, "serialize", "serialization of publishDiagnostics"),
]


def phases(text: str, spots: list, slowest: float) -> tuple:
    """Mean seconds of each phase of PLACES (and of the whole keystroke) over the slowest
    fraction of the keystrokes, over all, and over five full lints of the text:
    [(phase, slowest, all, lint)], the keystrokes' times, the lints' times."""
    import packgate
    import importlib
    spent: dict = {}
    split: list = []
    places = []
    for module, attribute, key in PLACES:
        owner = sys.modules[module] if module == __name__ else importlib.import_module(module)
        *path, name = attribute.split(".")
        for part in path:
            owner = getattr(owner, part)
        places.append((owner, name, key))
    with wrapped(places, spent):
        times = replay(text, spots, each=lambda n: (split.append(dict(spent)), spent.clear()), opened=spent.clear)
        lints, lint_split = [], []
        for _ in range(5):
            spent.clear()
            t0 = clock()
            packgate.lint(text)
            lints.append(clock() - t0)
            lint_split.append(dict(spent))
    order = sorted(range(len(times)), key=times.__getitem__)
    worst = order[-max(1, round(len(times) * slowest)):]
    rows = [(key, statistics.mean(split[i].get(key, 0.0) for i in worst), statistics.mean(x.get(key, 0.0) for x in split),
             statistics.mean(x.get(key, 0.0) for x in lint_split)) for key in dict.fromkeys(k for _, _, k in PLACES)]
    outer = [r for r in rows if not r[0].startswith(" ")]
    rows.append(("everything else (the session's bookkeeping, the flow's set-up and findings, the profile)",
                 statistics.mean(times[i] for i in worst) - sum(r[1] for r in outer),
                 statistics.mean(times) - sum(r[2] for r in outer), statistics.mean(lints) - sum(r[3] for r in outer)))
    return rows, times, lints


def lint_time(text: str) -> float:
    """The median seconds of five full `packgate.lint` runs of text."""
    import packgate
    times = []
    for _ in range(5):
        t0 = clock()
        packgate.lint(text)
        times.append(clock() - t0)
    return statistics.median(times)


def main(argv=None) -> int:
    global clock
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, choices=(250, 2000), default=250)
    parser.add_argument("--spots", type=int, default=100)
    parser.add_argument("--slowest", type=float, default=None, metavar="F",
                        help="profile only the slowest fraction F of the keystrokes (timed in a first replay)")
    parser.add_argument("--breaking", type=float, default=0.0, metavar="F",
                        help="the share of the spots that break a compound statement's syntax (default 0)")
    parser.add_argument("--by-place", action="store_true",
                        help="no profile: each kind of spot's median keystroke, re-parse and walk, and a full lint's")
    parser.add_argument("--phases", action="store_true",
                        help="no profile: each phase's mean time over the slowest fraction (--slowest) and all")
    parser.add_argument("--cpu", action="store_true",
                        help="time with this thread's CPU time, not the wall clock (a machine other work shares)")
    args = parser.parse_args(argv)
    if args.cpu:
        clock = time.thread_time
    text = (HERE / "inputs" / "ov2_stage2_launcher.sh").read_text(encoding="utf-8") if args.lines == 250 \
        else generate(2000, 7, blocks=True)
    spots = lb.keystroke_spots(text, args.spots, breaking=args.breaking)
    gc.disable()  # as the server (packgate.lsp.memory): collections run between keystrokes
    if args.by_place:
        rows = by_place(text, spots)
        print("| spot | keystrokes | median keystroke | re-parse and model | walk |\n| --- | --- | --- | --- | --- |")
        for name, (count, whole, parse, walk) in rows.items():
            print(f"| {name} | {count} | {whole * 1000:.1f} ms | {parse * 1000:.1f} ms | {walk * 1000:.1f} ms |")
        print(f"\na full `packgate.lint` of the same text: {lint_time(text) * 1000:.1f} ms (median of 5)")
        return 0
    if args.phases:
        share = args.slowest if args.slowest is not None else 0.1
        rows, times, lints = phases(text, spots, share)
        lint = lint_time(text)
        count = max(1, round(len(times) * share))
        worst = sorted(times)[-count:]
        print(f"{len(times)} keystrokes on {args.lines} lines: p95 {lb.pct(times, 0.95) * 1000:.2f} ms = "
              f"{lb.pct(times, 0.95) / lint:.2f}x a full `packgate.lint` ({lint * 1000:.2f} ms, median of 5, unwrapped); "
              f"the slowest {count} {statistics.mean(worst) * 1000:.2f} ms = {statistics.mean(worst) / lint:.2f}x")
        print(f"| phase | the slowest {count} keystrokes | all {len(times)} | a full lint (mean of 5, no LSP) |\n"
              "| --- | --- | --- | --- |")
        for key, worst_mean, mean, in_lint in rows:
            print(f"| {key} | {worst_mean * 1000:.3f} ms | {mean * 1000:.3f} ms | {in_lint * 1000:.3f} ms |")
        print(f"| the whole | {statistics.mean(worst) * 1000:.3f} ms | {statistics.mean(times) * 1000:.3f} ms | "
              f"{statistics.mean(lints) * 1000:.3f} ms |")
        return 0
    profiled: frozenset = frozenset()
    if args.slowest is not None:
        timed = replay(text, spots)
        count = max(1, round(len(timed) * args.slowest))
        profiled = frozenset(sorted(range(len(timed)), key=timed.__getitem__)[-count:])
        ordered = sorted(timed)
        print(f"{len(timed)} keystrokes timed without the profiler: p50 {ordered[len(ordered) // 2] * 1000:.2f} ms, "
              f"p95 {lb.pct(timed, 0.95) * 1000:.2f} ms; profiling the slowest {count}")
        print(f"  the slowest {count} cost {statistics.mean(ordered[-count:]) / lint_time(text):.2f}x a full "
              "`packgate.lint` of the same text (their mean against its median of 5, in this process)")
        breaking, others = lb.by_syntax(spots, timed)
        if breaking:
            print(f"  p95 of the {len(breaking)} at spots that break syntax {lb.pct(breaking, 0.95) * 1000:.2f} ms, "
                  f"of the {len(others)} others {lb.pct(others, 0.95) * 1000:.2f} ms")
    profile = cProfile.Profile()
    times = replay(text, spots, profile, profiled)
    profiled_count = len(profiled) if profiled else len(times)
    wall = sum(t for i, t in enumerate(times) if not profiled or i in profiled)
    t0 = clock()
    gc.collect()
    collect = clock() - t0
    stats = pstats.Stats(profile)
    total = sum(v[2] for v in stats.stats.values())  # all functions' own time: the profiled total
    rows = [(label, sum(v[3] for (f, _, name), v in stats.stats.items() if f.endswith(suffix) and name == fn))
            for label, suffix, fn in PHASES]
    rows.insert(6, ("the checks (core/rules/*: check)", rules_time(stats)))
    print(f"{profiled_count} keystrokes on {args.lines} lines, {wall / profiled_count * 1000:.2f} ms each under cProfile")
    print("| phase | share of a keystroke |\n| --- | --- |")
    for label, t in rows:
        print(f"| {label} | {t / total:.0%} |")
    rest = total - sum(t for _, t in rows)
    if rest >= 0:
        print(f"| everything else (the session's bookkeeping, the flow's set-up and findings) | {rest / total:.0%} |")
    else:  # a phase called from inside another (the checks' own walks, say) is counted twice
        print(f"| (the phases overlap by {-rest / total:.0%}: one calls into another) | - |")
    print(f"\ngc.collect() after them (the server runs it when the client is quiet): {collect * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
