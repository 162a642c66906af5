"""Exit statuses carried by each path (core/flow/state.py `status`, walk.py, commands.py):
&&, ||, !, if / while / until conditions and set -e follow them (issue 16)."""

from packgate.core.engine import analyze
from packgate.core.flow.commands import shebang_errexit
from packgate.core.settings import Settings

EN = Settings(lang="en")
B, P = "OFFLINE_PACKING_BMR", "OFFLINE_PACKED_DATA"


def combos(text: str) -> list:
    """Per launch (not the end of the file), the sorted (BMR, PACKED_DATA) texts of its paths (unset: None)."""
    out = []
    for launch in analyze(text, settings=EN, loader=None).flow.launches:
        if launch.implicit:
            continue  # the end of a file without launch
        seen = set()
        for p in launch.paths:
            seen.add(tuple(None if p.gates[g].val.kind == "unset" else p.gates[g].val.text for g in (B, P)))
        out.append(sorted(seen, key=str))
    return out


def codes(text: str) -> list:
    return sorted(f.code for f in analyze(text, settings=EN, loader=None).findings)


LAUNCH = "torchrun train.py --micro-batch-size 1\n"


def test_a_test_then_exports_sets_both_or_neither():
    text = f'[[ -n "$PACK" ]] && export {B}=1 && export {P}=1\n' + LAUNCH
    assert combos(text) == [[("1", "1"), (None, None)]]
    assert "PG007" not in codes(text)


def test_mkdir_then_exports_gives_no_finding():
    assert codes(f'mkdir -p "$OUT" && export {B}=1 && export {P}=1\n' + LAUNCH) == []


def test_two_tests_can_still_leave_one_gate_off():
    text = f'[ -n "$A" ] && export {B}=1\n[ -n "$C" ] && export {P}=1\n' + LAUNCH
    assert "PG007" in codes(text)


def test_lists_are_left_associative():
    # (t && export B) || export P: export returns 0, so P runs exactly when the test failed
    assert combos(f'[ -n "$X" ] && export {B}=1 || export {P}=1\n' + LAUNCH) == [[("1", None), (None, "1")]]


def test_false_and_true_decide_the_list():
    assert combos(f"false && export {B}=1\ntrue || export {P}=1\n" + LAUNCH) == [[(None, None)]]


def test_bang_inverts_the_status():
    assert combos(f"! false && export {B}=1 && export {P}=1\n" + LAUNCH) == [[("1", "1")]]
    assert combos(f"! true && export {B}=1\n" + LAUNCH) == [[(None, None)]]


def test_an_if_on_a_known_status_takes_one_branch():
    text = f"if false; then export {B}=1; else export {B}=1; export {P}=1; fi\n" + LAUNCH
    assert combos(text) == [[("1", "1")]]


def test_while_false_never_runs_and_while_true_never_ends_without_break():
    assert combos(f"while false; do export {B}=1; done\n" + LAUNCH) == [[(None, None)]]
    assert combos("while true; do sleep 1; done\n" + LAUNCH) == []
    assert combos(f"until false; do export {B}=1 {P}=1; break; done\n" + LAUNCH) == [[("1", "1")]]


def test_set_e_ends_the_path_at_a_known_failure_only_where_bash_does():
    assert combos(f"set -e\nfalse\n" + LAUNCH) == []
    assert combos(f"set -o errexit\nfalse && true\nexport {B}=1 {P}=1\n" + LAUNCH) == [[("1", "1")]]
    assert combos(f"set -e\nif false; then :; fi\n! true\nexport {B}=1 {P}=1\n" + LAUNCH) == [[("1", "1")]]
    assert combos(f"set -e\ngrep -q x f\nexport {B}=1 {P}=1\n" + LAUNCH) == [[("1", "1")]]  # unknown goes on


def test_a_bash_e_shebang_turns_errexit_on():
    assert shebang_errexit(b"#!/bin/bash -e\n") and shebang_errexit(b"#!/bin/sh -xe\n")
    assert not shebang_errexit(b"#!/bin/bash\n") and not shebang_errexit(b"#!/usr/bin/env bash\n")
    assert combos("#!/bin/bash -e\nfalse\n" + LAUNCH) == []


def test_exec_of_a_launcher_ends_the_script():
    assert len(combos("exec " + LAUNCH + LAUNCH)) == 1


def test_case_fall_through_runs_the_next_body():
    text = (f'case "$S" in\n  a) export {B}=1 ;&\n  b) export {P}=1 ;;\n  *) export {B}=0 {P}=0 ;;\nesac\n'
            + LAUNCH)
    assert combos(text) == [[("0", "0"), ("1", "1"), (None, "1")]]


def test_case_continue_testing_tries_the_later_patterns():
    text = f'case "$S" in\n  p*) export {B}=1 ;;&\n  *d) export {P}=1 ;;\nesac\n' + LAUNCH
    assert ("1", "1") in combos(text)[0]


def test_an_exit_path_is_judged_at_the_end_of_a_file_without_launch():
    result = analyze(f"export {B}=1\nexit 0\nexport {P}=1\n", settings=EN, loader=None).flow
    (end,) = result.launches
    assert [p.gates[B].val.text for p in end.paths] == ["1"]


def test_a_test_that_made_the_path_exit_decides_the_same_test_later():
    text = f'[ -z "$1" ] && exit 1\n[ -n "$1" ] && export {B}=1 && export {P}=1\n' + LAUNCH
    assert combos(text) == [[("1", "1")]]
    text = f'if [ -z "$PACK" ]; then exit 0; fi\n[[ -n "$PACK" ]] && export {B}=1\nexport {P}=1\n' + LAUNCH
    assert combos(text) == [[("1", "1")]]


def test_equality_with_a_literal_is_remembered():
    text = f'export {B}=1 {P}=1\n[ "$STAGE" = sft ] || exit 1\n[ "$STAGE" != sft ] && unset {P}\n' + LAUNCH
    assert combos(text) == [[("1", "1")]]


def test_a_change_of_the_variable_forgets_the_test():
    text = f'[ -z "$1" ] && exit 1\nshift\n[ -n "$1" ] && export {B}=1\nexport {P}=1\n' + LAUNCH
    assert combos(text) == [[("1", "1"), (None, "1")]]
    text = f'[ -n "$X" ] || exit 1\nX=""\n[ -n "$X" ] && export {B}=1\nexport {P}=1\n' + LAUNCH
    assert (None, "1") in combos(text)[0]  # X changed: the path no longer claims it is non-empty


def test_pg007_names_each_path_by_the_test_that_tells_it_apart():
    text = f'export {P}=1\n[[ -n "$PACK" ]] && export {B}=1\n' + LAUNCH
    (finding,) = [f for f in analyze(text, settings=EN, loader=None).findings if f.code == "PG007"]
    assert "when `$PACK` is not empty (line 2): BMR=1 PACKED_DATA=1" in finding.message
    assert "when `$PACK` is empty (line 2): BMR=unset PACKED_DATA=1" in finding.message
    text = f'case "$STAGE" in\n  sft) export {B}=1 {P}=1 ;;\n  dpo) export {P}=1 ;;\nesac\n' + LAUNCH
    (finding,) = [f for f in analyze(text, settings=EN, loader=None).findings if f.code == "PG007"]
    assert "`case $STAGE` = `dpo` (line 3)" in finding.message


def test_a_case_subject_the_script_set_picks_its_arm():
    text = f'F=packed\ncase "$F" in\n  packed) export {B}=1 {P}=1 ;;\n  legacy) export {P}=1 ;;\nesac\n' + LAUNCH
    assert combos(text) == [[("1", "1")]]


def test_a_plain_pattern_an_earlier_glob_matches_is_never_entered_first():
    text = f'case "$1" in\n  pack*) export {B}=1 {P}=1 ;;\n  packed) export {P}=1 ;;\nesac\n' + LAUNCH
    assert combos(text) == [[("1", "1"), (None, None)]]
