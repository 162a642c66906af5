"""The package as a user installs it: a wheel built by `python -m build`, installed into a clean
venv, with its licence, metadata and rule links; and `import packgate`'s API.

Offline: the build runs without isolation (setuptools and build come from the test extras), the
wheel is installed with --no-index --no-deps, and the clean venv sees the test venv's
dependencies (pygls, tree-sitter, ...) through one .pth line, never packgate itself."""

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LEAK = "#!/bin/bash\nexport OFFLINE_PACKING_BMR='1'\ntorchrun train.py --micro-batch-size 1\n"

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_project_urls_agree_with_the_rule_links():
    from packgate.core.links import REPOSITORY_URL, rule_url
    urls = _pyproject()["project"]["urls"]
    assert urls["Source"] == urls["Homepage"] == REPOSITORY_URL
    assert urls["Documentation"].startswith(REPOSITORY_URL + "/")
    assert rule_url("PG001") == f"{REPOSITORY_URL}/blob/main/docs/rules/PG001.md"
    assert (ROOT / "docs" / "rules" / "PG001.md").is_file()  # the page the link names exists


def test_license_metadata_is_spdx():
    project = _pyproject()["project"]
    assert project["license"] == "Apache-2.0" and project["license-files"] == ["LICENSE"]
    assert not any(c.startswith("License ::") for c in project["classifiers"])  # PEP 639 forbids both
    assert project["keywords"] and project["classifiers"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text


def test_import_packgate_exposes_only_its_api():
    code = ("import json, packgate; public = lambda: sorted(n for n in vars(packgate) if not n.startswith('_')); "
            "print(json.dumps(public())); ns = {}; exec('from packgate import *', ns); "
            "print(json.dumps(sorted(k for k in ns if k != '__builtins__'))); print(json.dumps(dir(packgate))); "
            "print(json.dumps(public()))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    before, star, listed, after = (json.loads(line) for line in out.splitlines())
    import packgate
    assert before == []  # no helper names (typing, annotations): the API loads on first use
    assert star == sorted(packgate.__all__) and listed == sorted(packgate.__all__)
    # loading the API imports packgate.core, which Python binds on its parent: a subpackage
    # attribute, not a name of the API
    assert set(after) - set(packgate.__all__) <= {"core"}
    assert {"lint", "analyze", "Finding", "Settings", "__version__"} <= set(packgate.__all__)
    with pytest.raises(AttributeError):
        packgate.cli_internals  # noqa: B018


def test_make_demo_installs_the_package_alone():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    demo = makefile.split("\ndemo:", 1)[1].split("\n", 1)[0]
    stamp = demo.split()[0].strip("$()")
    recipe = makefile.split(f"$({stamp}):", 1)[1].split("\n\n", 1)[0]
    assert "pip install --quiet -e ." in recipe and "[test]" not in recipe


def test_pre_commit_hooks_include_a_fix_variant():
    hooks = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "- id: packgate\n" in hooks and "- id: packgate-fix\n" in hooks
    assert "entry: packgate check --fix" in hooks
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "packgate-fix" in readme  # the README's examples: tests/cli/test_day_one_cli.py


# ---------------------------------------------------------------- the wheel, installed

def _source_copy(tmp: Path) -> Path:
    src = tmp / "src"
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        (src / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, src / name)
    shutil.copytree(ROOT / "server", src / "server",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc"))
    return src


@pytest.fixture(scope="module", autouse=True)
def _no_working_tree_on_the_path():
    """The clean venv must import the wheel's packgate: a PYTHONPATH naming the working tree (a
    checkout run with PYTHONPATH=server) would put the tree's copy first, in every child process."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("PYTHONPATH", raising=False)
        yield


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(bin folder of a clean venv with the built wheel installed, the dist folder)."""
    pytest.importorskip("build")
    tmp = tmp_path_factory.mktemp("wheel")
    src, dist = _source_copy(tmp), tmp / "dist"
    built = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel",
                            "--outdir", str(dist), str(src)], capture_output=True, text=True)
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    warned = [line for line in (built.stdout + built.stderr).lower().splitlines()
              if "license" in line and ("deprecat" in line or "did not match" in line)]
    assert not warned, warned  # the SPDX string and license-files: no licence warning on install
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    # the test venv's dependencies, after the clean venv's own site-packages (where packgate goes)
    Path(purelib, "test-venv-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    wheel = next(dist.glob("packgate-*.whl"))
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-index", "--no-deps", str(wheel)],
                   check=True, capture_output=True, env={**os.environ, "PIP_NO_INDEX": "1"})
    where = subprocess.run([str(python), "-c", "import packgate; print(packgate.__file__)"],
                           capture_output=True, text=True, check=True, cwd=tmp).stdout.strip()
    assert where.startswith(purelib), where  # the wheel's copy, not the working tree's
    return venv / "bin", dist


def test_wheel_and_sdist_carry_the_license(installed):
    _, dist = installed
    wheel = next(dist.glob("packgate-*.whl"))
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        metadata = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names
    assert "License-Expression: Apache-2.0" in metadata
    assert "Project-URL: Source, https://" in metadata
    with tarfile.open(next(dist.glob("packgate-*.tar.gz"))) as t:
        assert any(n.endswith("/LICENSE") and n.count("/") == 1 for n in t.getnames())


def test_installed_explain_and_sarif_help_work_without_file_links(installed, tmp_path):
    bin_dir, _ = installed
    page = subprocess.run([str(bin_dir / "packgate"), "explain", "PG001"], capture_output=True,
                          text=True, check=True, cwd=tmp_path).stdout
    assert page.startswith("# PG001 `missing-companion`")
    (tmp_path / ".git").mkdir()
    (tmp_path / "leak.sh").write_text(LEAK)
    done = subprocess.run([str(bin_dir / "packgate"), "check", "--format", "sarif", "leak.sh"],
                          capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    run0 = json.loads(done.stdout)["runs"][0]
    for rule in run0["tool"]["driver"]["rules"]:
        assert rule["helpUri"].startswith("https://") and rule["help"]["markdown"].startswith(f"# {rule['id']}")
    del run0["originalUriBaseIds"]  # the one file URI SARIF is meant to hold: the checkout
    assert "file:" not in json.dumps(run0)


def _frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read_frames(stream):
    while True:
        length = None
        while True:
            line = stream.readline()
            if not line:
                return
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        yield json.loads(stream.read(length))


def test_installed_language_server_links_to_the_web(installed, tmp_path):
    """The LSP codeDescription of a finding, from the installed server over stdio."""
    bin_dir, _ = installed
    script = tmp_path / "leak.sh"
    script.write_text(LEAK)
    uri = script.as_uri()
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "shellscript", "version": 1, "text": LEAK}}},
    ]
    server = subprocess.Popen([str(bin_dir / "packgate"), "lsp", "--stdio"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=tmp_path)
    try:
        server.stdin.write(b"".join(_frame(m) for m in messages))
        server.stdin.flush()
        diagnostics = None
        for message in _read_frames(server.stdout):
            if message.get("method") == "textDocument/publishDiagnostics" and message["params"]["uri"] == uri \
                    and message["params"]["diagnostics"]:
                diagnostics = message["params"]["diagnostics"]
                break
            if "id" in message and "method" in message:  # a request of the server: answer it
                server.stdin.write(_frame({"jsonrpc": "2.0", "id": message["id"], "result": None}))
                server.stdin.flush()
        assert diagnostics, "no diagnostics were published"
        href = diagnostics[0]["codeDescription"]["href"]
        assert href.startswith("https://") and href.endswith("/docs/rules/PG001.md")
        server.stdin.write(_frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
                           + _frame({"jsonrpc": "2.0", "method": "exit"}))
        server.stdin.flush()
        server.wait(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
