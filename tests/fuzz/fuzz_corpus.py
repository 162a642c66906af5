"""Shared pieces of the fuzz suite: the corpus, the mutation strategy and the run lengths.

Every hypothesis test here is derandomized (a fixed seed derived from the test itself), so a
failure found once is found again on every run and on every machine. `make test` runs a few
hundred examples per property; `make fuzz` (PACKGATE_FUZZ_LONG=1) runs thousands.
"""

from __future__ import annotations

import os
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]

LONG = os.environ.get("PACKGATE_FUZZ_LONG") == "1"
# PACKGATE_FUZZ_EXPLORE=1 drops the fixed seed (use with pytest's --hypothesis-seed=N) to look
# for new failures; a failure found that way is pinned with @example before it is committed.
EXPLORE = os.environ.get("PACKGATE_FUZZ_EXPLORE") == "1"


def examples(short: int, long: int) -> settings:
    """Hypothesis settings: fixed seed, no example database, no deadline."""
    return settings(max_examples=long if LONG else short, derandomize=not EXPLORE, database=None,
                    deadline=None, print_blob=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


def corpus_files() -> list[Path]:
    """The examples and the golden fixtures: the seeds every mutation starts from."""
    files = sorted((ROOT / "examples").glob("*.sh"))
    golden = ROOT / "tests" / "golden" / "cases"
    if golden.is_dir():
        files += sorted(golden.rglob("*.sh"))
        files += sorted(golden.rglob("*.env"))
    return files


CORPUS: list[bytes] = [p.read_bytes() for p in corpus_files()]

# Shell tokens that open or close constructs, line breaks of every kind, and characters whose
# width differs between UTF-8, UTF-16 and UTF-32.
TOKENS: list[bytes] = [t.encode("utf-8") for t in (
    "$(", ")", "${", "}", "$((", "))", "`", "'", '"', "\\\n", "\\\r\n", "\\", "<<EOF\n", "<<-'EOF'\n",
    "<<\"EOF\"\n", "\nEOF\n", "<<<", "\0", "\r", "\r\n", "\n", "\ufeff", "\u2028", "\u2029", "\x0c",
    "中文注释", "😀", "👩‍👩‍👧", "\u0301", "\t", " ", ";", "&", "&&", "||", "|", "(", "{ ", "[[ ", " ]]",
    "#", "# packgate disable=all\n", "# packgate disable=PG001\n", "# packgate profile=ov15\n",
    "# packgate profile=three-gate\n", "if true; then\n", "else\n", "fi\n", "for i in 1 2; do\n",
    "done\n", "case $x in a) ", ";;\n", "esac\n", "f() {\n", "}\n", "export ", "local ", "declare -x ",
    "unset ", "source ", ". ", "OFFLINE_PACKING_BMR", "OFFLINE_PACKED_DATA", "OFFLINE_PACKING_VQA",
    "OFFLINE_PACKING_SFT", "=1", "=true", "=''", "='1'", "=\"1\"", "${4:-2}", "${MBS:=4}",
    "export OFFLINE_PACKING_BMR=1\n", "export OFFLINE_PACKED_DATA=1\n", "--micro-batch-size ",
    "--micro-batch-size=4", "torchrun train.py --micro-batch-size 4\n", "\ntorchrun aiak_training_llm/train.py \"${ARGS[@]}\"\n",
    "ARGS=(\n", "\n)\n", "bash -c '", "docker run -e OFFLINE_PACKED_DATA ", "&\n", "wait\n", "exec ",
    # sourced files: the fuzz directory has packing.env, loop.sh (sources itself) and a link to
    # /dev/zero; the others do not exist or lie outside the project
    "source ./packing.env\n", ". packing.env\n", "source \"$(dirname \"$0\")/packing.env\"\n",
    ". ./loop.sh\n", "source ./zero\n", "source /etc/passwd\n", "source ../../../../etc/hostname\n",
    ". ./missing.sh\n", "source $ENV_FILE\n", "# packgate source=./packing.env\n",
    # a body whose only command a fix may remove
    "if [ -n \"$LEGACY\" ]; then\n    export OFFLINE_PACKING_VQA=1\nfi\n",
    "for s in 1 2; do export OFFLINE_PACKING_VQA=$s; done\n", "legacy() { export OFFLINE_PACKING_BMR=true; }\n",
)]


def fuzz_project(root: Path) -> Path:
    """A folder to analyse mutated scripts in (as if they were files there): the files they source."""
    root.mkdir(parents=True, exist_ok=True)
    env = ROOT / "tests" / "golden" / "cases" / "env" / "packing.env"
    (root / "packing.env").write_bytes(env.read_bytes() if env.exists() else b"export OFFLINE_PACKED_DATA=1\n")
    (root / "loop.sh").write_text(". ./loop.sh\nsource ./packing.env\n")
    zero = root / "zero"
    if not zero.exists():
        zero.symlink_to("/dev/zero")
    return root / "train.sh"


@st.composite
def mutated(draw, min_ops: int = 1, max_ops: int = 6) -> str:
    """A corpus file after a few byte-level mutations, decoded as the CLI decodes files."""
    data = bytearray(draw(st.sampled_from(CORPUS)))
    for _ in range(draw(st.integers(min_ops, max_ops))):
        op = draw(st.sampled_from(("flip", "truncate", "insert", "insert", "insert", "delete", "duplicate", "byte")))
        at = draw(st.integers(0, len(data)))
        if op == "flip" and data:
            i = min(at, len(data) - 1)
            data[i] ^= draw(st.integers(1, 255))
        elif op == "truncate":
            del data[at:]
        elif op == "insert":
            data[at:at] = draw(st.sampled_from(TOKENS))
        elif op == "byte":
            data[at:at] = bytes([draw(st.integers(0, 255))])
        elif op == "delete":
            del data[at:at + draw(st.integers(1, 40))]
        elif op == "duplicate":
            n = draw(st.integers(1, 80))
            data[at:at] = data[max(0, at - n):at]
    import known
    return known.defuse(bytes(data).decode("utf-8", "replace"))


FIXABLE = (
    "export OFFLINE_PACKING_VQA=1", "OFFLINE_PACKING_SFT=1", "export OFFLINE_PACKING_BMR=true",
    "OFFLINE_PACKED_DATA=1", "export OFFLINE_PACKING_BMR=1", "export OFFLINE_PACKED_DATA='1'",
    "MBS=4", "export OFFLINE_PACKING_BMR=1 &",
)
WRAPPERS = (
    "if [ -n \"$LEGACY\" ]; then\n    {}\nfi", "if c; then :; else\n  {}\nfi", "for i in 1 2; do\n  {}\ndone",
    "while false; do {}; done", "f() {{\n  {}\n}}\nf", "( {} )", "{{ {}; }}", "c && {}", "c || {}",
    "case $x in a) {};; esac", "{} &", "echo | {}", "$({})", "bash -c '{}'",
)


@st.composite
def wrapped(draw) -> str:
    """A seed with one to three of its lines put inside a construct (if, loop, function, subshell,
    list, pipeline, command substitution): structure the byte mutations rarely build."""
    lines = draw(st.sampled_from(CORPUS)).decode("utf-8", "replace").split("\n")
    for _ in range(draw(st.integers(0, 2))):  # statements every rule has a fix for
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(FIXABLE)))
    candidates = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")
                  and not line.rstrip().endswith(("\\", "(", "{", "then", "do", "in"))]
    if not candidates:
        return "\n".join(lines)
    gates = [i for i in candidates if "OFFLINE_" in lines[i] or "micro-batch" in lines[i]]
    pool = st.sampled_from(gates) if gates and draw(st.integers(0, 9)) < 7 else st.sampled_from(candidates)
    for i in draw(st.lists(pool, min_size=1, max_size=3, unique=True)):
        lines[i] = draw(st.sampled_from(WRAPPERS)).format(lines[i].strip())
    return "\n".join(lines)


def text_with_oddities() -> st.SearchStrategy[str]:
    """Mutated corpus text, sometimes with arbitrary Unicode or a lone surrogate spliced in."""
    import known
    extra = st.text(st.characters(blacklist_categories=("Cs",), max_codepoint=known.SCANNER_SAFE_MAX_CODEPOINT),
                    max_size=12)

    @st.composite
    def build(draw) -> str:
        text = draw(mutated())
        if draw(st.booleans()):
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(extra) + text[at:]
        return known.defuse(text)

    return build()
