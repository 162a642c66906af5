"""The options users of ruff and ShellCheck expect, the summary line and usage errors."""

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from packgate.cli.main import main
from packgate.cli.parser import build_parser, command_table

LEAK = "#!/bin/bash\nexport OFFLINE_PACKING_BMR='1'\ntorchrun train.py --micro-batch-size 1\n"
CLEAN = "#!/bin/bash\nexport OFFLINE_PACKING_BMR='1'\nexport OFFLINE_PACKED_DATA='1'\ntorchrun train.py\n"
README = Path(__file__).resolve().parents[2] / "README.md"


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def tree(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    for name, text in {"a.sh": LEAK, "b.sh": CLEAN, "c.sh": CLEAN, "legacy/old.sh": LEAK,
                       "vendor/x/y.sh": LEAK}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_summary_counts_files_with_findings_and_files_checked(tree, capsys):
    rc, out, _ = run(capsys, "check", "--color", "never", "--profile", "ov2", ".")
    assert rc == 1
    assert "Found 3 problems (3 errors) in 3 files (5 files checked)." in out
    rc, out, _ = run(capsys, "check", "--color", "never", "--profile", "ov2", "a.sh")
    assert out.splitlines()[-1] == "Found 1 problem (1 error) in 1 file."


def test_missing_file_is_not_no_problems(tree, capsys):
    rc, out, err = run(capsys, "check", "--color", "never", "missing.sh")
    assert rc == 2 and "No problems" not in out
    assert out == "No file was checked (1 could not be read).\n"
    assert err == "packgate: missing.sh: cannot read: No such file or directory\n"


def test_exit_zero(tree, capsys):
    assert run(capsys, "check", "a.sh", "--exit-zero")[0] == 0
    assert run(capsys, "check", "a.sh")[0] == 1
    assert run(capsys, "check", "a.sh", "missing.sh", "--exit-zero")[0] == 2  # errors still count


def test_exclude_and_extend_exclude_on_the_command_line(tree, capsys):
    _, out, _ = run(capsys, "check", "--format", "json", ".", "--exclude", "legacy,vendor/*")
    assert {d["path"] for d in json.loads(out)["diagnostics"]} == {"a.sh"}
    _, out, _ = run(capsys, "check", "--format", "json", ".", "--extend-exclude", "a.sh")
    assert {d["path"] for d in json.loads(out)["diagnostics"]} == {"legacy/old.sh", "vendor/x/y.sh"}


def test_exclude_in_the_configuration(tree, capsys):
    (tree / ".packgate.toml").write_text('exclude = ["vendor"]\nextend-exclude = ["*old.sh"]\n')
    _, out, err = run(capsys, "check", "--format", "json", ".")
    assert {d["path"] for d in json.loads(out)["diagnostics"]} == {"a.sh"} and not err
    _, out, _ = run(capsys, "check", "--format", "json", ".", "--exclude", "")  # clears exclude only
    assert {d["path"] for d in json.loads(out)["diagnostics"]} == {"a.sh", "vendor/x/y.sh"}
    (tree / ".packgate.toml").write_text("exclude = [1]\n")
    rc, out, err = run(capsys, "check", "--format", "json", "a.sh")
    assert 'exclude = [1]: expected a list of glob patterns' in err and rc == 2


def test_show_source_prints_the_line_and_a_caret(tree, capsys):
    _, out, _ = run(capsys, "check", "--color", "never", "--show-source", "a.sh")
    lines = out.splitlines()
    assert lines[1] == " 2 | export OFFLINE_PACKING_BMR='1'"
    assert lines[2] == "   |        ^^^^^^^^^^^^^^^^^^^"


def test_show_source_keeps_tabs_under_tabs(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.sh").write_text("#!/bin/bash\n\texport OFFLINE_PACKING_BMR=1\ntorchrun t.py\n")
    _, out, _ = run(capsys, "check", "--color", "never", "--show-source", "t.sh")
    assert out.splitlines()[2] == "   | \t       " + "^" * 19


def test_quiet_prints_findings_only(tree, capsys):
    _, out, _ = run(capsys, "check", "--color", "never", "--quiet", "a.sh", "b.sh")
    assert len(out.splitlines()) == 1 and "[PG001" in out
    _, out, _ = run(capsys, "check", "-q", "b.sh")
    assert out == ""


def test_statistics_counts_per_rule(tree, capsys):
    (tree / "d.sh").write_text(LEAK + "export OFFLINE_PACKING_VQA=1\n")
    _, out, _ = run(capsys, "check", "--color", "never", "--statistics", "--profile", "ov2", "a.sh", "d.sh")
    lines = out.splitlines()
    assert lines[:2] == ["2  PG001  missing-companion", "1  PG002  dead-var"]
    assert lines[2].startswith("Found 3 problems")


def test_output_file(tree, capsys):
    rc, out, _ = run(capsys, "check", "--format", "json", "-o", "report.json", "a.sh")
    assert rc == 1 and out == ""
    assert json.loads((tree / "report.json").read_text())["diagnostics"][0]["code"] == "PG001"
    rc, _, err = run(capsys, "check", "--output-file", str(tree / "no" / "such" / "dir"), "a.sh")
    assert rc == 2 and "cannot write the report" in err


def test_show_settings_names_the_configuration_and_the_profile(tree, capsys):
    (tree / ".packgate.toml").write_text('lang = "zh"\nignore = ["PG008"]\n')
    rc, out, _ = run(capsys, "check", "--show-settings", "a.sh")
    assert rc == 0
    assert f"configuration: {tree / '.packgate.toml'}" in out
    assert "profile: auto (the default)" in out and "lang: zh" in out and "ignore: PG008" in out
    assert "auto: assumed ov2, because no Python code below" in out
    rc, out, _ = run(capsys, "check", "--show-settings", "a.sh", "--profile", "ov15")
    assert "profile: ov15 (set by --profile)" in out and "auto:" not in out


def test_lsp_accepts_stdio(capsys):
    args = build_parser().parse_args(["lsp", "--stdio"])
    assert args.command == "lsp" and args.stdio and not args.tcp
    with pytest.raises(SystemExit) as exc:
        main(["lsp", "--stdio", "--tcp"])
    assert exc.value.code == 2 and "packgate lsp" in capsys.readouterr().err


def test_an_error_in_a_subcommand_prints_its_own_usage(capsys):
    for argv, usage in ((["check", "--bogus", "a.sh"], "usage: packgate check"),
                        (["check", "--fix", "--diff"], "usage: packgate check"),
                        (["explain"], "usage: packgate explain"),
                        (["rules", "--format", "xml"], "usage: packgate rules")):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        err = capsys.readouterr().err
        assert exc.value.code == 2 and err.startswith(usage), (argv, err)


def test_check_help_says_the_profile_default_is_auto(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "(default: from config, else auto)" in out and "else ov2" not in out


def _readme_check_options() -> set:
    text = README.read_text(encoding="utf-8")
    table = text.split("Options of `check`:", 1)[1].split("\n\n", 2)[1]
    found = set()
    for row in table.splitlines()[2:]:
        first = row.split("|")[1]
        found.update(re.findall(r"(--[a-z][a-z-]*|(?<![\w-])-[a-z]\b)", first))
    return found


def test_readme_options_table_lists_every_option_of_check():
    parser_options = {flag for a in command_table()["check"][1] if not a.positional for flag in a.flags}
    assert _readme_check_options() == parser_options


# ---------------------------------------------------------------- shell completion

def test_completion_scripts_name_every_option():
    table = command_table()
    for shell in ("bash", "zsh", "fish"):
        script = subprocess.run([sys.executable, "-m", "packgate", "completion", shell],
                                capture_output=True, text=True, check=True).stdout
        for name, (_, arguments) in table.items():
            assert name in script
            for a in arguments:
                for flag in a.flags:
                    if not a.positional:
                        spelled = flag if shell != "fish" else (
                            f"-l {flag[2:]}" if flag.startswith("--") else f"-s {flag[1:]}")
                        assert spelled in script, (shell, flag)


def _complete_in_bash(words: list, script: str) -> list:
    driver = (script + "\nCOMP_WORDS=(" + " ".join(f"'{w}'" for w in words) + ")\n"
              f"COMP_CWORD={len(words) - 1}\n_packgate\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n")
    return subprocess.run(["bash", "-c", driver], capture_output=True, text=True, check=True).stdout.split()


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completion_completes_commands_options_and_values():
    from packgate.cli.completion import script_for
    script = script_for("bash", command_table())
    assert subprocess.run(["bash", "-n"], input=script, text=True).returncode == 0
    assert "check" in _complete_in_bash(["packgate", "ch"], script)
    assert _complete_in_bash(["packgate", "check", "--form"], script) == ["--format"]
    assert set(_complete_in_bash(["packgate", "check", "--format", ""], script)) == {
        "text", "json", "sarif", "github", "gitlab", "checkstyle"}
    assert "PG003" in _complete_in_bash(["packgate", "explain", "PG00"], script)
    assert _complete_in_bash(["packgate", "lsp", "--st"], script) == ["--stdio"]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_completion_parse(shell):
    from packgate.cli.completion import script_for
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    check = [shell, "-n"] if shell == "zsh" else [shell, "--no-execute"]
    done = subprocess.run(check, input=script_for(shell, command_table()), text=True, capture_output=True)
    assert done.returncode == 0, done.stderr


def test_fish_completion_completes_values():
    from packgate.cli.completion import script_for
    if shutil.which("fish") is None:
        pytest.skip("fish is not installed")
    script = script_for("fish", command_table())
    asked = 'complete -C "packgate check --format "; complete -C "packgate lsp --st"'
    out = subprocess.run(["fish", "-c", f"{script}\n{asked}"], capture_output=True, text=True, check=True).stdout
    words = {line.split("\t")[0] for line in out.splitlines()}
    assert {"text", "sarif", "gitlab", "checkstyle", "--stdio"} <= words


def test_the_completion_table_is_the_parser():
    """Every option `--help` shows for a subcommand comes from command_table(), which the
    completion scripts are generated from, and the other way round."""
    parser = build_parser()
    for name, (_, arguments) in command_table().items():
        argv = [name] + (["x"] if any(a.positional and a.options.get("nargs") is None for a in arguments) else [])
        if name == "completion":
            argv = [name, "bash"]
        sub = parser.parse_args(argv).subparser
        shown = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", sub.format_help())) - {"-h", "--help"}
        table = {flag for a in arguments if not a.positional for flag in a.flags}
        assert shown == table, name


def test_show_settings_says_where_the_profile_was_set(tree, capsys):
    (tree / ".packgate.toml").write_text('profile = "ov15"\n')
    _, out, _ = run(capsys, "check", "--show-settings", "a.sh")
    assert f"profile: ov15 (set in {tree / '.packgate.toml'})" in out
    (tree / "b.sh").write_text("#!/bin/bash\n# packgate profile=three-gate\n")
    _, out, _ = run(capsys, "check", "--show-settings", "b.sh")
    assert "profile: three-gate (set by a `# packgate profile=` comment in the file)" in out
