"""The model builder against another commit's, over many heavier mutations than MODEL_DIGESTS holds.

    python tests/core/model_diff.py [--against COMMIT] [--mutations 25]

Every tracked script and some generated launchers, each as it is and in `--mutations` mutated
copies (up to eleven fuzz tokens at seeded offsets, some replacing up to 30 bytes), parsed as a
document, as a `bash -c` body at an offset and as an editor's kept parse: the models of this
checkout's builder and of the other commit's (its `server/` from `git archive`; by default where
this branch left main) must be the same.
A change to core/parse that keeps the model runs it before it is committed; MODEL_DIGESTS' three
mutations per case missed a directive's scope that these found.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import random
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _mutated(data: bytes, seed: int, tokens) -> bytes:
    rng = random.Random(seed)
    for _ in range(rng.randrange(1, 12)):
        at = rng.randrange(len(data) + 1)
        cut = min(len(data), at + rng.choice([0, 0, 1, 3, 8, 30]))
        data = data[:at] + rng.choice(tokens) + data[cut:]
    return data


def digests(mutations: int) -> dict[str, str]:
    """name#k[way] -> sha256 of the model's text, with the packgate first on sys.path."""
    sys.path[:0] = [str(Path(__file__).parent)]
    import model_snapshot as ms
    from fuzz_corpus import TOKENS
    from generate import generate

    from packgate.core.parse import parse_bytes
    inputs = {rel: (ROOT / rel).read_bytes() for rel in ms._tracked_scripts()}
    inputs.update({f"generate(300, seed={s})": generate(300, s).encode("utf-8") for s in range(8)})
    out = {}
    for name, data in sorted(inputs.items()):
        for k in range(mutations + 1):
            d = _mutated(data, ms._seed(name, 5000 + k), TOKENS) if k else data
            for way, kw in (("document", {}), ("child", {"base": 7}), ("kept", {"keep": True})):
                try:
                    text = ms.text_of(parse_bytes(d, **kw))
                except Exception as exc:  # the same failure in both is the same model
                    text = f"raised {type(exc).__name__}"
                out[f"{name}#{k}[{way}]"] = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return out


def _digests_of(server: Path, mutations: int) -> dict[str, str]:
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([sys.executable, __file__, "--digests", str(server), "--mutations", str(mutations),
                        "--out", out.name], check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
        return json.loads(Path(out.name).read_text(encoding="utf-8"))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", help="the commit whose builder to compare with (default: git merge-base HEAD main)")
    ap.add_argument("--mutations", type=int, default=25)
    ap.add_argument("--digests", help=argparse.SUPPRESS)  # (a child: this server's digests)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.digests:
        sys.path[:0] = [args.digests]
        Path(args.out).write_text(json.dumps(digests(args.mutations)), encoding="utf-8")
        return 0
    against = args.against or subprocess.run(["git", "merge-base", "HEAD", "main"], cwd=ROOT, check=True,
                                             capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="model-diff-") as tmp:
        archive = subprocess.run(["git", "archive", against, "server"], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(tmp)
        theirs = _digests_of(Path(tmp) / "server", args.mutations)
    ours = _digests_of(ROOT / "server", args.mutations)
    differ = sorted(k for k in ours if ours[k] != theirs.get(k))
    print(f"{len(ours):,} models, {len(differ)} differ from the builder of {against}")
    for name in differ[:20]:
        print("  " + name)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
