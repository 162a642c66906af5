"""One of `make bench`'s 2,000-line front-end measurements, repeated, to count its instructions.

    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python benchmarks/floor_ops.py OP 10

OP is one of OPS; `none` runs the set-up alone. A call's instructions are (OP's count - none's
count) / 10: unlike wall time on a shared machine, they do not move with the load. The set-up
is run.lint_vs_parse's: the launcher, its tree, the model's records and a warm lint.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "server"), str(HERE)]

import run  # noqa: E402
from generate import generate  # noqa: E402

OPS = ("none", "parse", "recursion", "cursor", "records", "model", "lint")


def operations(text: str) -> dict:
    """OP -> a call doing it once over text (the set-up done here, outside the calls)."""
    import packgate
    from packgate.core.parse import parse_bytes
    data = text.encode("utf-8")
    parser = run.bare_parser()
    tree = parser.parse(data)
    prepared = run.record_arguments(run.model_records(parse_bytes(data)))
    packgate.lint(text)  # warm, as the in-process figures are
    return {"none": lambda: None, "parse": lambda: parser.parse(data),
            "recursion": lambda: run.named_recursion(tree.root_node), "cursor": lambda: run.cursor_walk(tree),
            "records": lambda: run.make_records(prepared), "model": lambda: parse_bytes(data),
            "lint": lambda: packgate.lint(text)}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] not in OPS or not args[1].isdigit():
        print(__doc__, file=sys.stderr)
        return 2
    gc.disable()  # as the server runs an analysis
    fn = operations(generate(2000, run.SEED))[args[0]]
    for _ in range(int(args[1])):
        fn()
    return 0


if __name__ == "__main__":
    sys.exit(main())
