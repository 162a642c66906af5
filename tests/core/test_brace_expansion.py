"""Brace expansion (core/parse/brace.py): the words one written word makes, as bash makes them,
and what the walk does with them where they name variables."""

from __future__ import annotations

import shutil
import subprocess

import pytest

import packgate
from packgate.core.parse import brace, parse_bytes

# written word -> what bash makes of it (checked against bash below, where it is installed)
CASES = {
    "a{b,c}d": ["abd", "acd"],
    "{a,b}{1,2}": ["a1", "a2", "b1", "b2"],
    "x{a,b{c,d}}y": ["xay", "xbcy", "xbdy"],
    "OFFLINE_PACK{ING_BMR,ED_DATA}=1": ["OFFLINE_PACKING_BMR=1", "OFFLINE_PACKED_DATA=1"],
    "{1..3}": ["1", "2", "3"],
    "{3..1}": ["3", "2", "1"],
    "{01..3}": ["01", "02", "03"],
    "{-1..1}": ["-1", "0", "1"],
    "{5..1..2}": ["5", "3", "1"],
    "{1..6..-2}": ["1", "3", "5"],
    "{a..e..2}": ["a", "c", "e"],
    "a{,}b": ["ab", "ab"],
    "x{a}y{b,c}": ["x{a}yb", "x{a}yc"],
    "{a{b,c}": ["{ab", "{ac"],
}
UNEXPANDED = ["x{a}y", "{1..a}", "a\\{b,c\\}", "{}", "{,", "a,b", "{1..3..x}"]


def expanded(written: str):
    """What brace.expand makes of a written word of unquoted text alone, as strings."""
    toks: list = []
    brace._chars(written, 0, toks)
    out = brace.expand(toks)
    return None if out is None else ["".join(t.text for t in word) for word in out]


@pytest.mark.parametrize("written", sorted(CASES))
def test_expansion_makes_the_words_bash_makes(written):
    assert expanded(written) == CASES[written]


@pytest.mark.parametrize("written", UNEXPANDED)
def test_a_word_without_a_group_that_expands_is_left_as_written(written):
    assert expanded(written) is None


def test_the_table_agrees_with_bash():
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("bash is not installed: the table cannot be checked against it")
    for written, words in CASES.items():
        got = subprocess.run([bash, "-c", f"printf '%s\\n' {written}"], capture_output=True, text=True,
                             check=True).stdout.splitlines()
        assert got == words, written
    for written in UNEXPANDED:
        got = subprocess.run([bash, "-c", f"printf '%s\\n' {written}"], capture_output=True, text=True,
                             check=True).stdout.splitlines()
        assert got == [written.replace("\\", "")], written


def test_the_first_look_finds_every_group_and_skips_expansions():
    for written in ["a{b,c}", "{${X},b}", "\\${a,b}", "{1..3}", "x{a}{b,c}"]:
        assert brace.may_brace(written.encode(), 0, len(written)), written
    for written in ["${X}", "${X:-a,b}", '"${A[@]}"', "--foo={a}", "${X//,/ }"]:
        assert not brace.may_brace(written.encode(), 0, len(written)), written


def test_more_words_than_the_limit_are_left_as_written():
    assert expanded("{1..100000}") is None
    assert expanded("{a,b}" * 9) is None  # 512 words
    assert len(expanded("{a,b}" * 8)) == 256
    assert expanded("{a,b}" * 500) is None  # 2**500 words: stopped at the first limit, at once
    assert expanded("x" * 40000 + "{a,b}") is None  # two words of 40,001 tokens: past MAX_TOKENS


def test_a_word_longer_than_the_limit_is_left_as_written():
    word = "{a,b}" * (brace.MAX_WORD_BYTES // 5 + 1)
    script = parse_bytes(f"echo {word}\n".encode())
    [cmd] = script.body.body
    assert len(cmd.words) == 2 and cmd.words[1].text == word


def test_each_word_spans_the_whole_written_word_and_owns_its_records():
    data = 'ONE=1\ntorchrun x.py --micro-batch-size {"$ONE",2}\n'.encode()
    script = parse_bytes(data)
    cmd = script.body.body[-1]
    one, two = cmd.words[-2:]
    start = data.index(b"{")
    assert (one.start, one.end) == (two.start, two.end) == (start, len(data) - 1)
    assert one.text is None and two.text == "2"
    ref = one.parts[0]
    assert ref.name == "ONE" and ref.quoted
    # the occurrence of ONE is noted once, not once per word
    assert [o.name for o in script.occurrences].count("ONE") == 2  # the assignment and the expansion


def test_export_of_a_braced_name_sets_both_gates():
    text = "#!/bin/bash\nexport OFFLINE_PACK{ING_BMR,ED_DATA}=1\ntorchrun x.py --micro-batch-size 1\n"
    assert packgate.lint(text) == []
    one = "#!/bin/bash\nexport OFFLINE_PACKING_{BMR,DATA}=1\ntorchrun x.py --micro-batch-size 1\n"
    [finding] = packgate.lint(one)
    assert finding.code == "PG001" and "OFFLINE_PACKED_DATA is not set" in finding.message


def test_unset_of_a_braced_name_unsets_both():
    text = ("#!/bin/bash\nexport OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\n"
            "unset OFFLINE_PACKED_{DATA,X}\ntorchrun x.py --micro-batch-size 1\n")
    found = {f.code: f.message for f in packgate.lint(text)}
    assert "OFFLINE_PACKED_DATA is not set" in found["PG001"]
    assert found["PG008"] == "OFFLINE_PACKED_DATA=1 is unset on line 3 before any launch reads it"


def test_a_plain_assignment_value_and_a_quoted_brace_stay_text():
    text = ('#!/bin/bash\nOFFLINE_PACKING_BMR={0,1}\nexport OFFLINE_PACKING_BMR OFFLINE_PACKED_DATA=1\n'
            'export "OFFLINE_PACKING_{BMR,X}=1" || true\ntorchrun x.py --micro-batch-size 1\n')
    [finding] = packgate.lint(text)  # the quoted word names nothing: only the value is wrong
    assert finding.code == "PG005" and finding.message.startswith("OFFLINE_PACKING_BMR={0,1} ")
