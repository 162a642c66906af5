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
    assert found[0][2].startswith("deepspeed（第 4 行）启动时 OFFLINE_PACKING_BMR 为 '1'，但 OFFLINE_PACKED_DATA 来自")


def test_micro_batch_size_default_over_a_run_time_value_is_information():
    text = ("export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\nMBS=$(cat mbs)\n"
            "deepspeed llava/train/train_mem.py --micro-batch-size ${MBS:-2}\n")
    assert [(c, s) for c, s, _ in findings(text)] == [("PG003", "information")]
    # the caller's default stays the error the contract describes (`${4:-2}`)
    text = text.replace("${MBS:-2}", "${4:-2}")
    assert [(c, s) for c, s, _ in findings(text)] == [("PG003", "error")]
