"""The worked examples of docs/architecture.md run as written: their code is pasted where the
example says, into a copy of the package, and the example's own test is run against it."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "server" / "packgate"
TESTS = Path(__file__).resolve().parent


def worked_examples() -> dict:
    """Title of each "Worked example" section -> its fenced python blocks, dedented."""
    text = DOC.read_text(encoding="utf-8")
    out = {}
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        title, _, body = section.partition("\n")
        if title.startswith("Worked example"):
            blocks = re.findall(r"^( *)```python\n(.*?)^\1```", body, flags=re.M | re.S)
            out[title] = [textwrap.dedent(code) for _, code in blocks]
    return out


def test_the_doc_has_its_worked_example():
    examples = worked_examples()
    assert "Worked example: adding a command" in examples
    assert len(examples["Worked example: adding a command"]) == 2  # the handler, its test


def _paste_command(commands_py: Path, block: str) -> None:
    """Step 1 as written: the handler next to the others, its name in COMMANDS (the block's
    `COMMANDS = {..., "name": handler, ...}` line names the entries to add)."""
    table = re.search(r"^COMMANDS = \{(.*)\}\s*$", block, flags=re.M)
    assert table, "the example names its handler in the COMMANDS table"
    entries = [e.strip() for e in table.group(1).split(",") if e.strip() not in ("...", "")]
    handler = block[:table.start()].rstrip() + "\n"
    source = commands_py.read_text(encoding="utf-8")
    head = "COMMANDS: dict[str, Handler] = {\n"
    assert source.count(head) == 1
    added = "".join(f"    {e},\n" for e in entries if e not in source)
    commands_py.write_text(source.replace(head, handler + "\n\n" + head + added), encoding="utf-8")


def test_adding_a_command_runs_as_written(tmp_path):
    handler, test = worked_examples()["Worked example: adding a command"]
    copy = tmp_path / "server" / "packgate"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    _paste_command(copy / "core" / "flow" / "commands.py", handler)
    (tmp_path / "example_test.py").write_text(test, encoding="utf-8")
    # step 2's test, with the helpers of tests/core/test_commands.py it uses (gates_seen...)
    run = subprocess.run(
        [sys.executable, "-c",
         "import packgate, test_commands\n"
         f"assert packgate.__file__.startswith({str(copy)!r}), packgate.__file__\n"
         "ns = {k: v for k, v in vars(test_commands).items() if not k.startswith('test_')}\n"
         "exec(compile(open('example_test.py').read(), 'docs/architecture.md', 'exec'), ns)\n"
         "tests = [f for n, f in ns.items() if n.startswith('test_')]\n"
         "for t in tests: t()\n"
         "print('ran', len(tests))\n"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
        env={"PYTHONPATH": f"{tmp_path / 'server'}:{tmp_path}:{TESTS}", "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ran 1"
