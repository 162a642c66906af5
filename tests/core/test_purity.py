"""The core never imports protocol libraries; `packgate check` never loads them."""

import ast
import subprocess
import sys
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "server" / "packgate" / "core"


def test_core_sources_do_not_import_pygls_or_lsprotocol():
    offenders = []
    for path in CORE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for n in names:
                if n.split(".")[0] in ("pygls", "lsprotocol"):
                    offenders.append(f"{path.name}: {n}")
    assert offenders == []


def _loaded_by_check(tmp_path, wanted: str) -> subprocess.CompletedProcess:
    """Run `packgate check` on a small script in a fresh interpreter; it prints
    `LOADED [...]`, the modules it loaded that the expression `wanted(m)` picks."""
    script = tmp_path / "x.sh"
    script.write_text("export OFFLINE_PACKING_BMR=1\ntorchrun train.py\n")
    code = (
        "import sys\n"
        "from packgate.cli.main import main\n"
        f"rc = main(['check', {str(script)!r}])\n"
        f"print('LOADED', sorted(m for m in sys.modules if {wanted}))\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_check_command_does_not_load_pygls(tmp_path):
    out = _loaded_by_check(tmp_path, "m.split('.')[0] in ('pygls', 'lsprotocol')")
    assert "LOADED []" in out.stdout, out.stdout + out.stderr


def test_check_command_starts_light(tmp_path):
    """`packgate check one.sh` races ShellCheck's start-up: it loads no JSON, diff,
    dataclasses (and with them inspect) or importlib.resources machinery (tree-sitter-bash's
    grammar is loaded without its package __init__), no pathlib (with urllib.parse) or shutil
    (with the compression modules; argparse asks it for the terminal's width), no argparse
    (with gettext and locale: `check PATH...` without an option is read without it), no typing
    (the flow's named tuples are records.tuple_record's; annotations are strings, their imports
    under TYPE_CHECKING; tree-sitter's `_binding` is loaded without the package's __init__,
    which imports typing), nor pygls and lsprotocol."""
    heavy = ("json", "difflib", "dataclasses", "inspect", "importlib.resources", "tempfile", "tree_sitter_bash",
             "pathlib", "urllib.parse", "shutil", "string", "argparse", "gettext", "locale", "typing", "tree_sitter")
    out = _loaded_by_check(tmp_path, f"m in {heavy!r} or m.split('.')[0] in ('pygls', 'lsprotocol')")
    assert "LOADED []" in out.stdout, out.stdout + out.stderr


def test_check_command_does_not_load_the_language_server_package(tmp_path):
    """`check` imports nothing of packgate.lsp, not even its package."""
    out = _loaded_by_check(tmp_path, "m == 'packgate.lsp' or m.startswith('packgate.lsp.')")
    assert "LOADED []" in out.stdout, out.stdout + out.stderr


def test_bash_grammar_falls_back_to_the_package(monkeypatch):
    import importlib.machinery

    from packgate.core import parse

    def refuse(*args, **kwargs):
        raise ImportError("another layout")

    monkeypatch.setattr(importlib.machinery, "ExtensionFileLoader", refuse)
    grammar = parse.grammar._bash_grammar()  # the fast way fails: through tree_sitter_bash's own __init__
    import tree_sitter
    tree = tree_sitter.Parser(tree_sitter.Language(grammar)).parse(b"export A=1\n")
    assert tree.root_node.type == "program" and not tree.root_node.has_error


def test_check_command_compiles_no_source(tmp_path):
    """Nothing on `check`'s way calls compile(): a NamedTuple whose field types are strings
    (`from __future__ import annotations`) has typing compile each one, and the first compile
    makes CPython build its ~120 AST classes (a twentieth of a cold start)."""
    script = tmp_path / "x.sh"
    script.write_text("export OFFLINE_PACKING_BMR=1\ntorchrun train.py\n")
    code = (
        "import builtins, traceback\n"
        "calls = []\n"
        "real = builtins.compile\n"
        "def compile(*args, **kwargs):\n"
        "    caller = traceback.extract_stack(limit=2)[0]\n"
        "    if not caller.filename.startswith('<frozen importlib'):  # a module without its .pyc\n"
        "        calls.append(f'{caller.filename}:{caller.lineno}')\n"
        "    return real(*args, **kwargs)\n"
        "builtins.compile = compile\n"
        "from packgate.cli.main import main\n"
        f"main(['check', {str(script)!r}])\n"
        "print('COMPILED', calls)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "COMPILED []" in out.stdout, out.stdout + out.stderr


def test_the_language_server_leaves_parse_trees_to_the_core():
    """lsp/ never imports tree_sitter: the editor's changes reach the tree through
    core/parse/edit.py, which edits it, re-parses and takes the untouched statements over."""
    offenders = []
    for path in (CORE.parent / "lsp").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in ("tree_sitter", "tree_sitter_bash")]
    assert offenders == []
