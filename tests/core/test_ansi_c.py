"""core/parse/ansi_c.py against bash: every `$'...'` below, and a few hundred random ones made of
escapes, digits and quotes, must decode to the bytes bash prints for it."""

from __future__ import annotations

import random
import shutil
import subprocess

import pytest

from packgate.core.parse.ansi_c import decode

CASES = [r"\q", r"\x", r"\xg", r"\x411", r"\101", r"\1011", r"\777", r"\cA", r"\ca", r"\c?", r"\c",
         r"\u4e2d", r"\u", r"\U1F600", r"a\0b", r"\E", r"\"", r"\'", r"\?", r"\08", r"\400", r"\c\\",
         r"\x{41}", r"\x{4e2d}", r"\x{}", r"\x31", r"1", r"\n\t\r\a\b\f\v\e", r"\\", "训练😀\\t",
         r"\uD83D", r"\U0010FFFF", r"\U00110000", r"\U7FFFFFFF", r"\UFFFFFFFF", r"\U0020FFFF", r"\c\x",
         r"\x{41", r"tail\\"]


def _random_bodies(count: int) -> list:
    rng = random.Random(5)
    alphabet = ["\\", "\\", "x", "u", "U", "c", "0", "7", "8", "1", "4", "f", "F", "{", "}", "?", "a", "n",
                "E", "\\'", "\"", "训", "😀", " "]
    out = []
    for _ in range(count):
        body = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 9)))
        if (len(body) - len(body.rstrip("\\"))) % 2:
            body += "\\"  # a lone backslash at the end would escape the closing quote
        out.append(body)
    return out


def _bash_bytes(bodies: list) -> list:
    """What bash makes of each $'body' (printed as hex, one line each)."""
    script = "".join(f"printf '%s' $'{b}' | od -An -tx1 | tr -d ' \\n'; echo\n" for b in bodies)
    done = subprocess.run(["bash", "-c", script], capture_output=True, timeout=120, check=True)
    return [bytes.fromhex(line) for line in done.stdout.decode().split("\n")[:len(bodies)]]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_decoding_agrees_with_bash():
    bodies = CASES + _random_bodies(400)
    for body, expected in zip(bodies, _bash_bytes(bodies)):
        assert decode(body.encode("utf-8")) == expected.decode("utf-8", "replace"), body


def test_a_gate_value_written_in_hex_is_read():
    from packgate.core.engine import analyze
    text = ("#!/bin/bash\nexport OFFLINE_PACKING_BMR=$'\\x31'\nexport OFFLINE_PACKED_DATA=$'1'\n"
            "torchrun aiak_training_llm/train.py --micro-batch-size 1\n")
    assert [f.code for f in analyze(text).findings] == []
