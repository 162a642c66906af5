"""The script model of every shell input in the repository, as digests to compare a builder with.

    python tests/core/model_snapshot.py --write   # record the digests of the installed builder
    python tests/core/model_snapshot.py --dump DIR  # write each input's model as text, to diff

The inputs: every tracked `*.sh` and `*.env` file (examples, golden and oracle cases, fixtures,
benchmark inputs), generated launchers of several seeds and sizes, and mutations of the examples
and golden cases (fuzz tokens at seeded random offsets: broken syntax, CRLF, non-ASCII), each
parsed as a document, as a sourced file and as a `bash -c` body at an offset. A model is written
out as its records' class names and every field (the parse tree and the reuse bookkeeping left
out); test_model_snapshot.py compares the digests with MODEL_DIGESTS.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from enum import Enum
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
for _path in (ROOT / "benchmarks", ROOT / "tests" / "fuzz"):  # packgate: the installed one
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from fuzz_corpus import TOKENS  # noqa: E402
from generate import generate  # noqa: E402

from packgate.core.parse import parse_bytes  # noqa: E402
from packgate.core.records import is_record  # noqa: E402

DIGESTS = Path(__file__).with_name("MODEL_DIGESTS.json")
_SKIP = {"tree", "_starts", "tops", "cuts", "refs"}  # the parse tree, reuse bookkeeping, the flow's cache
GENERATED = [(300, 1), (300, 2), (2000, 7), (2000, 11), (600, 3), (600, 4)]
MUTATIONS = 3  # mutated copies of each example and golden case


def text_of(value) -> str:
    """A model as text: every record by class and field, enums by class and value."""
    out: list[str] = []
    _write(value, out)
    return "".join(out)


def _write(value, out: list) -> None:
    if is_record(value):
        out.append(type(value).__name__ + "(")
        for name in type(value).__record_fields__:
            if name not in _SKIP:
                out.append(name + "=")
                _write(getattr(value, name), out)
                out.append(",")
        out.append(")")
    elif isinstance(value, (list, tuple)):
        out.append("[" if isinstance(value, list) else "(")
        for x in value:
            _write(x, out)
            out.append(",")
        out.append("]" if isinstance(value, list) else ")")
    elif isinstance(value, Enum):
        out.append(f"{type(value).__name__}.{value.name}")
    else:
        out.append(f"{type(value).__name__}:{value!r}")


def _tracked_scripts() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "*.sh", "*.env"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    return sorted(p for p in listed if not p.startswith(("vscode-client/node_modules", ".venv")))


def _mutated(data: bytes, seed: int) -> bytes:
    rng = random.Random(seed)
    for _ in range(rng.randrange(1, 6)):
        at = rng.randrange(len(data) + 1)
        cut = min(len(data), at + rng.choice([0, 0, 1, 3]))
        data = data[:at] + rng.choice(TOKENS) + data[cut:]
    return data


def inputs() -> dict[str, bytes]:
    """Every input by a name that says where it came from."""
    out: dict[str, bytes] = {}
    for rel in _tracked_scripts():
        data = (ROOT / rel).read_bytes()
        out[rel] = data
        if rel.startswith(("examples/", "tests/golden/")):
            for k in range(MUTATIONS):
                out[f"{rel}~mutation{k}"] = _mutated(data, _seed(rel, k))
    for lines, seed in GENERATED:
        out[f"generate({lines}, seed={seed})"] = generate(lines, seed).encode("utf-8")
    return out


def _seed(rel: str, k: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{rel}#{k}".encode()).digest()[:4], "big")


def models(data: bytes) -> dict[str, str]:
    """The models of one input: as a document, as a sourced file, as a `bash -c` body at 7."""
    return {"document": text_of(parse_bytes(data)),
            "sourced": text_of(parse_bytes(data, file="/project/lib.sh")),
            "child": text_of(parse_bytes(data, base=7))}


def digests() -> dict[str, str]:
    """name/way -> sha256 of the model's text, for every input."""
    out = {}
    for name, data in inputs().items():
        for way, text in models(data).items():
            out[f"{name} [{way}]"] = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return out


def main(argv: list[str]) -> int:
    if argv[:1] == ["--write"]:
        DIGESTS.write_text(json.dumps(digests(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return 0
    if argv[:1] == ["--dump"] and len(argv) == 2:
        folder = Path(argv[1])
        folder.mkdir(parents=True, exist_ok=True)
        for i, (name, data) in enumerate(sorted(inputs().items())):
            for way, text in models(data).items():
                (folder / f"{i:04d}-{way}.txt").write_text(f"{name}\n{text}\n", encoding="utf-8",
                                                           errors="surrogatepass")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
