"""The front end's cost beyond the tree-sitter parse, beside its floor (issue 30).

On the 2,000-line launcher `make bench` lints, in one run with the rounds taken in turn: the bare
parse, `parse_bytes` (parse and model), and the floors of a Python front end over the same tree:
a recursion over `named_children` reading each node's `kind_id` and span, and creating the
model's records once more from their fields. All with the cycle collector paused, as
engine.analyze runs the parse. Budget: the model costs at most 1.2x the parse beyond the parse.

    .venv/bin/python benchmarks/front_end.py [--lines 2000] [--rounds 7]
    .venv/bin/python benchmarks/front_end.py --callgrind   # instructions instead of wall time

--callgrind runs this file under `valgrind --tool=callgrind` twice per measure (one call, then
1 + 3): the difference over 3 is the instructions of one warm call, free of start-up; the
ratios are then of instructions.
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "server"), str(HERE)]

import run  # noqa: E402  (its helpers: the records floor, the seed)
from generate import generate  # noqa: E402

SEED = run.SEED
BUDGET = 1.2  # the model's cost beyond the parse, as a ratio of the parse


def named_recursion(node) -> int:
    """Visit every named node below node through `named_children`, reading kind_id and span."""
    n = 1
    node.kind_id, node.start_byte, node.end_byte
    for c in node.named_children:
        n += named_recursion(c)
    return n


def measures(lines: int) -> tuple[dict, dict]:
    """The calls measured ({name: function}), and the counts of nodes and records they visit."""
    from packgate.core.parse import parse_bytes
    from packgate.core.parse.grammar import PARSER
    data = generate(lines, SEED).encode("utf-8")
    tree = PARSER.parse(data)
    recipes = run.record_arguments(run.model_records(parse_bytes(data)))
    fns = {"parse": lambda: PARSER.parse(data), "parse_bytes": lambda: parse_bytes(data),
           "without_words": lambda: without_words(parse_bytes, data),
           "named_children": lambda: named_recursion(tree.root_node), "records": lambda: run.make_records(recipes)}
    return fns, {"nodes": named_recursion(tree.root_node), "record_count": len(recipes)}


def without_words(parse_bytes, data: bytes):
    """parse_bytes with every word one shared empty Word: what the statements cost without their
    words (the model's split, to say which part stands in the way)."""
    from packgate.core.parse.build import Builder
    from packgate.core.parse.model import Word
    empty = Word([], 0, 0)
    Builder.word = lambda self, node, d: empty
    try:
        return parse_bytes(data)
    finally:
        del Builder.word  # the inherited WordBuilder.word again


def wall(lines: int, rounds: int) -> dict:
    """Median seconds of each measure, the calls taken in turn."""
    fns, counts = measures(lines)
    times: dict = {k: [] for k in fns}
    for fn in fns.values():
        fn()
    collecting = gc.isenabled()
    gc.disable()  # as engine.analyze runs the parse: the cycle collector paused
    try:
        for _ in range(rounds):
            for k, fn in fns.items():
                for _ in range(3):
                    t0 = time.perf_counter()
                    fn()
                    times[k].append(time.perf_counter() - t0)
    finally:
        if collecting:
            gc.enable()
    return {**{k: statistics.median(v) for k, v in times.items()}, **counts}


def ratios(m: dict) -> dict:
    """The figures as ratios of the bare parse: the model beyond it, and its floor and the floor's parts."""
    p = m["parse"]
    out = {"beyond": (m["parse_bytes"] - p) / p, "named_children": m["named_children"] / p, "records": m["records"] / p}
    out["floor"] = out["named_children"] + out["records"]
    out["words"] = (m["parse_bytes"] - m["without_words"]) / p
    out["statements"] = out["beyond"] - out["words"]
    return out


def report(m: dict) -> str:
    """The figures as lines of text: each beside its floor and the budget."""
    r = ratios(m)
    return "\n".join([
        f"bare parse {m['parse'] * 1e3:.2f} ms; parse_bytes {m['parse_bytes'] * 1e3:.2f} ms",
        f"the model beyond the parse: {r['beyond']:.2f}x the parse (budget {BUDGET:.1f}x)",
        f"its floor: {r['floor']:.2f}x = named_children recursion over {m['nodes']:,} named nodes "
        f"{r['named_children']:.2f}x + creating the model's {m['record_count']:,} records {r['records']:.2f}x",
        f"where it goes: the words {r['words']:.2f}x, the statements around them {r['statements']:.2f}x"])


def instructions(lines: int, name: str, calls: int) -> int:
    """Instructions (callgrind's Ir) of a Python that makes `calls` calls of one measure."""
    with tempfile.TemporaryDirectory(prefix="front-end-") as tmp:
        out = Path(tmp) / "callgrind.out"
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
                              __file__, "--lines", str(lines), "--once", name, "--calls", str(calls)],
                             capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        found = re.search(r"Collected : (\d+)", run.stderr)
        if found is None:
            raise SystemExit(run.stderr[-2000:])
        return int(found.group(1))


def per_call(lines: int, name: str, n: int = 3) -> float:
    """Instructions of one warm call: (1 + n calls) - (1 call), over n."""
    return (instructions(lines, name, 1 + n) - instructions(lines, name, 1)) / n


def once(lines: int, name: str, calls: int) -> None:
    """Make `calls` calls of one measure (what --callgrind counts), the collector paused."""
    fn = measures(lines)[0][name]
    gc.disable()
    for _ in range(calls):
        fn()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--callgrind", action="store_true", help="instructions under valgrind, not wall time")
    ap.add_argument("--once", help=argparse.SUPPRESS)  # (the measure a --callgrind child makes)
    ap.add_argument("--calls", type=int, default=1, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.once:
        once(args.lines, args.once, args.calls)
        return 0
    if args.callgrind:
        fns, counts = measures(args.lines)
        m = {name: per_call(args.lines, name) for name in fns}
        print(f"instructions per call: parse {m['parse'] / 1e6:.1f}M, parse_bytes {m['parse_bytes'] / 1e6:.1f}M")
        print(report({**m, **counts}).split("\n", 1)[1])
        return 0
    print(report(wall(args.lines, args.rounds)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
