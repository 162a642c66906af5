"""The keystroke series `make bench` types: its syntax-breaking spots, and the bare server its floor is measured on."""

import asyncio
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "server"), str(ROOT / "benchmarks")]

import lsp_bench as lb  # noqa: E402
from generate import generate  # noqa: E402


@pytest.mark.parametrize("row, word", [
    ('if [ -n "${WANDB_API_KEY:-}" ]; then', "then"), ("fi", "fi"), ("  done  ", "done"),
    ("for d in a b; do", "do"), ("esac", "esac"), ("    2|4) ACCUM=4 ;;", ";;"), ("run() {", "{"),
    ('[[ -d "$1" ]] || { echo no; exit 1; }', "}"), ("}", "}"),
    ('X="${Y}"', None), ("export A=${B}", None), ("# then", None), ("config=undo", None), ("", None),
    ("echo then  # a comment", None)])
def test_syntax_end(row, word):
    assert lb.syntax_end(row) == word


def test_breaking_spots_are_a_share_spread_among_the_same_plain_spots():
    text = generate(2000, 7, blocks=True)
    lines = text.split("\n")
    plain = lb.keystroke_spots(text, 60)
    spots = lb.keystroke_spots(text, 75, breaking=0.2)
    breaking = [s for s in spots if lb.breaks_syntax(s)]
    assert len(spots) == 75 and len(breaking) == 15
    assert [s for s in spots if not lb.breaks_syntax(s)] == plain  # the others are the spots of the same seed
    assert {s[0].rsplit(" ", 1)[1] for s in breaking} == set(lb.SYNTAX_ENDS)  # every word, in turn
    positions = [i for i, s in enumerate(spots) if lb.breaks_syntax(s)]
    assert max(b - a for a, b in zip(positions, positions[1:])) == 5  # spread evenly, one in five
    bash = shutil.which("bash")
    for kind, row, col in breaking:
        assert col == len(lines[row].rstrip()) and lb.syntax_end(lines[row]) == kind.rsplit(" ", 1)[1]
        typed, deleted = lb.spot_edits(text, (kind, row, col))
        assert deleted[2] == text
        if bash is not None:  # bash, the oracle, says the `x` breaks it (tree-sitter takes `f() {x` as a word)
            assert subprocess.run([bash, "-n"], input=typed[2], text=True, capture_output=True).returncode != 0
    assert lb.keystroke_spots(text, 75, breaking=0.0) == lb.keystroke_spots(text, 75)


def test_a_text_without_compound_statements_has_no_breaking_spots():
    text = "#!/bin/bash\nexport A=1\ntorchrun train.py\n"
    assert lb.keystroke_spots(text, 4) and lb.syntax_end("export A=1") is None
    with pytest.raises(ValueError):
        lb.keystroke_spots(text, 10, breaking=0.5)


def test_by_syntax_splits_two_times_a_spot():
    spots = [("code line", 1, 0), (lb.BREAKS_SYNTAX + "fi", 2, 2), ("gate value", 3, 4)]
    assert lb.by_syntax(spots, [1, 2, 3, 4, 5, 6]) == ([3, 4], [1, 2, 5, 6])


def test_blocks_add_if_and_for_and_change_nothing_without_them():
    with_blocks = generate(2000, 7, blocks=True)
    assert "; then\n" in with_blocks and "\nfi\n" in with_blocks and "; do\n" in with_blocks
    assert "\ndone\n" in with_blocks and len(with_blocks.split("\n")) == len(generate(2000, 7).split("\n"))
    assert "; then" not in generate(2000, 7)
    bash = shutil.which("bash")
    if bash is not None:
        assert subprocess.run([bash, "-n"], input=with_blocks, text=True).returncode == 0


def test_the_bare_server_publishes_what_it_was_given_for_each_version():
    from lsprotocol import types

    from packgate.lsp.convert import converter
    text = generate(300, 3)
    published = lb.published_diagnostics(text, "file:///packgate-bench/keystrokes.sh")
    assert published and all("range" in d and "message" in d for d in published)
    # what it writes: the given JSON, structured once and written again by packgate's converter
    assert converter().unstructure(converter().structure(published, list[types.Diagnostic]),
                                   list[types.Diagnostic]) == published

    # each keystroke waits for its own version's publishDiagnostics (lsp_bench.change_and_wait)
    spots = lb.keystroke_spots(text, 2)
    times, base = asyncio.run(lb.bare_keystrokes(text, spots, baseline=len))
    assert len(times) == 4 and all(t > 0 for t in times) and len(base) == 2


def test_by_place_splits_each_keystroke_into_its_phases():
    import profile_keystroke
    import packgate.core.engine as engine
    text = generate(400, 7, blocks=True)
    spots = lb.keystroke_spots(text, 10, breaking=0.3)
    before = dict(vars(engine))
    rows = profile_keystroke.by_place(text, spots)
    assert vars(engine) == before  # the wrapping is undone
    assert sum(count for count, *_ in rows.values()) == 20
    assert {"the other spots, typed", "the other spots, deleted"} <= set(rows)
    assert any(name.startswith(lb.BREAKS_SYNTAX) for name in rows)
    for count, whole, parse, walk in rows.values():
        assert 0 <= parse and 0 <= walk and parse + walk <= whole
    assert any(parse > 0 and walk > 0 for _, _, parse, walk in rows.values())


def test_phases_time_each_phase_within_its_keystrokes():
    import profile_keystroke
    import packgate.core.engine as engine
    from packgate.core.flow import incremental
    text = generate(300, 7, blocks=True)
    spots = lb.keystroke_spots(text, 5)
    before, checks, top = dict(vars(engine)), dict(engine.CHECKS), incremental.Incremental.top
    rows, times, lints = profile_keystroke.phases(text, spots, 0.2)
    assert vars(engine) == before and engine.CHECKS == checks and incremental.Incremental.top is top  # undone
    assert len(times) == 10 and len(lints) == 5
    spent = {key: values for key, *values in rows}
    assert set(spent) >= {key for _, _, key in profile_keystroke.PLACES}
    assert all(x >= 0 for key, values in spent.items() if not key.startswith("everything") for x in values)
    for key in ("re-parse and model reuse", "walk from the last checkpoint", "the checks (core/rules/*)"):
        assert spent[key][1] > 0 and spent[key][2] > 0, key  # a keystroke's and a lint's
    assert spent["serialization of publishDiagnostics"][1] > 0 and spent["serialization of publishDiagnostics"][2] == 0
    # the phases run inside the keystrokes and the lints: what is left for everything else is not negative
    assert spent[rows[-1][0]][1] >= 0 and spent[rows[-1][0]][2] >= 0
