"""The command table (core/flow/commands.py): what each command does to what a launch sees.

One test per behaviour; adding a command to COMMANDS takes one more here (docs/architecture.md).
"""

import pytest

from packgate.core.engine import analyze
from packgate.core.flow import commands
from packgate.core.settings import Settings

EN = Settings(lang="en")


def gates_seen(text: str) -> list:
    """Per path of the script's first launch: each gate's (value kind, text)."""
    launch = analyze(text, settings=EN, loader=None).flow.launches[0]
    return [{g: (str(s.val.kind), s.val.text) for g, s in p.gates.items()} for p in launch.paths]


def launch_labels(text: str) -> list:
    return [launch.label for launch in analyze(text, settings=EN, loader=None).flow.launches]


BOTH_ON = {"OFFLINE_PACKING_BMR": ("known", "1"), "OFFLINE_PACKED_DATA": ("known", "1"),
           "OFFLINE_PACKING_VQA": ("unset", "")}


def test_read_makes_its_names_unknown():
    seen = gates_seen("export OFFLINE_PACKING_BMR=1\nread OFFLINE_PACKED_DATA\n"
                      "export OFFLINE_PACKED_DATA\ntorchrun train.py\n")
    assert seen == [{**BOTH_ON, "OFFLINE_PACKED_DATA": ("unknown", "")}]


def test_a_wrapper_runs_the_launch_it_wraps():
    assert launch_labels("timeout -s INT 5 nohup numactl -N 0 torchrun train.py\n") == ["torchrun"]


def test_env_assignments_are_the_launch_prefix():
    assert gates_seen("env OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 torchrun train.py\n") == [BOTH_ON]


def test_env_unset_removes_a_variable_for_the_launch():
    seen = gates_seen("export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\n"
                      "env -u OFFLINE_PACKED_DATA torchrun train.py\n")
    assert seen == [{**BOTH_ON, "OFFLINE_PACKED_DATA": ("unset", "")}]


def test_set_a_exports_every_assignment():
    assert gates_seen("set -a\nOFFLINE_PACKING_BMR=1\nOFFLINE_PACKED_DATA=1\nset +a\ntorchrun train.py\n") == [BOTH_ON]


def test_exit_ends_its_path():
    seen = gates_seen('export OFFLINE_PACKING_BMR=1\nif [ "$X" ]; then exit 1; fi\n'
                      "export OFFLINE_PACKED_DATA=1\ntorchrun train.py\n")
    assert seen == [BOTH_ON]


def test_bash_c_exports_are_lost_to_the_parent():
    a = analyze("bash -c 'export OFFLINE_PACKED_DATA=1'\nexport OFFLINE_PACKING_BMR=1\ntorchrun train.py\n",
                settings=EN, loader=None)
    assert [(lost.assign.name, str(lost.sub.kind)) for lost in a.flow.lost] == [("OFFLINE_PACKED_DATA", "child")]


def test_docker_run_passes_only_its_e_options():
    seen = gates_seen("export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\n"
                      "docker run -e OFFLINE_PACKING_BMR img torchrun train.py\n")
    assert seen == [{**BOTH_ON, "OFFLINE_PACKED_DATA": ("unset", "")}]


def test_the_table_decides_what_the_walk_may_not_step_over():
    assert set(commands.COMMANDS) <= commands.ACTIVE
    assert not commands.STOPS & commands.REACHING
    for name, handler in commands.COMMANDS.items():
        assert handler.__doc__, name


def test_env_i_starts_the_launch_with_only_what_follows_it():
    seen = gates_seen("export OFFLINE_PACKING_BMR=1\nenv -i PATH=\"$PATH\" OFFLINE_PACKED_DATA=1 torchrun train.py\n")
    assert seen == [{"OFFLINE_PACKING_BMR": ("unset", ""), "OFFLINE_PACKED_DATA": ("known", "1"),
                     "OFFLINE_PACKING_VQA": ("unset", "")}]


def test_env_double_dash_and_split_string():
    assert gates_seen("env -- OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1 torchrun train.py\n") == [BOTH_ON]
    assert gates_seen("export OFFLINE_PACKING_BMR=1\n"
                      "env -S 'OFFLINE_PACKED_DATA=1 torchrun train.py'\n") == [BOTH_ON]


def test_exec_env_i_replaces_the_shell():
    text = "export OFFLINE_PACKING_BMR=1\nexec env -i OFFLINE_PACKED_DATA=1 torchrun a.py\ntorchrun b.py\n"
    assert launch_labels(text) == ["torchrun"]


PACKED_ONLY_OFF = {"OFFLINE_PACKING_BMR": ("known", "1"), "OFFLINE_PACKED_DATA": ("unset", ""),
                   "OFFLINE_PACKING_VQA": ("unset", "")}


def test_command_and_builtin_run_export_and_unset():
    assert gates_seen("command export OFFLINE_PACKING_BMR=1\nbuiltin export OFFLINE_PACKED_DATA=1\n"
                      "torchrun train.py\n") == [BOTH_ON]
    assert gates_seen("export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\ncommand unset OFFLINE_PACKED_DATA\n"
                      "torchrun train.py\n") == [PACKED_ONLY_OFF]


def test_unset_f_removes_the_function_not_the_variable():
    text = ("export OFFLINE_PACKING_BMR=1\non() { export OFFLINE_PACKED_DATA=1; }\n"
            "unset -f on OFFLINE_PACKING_BMR\non\ntorchrun train.py\n")
    assert gates_seen(text) == [PACKED_ONLY_OFF]


def test_unset_n_leaves_a_plain_variable():
    assert gates_seen("export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\nunset -n OFFLINE_PACKED_DATA\n"
                      "torchrun train.py\n") == [BOTH_ON]


def test_a_readonly_name_keeps_its_value():
    text = ("export OFFLINE_PACKING_BMR=1\nreadonly OFFLINE_PACKED_DATA=1\nexport OFFLINE_PACKED_DATA=0\n"
            "unset OFFLINE_PACKED_DATA\ntorchrun train.py\n")
    assert gates_seen(text) == [BOTH_ON]
    text = "export OFFLINE_PACKING_BMR=1\ndeclare -r OFFLINE_PACKED_DATA=1\nexport OFFLINE_PACKED_DATA\ntorchrun t.py\n"
    assert gates_seen(text) == [BOTH_ON]


def test_local_x_is_seen_inside_the_call_only():
    text = ("export OFFLINE_PACKING_BMR=1\nrun() {\n  local -x OFFLINE_PACKED_DATA=1\n  torchrun a.py\n}\n"
            "run\ntorchrun b.py\n")
    launches = analyze(text, settings=EN, loader=None).flow.launches
    inside, after = ({g: str(s.val.kind) for g, s in launch.paths[0].gates.items()} for launch in launches)
    assert inside["OFFLINE_PACKED_DATA"] == "known" and after["OFFLINE_PACKED_DATA"] == "unset"


def test_eval_of_a_literal_string_runs_it_here():
    assert gates_seen("eval 'export OFFLINE_PACKING_BMR=1; export OFFLINE_PACKED_DATA=1'\n"
                      "torchrun train.py\n") == [BOTH_ON]
    assert gates_seen("eval export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\ntorchrun train.py\n") == [BOTH_ON]


def test_eval_of_anything_else_makes_the_gates_unknown():
    (seen,) = gates_seen('export OFFLINE_PACKING_BMR=1\neval "$EXTRA"\ntorchrun train.py\n')
    assert {kind for kind, _ in seen.values()} == {"unknown"}
    codes = [f.code for f in analyze('export OFFLINE_PACKING_BMR=1\neval "$EXTRA"\ntorchrun train.py '
                                     '--micro-batch-size 1\n', settings=EN, loader=None).findings]
    assert "PG001" not in codes


def test_the_regex_free_tests_agree_with_the_patterns_they_replace():
    """case_match, the `NAME=` test and the positional-parameter test, written without regexes
    (each compile is paid at every start), against the patterns and fnmatch they replace."""
    import re
    from fnmatch import fnmatchcase

    from packgate.core.flow import commands as C
    from packgate.core.flow.patterns import case_match
    from packgate.core.flow.values import _SPECIAL_PARAMETERS
    words = ["", "A", "A=", "A=1", "_x=y", "1A=2", "A-B=1", "=1", "é=1", "A==", "PATH=$PATH", "a b=1", "A\n=1"]
    for w in words:
        assert C._assigns(w) == bool(re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", w)), w
    for name in ["", "0", "1", "12", "@", "*", "#", "?", "$", "!", "-", "@@", "1a", "٣", "²", "A", "_"]:
        positional = name.isdigit() and name.isascii() or name in _SPECIAL_PARAMETERS
        assert positional == bool(re.match(r"^([0-9]+|[@*#?$!-])$", name)), name
    subjects = ["stage1", "stage1.5", "stage1_5", "stage2", "s", "", "a.b", "x*y"]
    patterns = ["stage1", "stage1.5", "stage*", "s?age1", "stage1|stage2", "a.b", "x\\*y", "[s]tage1", "*"]
    for p in patterns:
        for s in subjects:
            got = case_match(p, s)
            alternatives = p.split("|")
            if "*" in alternatives:
                assert got is True
            elif any(re.search(r"[\"'$\\(){}[\]]", a) for a in alternatives):
                assert got is None, (p, s)
            else:
                assert got == any(fnmatchcase(s, a) for a in alternatives), (p, s)


@pytest.mark.parametrize("command,value", [
    ("printf -v OFFLINE_PACKED_DATA %s 1", ("known", "1")),
    ("printf -v OFFLINE_PACKED_DATA '%d' 1", ("known", "1")),
    ("printf -vOFFLINE_PACKED_DATA -- '%s%s' 1", ("known", "1")),
    ("printf -v OFFLINE_PACKED_DATA '%s' \"$CALLER\"", ("unknown", "")),
    ("printf -v OFFLINE_PACKED_DATA '%03d' 1", ("unknown", "")),
    ("printf -v OFFLINE_PACKED_DATA", ("known", "0")),  # no format: printf refuses, the value stays
    ("printf '%s' 1", ("known", "0")),  # only printed
])
def test_printf_v_formats_into_its_name(command, value):
    """`printf -v NAME` sets NAME and keeps its export mark (an exported 0 before it)."""
    seen = gates_seen(f"export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=0\n{command}\ntorchrun train.py\n")
    assert seen == [{"OFFLINE_PACKING_BMR": ("known", "1"), "OFFLINE_PACKED_DATA": value,
                     "OFFLINE_PACKING_VQA": ("unset", "")}]


def test_printf_v_of_a_default_is_a_default():
    text = "export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\nprintf -v B '%s' \"${MBS:-2}\"\n" \
           "torchrun train.py --micro-batch-size \"$B\"\n"
    mbs = analyze(text, settings=EN, loader=None).flow.launches[0].paths[0].mbs
    assert (str(mbs.kind), mbs.text, mbs.name) == ("default", "2", "MBS")


def test_printf_without_v_is_stepped_over():
    """printf without -v only prints: the walk steps over it and its words reach no check."""
    from packgate.core.flow.commands import acts
    from packgate.core.parse import parse_bytes
    plain, assigning = parse_bytes(b"printf '%s\\n' \"$1\"\nprintf -v X '%s' 1\n").body.body
    assert not acts("printf", plain) and acts("printf", assigning)
