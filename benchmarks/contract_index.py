"""The contract index's speed on a synthetic workspace shaped like the OV2 code.

About 190 Python files of a few hundred lines that read the environment or define options (the
issue's figure for the OV2 code), plus about 800 that do neither, written to a temporary folder.
Prints the cold build, the cached rebuild and an entry's parser lookup, each against
`ast.parse` of the 190 files measured in the same run (and the gate scan, core/project.py, over
the same tree, for scale). Nothing asserts; `make bench` prints the same figure.

    .venv/bin/python benchmarks/contract_index.py [--repeats N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import ast
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "server"))

ENV_FILES, OPTION_FILES, OTHER_FILES = 150, 40, 800
ENV_SHAPES = (
    'if int(os.environ.get("{n}", 0)) == 1:\n            x = x + 1',
    'flag = os.environ.get("{n}", "0")\n        if flag == "1":\n            x = x * 2',
    'kind = os.getenv("{n}", "linear").upper()\n        if kind in ("TP_LINEAR", "LINEAR", "CONV2D"):\n'
    '            x = self.proj(x)',
    'self.scale = bool(int(os.environ.get("{n}", "0")))',
    'ratio = float(os.environ.get("{n}", "0.5"))\n        x = x * ratio',
    'if "{n}" in os.environ:\n            print("debug", x.shape)',
    'path = os.path.join(os.environ.get("{n}", "/tmp"), "cache")',
)


def method(rng: random.Random, name: str, body_extra: str = "") -> str:
    """A plausible model method of about 25 lines."""
    lines = [f"    def {name}(self, x, mask=None):",
             f'        """{name}: 按层计算注意力 (computes attention per layer)."""',
             "        # shapes: [batch, seq, hidden]",
             "        b, s, h = x.shape"]
    for i in range(rng.randint(14, 22)):
        lines.append(rng.choice((
            f"        x = self.layer_{i}(x) + self.bias_{i}",
            f"        y_{i} = torch.matmul(x, self.weight_{i}.t()) * self.scale",
            f"        if mask is not None:\n            x = x.masked_fill(mask == 0, -1e4)",
            f"        x = torch.nn.functional.dropout(x, p=self.dropout, training=self.training)",
            f"        out_{i} = [t.contiguous() for t in torch.chunk(x, {rng.randint(2, 8)}, dim=-1)]",
            f"        self.cache['{name}_{i}'] = (b, s, h)")))
    if body_extra:
        lines.append("        " + body_extra)
    lines.append("        return x")
    return "\n".join(lines) + "\n"


def module(rng: random.Random, n: int, reads: int = 0) -> str:
    """A module of a few hundred lines: imports, a few classes of methods, some reading the environment."""
    out = ['"""Synthetic module {n}: model layers (合成的模型代码)."""'.format(n=n),
           "import math\nimport os\n\nimport torch\nfrom torch import nn\n"]
    methods = rng.randint(9, 14)
    reading = set(rng.sample(range(methods // 3 * 3), reads))
    for c in range(3):
        out.append(f"\nclass Block{n}_{c}(nn.Module):\n    \"\"\"A block.\"\"\"\n")
        for m in range(methods // 3):
            k = c * (methods // 3) + m
            extra = ""
            if k in reading:
                extra = rng.choice(ENV_SHAPES).format(n=f"SYN_VAR_{n}_{k}")
            out.append(method(rng, f"forward_{m}", extra))
    return "\n".join(out)


def option_module(rng: random.Random, n: int) -> str:
    """A Megatron-style arguments module: several `_add_*_args(parser)` of many options."""
    out = ['"""Synthetic arguments {n}."""\nimport argparse\n'.format(n=n)]
    for g in range(6):
        out.append(f"\ndef _add_group_{n}_{g}_args(parser):\n    group = parser.add_argument_group(title='g{g}')")
        for o in range(rng.randint(6, 10)):
            kind = rng.choice(("type=int, default=1", "type=float, default=0.1", "action='store_true'",
                               "type=str, choices=['a', 'b', 'c']", "nargs='*', default=None"))
            out.append(f"    group.add_argument('--opt-{n}-{g}-{o}', {kind},\n"
                       f"                       help='option {o} of group {g}: 第 {o} 个选项')")
        out.append("    return parser\n")
    return "\n".join(out)


def write_workspace(root: Path, seed: int = 7) -> dict:
    """The synthetic workspace below root; returns how many files of each kind it wrote."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("")
    pkg = root / "aiak_training_llm"
    for d in ("models", "data", "train", "utils", "megatron/training"):
        (pkg / d).mkdir(parents=True, exist_ok=True)
        (pkg / d / "__init__.py").write_text("")
    for i in range(ENV_FILES):
        (pkg / ("models", "data", "utils")[i % 3] / f"env_mod_{i}.py").write_text(module(rng, i, rng.randint(1, 3)))
    helpers = []
    for i in range(OPTION_FILES - 1):
        (pkg / "megatron/training" / f"args_{i}.py").write_text(option_module(rng, i))
        helpers += [(f"args_{i}", f"_add_group_{i}_{g}_args") for g in range(6)]
    lines = ["import argparse"] + [f"from aiak_training_llm.megatron.training.{m} import {f}" for m, f in helpers]
    lines += ["\n\ndef parse_args(extra_args_provider=None, ignore_unknown_args=False):",
              "    parser = argparse.ArgumentParser(description='Megatron-LM Arguments', allow_abbrev=False)"]
    lines += [f"    parser = {f}(parser)" for _, f in helpers]
    lines += ["    if extra_args_provider is not None:", "        parser = extra_args_provider(parser)",
              "    return parser.parse_args()\n"]
    (pkg / "megatron/training/arguments.py").write_text("\n".join(lines))
    (pkg / "train.py").write_text("from aiak_training_llm.megatron.training.arguments import parse_args\n\n"
                                  "if __name__ == '__main__':\n    parse_args()\n")
    for i in range(OTHER_FILES):
        (pkg / ("models", "data", "utils", "train")[i % 4] / f"plain_{i}.py").write_text(
            module(rng, 10_000 + i).replace("import os\n", ""))
    return {"env": ENV_FILES, "options": OPTION_FILES, "other": OTHER_FILES + 1}


def median_time(fn, repeats: int) -> float:
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return statistics.median(out)


def measure(root: Path, repeats: int = 5) -> dict:
    """Seconds: cold build, cached rebuild, entry lookup, ast.parse of the indexed files, the gate scan."""
    from packgate.core import project
    from packgate.core.code import index as ci
    from packgate.core.code.reading import wanted

    files = sorted(root.rglob("*.py"))
    relevant = [p for p in files if any(wanted(p.read_bytes()))]

    def cold():
        ci.invalidate()
        return ci.contract_index(str(root))

    built = cold()
    cold_s = median_time(cold, repeats)
    cached_s = median_time(lambda: ci.contract_index(str(root)), repeats)  # every file stat'ed, none read
    rebuilt_s = median_time(lambda: ci.build(str(root)), repeats)  # walked again, unchanged files reused

    def lookup():
        ci.contract_index(str(root))._entries.clear()
        return ci.contract_index(str(root)).options_for("aiak_training_llm/train.py")

    cold()
    lookup_s = median_time(lookup, repeats)
    parse_s = median_time(lambda: [ast.parse(p.read_bytes()) for p in relevant], repeats)
    scan_s = median_time(lambda: project.scan(str(root)), repeats)
    got = lookup()
    return {"cold": cold_s, "cached": cached_s, "rebuild": rebuilt_s, "lookup": lookup_s, "ast_parse": parse_s,
            "gate_scan": scan_s, "files": len(files), "relevant": len(relevant),
            "lines": sum(p.read_bytes().count(b"\n") for p in relevant),
            "reads": sum(len(f.reads) for f in built.files.values()), "options": len(got.options),
            "how": str(got.how)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--keep", help="write the workspace here and keep it")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="packgate-contract-") as tmp:
        root = Path(args.keep or tmp)
        write_workspace(root)
        m = measure(root, args.repeats)
    print(f"{m['files']} .py files, {m['relevant']} read the environment or define options "
          f"({m['lines']:,} lines); {m['reads']} reads; the entry's parser: {m['options']} options ({m['how']})")
    print(f"cold build        {m['cold'] * 1000:8.1f} ms  ({m['cold'] / m['ast_parse']:.2f}x ast.parse of those files, "
          f"{m['ast_parse'] * 1000:.1f} ms)")
    print(f"cached (stat)     {m['cached'] * 1000:8.1f} ms")
    print(f"rebuild (walk)    {m['rebuild'] * 1000:8.1f} ms")
    print(f"entry lookup      {m['lookup'] * 1000:8.1f} ms")
    print(f"gate scan         {m['gate_scan'] * 1000:8.1f} ms  (core/project.py over the same tree, for scale)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
