"""core/flow/transforms.py against bash: each transform of a grid of values and patterns, and a
few hundred random ones, must give the text bash prints for it (or None, for what is not
followed)."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from packgate.core.flow import transforms as T

VALUES = ["", "a", "abc", "1,2", "train_stage2.sh", "a.b.c", "aaa", "ab]cd", "x*y", "--mbs=1",
          "A-b_C", "  1 ", "path/to/ckpt/", "a\\b", "[x]", "1e-5"]
PATTERNS = ["", "*", "a", "a*", "*a", "?", "??", "*.", ".*", "[ab]", "[!a]*", "[^a]", "[a-c]*", "*[0-9]",
            "[[:digit:]]", "*[[:space:]]", "[]]*", "\\*", "x\\*y", "[", "a[", "*/", "/*", "[z-a]", "-*",
            "[[:alpha:]_]*", "*_*", "[.]*", "b", "c", "[!]]", "*\\]", "1", "**", "[a-]", "[\\]]"]
REPLACEMENTS = ["", "Z", "-", "12"]


def _random_patterns(count: int) -> list:
    rng = random.Random(7)
    alphabet = ["*", "?", "a", "b", ".", "[", "]", "!", "-", "\\", "1", "[:digit:]", "^", "_", "/"]
    return ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 6))) for _ in range(count)]


def _bash(cases: list) -> list:
    """What bash prints for each (value, expansion body) pair: ${X<body>} with X=value ("ERROR"
    where bash reports one, which eval keeps to that case)."""
    lines = []
    for i, (value, body) in enumerate(cases):
        quoted = "'" + value.replace("'", "'\\''") + "'"
        lines.append(f"X={quoted}; printf '%d:' {i}; eval 'printf %s \"${{X{body}}}\"' 2>/dev/null"
                     " || printf ERROR; printf '\\0'\n")
    done = subprocess.run(["bash"], input="".join(lines).encode("ascii"), capture_output=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"})
    printed = {}
    for item in done.stdout.decode("ascii").split("\0"):
        index, _, text = item.partition(":")
        if index.isdigit():
            printed[int(index)] = text
    return [printed.get(i, "ERROR") for i in range(len(cases))]


def _safe(pattern: str) -> bool:
    # what bash would read as more than a pattern inside ${...} (or as the end of it)
    if pattern.endswith("\\") and (len(pattern) - len(pattern.rstrip("\\"))) % 2:
        return False
    return not any(c in pattern for c in "}$`'\"()/ ") or False


def _grid() -> list:
    out = []
    patterns = [p for p in PATTERNS + _random_patterns(150) if _safe(p)]
    for value in VALUES:
        for pattern in patterns:
            for op in ("#", "##", "%", "%%"):
                out.append((value, op + pattern, T.removed(value, op, pattern)))
            for op in ("/", "//", "/#", "/%") if pattern else ("//", "/#", "/%"):  # (`${X//r}` is `//`)
                for rep in REPLACEMENTS[:2] if len(pattern) > 3 else REPLACEMENTS[1:] if not pattern else REPLACEMENTS:
                    out.append((value, f"{op}{pattern}/{rep}", T.replaced(value, op, pattern, rep)))
        for op in ("^", "^^", ",", ",,", "@U", "@L", "@u"):
            out.append((value, op, T.case_changed(value, op)))
        for offset in (0, 1, 2, 5, -1, -3, -20):
            out.append((value, f": {offset}", T.substring(value, offset, None)))
            for length in (0, 1, 3, -1, -2):
                out.append((value, f": {offset}:{length}", T.substring(value, offset, length)))
    return out


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_transforms_agree_with_bash():
    grid = _grid()
    printed = _bash([(value, body) for value, body, _ in grid])
    wrong = [(value, body, ours, theirs) for (value, body, ours), theirs in zip(grid, printed)
             if ours is not None and ours != theirs]
    assert not wrong[:20], f"{len(wrong)} of {len(grid)} differ"
    assert len(printed) == len(grid)
    followed = sum(ours is not None for _, _, ours in grid)
    assert followed > 0.9 * len(grid)  # what is not followed stays a small part


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_length_agrees_with_bash():
    values = [v for v in VALUES]
    printed = _bash([(v, "") for v in values])
    assert [T.length(v) for v in values] == [str(len(p)) for p in printed]


def test_what_is_not_followed():
    assert T.length("训练") is None
    assert T.case_changed("straße", "^^") is None
    assert T.replaced("abc", "/", "b", "&&") is None
    assert T.removed("abc", "#", "@(a)") is None
    assert T.removed("abc", "#", "[[=a=]]") is None
    assert T.substring("abc", 2, -2) is None  # bash: substring expression < 0
