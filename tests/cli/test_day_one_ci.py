"""CI that is green on a correct repository, and rule selection as ruff does it: --fail-level,
files skipped on purpose, invalid configuration as an error, ALL / prefixes / extend-select /
per-file-ignores, `check` with no PATH, and --statistics in JSON."""

import json

import pytest

from packgate.cli.main import main
from packgate.core.rules import RULES

LEAK = "#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\ntorchrun train.py\n"  # PG001, error
DEAD = ("#!/bin/bash\nexport OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKING_BMR=1\n"
        "export OFFLINE_PACKED_DATA=1\ntorchrun train.py\n")  # PG002, warning (ov2)
OVERRIDDEN = ("#!/bin/bash\nexport OFFLINE_PACKING_BMR=0\nexport OFFLINE_PACKING_BMR=1\n"
              "export OFFLINE_PACKED_DATA=1\ntorchrun train.py\n")  # PG008, information
CLEAN = "#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\ntorchrun train.py\n"


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def codes(out: str) -> list:
    return sorted(d["code"] for d in json.loads(out)["diagnostics"])


@pytest.fixture
def repo(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ---------------------------------------------------------------- 1. --fail-level

def test_information_never_fails_a_run_by_default(repo, capsys):
    (repo / "info.sh").write_text(OVERRIDDEN)
    rc, out, _ = run(capsys, "check", "--profile", "ov2", "info.sh")
    assert rc == 0 and "PG008" in out  # reported, not failing
    assert run(capsys, "check", "--profile", "ov2", "--fail-level", "information", "info.sh")[0] == 1
    (repo / "warn.sh").write_text(DEAD)
    assert run(capsys, "check", "--profile", "ov2", "warn.sh")[0] == 1
    assert run(capsys, "check", "--profile", "ov2", "--fail-level", "error", "warn.sh")[0] == 0
    # --severity stays "minimum reported": what is not reported cannot fail
    assert run(capsys, "check", "--profile", "ov2", "--severity", "error", "warn.sh")[0] == 0
    assert run(capsys, "check", "--profile", "ov2", "--fail-level", "information", "--exit-zero",
               "info.sh")[0] == 0


def test_fail_level_in_the_configuration(repo, capsys):
    (repo / "info.sh").write_text(OVERRIDDEN)
    (repo / ".packgate.toml").write_text('profile = "ov2"\nfail-level = "information"\n')
    assert run(capsys, "check", "info.sh")[0] == 1
    assert run(capsys, "check", "--fail-level", "warning", "info.sh")[0] == 0  # the option wins
    (repo / ".packgate.toml").write_text('profile = "ov2"\nfail-level = "hint"\n')
    rc, _, err = run(capsys, "check", "info.sh")
    assert rc == 2
    assert f'{repo / ".packgate.toml"}: fail-level = "hint": expected one of error, warning, information' in err


def test_help_gives_the_exit_codes_with_the_fail_level(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--fail-level {error,warning,information}" in out
    assert "0 no finding at or above the fail level" in out and "information never fails a run" in out
    assert "skipped on purpose (binary or too large) is reported but changes nothing" in out


# ---------------------------------------------------------------- 2. skipped files

def test_a_binary_file_is_skipped_reported_and_does_not_change_the_status(repo, capsys):
    (repo / "clean.sh").write_text(CLEAN)
    (repo / "blob.sh").write_bytes(b"\x7fELF\x00\x00binary")
    rc, out, err = run(capsys, "check", "--color", "never", ".")
    assert rc == 0, err
    assert "No problems in 1 file." in out and "1 file skipped (binary)." in out
    assert "blob.sh: binary file" in err
    assert run(capsys, "check", "--exit-zero", ".")[0] == 0
    (repo / "leak.sh").write_text(LEAK)
    assert run(capsys, "check", ".")[0] == 1  # the status is the other files'

    rc, out, _ = run(capsys, "check", "--format", "json", ".")
    problems = json.loads(out)["problems"]
    assert [(p["path"], p["level"], p["skipped"]) for p in problems] == [("blob.sh", "warning", "binary")]
    rc, out, _ = run(capsys, "check", "--format", "sarif", ".")
    invocation = json.loads(out)["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is True
    [note] = invocation["toolExecutionNotifications"]
    assert note["level"] == "warning" and "binary file" in note["message"]["text"]
    rc, out, _ = run(capsys, "check", "--format", "github", ".")
    assert any(line.startswith("::warning file=blob.sh") for line in out.splitlines())


def test_a_file_too_large_is_skipped_and_one_that_cannot_be_read_is_an_error(repo, capsys, monkeypatch):
    monkeypatch.setattr("packgate.core.files.MAX_BYTES", 64)
    (repo / "big.sh").write_text(CLEAN + "#" * 100 + "\n")
    (repo / "blob.sh").write_bytes(b"\x00")
    rc, out, err = run(capsys, "check", "--color", "never", "big.sh", "blob.sh")
    assert rc == 0 and "too large to analyze" in err
    assert "2 files skipped (1 binary, 1 too large)." in out
    rc, out, _ = run(capsys, "check", "--format", "json", "big.sh", "missing.sh")
    assert rc == 2
    by_path = {p["path"]: p for p in json.loads(out)["problems"]}
    assert by_path["big.sh"]["skipped"] == "too large" and by_path["big.sh"]["level"] == "warning"
    assert by_path["missing.sh"]["skipped"] is None and by_path["missing.sh"]["level"] == "error"
    assert run(capsys, "check", "--exit-zero", "big.sh", "missing.sh")[0] == 2


def test_binary_standard_input_is_skipped(repo, capsys, monkeypatch):
    import io
    import sys
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a\x00b")))
    rc, out, err = run(capsys, "check", "--color", "never", "-")
    assert rc == 0 and "1 file skipped (binary)." in out


# ---------------------------------------------------------------- 3. invalid configuration

def test_an_invalid_value_is_an_error_naming_file_key_and_what_is_accepted(repo, capsys):
    (repo / "warn.sh").write_text(DEAD)
    (repo / "pyproject.toml").write_text('[tool.packgate]\nlang = "fr"\nprofile = 3\n')
    rc, out, err = run(capsys, "check", "warn.sh")
    assert rc == 2
    lines = err.splitlines()
    assert f'packgate: {repo / "pyproject.toml"}: [tool.packgate] lang = "fr": expected one of en, zh, both' in lines
    assert (f"packgate: {repo / 'pyproject.toml'}: [tool.packgate] profile = 3: expected one of ov2, ov15, "
            "three-gate, auto") in lines
    assert "PG002" in out  # the files are still checked, with what is valid


def test_one_bad_entry_does_not_drop_the_rest_of_the_table(repo, capsys):
    (repo / "warn.sh").write_text(DEAD)
    (repo / "pyproject.toml").write_text('[tool.packgate]\nprofile = "ov2"\n'
                                        '[tool.packgate.severity]\nPG002 = "error"\nPG008 = "loud"\nPG099 = "off"\n')
    rc, out, err = run(capsys, "check", "--format", "json", "warn.sh")
    assert rc == 2
    [d] = json.loads(out)["diagnostics"]
    assert (d["code"], d["severity"]) == ("PG002", "error")  # the valid entry applies
    assert '[tool.packgate] severity."PG008" = "loud": expected one of error, warning, information, hint, off' in err
    assert "unknown rule 'PG099' in [tool.packgate] severity" in err
    problems = json.loads(out)["problems"]
    assert {p["level"] for p in problems} == {"error"} and len(problems) == 2


def test_wrong_types_are_errors_and_good_entries_of_a_list_stay(repo, capsys):
    (repo / "leak.sh").write_text(LEAK)
    (repo / "warn.sh").write_text(DEAD)
    (repo / ".packgate.toml").write_text('profile = "ov2"\nignore = ["PG001", 7]\nexclude = 3\n')
    rc, out, err = run(capsys, "check", "--format", "json", ".")
    assert rc == 2 and codes(out) == ["PG002"]
    assert "ignore: 7 is not a rule" in err and "exclude = 3: expected a list of glob patterns" in err


# ---------------------------------------------------------------- 4. selection

@pytest.fixture
def three(repo):
    (repo / "leak.sh").write_text(LEAK)
    (repo / "warn.sh").write_text(DEAD)
    (repo / "info.sh").write_text(OVERRIDDEN)
    (repo / ".packgate.toml").write_text('profile = "ov2"\n')
    return repo


def test_all_prefixes_and_specificity(three, capsys):
    everything = ["PG001", "PG002", "PG008"]
    assert codes(run(capsys, "check", "--format", "json", "--select", "all", ".")[1]) == everything
    assert codes(run(capsys, "check", "--format", "json", "--select", "PG00", ".")[1]) == everything
    assert codes(run(capsys, "check", "--format", "json", "--select", "pg00", ".")[1]) == everything
    assert codes(run(capsys, "check", "--format", "json", "--ignore", "ALL", ".")[1]) == []
    # the more specific selector wins, whatever the option
    rc, out, _ = run(capsys, "check", "--format", "json", "--select", "ALL", "--ignore", "PG00",
                     "--extend-select", "dead-var", ".")
    assert codes(out) == ["PG002"]
    rc, out, _ = run(capsys, "check", "--format", "json", "--select", "PG001", "--ignore", "ALL", ".")
    assert codes(out) == ["PG001"]


def test_extend_select_option_and_key(three, capsys):
    (three / ".packgate.toml").write_text('profile = "ov2"\nselect = ["PG001"]\nextend-select = ["PG008"]\n')
    assert codes(run(capsys, "check", "--format", "json", ".")[1]) == ["PG001", "PG008"]
    rc, out, _ = run(capsys, "check", "--format", "json", "--extend-select", "dead-var", ".")
    assert codes(out) == ["PG001", "PG002", "PG008"]
    # --select starts again; --ignore removes from the configuration's selection
    assert codes(run(capsys, "check", "--format", "json", "--select", "PG002", ".")[1]) == ["PG002"]
    assert codes(run(capsys, "check", "--format", "json", "--ignore", "PG008", ".")[1]) == ["PG001"]


def test_per_file_ignores_relative_to_the_configuration_and_by_name(three, capsys):
    vendor = three / "third_party" / "lib"
    vendor.mkdir(parents=True)
    (vendor / "leak.sh").write_text(LEAK)
    (vendor / "warn.sh").write_text(DEAD)
    (three / "pyproject.toml").write_text('[tool.packgate]\nprofile = "ov2"\n'
                                         '[tool.packgate.per-file-ignores]\n'
                                         '"third_party/**" = ["missing-companion"]\n'
                                         '"warn.sh" = ["PG00"]\n')
    (three / ".packgate.toml").unlink()
    rc, out, err = run(capsys, "check", "--format", "json", ".")
    found = sorted((d["path"], d["code"]) for d in json.loads(out)["diagnostics"])
    assert found == [("info.sh", "PG008"), ("leak.sh", "PG001")], err
    rc, out, _ = run(capsys, "check", "--show-settings", "third_party/lib/warn.sh")
    assert "per-file-ignores: third_party/** = missing-companion, warn.sh = PG00" in out
    # its name drops PG00 (PG001 to PG009): the rules after PG009 stay
    kept = ", ".join(r.code for r in RULES if not r.code.startswith("PG00")) or "none"
    assert f"rules here: {kept}" in out.splitlines()
    rc, out, _ = run(capsys, "check", "--show-settings", "third_party/lib/leak.sh")
    assert "rules here: " + ", ".join(r.code for r in RULES if r.code != "PG001") in out.splitlines()
    # the globs are the configuration file's folder's, not the working folder's
    import os
    os.chdir(three / "third_party")
    rc, out, _ = run(capsys, "check", "--format", "json", ".")
    assert json.loads(out)["diagnostics"] == []
    (three / "pyproject.toml").write_text('[tool.packgate.per-file-ignores]\n"*.sh" = ["PG999"]\n"x" = 1\n')
    rc, _, err = run(capsys, "check", ".")
    assert rc == 2 and "unknown rule 'PG999' in [tool.packgate] per-file-ignores.\"*.sh\"" in err
    assert '[tool.packgate] per-file-ignores."x" = 1: expected a list of rules' in err


def test_unknown_selectors_on_the_command_line_are_usage_errors(three, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["check", "--extend-select", "PG9", "."])
    assert exc.value.code == 2 and "unknown rule 'PG9'" in capsys.readouterr().err


# ---------------------------------------------------------------- 5. no PATH

def test_check_without_a_path_checks_the_working_folder(three, capsys):
    rc, out, err = run(capsys, "check", "--format", "json")
    assert rc == 1 and json.loads(out)["summary"]["files"] == 3, err


# ---------------------------------------------------------------- 6. --statistics

def test_statistics_in_json(three, capsys):
    (three / "leak2.sh").write_text(LEAK)
    rc, out, _ = run(capsys, "check", "--statistics", "--format", "json", "--profile", "ov2", ".")
    data = json.loads(out)
    assert rc == 1 and set(data) == {"version", "statistics", "summary", "problems"}
    assert data["statistics"][0] == {"code": "PG001", "rule": "missing-companion", "count": 2,
                                     "fixable": data["statistics"][0]["fixable"]}
    assert [s["code"] for s in data["statistics"]] == ["PG001", "PG002", "PG008"]
    assert all(isinstance(s["fixable"], bool) for s in data["statistics"])
    assert data["summary"]["files"] == 4 and data["summary"]["error"] == 2


def test_statistics_with_a_format_that_has_none_is_refused(three, capsys):
    for fmt in ("sarif", "github", "gitlab", "checkstyle"):
        with pytest.raises(SystemExit) as exc:
            main(["check", "--statistics", "--format", fmt, "."])
        err = capsys.readouterr().err
        assert exc.value.code == 2 and err.splitlines()[-1] == (
            f"packgate check: error: argument --statistics: --format {fmt} has no statistics "
            "(use --format text or json)")
