"""The worked examples of docs/architecture.md run as written: their code is pasted where the
example says, into a copy of the package, and the example's own test is run against it (an
oracle case, through the oracle's harness, against the same copy)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "server" / "packgate"
TESTS = Path(__file__).resolve().parent
ORACLE = ROOT / "tests" / "oracle"

COMMAND = "Worked example: adding a command"
WRAPPER = "Worked example: adding a wrapper with an environment transform"
RULE = "Worked example: adding a rule"


def worked_sections() -> dict:
    """Title of each "Worked example" section -> its text."""
    text = DOC.read_text(encoding="utf-8")
    out = {}
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        title, _, body = section.partition("\n")
        if title.startswith("Worked example"):
            out[title] = body
    return out


def blocks(body: str, lang: str = "python") -> list:
    """The fenced blocks of one language in a section, dedented."""
    found = re.findall(r"^( *)```(\w+)\n(.*?)^\1```", body, flags=re.M | re.S)
    return [textwrap.dedent(code) for _, kind, code in found if kind == lang]


def worked_examples() -> dict:
    """Title of each "Worked example" section -> its fenced python blocks, dedented."""
    return {title: blocks(body) for title, body in worked_sections().items()}


def test_the_doc_has_its_worked_examples():
    examples = worked_examples()
    assert len(examples[COMMAND]) == 2  # the handler, its test
    assert len(examples[WRAPPER]) == 3  # the syntax, the reader and its row, the test
    assert len(blocks(worked_sections()[WRAPPER], "bash")) == 1  # the oracle case
    assert len(examples[RULE]) == 3  # the rule's file, its line in the registry, its test


def _entries(text: str) -> list:
    """The comma-separated items of a table line, commas inside brackets left alone."""
    out, depth, item = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(item.strip())
            item = ""
            continue
        depth += ch in "([{"
        depth -= ch in ")]}"
        item += ch
    out.append(item.strip())
    return [e for e in out if e not in ("...", "")]


def _paste_rows(module: Path, block: str, table: str) -> None:
    """A step as written: its code next to the others, before `table`, and its rows in the table
    (the block's `TABLE = {..., "name": row, ...}` line names the rows to add)."""
    line = re.search(rf"^{table} = \{{(.*)\}}\s*$", block, flags=re.M)
    assert line, f"the example names its row in {table}"
    code = block[:line.start()].rstrip() + "\n"
    source = module.read_text(encoding="utf-8")
    heads = list(re.finditer(rf"^{table}: [^=\n]+ = \{{\n", source, flags=re.M))
    assert len(heads) == 1, f"{module.name} defines {table} once"
    added = "".join(f"    {e},\n" for e in _entries(line.group(1)) if e not in source)
    assert added, f"the example adds a row to {table}"
    head = heads[0]
    module.write_text(source[:head.start()] + code + "\n\n" + head.group(0) + added + source[head.end():],
                      encoding="utf-8")


def _paste_after(module: Path, block: str, anchor: str) -> None:
    """A step as written: the block after the line of module that starts with anchor."""
    source = module.read_text(encoding="utf-8")
    found = list(re.finditer(rf"^{re.escape(anchor)}.*\n", source, flags=re.M))
    assert len(found) == 1, f"{module.name} has one line starting {anchor!r}"
    at = found[0].end()
    module.write_text(source[:at] + block + source[at:], encoding="utf-8")


def _copy(tmp_path: Path) -> Path:
    """A copy of the package under tmp_path/server; the copy's packgate folder."""
    copy = tmp_path / "server" / "packgate"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _run(tmp_path: Path, code: str, *paths: Path) -> subprocess.CompletedProcess:
    """Python code run in tmp_path with the copy of the package first on the path."""
    path = ":".join(str(p) for p in (tmp_path / "server", tmp_path, *paths))
    return subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env={"PYTHONPATH": path, "PATH": "/usr/bin:/bin"})


def _run_example_test(tmp_path: Path, copy: Path, test: str, helpers: str) -> None:
    """The example's test, with the helpers of the test module it goes into (gates_seen...),
    run against the copy; it must run exactly one test and pass."""
    (tmp_path / "example_test.py").write_text(test, encoding="utf-8")
    run = _run(tmp_path,
               f"import packgate, {helpers}\n"
               f"assert packgate.__file__.startswith({str(copy)!r}), packgate.__file__\n"
               f"ns = {{k: v for k, v in vars({helpers}).items() if not k.startswith('test_')}}\n"
               "exec(compile(open('example_test.py').read(), 'docs/architecture.md', 'exec'), ns)\n"
               "tests = [f for n, f in ns.items() if n.startswith('test_')]\n"
               "for t in tests: t()\n"
               "print('ran', len(tests))\n",
               TESTS)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ran 1"


def test_adding_a_command_runs_as_written(tmp_path):
    handler, test = worked_examples()[COMMAND]
    copy = _copy(tmp_path)
    _paste_rows(copy / "core" / "flow" / "commands.py", handler, "COMMANDS")
    # step 2's test, with the helpers of tests/core/test_commands.py it uses (gates_seen...)
    _run_example_test(tmp_path, copy, test, "test_commands")


def _wrapper_copy(tmp_path: Path) -> tuple:
    """The copy with the wrapper example's steps 1 and 2 pasted; (copy, step 3's test)."""
    syntax, reader, test = worked_examples()[WRAPPER]
    copy = _copy(tmp_path)
    _paste_after(copy / "core" / "gates.py", syntax, "SUDO_RESET_KEEPS = ")  # "below sudo's"
    _paste_rows(copy / "core" / "flow" / "environ.py", reader, "WRAPPERS")
    return copy, test


def test_adding_a_wrapper_runs_as_written(tmp_path):
    copy, test = _wrapper_copy(tmp_path)
    # step 3's test, with the helpers of tests/core/test_wrappers_v3.py it uses (_read, _gates...)
    _run_example_test(tmp_path, copy, test, "test_wrappers_v3")


@pytest.mark.skipif(shutil.which("bash") is None or shutil.which("setpriv") is None,
                    reason="the wrapper example's oracle case runs the real bash and setpriv")
def test_the_wrapper_examples_oracle_case_agrees_with_bash(tmp_path):
    """Step 4: the case, where the section says it goes in a copy of the oracle's folder, run by
    the harness under real bash against the copy of the package with steps 1 and 2 pasted."""
    section = worked_sections()[WRAPPER]
    [case] = blocks(section, "bash")
    [where] = set(re.findall(r"`(tests/oracle/cases/\w+\.sh)`", section))
    copy, _ = _wrapper_copy(tmp_path)
    oracle = tmp_path / "tests" / "oracle"
    shutil.copytree(ORACLE / "oracle_harness", oracle / "oracle_harness",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (oracle / "cases").mkdir()
    (tmp_path / where).write_text(case, encoding="utf-8")
    key = "oracle/" + Path(where).stem
    run = _run(tmp_path,
               "import sys, packgate\n"
               "from pathlib import Path\n"
               "from oracle_harness.cases import own_cases\n"
               "from oracle_harness.runner import check_case\n"
               f"assert packgate.__file__.startswith({str(copy)!r}), packgate.__file__\n"
               f"[case] = [c for c in own_cases() if c.key == {key!r}]\n"
               "runs, disagreements = check_case(case, Path('scratch').resolve())\n"
               "print(len(runs), 'runs')\n"
               "sys.exit('\\n'.join(map(str, disagreements)) or None)\n",
               oracle)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "2 runs"  # the case's two inputs


def _paste_name(registry: Path, block: str) -> None:
    """Step 2 as written: the names the block's `_NAMES = (..., "name")` line adds, at the end of
    the registry's tuple (in code order)."""
    line = re.search(r"^_NAMES = \((.*)\)\s*$", block, flags=re.M)
    assert line, "the example names its module in _NAMES"
    source = registry.read_text(encoding="utf-8")
    table = re.search(r"^_NAMES = \(\n(.*?)^\)\n", source, flags=re.M | re.S)
    assert table, "rules/__init__.py lists the rules in _NAMES"
    added = "".join(f"    {e},\n" for e in _entries(line.group(1)) if e not in table.group(1))
    assert added, "the example adds a name to _NAMES"
    registry.write_text(source[:table.end(1)] + added + source[table.end(1):], encoding="utf-8")


def test_adding_a_rule_runs_as_written(tmp_path):
    """One file and one line in the registry: the example's own test passes against the copy, and
    so does every registry-derived test of tests/core/test_rules.py, the new rule included."""
    section = worked_sections()[RULE]
    module, line, test = worked_examples()[RULE]
    [name] = set(re.findall(r"`core/rules/(pg\d{3}_\w+\.py)`", section))
    copy = _copy(tmp_path)
    rules = copy / "core" / "rules"
    assert not (rules / name).exists(), f"{name} is a rule already: the example needs another code"
    (rules / name).write_text(module, encoding="utf-8")
    _paste_name(rules / "__init__.py", line)
    code = re.search(r'code="(PG\d{3})"', module).group(1)
    _run_example_test(tmp_path, copy, test, "test_rules")
    run = _run(tmp_path,
               "import sys, packgate, pytest\n"
               f"assert packgate.__file__.startswith({str(copy)!r}), packgate.__file__\n"
               "from packgate.core.rules import RULES\n"
               f"assert RULES[-1].code == {code!r}, [r.code for r in RULES]\n"
               f"sys.exit(pytest.main(['-v', '-p', 'no:cacheprovider', {str(TESTS / 'test_rules.py')!r}]))\n",
               TESTS)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert f"test_bad_example_fires[{code}] PASSED" in run.stdout  # the registry's tests saw the rule
