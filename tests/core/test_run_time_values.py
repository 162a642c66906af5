"""A gate or a size made at run time (a command's output, `read`) is something the script cannot
know: packgate says so at information level and never claims an error on a guess, even through a
`${X:-d}` default, which only a caller's variable or argument turns into a real configuration."""

import pytest

from packgate import Settings, analyze

LAUNCH = "deepspeed llava/train/train_mem.py --micro-batch-size 1\n"


def findings(text: str, lang: str = "en"):
    return [(f.code, f.severity, f.message) for f in analyze("#!/bin/bash\n" + text, settings=Settings(lang=lang)).findings]


@pytest.mark.parametrize("made", [
    "X=$(cat packed.flag)\n",
    "read -r X < packed.flag\n",
    "X=`cat packed.flag`\n",
])
def test_default_over_a_run_time_value_is_information(made):
    found = findings("export OFFLINE_PACKING_BMR=1\n" + made + "export OFFLINE_PACKED_DATA=${X:-0}\n" + LAUNCH)
    assert [(code, severity) for code, severity, _ in found] == [("PG001", "information")]
    assert "OFFLINE_PACKED_DATA comes from" in found[0][2] and "cannot know" in found[0][2]


def test_default_over_the_callers_variable_is_still_an_error():
    found = findings("export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=${PACKED:-0}\n" + LAUNCH)
    assert [(code, severity) for code, severity, _ in found] == [("PG001", "error")]
    found = findings("export OFFLINE_PACKING_BMR=1\nX=$2\nexport OFFLINE_PACKED_DATA=${X:-0}\n" + LAUNCH)
    assert [(code, severity) for code, severity, _ in found] == [("PG001", "error")]


def test_companion_made_at_run_time_is_information_at_its_assignment():
    text = "export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=$(cat packed.flag)\n" + LAUNCH
    [f] = analyze("#!/bin/bash\n" + text, settings=Settings(lang="en")).findings
    assert (f.code, f.severity) == ("PG001", "information")
    assert f.message.startswith("OFFLINE_PACKING_BMR is '1' at deepspeed (line 4) but OFFLINE_PACKED_DATA comes from")
    line_start = ("#!/bin/bash\n" + text).index("OFFLINE_PACKED_DATA=")
    assert (f.start, f.end) == (line_start, line_start + len("OFFLINE_PACKED_DATA"))
    assert {x.kind for x in f.fixes} == {"disable"}  # nothing to fix until the value is known


def test_gate_from_the_callers_argument_is_the_callers_choice():
    # as with a caller's default, what the caller passes is the launch's configuration: PG005
    # says what an unset $1 gives, PG001 says nothing of a pair it cannot know
    found = findings("export OFFLINE_PACKING_BMR=$1\n" + LAUNCH)
    assert [c for c, _, _ in found] == ["PG005"]


def test_env_file_of_a_container_is_read_at_run_time():
    text = ("docker run --rm --env-file ./packing.env -e OFFLINE_PACKING_BMR=1 img \\\n"
            "    torchrun train.py --micro-batch-size 1\n")
    assert [(c, s) for c, s, _ in findings(text)] == [("PG001", "information")]


def test_both_gates_unknown_say_nothing_of_the_pair():
    found = findings("V=$(cat packed.flag)\nexport OFFLINE_PACKING_BMR=$V OFFLINE_PACKED_DATA=$V\n" + LAUNCH)
    assert not [f for f in found if f[0] == "PG001"]


def test_message_in_chinese():
    found = findings("export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=$(cat f)\n" + LAUNCH, lang="zh")
    assert found[0][2].startswith("deepspeed（第 4 行）启动时 OFFLINE_PACKING_BMR 为 '1'，但 OFFLINE_PACKED_DATA 来自 命令的输出，")
    # the script's own words stay as they are
    found = findings("export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\n"
                     "deepspeed llava/train/train_mem.py --micro-batch-size $((X+1))\n", lang="zh")
    assert "--micro-batch-size 来自 $((X+1))，" in found[0][2]


def test_micro_batch_size_default_over_a_run_time_value_is_information():
    text = ("export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\nMBS=$(cat mbs)\n"
            "deepspeed llava/train/train_mem.py --micro-batch-size ${MBS:-2}\n")
    assert [(c, s) for c, s, _ in findings(text)] == [("PG003", "information")]
    # the caller's default stays the error the contract describes (`${4:-2}`)
    text = text.replace("${MBS:-2}", "${4:-2}")
    assert [(c, s) for c, s, _ in findings(text)] == [("PG003", "error")]


# names made at run time: the gate assigned may be any, so none is claimed wrong after it

@pytest.mark.parametrize("assign", [
    'printf -v "$name" 1',
    'read -r "$name" <<< 1',
    'mapfile -t "$name" <<< 1',
    'declare -n R="$name"; R=1',
])
def test_assignment_to_a_name_the_script_cannot_know(assign):
    text = ("export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=0\nname=$(cat gate-name)\n" + assign + "\n"
            + LAUNCH)
    assert not [f for f in findings(text) if f[1] == "error"]


@pytest.mark.parametrize("assign", [
    'name=OFFLINE_PACKED_DATA; printf -v "$name" 1',
    'for name in OFFLINE_PACKED_DATA; do printf -v "$name" %s 1; done',
    'declare -n R=OFFLINE_PACKED_DATA; R=1',
    'declare -n R; R=OFFLINE_PACKED_DATA; R=1',
    'f() { local -n ref=$1; ref=$2; }; f OFFLINE_PACKED_DATA 1',
])
def test_assignment_to_a_name_the_path_knows(assign):
    text = "export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=0\n" + assign + "\n" + LAUNCH
    assert [f for f in findings(text) if f[0] == "PG001"] == []


def test_nameref_to_a_gate_names_the_gate_in_findings():
    text = "export OFFLINE_PACKING_BMR=1\ndeclare -n R=OFFLINE_PACKED_DATA\nR=0\nexport R\n" + LAUNCH
    [f] = analyze("#!/bin/bash\n" + text, settings=Settings(lang="en")).findings
    assert f.code == "PG001" and "OFFLINE_PACKED_DATA is '0'" in f.message
    [related] = [r for r in f.related if "set to" in r.message]
    at = ("#!/bin/bash\n" + text).index("R=0")
    assert (related.start, related.end) == (at, at + 1)  # the assignment as written: `R=0`


def test_a_local_reference_is_gone_after_the_call():
    text = ("export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\nref=plain\n"
            "f() { local -n ref=$1; ref=1; }\nf OFFLINE_PACKED_DATA\nref=0\n" + LAUNCH)
    # `ref=0` after the call is the plain variable again: the gate keeps 1 (the call's
    # assignment of the same value is PG008's information, nothing more)
    assert [code for code, _, _ in findings(text)] == ["PG008"]


def test_a_value_packgate_does_not_compute_is_named_as_written():
    found = findings("A=(1 $V 0)\nexport OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=${#A[@]}\n" + LAUNCH)
    assert [m for c, _, m in found if c == "PG001"][0].startswith(
        "OFFLINE_PACKING_BMR is '1' at deepspeed (line 4) but OFFLINE_PACKED_DATA comes from ${#A[@]}, ")


def test_pg009_says_a_name_made_at_run_time_was_assigned():
    text = ("export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\n"
            'while read -r k v; do printf -v "$k" %s "$v"; done < pack.conf\n' + LAUNCH)
    [(code, severity, message)] = findings(text)
    assert (code, severity) == ("PG009", "information")
    assert message.startswith('the name assigned here comes from "$k", which packgate cannot read')
    # one that is exported keeps PG009's own wording, and PG001 adds nothing to either
    text = text.replace('printf -v "$k" %s "$v"', 'export "$k=$v"')
    assert [(c, m.split(",")[0]) for c, _, m in findings(text)] == [
        ("PG009", 'the names exported here come from "$k=$v"')]


def test_pg009_says_a_reference_to_a_name_made_at_run_time_was_assigned():
    text = ('export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\nv=$(cat gate-name)\n'
            'declare -n R="$v"\nR=0\n' + LAUNCH)
    [(code, severity, message)] = findings(text)
    assert (code, severity) == ("PG009", "information")
    assert message.startswith('the name assigned here comes from "$v"')
