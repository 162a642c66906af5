"""Two checkouts' lint and keystroke figures in one run, rounds alternated (what an issue means by
"within N% of main's in one side-by-side run").

    .venv/bin/python benchmarks/side_by_side.py --base /path/to/main-checkout [--rounds 3]

Each round measures, once per checkout and in turn, in a fresh child process that imports
packgate from that checkout's `server/`: the median lint of the 243-line launcher and of the
2,000-line generated one (engine.analyze, profile ov2, nothing sourced), the bare parse of the
latter, and the p95 of a keystroke series (the server's session, as
profile_keystroke.replay types them) over its own full lint. The inputs and the keystroke spots
are this checkout's, so both trees get the same work. Prints the medians over rounds and this
checkout's figure over the base's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# runs in the child: argv[1] is the checkout's server folder, argv[2] this benchmarks folder
_CHILD = r'''
import gc, json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
import packgate.lsp.session  # noqa: F401  (imported first: the modules come from that checkout)
from packgate.core.engine import analyze
from packgate.core.parse import parse_bytes
from packgate.core.settings import Settings
sys.path.append(sys.argv[2])
import lsp_bench as lb
from generate import generate
from profile_keystroke import replay

def median_of(fn, repeats):
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter(); fn(); times.append(time.perf_counter() - t0)
    return statistics.median(times)

settings = Settings(profile="ov2")
texts = {"250": open(sys.argv[2] + "/inputs/ov2_stage2_launcher.sh", encoding="utf-8").read(),
         "2000": generate(2000, 7)}
gc.disable()
out = {}
for name, text in texts.items():
    out["lint " + name] = median_of(lambda: analyze(text, settings=settings, loader=None), 40)
    spots = lb.keystroke_spots(text, 100 if name == "250" else 75)
    keys = sorted(replay(text, spots))
    out["keystroke p95 / lint " + name] = keys[round(0.95 * (len(keys) - 1))] / out["lint " + name]
data = texts["2000"].encode()
out["ratio lint / parse 2000"] = out["lint 2000"] / median_of(lambda: parse_bytes(data), 40)
print(json.dumps(out))
'''


def measure(checkout: Path) -> dict:
    """One child's figures for a checkout."""
    done = subprocess.run([sys.executable, "-c", _CHILD, str(checkout / "server"), str(HERE)],
                          capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise SystemExit(f"side_by_side: {checkout}: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, type=Path, help="the checkout to compare with (its root)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if not (args.base / "server" / "packgate").is_dir():
        parser.error(f"{args.base} holds no server/packgate")
    this = HERE.parent
    runs: dict = {"base": [], "this": []}
    for r in range(args.rounds):
        order = (("base", args.base), ("this", this)) if r % 2 == 0 else (("this", this), ("base", args.base))
        for label, tree in order:
            runs[label].append(measure(tree))
    print(f"| figure | base ({args.base}) | this ({this}) | this / base |\n| --- | --- | --- | --- |")
    for key in runs["base"][0]:
        base = statistics.median(r[key] for r in runs["base"])
        mine = statistics.median(r[key] for r in runs["this"])
        shown = (lambda v: f"{v * 1000:.2f} ms") if key.startswith("lint ") else (lambda v: f"{v:.2f}x")
        print(f"| {key} | {shown(base)} | {shown(mine)} | {mine / base:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
