"""Trusted on a real repository on day one: the command line's rough edges a first run meets
(exclude patterns that match nothing, carets after CJK text and tabs, --show-settings of a
missing file, completion after a comma, `lsp --tcp` errors, the README's pre-commit example,
the VS Code build's Python step)."""

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from packgate.cli.completion import script_for
from packgate.cli.formats import _caret_indent
from packgate.cli.main import main
from packgate.cli.parser import command_table

ROOT = Path(__file__).resolve().parents[2]
LEAK = "#!/bin/bash\nexport OFFLINE_PACKING_BMR='1'\ntorchrun train.py --micro-batch-size 1\n"


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def tree(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    for name in ("a.sh", "vendor/v.sh"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(LEAK, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ---------------------------------------------------------------- exclude patterns that match nothing

@pytest.mark.parametrize("pattern", ["PG009", "pg00", "dead-var"])
def test_an_exclude_pattern_that_is_a_rule_gets_a_did_you_mean(tree, capsys, pattern):
    rc, out, err = run(capsys, "check", "--format", "json", "--exclude", pattern, ".")
    assert f"packgate: --exclude {pattern}: exclude patterns name files and folders, not rules; " \
           f"did you mean --ignore {pattern}?" in err.splitlines()
    assert "matched none" not in err  # one warning for one mistake
    assert rc == 1  # a warning: the findings decide the exit code, as without it
    problems = json.loads(out)["problems"]
    assert [p["level"] for p in problems] == ["warning"] and "--ignore" in problems[0]["message"]


def test_an_exclude_pattern_that_matched_nothing_gets_a_warning(tree, capsys):
    rc, _, err = run(capsys, "check", "--extend-exclude", "vendor,nowhere/*", ".")
    assert err.splitlines() == ["packgate: --extend-exclude nowhere/*: the pattern matched none of the files found"]
    assert rc == 1
    rc, _, err = run(capsys, "check", "--exclude", "vendor", ".")  # it matched: nothing to say
    assert err == "" and rc == 1


# ---------------------------------------------------------------- --show-source columns

def caret_line(capsys, tmp_path, monkeypatch, line: str) -> tuple[str, str]:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "t.sh").write_text(f"#!/bin/bash\n{line}\ntorchrun t.py\n", encoding="utf-8")
    _, out, _ = run(capsys, "check", "--color", "never", "--show-source", "t.sh")
    shown, carets = out.splitlines()[1:3]
    return shown, carets


@pytest.mark.parametrize("prefix, cells", [
    ('X="中文"; ', 10),  # two wide characters: four columns for two code points
    ('X="ｆｕｌｌ"; ', 14),  # fullwidth Latin
    ('X="🚀"; ', 8),  # an emoji is wide too
    ('X="e\u0301"; ', 7),  # a combining accent takes no column
])
def test_the_caret_sits_under_the_flagged_text_after_wide_characters(tmp_path, capsys, monkeypatch, prefix, cells):
    shown, carets = caret_line(capsys, tmp_path, monkeypatch, prefix + "export OFFLINE_PACKING_BMR=1")
    assert shown == f" 2 | {prefix}export OFFLINE_PACKING_BMR=1"
    assert carets == "   | " + " " * (cells + len("export ")) + "^" * 19


def test_a_tab_stays_a_tab_in_the_caret_indentation_after_cjk(tmp_path, capsys, monkeypatch):
    shown, carets = caret_line(capsys, tmp_path, monkeypatch, 'X="中"\texport OFFLINE_PACKING_BMR=1')
    # `X="中"` is six cells; the tab then goes to the same tab stop in both lines, whatever the
    # terminal's tab width, and `export ` is seven more
    assert shown == ' 2 | X="中"\texport OFFLINE_PACKING_BMR=1'
    assert carets == "   | " + " " * 6 + "\t" + " " * 7 + "^" * 19


def test_caret_columns_are_terminal_cells():
    pad, cells = _caret_indent("中\tx🚀y", 4)
    assert pad == "  \t " + "  "
    assert cells == [0, 2, 8, 9, 11, 12]


# ---------------------------------------------------------------- --show-settings of a missing file

def test_show_settings_of_a_file_that_does_not_exist_is_an_error(tree, capsys):
    rc, out, err = run(capsys, "check", "--show-settings", "nope.sh")
    assert rc == 2 and out == ""
    assert err == "packgate: nope.sh: cannot read: No such file or directory\n"
    rc, out, _ = run(capsys, "check", "--show-settings", "a.sh")
    assert rc == 0 and out.startswith("file: a.sh\n")


# ---------------------------------------------------------------- completion after a comma

def bash_complete(tmp_path, *words: str) -> list:
    script = tmp_path / "packgate.bash"
    script.write_text(script_for("bash", command_table()))
    words_literal = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    program = (f"source {script}\nCOMP_WORDS=({words_literal})\nCOMP_CWORD={len(words) - 1}\n"
               "COMP_LINE=\"${COMP_WORDS[*]}\"\n_packgate\nprintf '%s\\n' \"${COMPREPLY[@]}\"\n"
               "complete -p packgate >&2\n")
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", program], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert "-F _packgate packgate" in done.stderr
    return [w for w in done.stdout.splitlines() if w]


@pytest.mark.skipif(shutil.which("bash") is None, reason="bash is not installed")
def test_bash_completes_the_item_after_a_comma_keeping_those_before(tmp_path):
    assert bash_complete(tmp_path, "packgate", "check", "--select", "PG001,dead") == ["PG001,dead-var"]
    assert bash_complete(tmp_path, "packgate", "check", "--ignore", "PG001,dead-var,not") == \
        ["PG001,dead-var,not-exported"]
    assert bash_complete(tmp_path, "packgate", "check", "--select", "dead") == ["dead-var"]
    assert "PG001,PG002" in bash_complete(tmp_path, "packgate", "check", "--select", "PG001,PG")
    assert bash_complete(tmp_path, "packgate", "check", "--format", "js") == ["json"]


def test_zsh_completes_a_rule_list_item_by_item():
    script = script_for("zsh", command_table())
    select = next(line for line in script.splitlines() if "'--select[" in line)
    assert ":_values -s , " in select and " dead-var " in select
    assert ":(json" not in select
    if shutil.which("zsh"):
        done = subprocess.run(["zsh", "-n", "-c", script], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr


def test_fish_completes_a_rule_list_after_what_the_token_holds():
    script = script_for("fish", command_table())
    assert "function __packgate_list" in script
    assert "string replace -r -- '[^,]*$' '' \"$token\"" in script
    select = next(line for line in script.splitlines() if " -l select " in line)
    assert "-a '(__packgate_list PG001 " in select
    if shutil.which("fish"):
        done = subprocess.run(["fish", "--no-execute", "-c", script], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr


# ---------------------------------------------------------------- lsp --tcp errors

def lsp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "packgate", "lsp", *args], capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("port", ["99999", "-1", "0", "http"])
def test_a_bad_port_is_one_line_and_exit_2(port):
    done = lsp("--tcp", "--port", port)
    assert done.returncode == 2
    assert done.stderr == f"packgate lsp: error: argument --port: {port!r} is not a TCP port (1-65535)\n"


def test_a_port_in_use_is_one_line_and_exit_2():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = lsp("--tcp", "--port", str(port))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"packgate lsp: cannot listen on 127.0.0.1:{port}: ")
    assert done.stderr.count("\n") == 1


def test_an_unknown_host_is_one_line_and_exit_2():
    done = lsp("--tcp", "--host", "no-such-host.invalid", "--port", "2087")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("packgate lsp: cannot listen on no-such-host.invalid:2087: ")
    assert done.stderr.count("\n") == 1


@pytest.mark.parametrize("args, message", [
    (["--port", "3000"], "--port needs --tcp"),
    (["--host", "0.0.0.0"], "--host needs --tcp"),
    (["--stdio", "--host", "h", "--port", "1"], "--host and --port need --tcp"),
])
def test_host_or_port_without_tcp_is_a_usage_error(args, message, capsys):
    assert main(["lsp", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"packgate lsp: error: {message}\n"


# ---------------------------------------------------------------- the README's pre-commit example

def yaml_items(text: str) -> dict:
    """The simple YAML pre-commit uses, as a dict (a top-level list under the key None):
    block mappings, block lists of mappings, scalars and flow lists of scalars."""
    root: dict = {}
    stack: list = [[-1, root, None]]  # [content indent, mapping, the key a nested list belongs to]
    for raw in text.splitlines():
        line = "" if raw.lstrip().startswith("#") else re.sub(r"\s+#.*$", "", raw)
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        body = line.strip()
        if body.startswith("- "):
            body, indent = body[2:], indent + 2
            while stack[-1][0] >= indent:
                stack.pop()
            mapping: dict = {}
            stack[-1][1].setdefault(stack[-1][2], []).append(mapping)
            stack.append([indent, mapping, None])
        while stack[-1][0] > indent:
            stack.pop()
        key, _, value = body.partition(":")
        value = value.strip()
        mapping = stack[-1][1]
        if value.startswith("[") and value.endswith("]"):
            mapping[key] = [v.strip() for v in value[1:-1].split(",") if v.strip()]
        elif value:
            mapping[key] = value
        else:
            stack[-1][2] = key  # a nested list follows
    return root


def readme_pre_commit_blocks() -> list:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", readme, re.S)
    return [yaml_items(b)["repos"] for b in blocks if b.startswith("repos:")]


def test_the_readme_pre_commit_examples_match_the_hooks_file(tmp_path):
    hooks = {h["id"]: h for h in yaml_items((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))[None]}
    assert set(hooks) == {"packgate", "packgate-fix"}
    blocks = readme_pre_commit_blocks()
    repos = [repo for block in blocks for repo in block]
    assert {r["repo"] for r in repos} >= {"local"} and len(repos) == 2
    tags = subprocess.run(["git", "tag"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    for repo in repos:
        for hook in repo["hooks"]:
            assert hook["id"] in hooks, hook
        if repo["repo"] == "local":
            assert "rev" not in repo
            for hook in repo["hooks"]:
                want = hooks[hook["id"]]
                assert hook["entry"] == want["entry"] and hook["types"] == want["types"]
                assert hook["language"] == "system" and hook["name"] == want["name"]
        else:  # a rev that exists: a tag of this repository, or a commit the user names
            rev = repo["rev"]
            assert rev in tags or re.fullmatch(r"[0-9a-f]{40}", rev) or rev == "<commit sha>", rev


def test_the_readme_local_hook_runs_as_written(tmp_path):
    (hook,) = next(repo for block in readme_pre_commit_blocks() for repo in block if repo["repo"] == "local")["hooks"]
    (tmp_path / "stage2.sh").write_text(LEAK)
    env = dict(os.environ, PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    if shutil.which("packgate", path=env["PATH"]) is None:
        pytest.skip("the packgate console script is not installed beside this Python")
    done = subprocess.run([*hook["entry"].split(), "stage2.sh"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1 and "PG001" in done.stdout, done.stderr


# ---------------------------------------------------------------- the VS Code build's Python step

def test_the_bundle_script_reads_markers_without_packaging(tmp_path):
    """The venv `make demo` makes has pip but not `packaging`: bundle_server.py must still read
    requirement markers. Offline: only the marker step runs here (the full `npm run package`
    downloads wheels from PyPI)."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    import pip
    pip_only = tmp_path / "pip-only"  # pip alone, as a fresh venv has it (its vendored copy included)
    pip_only.mkdir()
    os.symlink(Path(pip.__file__).parent, pip_only / "pip")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONPATH"] = str(pip_only)
    lacks = subprocess.run([str(python), "-c", "import packaging"], env=env, capture_output=True, text=True)
    assert lacks.returncode != 0, "the test's interpreter must not have packaging"
    libs = tmp_path / "libs"
    (libs / "demo-1.0.dist-info").mkdir(parents=True)
    (libs / "demo-1.0.dist-info" / "METADATA").write_text(textwrap.dedent("""\
        Metadata-Version: 2.1
        Name: demo
        Requires-Dist: tomli>=1.1; python_version < "3.11"
        Requires-Dist: exceptiongroup; python_version < "3.11"
        Requires-Dist: typing-extensions>=4; python_version >= "3.13"
        Requires-Dist: attrs
        """))
    (libs / "exceptiongroup-1.2.dist-info").mkdir()
    program = ("import sys; sys.path.insert(0, sys.argv[1]); import bundle_server, pathlib; "
               "print(bundle_server.marked_requirements(pathlib.Path(sys.argv[2]), '3.10'))")
    done = subprocess.run([str(python), "-c", program, str(ROOT / "vscode-client" / "scripts"), str(libs)],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['tomli>=1.1']"


def test_a_configured_exclude_is_relative_to_its_configuration_file(tmp_path, monkeypatch):
    """`exclude = ["vendor/*"]` in a project's .packgate.toml skips the project's vendor/ wherever
    check runs from (as ruff reads it, and as the server's workspace pass does); a pattern given
    on the command line stays relative to the working folder."""
    project = tmp_path / "project"
    (project / "vendor").mkdir(parents=True)
    (project / ".packgate.toml").write_text('exclude = ["vendor/*"]\n', encoding="utf-8")
    (project / "vendor" / "bad.sh").write_text(
        "#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\ntorchrun train.py\n", encoding="utf-8")
    (project / "ok.sh").write_text("#!/bin/bash\necho hi\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # above the project: the path as given is project/vendor/bad.sh
    assert main(["check", "--format", "json", "project"]) == 0
    monkeypatch.chdir(project / "vendor")
    assert main(["check", "--format", "json", ".."]) == 0
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--format", "json", "--exclude", "project/vendor/*", "project"]) == 0
    assert main(["check", "--format", "json", "--exclude", "vendor/*", "project"]) == 1  # cwd-relative
