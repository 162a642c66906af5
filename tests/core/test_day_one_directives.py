"""Directives as ruff and ShellCheck users expect them, and PG009 only where it matters.

- a trailing `# packgate disable=...` covers its own line (as `# noqa` does);
- a comment that looks like a directive but is not one gets a warning saying what was meant,
  on the command line (a problem) as in the editor (core.notices, rendered by both);
- a directive on a launch (its line or the line before) also silences what that launch causes
  (PG001, PG003, PG004, PG007: anchored elsewhere, linked to the launch by data["launch"]);
- PG009 only in a script that launches or sets a gate.
"""

from __future__ import annotations

import pytest

from packgate import Settings, analyze
from packgate.cli.main import main
from packgate.core.findings import NoticeKind
from packgate.core.text import apply_edits

EN = Settings(lang="en")
LAUNCH = "torchrun aiak_training_llm/train.py --micro-batch-size 1\n"
ONLY_BMR = "export OFFLINE_PACKING_BMR=1\n"  # PG001 at the export, caused by the launch


def codes(text: str, path: str | None = None, **kw) -> list[str]:
    return [f.code for f in analyze(text, path=path, settings=Settings(lang="en", **kw)).findings]


def notices(text: str) -> list[str]:
    return [n.message for n in analyze(text, settings=EN).notices]


# -- (a) a trailing directive covers its line ---------------------------------------------------

def test_a_trailing_directive_covers_its_own_line():
    assert codes("echo a\nexport OFFLINE_PACKING_BMR=1  # packgate disable=PG001\n" + LAUNCH) == []
    assert codes("echo a\nexport OFFLINE_PACKING_BMR=1 # packgate disable=missing-companion\n" + LAUNCH) == []


def test_a_trailing_directive_does_not_cover_the_next_command():
    # before: a directive after `echo a` covered the command after it
    assert codes("echo a  # packgate disable=PG001\n" + ONLY_BMR + LAUNCH) == ["PG001"]
    # nor does it become file-wide on the first line
    assert codes("echo a  # packgate disable=all\n" + ONLY_BMR + LAUNCH) == ["PG001"]


def test_a_trailing_directive_covers_only_the_rules_it_names():
    text = "echo a\nexport OFFLINE_PACKING_BMR=1 OFFLINE_PACKING_VQA=1  # packgate disable=PG002\n" + LAUNCH
    assert codes(text) == ["PG001"]


def test_own_line_directives_keep_their_scopes():
    assert codes("#!/bin/bash\n# packgate disable=PG001\n" + ONLY_BMR + LAUNCH) == []  # file-wide
    assert codes("echo a\n# packgate disable=PG001\n" + ONLY_BMR + LAUNCH) == []  # next command
    assert codes("echo a\n# packgate disable=PG001\necho b\n" + ONLY_BMR + "echo c\n" + LAUNCH) == ["PG001"]


def test_a_trailing_directive_in_an_edited_document_keeps_its_scope():
    """An editor's next parse takes the statements an edit did not touch over; the trailing
    directive is built anew, its scope the same as a fresh parse gives (the edit before it)."""
    import model_snapshot as snap
    from test_model_takeover import edited
    data = b"echo a\nexport OFFLINE_PACKED_DATA=1  # packgate disable=PG001\necho c\n"
    for start, end, inserted in [(0, 0, b"echo x\n"), (len(data), len(data), b"echo d\n"), (5, 6, b"bb")]:
        _, new, text = edited(data, start, end, inserted)
        from packgate.core.parse import parse_bytes
        assert snap.text_of(new) == snap.text_of(parse_bytes(text))
        (d,) = new.directives
        line = text.index(b"export")
        assert (d.scope_start, d.scope_end) == (line, text.index(b"# packgate"))


# -- (b) a comment that looks like a directive ----------------------------------------------------

@pytest.mark.parametrize("comment,meant", [
    ("# packgate: disable=PG001", "# packgate disable=PG001"),
    ("#packgate disable PG001", "# packgate disable=PG001"),
    ("# packgate disabled=PG001", "# packgate disable=PG001"),
    ("# Packgate Disable=PG001", "# packgate disable=PG001"),
    ("# packgate-disable=missing-companion", "# packgate disable=missing-companion"),
    ("# packgate ignore=PG001", "# packgate disable=PG001"),
    ("# packgate: disable=PG0O1", "# packgate disable=PG001"),  # the unknown code corrected too
    ("# packgate disable=PG002, PG001", "# packgate disable=PG002,PG001"),  # a blank ends the list
    ("# packgate profile ov15", "# packgate profile=ov15"),
])
def test_a_lookalike_gets_a_warning_saying_what_was_meant(comment, meant):
    text = f"echo a\n{comment}\n" + ONLY_BMR + LAUNCH
    [message] = notices(text)
    assert f"`{meant}`" in message and "not a packgate directive" in message, message
    assert "PG001" in codes(text)  # it did not disable what it meant to


def test_an_unknown_code_names_the_close_one():
    [message] = notices("echo a\n# packgate disable=PG0O1\n" + ONLY_BMR + LAUNCH)
    assert "unknown rule 'PG0O1'" in message and "did you mean PG001?" in message
    [message] = notices("echo a\n# packgate disable=PG999\n" + ONLY_BMR + LAUNCH)
    assert "unknown rule 'PG999'" in message and "did you mean" not in message  # nothing close


@pytest.mark.parametrize("comment", [
    "# packgate disable the check here once the trainer is fixed",
    "# packgate is the linter of these scripts",
    "# see packgate's README: disable=PG001 silences it",
    "# packgate disable=PG001 deliberately (A/B control run)",
    "# packgate disable=PG001,dead-var",
])
def test_prose_and_valid_directives_get_no_warning(comment):
    assert notices(f"echo a\n{comment}\n" + ONLY_BMR + LAUNCH) == []


def test_the_warning_is_in_the_analysis_language():
    zh = analyze("echo a\n# packgate: disable=PG001\n" + LAUNCH, settings=Settings(lang="zh")).notices
    assert "不是 packgate 指令" in zh[0].message


def test_the_command_line_reports_the_lookalike_with_its_position(tmp_path, capsys):
    script = tmp_path / "run.sh"
    script.write_text("#!/bin/bash\necho a\n  # packgate: disable=PG001\n" + ONLY_BMR + LAUNCH)
    rc = main(["check", "--lang", "en", "--color", "never", str(script)])
    err = capsys.readouterr().err
    assert rc == 1  # PG001 still reported: the comment disabled nothing
    assert f"{script}:3:3: `# packgate: disable=PG001` is not a packgate directive" in err, err
    assert "did you mean `# packgate disable=PG001`?" in err


def test_json_lists_the_lookalike_among_the_problems(tmp_path, capsys):
    import json
    script = tmp_path / "run.sh"
    script.write_text("echo a\n#packgate disable PG001\n" + ONLY_BMR + LAUNCH)
    main(["check", "--format", "json", "--lang", "en", str(script)])
    doc = json.loads(capsys.readouterr().out)
    [problem] = doc["problems"]
    assert (problem["line"], problem["column"], problem["level"]) == (2, 1, "warning")
    assert "# packgate disable=PG001" in problem["message"]


# -- (c) a directive on a launch ---------------------------------------------------------------

CASES = {
    # rule: a script where the launch causes a finding anchored away from it
    "PG001": ONLY_BMR + "echo between\n" + LAUNCH,
    "PG003": "export OFFLINE_PACKED_DATA=1\nMBS=4\necho between\n"
             "torchrun aiak_training_llm/train.py --micro-batch-size $MBS\n",
    "PG004": "OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\necho between\n" + LAUNCH,
    "PG007": "if [ \"$X\" = a ]; then\n  export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\nelse\n"
             "  export OFFLINE_PACKING_BMR=1\nfi\necho between\n" + LAUNCH,
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_a_directive_on_the_line_before_a_launch_silences_what_it_causes(code):
    text = CASES[code]
    assert code in codes(text)
    at = text.index("torchrun")
    assert code not in codes(text[:at] + f"# packgate disable={code}\n" + text[at:])


@pytest.mark.parametrize("code", sorted(CASES))
def test_a_directive_at_the_end_of_the_launch_line_silences_what_it_causes(code):
    text = CASES[code]
    end = text.rindex("\n")
    assert code not in codes(text[:end] + f"  # packgate disable={code}" + text[end:])


def test_a_directive_on_a_multi_line_launch_covers_it_from_its_last_line():
    text = ONLY_BMR + "torchrun aiak_training_llm/train.py \\\n  --micro-batch-size 1  # packgate disable=PG001\n"
    assert codes(text) == []


def test_a_launch_directive_silences_only_its_rules_and_its_launch():
    text = CASES["PG001"]
    at = text.index("torchrun")
    assert codes(text[:at] + "# packgate disable=PG002\n" + text[at:]) == ["PG001"]
    # on another command than the launch: nothing of the launch's
    assert codes(text.replace("echo between\n", "# packgate disable=PG001\necho between\n")) == ["PG001"]
    # two launches: the directive on the second one leaves the first one's finding
    two = ONLY_BMR + LAUNCH + "# packgate disable=PG001\n" + LAUNCH
    assert codes(two) == ["PG001"]


def test_a_launch_directive_does_not_silence_findings_no_launch_causes():
    # PG002 (dead variable) is the assignment's own problem, whatever the launch
    text = "export OFFLINE_PACKING_VQA=1\n# packgate disable=PG002\n" + LAUNCH
    assert codes(text) == ["PG002"]


def test_findings_carry_their_launch_as_typed_data():
    a = analyze(CASES["PG004"], settings=EN)
    [f] = [f for f in a.findings if f.code == "PG004"]
    [launch] = a.flow.launches
    assert f.data["launch"] == [launch.start, launch.end]


# -- PG009 where it matters ---------------------------------------------------------------------

FRAMES = 'source "$CONDA_ENV/activate"\nffmpeg -i "$1" -vf fps=1 "$2/%05d.jpg"\n'


def test_pg009_is_quiet_in_a_script_that_launches_nothing_and_sets_no_gate():
    assert codes(FRAMES, path="/nowhere/extract_frames.sh") == []
    assert codes('. "$HERE/vendor/env.sh"\nexport CUDA_VISIBLE_DEVICES=0\npython tools/convert.py\n',
                 path="/nowhere/convert.sh") == []


@pytest.mark.parametrize("body", [
    LAUNCH,  # a launch
    "export OFFLINE_PACKED_DATA=1\n",  # a gate exported
    "OFFLINE_PACKING_BMR=1\n",  # a gate set
    "setup() {\n  export OFFLINE_PACKING_BMR=1\n}\n",  # anywhere: a function never called
    "export OFFLINE_PACKING_VQA=1\n",  # a dead gate of the profile is still one of its gates
    "OFFLINE_PACKED_DATA=1 ./run_stage.sh\n",  # a prefix assignment
])
def test_pg009_stays_where_the_unread_file_could_matter(body):
    assert "PG009" in codes(FRAMES.splitlines(keepends=True)[0] + body, path="/nowhere/run.sh")


def test_pg009_counts_a_gate_set_in_a_followed_file(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "env.sh").write_text("export OFFLINE_PACKED_DATA=1\n")
    script = tmp_path / "run.sh"
    text = 'source ./env.sh\nsource "$OTHER"\n'
    script.write_text(text)
    assert "PG009" in codes(text, path=str(script))


def test_the_warning_of_a_crlf_line_stops_before_its_carriage_return():
    text = "echo a\r\n  # packgate: disable=PG001\r\n" + LAUNCH.replace("\n", "\r\n")
    a = analyze(text, settings=EN)
    [note] = [n for n in a.notices if n.kind is NoticeKind.DIRECTIVE]
    assert a.source.data[note.start:note.end] == b"# packgate: disable=PG001"


# -- the file-wide disable fix, on what the fuzzer found ------------------------------------------

def _file_fix(text: str, code: str):
    [f] = [f for f in analyze(text, settings=Settings(lang="en")).findings if f.code == code]
    [fix] = [x for x in f.fixes if x.kind == "disable" and "this file" in x.description]
    return fix


@pytest.mark.parametrize("blank", ["\x0b", "\x0c", "\u3000", " ", "\t"])
def test_extending_a_file_directive_stops_where_its_value_does(blank):
    """The parser's value ends at any blank (`\\S+`); the fix used to add its code after a vertical
    tab or an ideographic space, in the trailing text, where it disabled nothing."""
    text = f"#!/bin/bash\n# packgate disable=dead-var{blank}companion\n" + ONLY_BMR + LAUNCH
    fixed = apply_edits(text.encode(), _file_fix(text, "PG001").edits).decode()
    assert f"# packgate disable=dead-var,PG001{blank}companion\n" in fixed
    assert "PG001" not in codes(fixed)


def test_a_file_directive_after_a_shebang_ending_in_a_lone_cr():
    """bash ends the shebang's comment at a newline only: a directive put after a lone CR (an
    editor's line end) ended that comment early and made the rest of the line code."""
    text = '#!\r$(if [ -n "$LEGACY" ]; then\n    export OFFLINE_PACKING_VQA=1\nfi\n'
    fixed = apply_edits(text.encode(), _file_fix(text, "PG002").edits).decode()
    assert fixed.startswith('#!\r$(if [ -n "$LEGACY" ]; then\n# packgate disable=PG002\n')


def test_a_directive_between_a_line_of_assignments_and_the_next_command():
    """tree-sitter-bash glues `A=1 B=2` to the command on the next line, comments between them
    included: a disable there was no directive at all (found by make fuzz)."""
    text = ("#!/bin/bash\nA=1 B=2\n# packgate disable=PG008\nexport OFFLINE_PACKED_DATA=0\n"
            "export OFFLINE_PACKED_DATA=1\n" + LAUNCH)
    assert "PG008" not in codes(text)
    assert "PG008" in codes(text.replace("# packgate disable=PG008\n", ""))
    # the directive on its own line covers the command after it, not the file
    assert "PG008" in codes(text.replace("export OFFLINE_PACKED_DATA=1\n", "export OFFLINE_PACKED_DATA=1\n"
                                         "export OFFLINE_PACKED_DATA=0\nexport OFFLINE_PACKED_DATA=1\n"))
