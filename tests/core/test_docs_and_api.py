"""Docs are generated from the rule table and kept current; the public API works as documented."""

from pathlib import Path

import packgate
from packgate.core.docs import all_pages
from packgate.core.rules import RULES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


def test_docs_rules_are_current():
    pages = all_pages()
    for name, text in pages.items():
        assert (DOCS / name).read_text(encoding="utf-8") == text, f"run `make docs`: {name} is stale"
    assert sorted(p.name for p in DOCS.glob("*.md")) == sorted(pages)


def test_every_page_has_problem_correct_code_rationale_exceptions_in_both_languages():
    for rule in RULES:
        page = all_pages()[f"{rule.code}.md"]
        for heading in ("### Problem", "### Correct code", "### Rationale", "### Exceptions",
                        "### 问题", "### 正确写法", "### 原因", "### 例外"):
            assert heading in page, (rule.code, heading)


def test_public_lint_api(tmp_path):
    text = "export OFFLINE_PACKING_BMR=1\ntorchrun train.py\n"
    findings = packgate.lint(text)
    assert [f.code for f in findings] == ["PG001"]
    assert findings[0].line == 1 and findings[0].column == 8
    assert "泄漏" in packgate.lint(text, lang="zh")[0].message
    assert packgate.lint(text, profile="ov15") == [] or all(f.code != "PG001" for f in packgate.lint(text, profile="ov15"))


def test_lint_reads_config_near_path(tmp_path):
    (tmp_path / ".packgate.toml").write_text('ignore = ["missing-companion"]\n')
    text = "export OFFLINE_PACKING_BMR=1\ntorchrun train.py\n"
    assert packgate.lint(text, path=str(tmp_path / "x.sh")) == []


def test_readme_rule_index_lists_every_rule():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    for rule in RULES:
        assert f"{rule.code}" in readme and f"`{rule.name}`" in readme


def test_rule_pages_show_concrete_fixes_not_templates(capsys):
    """Was a bug: the fixes section printed templates with their braces stripped."""
    from packgate.cli.main import main
    from packgate.core.rules.rule import placeholders
    assert main(["explain", "PG001", "--lang", "both"]) == 0
    out = capsys.readouterr().out
    for stale in ("Export off=value after on", "Set off to value", "在 on 之后导出 off=value"):
        assert stale not in out
    assert "`export OFFLINE_PACKED_DATA='1'` after `export OFFLINE_PACKING_BMR='1'`" in out
    for rule in RULES:
        page = all_pages()[f"{rule.code}.md"]
        for fix in rule.fixes.values():
            assert fix.doc_en in page and fix.doc_zh in page
            for template in (fix.en, fix.zh):
                bare = template.replace("{", "").replace("}", "")
                assert not placeholders(template) or bare not in page, (rule.code, bare)
    for code, stale in (("PG002", "Remove the name assignment"), ("PG004", "Export name"),
                        ("PG005", "Set name to value")):
        assert stale not in all_pages()[f"{code}.md"]


def test_the_docs_name_no_range_of_rules():
    """Issue 18: the client READMEs said PG001-PG008 when there were nine rules; a range went
    stale with every new rule, so the docs say `packgate rules` instead and name none."""
    import re
    from pathlib import Path
    from packgate.core.rules import RULES
    root = Path(__file__).resolve().parents[2]
    last = RULES[-1].code  # what a range would have to end at
    docs = [root / "README.md", root / "vscode-client" / "README.md", root / "nvim-client" / "README.md",
            root / "nvim-client" / "doc" / "packgate.txt", root / "docs" / "rules" / "README.md"]
    ranges = [(doc.name, m.group(1)) for doc in docs if doc.is_file()
              for m in re.finditer(r"PG001\s*[-–]\s*(PG\d{3})", doc.read_text(encoding="utf-8"))]
    assert not ranges, (ranges, last)
