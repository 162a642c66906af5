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


def test_check_command_does_not_load_pygls(tmp_path):
    script = tmp_path / "x.sh"
    script.write_text("export OFFLINE_PACKING_BMR=1\ntorchrun train.py\n")
    code = (
        "import sys\n"
        "from packgate.cli import main\n"
        f"rc = main(['check', {str(script)!r}])\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('pygls', 'lsprotocol')]\n"
        "print('LOADED', bad)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "LOADED []" in out.stdout, out.stdout + out.stderr
