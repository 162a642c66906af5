"""Bash semantics III: values and names made at run time (issue 27), decided as bash decides them.

The oracle (tests/oracle/cases/v3_*.sh) checks these against real bash; here each construct
has one small test of what the walk makes of it, and the pieces (the arithmetic, the model) on
their own.
"""

import pytest

from packgate.core.engine import analyze
from packgate.core.flow.arith import assigned_names, evaluate, read_names
from packgate.core.parse.build import parse_bytes
from packgate.core.parse.model import Assign, Command, ExportNames, Ref
from packgate.core.settings import Settings

EN = Settings(lang="en")
TORCHRUN = "torchrun --nproc_per_node 8 aiak_training_llm/train.py"
BMR, PACKED = "OFFLINE_PACKING_BMR", "OFFLINE_PACKED_DATA"


def paths(text: str, launch: int = 0) -> list:
    """Per path of a launch: (BMR, PACKED_DATA, micro-batch size) as text, None when unset or
    absent, '?' when unknown."""
    found = analyze(text, settings=EN, loader=None).flow.launches[launch]

    def show(val):
        if val is None or str(val.kind) == "unset":
            return None
        return "?" if str(val.kind) == "unknown" else val.text

    return sorted(((show(p.gates[BMR].val), show(p.gates[PACKED].val), show(p.mbs)) for p in found.paths),
                  key=lambda row: tuple("" if x is None else x for x in row))


def codes(text: str) -> set:
    return {f.code for f in analyze(text, settings=EN, loader=None).findings}


# ---------------------------------------------------------------- arithmetic on its own

@pytest.mark.parametrize("text, value, assigned", [
    ("X = 1 + 2 * 3", 7, [("X", 7)]),
    ("S >= 2", 1, []),
    ("0", 0, []),
    ("i++", 0, [("i", 1)]),
    ("++i", 1, [("i", 1)]),
    ("-7 / 2", -3, []),  # C's truncation, as bash
    ("-7 % 3", -1, []),
    ("2 ** 10", 1024, []),
    ("010 + 0x10 + 2#11", 27, []),
    ("A = 1, B = A ? 5 : 6", 5, [("A", 1), ("B", 5)]),
    ("M /= 2", 2, [("M", 2)]),
    ("$S * 2", 4, []),
    ("name_of_unset", 0, []),
])
def test_arithmetic_as_bash_evaluates_it(text, value, assigned):
    known = {"S": "2", "i": "0", "M": "4", "name_of_unset": ""}
    assert evaluate(text, known.get) == (value, assigned)


@pytest.mark.parametrize("text", ["1 / 0", "A[1] + 1", "UNKNOWN + 1", "1.5", "$(date)", "(1"])
def test_arithmetic_it_cannot_tell_is_unknown(text):
    assert evaluate(text, {"A": "1"}.get)[0] is None


def test_unknown_arithmetic_still_names_what_it_assigns():
    assert evaluate("X = Q + 1, Y++", lambda n: None) == (None, [("X", None), ("Y", None)])
    assert assigned_names("X += 1, ++Z, W == 2") == ["X", "Z"]
    assert read_names("X = GBS / 0x10") == {"X", "GBS"}


# ---------------------------------------------------------------- the model

def test_subscripts_indirection_and_prefix_names_are_in_the_model():
    (cmd,) = parse_bytes(b'echo "${CFG[bmr]}" ${!name} "${!OFFLINE_@}" ${A[i+1]}').body.body
    refs = [w.parts[0] for w in cmd.words[1:]]
    assert all(type(r) is Ref for r in refs)
    assert refs[0].name == "CFG" and refs[0].index.text == "bmr"
    assert refs[1].name == "name" and refs[1].indirect
    assert refs[2].name == "OFFLINE_" and refs[2].prefix_names
    assert refs[3].index.text == "i+1"


def test_keyed_array_literal_and_element_assignment():
    a, b = parse_bytes(b'declare -A C=([bmr]=1 [$K]="a b" c)\nA[3]=2\n').body.body
    assert [w.text for w in a.array] == ["1", "a b", "c"]
    assert [(i, w.raw) for i, w in a.keys] == [(0, "bmr"), (1, "$K")]
    assert type(b) is Assign and b.name == "A" and b.index.text == "3" and b.value.text == "2"


def test_arithmetic_and_names_made_at_run_time_are_commands():
    arith, dynamic, unset = parse_bytes(b'(( X = Y + 1 ))\nexport "$v=1" B=2\nunset "${!P@}"\n').body.body
    assert type(arith) is Command and [w.text for w in arith.words] == ["((", " X = Y + 1 "]
    assert type(dynamic) is Command and dynamic.words[0].text == "export" and dynamic.words[2].text == "B=2"
    assert type(unset) is Command and unset.words[0].text == "unset"


def test_declared_attributes_and_here_strings():
    decl, local, read = parse_bytes(b'declare -iA V\nf() { :; }; local -x L\nread A <<< "1"\n').body.body[:1] + \
        [s for s in parse_bytes(b'local -x L\nread A <<< "1"\n').body.body]
    assert type(decl) is ExportNames and decl.attributes == "iA"
    assert type(local) is ExportNames and local.local
    assert read.stdin.text == "1\n"  # the newline bash adds to a here-string


def test_here_document_text():
    (quoted,) = parse_bytes(b"mapfile -t A <<'EOF'\nX=$A\nEOF\n").body.body
    (plain,) = parse_bytes(b"mapfile -t A <<EOF\nX=$A\nEOF\n").body.body
    assert quoted.stdin.text == "X=$A\n"
    assert quoted.stdin.text is not None and plain.stdin.text is None  # the unquoted one expands $A


# ---------------------------------------------------------------- arrays

def test_associative_array_element_is_its_value_not_the_literal():
    text = (f"declare -A CFG=([bmr]=1 [packed]=1)\nexport {BMR}=\"${{CFG[bmr]}}\" {PACKED}=\"${{CFG[packed]}}\"\n"
            f"{TORCHRUN} --micro-batch-size 1\n")
    assert paths(text) == [("1", "1", "1")]
    assert "PG005" not in codes(text)


def test_a_missing_key_is_empty():
    text = f"declare -A CFG=([bmr]=1)\nexport {BMR}=${{CFG[bmr]}} {PACKED}=${{CFG[typo]}}\n{TORCHRUN}\n"
    assert paths(text) == [("1", "", None)]


def test_a_per_stage_table_reaches_the_micro_batch_size():
    text = ("declare -A MBS_BY_STAGE=([s1]=4 [s2]=1)\ncase $1 in s1) STAGE=s1 ;; *) STAGE=s2 ;; esac\n"
            f'{TORCHRUN} --micro-batch-size "${{MBS_BY_STAGE[$STAGE]}}"\n')
    assert [mbs for _, _, mbs in paths(text)] == ["1", "4"]


def test_without_declare_A_the_subscripts_are_arithmetic():
    # `bmr` and `packed` are variable names there: the caller's (unknown here), 0 when unset
    text = f"CFG=([packed]=0 [bmr]=1)\nexport {BMR}=${{CFG[bmr]}} {PACKED}=${{CFG[packed]}}\n{TORCHRUN}\n"
    assert paths(text) == [("?", "?", None)]
    text = f"bmr=0 packed=0\n" + text
    assert paths(text) == [("1", "1", None)]


def test_element_assignment_changes_the_launch_arguments():
    text = f'A=(--micro-batch-size 1 --x 2)\nA[1]=2\nA[5]=3\n{TORCHRUN} "${{A[@]}}"\n'
    launch = analyze(text, settings=EN, loader=None).flow.launches[0]
    assert [v.text for v in launch.paths[0].args][-5:] == ["--micro-batch-size", "2", "--x", "2", "3"]
    assert launch.paths[0].mbs.text == "2"


def test_an_element_at_a_key_the_path_cannot_tell_makes_the_array_unknown():
    text = f'A=(--micro-batch-size 1)\nA[$1]=2\n{TORCHRUN} "${{A[@]}}"\n'
    assert paths(text) == [(None, None, None)]  # the flag may be gone: not 1 any more


# ---------------------------------------------------------------- positional parameters

def test_set_rewrites_what_the_launch_passes_on():
    text = f'set -- "$@" --micro-batch-size 2\n{TORCHRUN} "$@"\n'
    assert paths(text) == [(None, None, "2")]


def test_set_gives_dollar_one_and_shift_moves_it():
    text = (f'set -- a pack\nshift\n[ "$1" = pack ] && export {BMR}=1 {PACKED}=1\n{TORCHRUN}\n')
    assert paths(text) == [("1", "1", None)]


def test_a_function_call_keeps_its_own_positional_parameters():
    text = f'set -- pack\nf() {{ [ "$1" = x ] && export {BMR}=1; }}\nf x\n[ "$1" = pack ] && export {PACKED}=1\n{TORCHRUN}\n'
    assert paths(text) == [("1", "1", None)]


# ---------------------------------------------------------------- arithmetic commands

def test_arithmetic_assignment_and_let():
    text = f"GBS=16\nDP=8\n(( MBS = GBS / DP ))\nlet N=MBS-1\n{TORCHRUN} --micro-batch-size $MBS --n $N\n"
    assert paths(text) == [(None, None, "2")]


def test_declare_i_evaluates_later_assignments():
    text = f"S=2\ndeclare -ix {PACKED}\n{PACKED}='S >= 2'\nexport {BMR}=1\n{TORCHRUN}\n"
    assert paths(text) == [("1", "1", None)]


def test_arithmetic_zero_fails_and_ends_the_path_under_set_e():
    text = f"set -e\nexport {BMR}=1 {PACKED}=1\ni=0\n(( i++ ))\nexport {PACKED}=0\n{TORCHRUN}\n"
    assert analyze(text, settings=EN, loader=None).flow.launches[0].implicit  # no launch is reached
    text = text.replace("i++", "++i")
    assert paths(text) == [("1", "0", None)]


def test_an_arithmetic_status_the_path_cannot_tell_forks():
    text = f"(( ${{1:-0}} )) && export {BMR}=1 {PACKED}=1\n{TORCHRUN}\n"
    assert paths(text) == [(None, None, None), ("1", "1", None)]


# ---------------------------------------------------------------- names made at run time

def test_a_loop_exports_the_names_it_holds():
    text = f'for v in {BMR} {PACKED}; do export "$v=1"; done\n{TORCHRUN}\n'
    assert paths(text) == [("1", "1", None)]


def test_declare_x_of_a_made_name_is_local_to_a_function_and_g_is_not():
    local = f'f() {{ declare -x "${{1}}=1"; }}\nf {PACKED}\nexport {BMR}=1\n{TORCHRUN}\n'
    assert paths(local) == [("1", None, None)]
    assert paths(local.replace("-x", "-gx")) == [("1", "1", None)]


def test_export_of_an_array_of_assignments_and_mapfile_from_a_here_document():
    text = f'mapfile -t E <<EOF\n{BMR}=1\n{PACKED}=1\nEOF\nexport "${{E[@]}}"\n{TORCHRUN}\n'
    assert paths(text) == [("1", "1", None)]
    text = f'readarray -t E <<< "{BMR}=1"\nexport "${{E[@]}}"\n{TORCHRUN}\n'
    assert paths(text) == [("1", None, None)]


def test_read_splits_a_here_string():
    text = f'read -r A B <<< "1"\nexport {BMR}=$A {PACKED}=$B\n{TORCHRUN}\n'
    assert paths(text) == [("1", "", None)]
    text = f'IFS=, read -r A B <<< "1,1"\nexport {BMR}=$A {PACKED}=$B\n{TORCHRUN}\n'
    assert paths(text) == [("?", "?", None)]  # another IFS: not split here


def test_indirection_and_unset_by_prefix():
    text = f"ON=1\nsrc=ON\nexport {BMR}=${{!src}} {PACKED}=${{!src}}\n{TORCHRUN}\n"
    assert paths(text) == [("1", "1", None)]
    text = f'export {BMR}=1 {PACKED}=1\nunset "${{!OFFLINE_PACKING@}}"\n{TORCHRUN}\n'
    assert paths(text) == [(None, "1", None)]


def test_a_name_from_the_caller_makes_the_gates_unknown_and_claims_no_error():
    text = f'export {BMR}=1\nexport "$1=1"\n{TORCHRUN} --micro-batch-size 1\n'
    assert paths(text) == [("?", "?", "1")]
    found = analyze(text, settings=EN, loader=None).findings
    assert all(str(f.severity) in ("information", "hint") for f in found)


# ---------------------------------------------------------------- builtins out of place

def test_local_outside_a_function_fails_and_assigns_nothing():
    text = f"export {BMR}=1\nlocal -x {PACKED}=1\n{TORCHRUN}\n"
    assert paths(text) == [("1", None, None)]
    text = f"export {BMR}=1\nlocal -x {PACKED}=1 || export {PACKED}=1\n{TORCHRUN}\n"
    assert paths(text) == [("1", "1", None)]


# ---------------------------------------------------------------- loops and options

def test_each_pass_of_a_for_loop_launches_with_its_own_state():
    text = (f"export {BMR}=1 {PACKED}=1\nfor s in packed plain; do\n"
            f'  [ "$s" = plain ] && unset {PACKED}\n  {TORCHRUN}\ndone\n')
    assert paths(text) == [("1", None, None), ("1", "1", None)]


def test_a_for_loop_carries_state_from_pass_to_pass_and_break_ends_it():
    text = (f"for g in b p; do case $g in b) export {BMR}=1 ;; p) export {PACKED}=1 ;; esac; done\n{TORCHRUN}\n")
    assert paths(text) == [("1", "1", None)]
    assert paths(text.replace("=1 ;; p)", "=1; break ;; p)")) == [("1", None, None)]


def test_getopts_gives_every_combination_of_its_options():
    text = (f'while getopts "bd" o; do case $o in b) export {BMR}=1 ;; d) export {PACKED}=1 ;; esac; done\n'
            f"{TORCHRUN}\n")
    assert set(paths(text)) == {(None, None, None), (None, "1", None), ("1", None, None), ("1", "1", None)}


def test_arithmetic_expansion_over_the_scripts_numbers():
    text = f"GBS=64\nDP=8\nGA=8\nMBS=$(( GBS / (DP * GA) ))\n{TORCHRUN} --micro-batch-size $MBS\n"
    assert paths(text) == [(None, None, "1")]
    assert paths(text.replace("GA=8\n", "")) == [(None, None, "?")]  # GA is the caller's
    assert paths(f"N=0\nM=$(( N++ ))\n{TORCHRUN} --micro-batch-size $M\n") == [(None, None, "?")]  # assigns: not followed


def test_a_tab_stripping_here_document():
    (quoted,) = parse_bytes(b"mapfile -t A <<-'EOF'\n\tX=1\n\tEOF\n").body.body
    (plain,) = parse_bytes(b"mapfile -t A <<-EOF\n\tX=$B\n\tEOF\n").body.body
    assert quoted.stdin.text == "X=1\n"  # bash drops the leading tabs
    assert plain.stdin.text is None and plain.stdin.parts[0].reason == "here-document"  # not followed


def test_a_table_read_at_a_default_key_is_that_default():
    text = ('declare -A T=([s1]=4 [s2]=1)\nSTAGE="${1:-s2}"\n'
            f'{TORCHRUN} --micro-batch-size "${{T[$STAGE]}}"\n')
    mbs = analyze(text, settings=EN, loader=None).flow.launches[0].paths[0].mbs
    assert (str(mbs.kind), mbs.text, mbs.name) == ("default", "1", "1")  # unless the caller's $1 picks another
    text = 'declare -A T=([s2]=1)\nK="${1:-s2}"\nT[$K]=4\n' + f'{TORCHRUN} --micro-batch-size "${{T[s2]}}"\n'
    assert paths(text) == [(None, None, "?")]  # written at a key the caller may choose: not known


def test_a_plain_assignment_to_an_array_sets_element_zero():
    text = f'A=(--lr --micro-batch-size 2)\nA=--x\n{TORCHRUN} 1 "${{A[@]}}"\n'
    assert paths(text) == [(None, None, "2")]
