"""Rule documentation pages, generated from the rule modules (docs/rules/ is their checked-in copy)."""

from __future__ import annotations

from .findings import Applicability
from .rules import RULES, Rule

_H = {
    "en": ("Problem", "Example that is reported", "Correct code", "Rationale", "Exceptions",
           "Default severity", "Fixes", "Disable with", "The training code the examples are checked against"),
    "zh": ("问题", "会被报告的写法", "正确写法", "原因", "例外", "默认级别", "自动修复", "禁用方式",
           "示例所依据的训练代码"),
}

# whether `--fix` applies a fix (safe) or only the editor offers it (one choice among others);
# a fix that follows the profile's gate roles waits for --unsafe-fixes where `auto` assumed it
_SAFETY = {
    "en": {Applicability.SAFE: "`--fix` applies it",
           Applicability.UNSAFE: "`--unsafe-fixes` applies it",
           Applicability.DISPLAY_ONLY: "offered in the editor; `--fix` leaves it"},
    "zh": {Applicability.SAFE: "`--fix` 会自动应用",
           Applicability.UNSAFE: "`--unsafe-fixes` 才会应用",
           Applicability.DISPLAY_ONLY: "只在编辑器中提供，`--fix` 不会应用"},
}
_ASSUMED = {
    "en": "; when `auto` only assumed the profile, having found no training code, `--unsafe-fixes` does instead",
    "zh": "；若 `auto` 没有找到训练代码、只是假定了配置，则需 `--unsafe-fixes` 才会应用",
}


def rule_page(rule: Rule, lang: str = "both") -> str:
    """The Markdown page of one rule in en, zh or both."""
    langs = ("en", "zh") if lang == "both" else (lang,)
    out = [f"# {rule.code} `{rule.name}`", ""]
    for lg in langs:
        h = _H[lg]
        zh = lg == "zh"
        if lang == "both":
            out.append("## 中文" if zh else "## English")
            out.append("")
        out.append(f"**{rule.summary_zh if zh else rule.summary_en}**")
        out.append("")
        out.append(f"{h[5]}: `{rule.severity}`")
        out.append("")
        out.append(f"### {h[0]}")
        out.append("")
        out.append(rule.problem_zh if zh else rule.problem_en)
        out.append("")
        out.append(f"### {h[1]}")
        out.append("")
        out.append("```bash")
        out.append(rule.bad.rstrip("\n"))
        out.append("```")
        out.append("")
        out.append(f"### {h[2]}")
        out.append("")
        out.append("```bash")
        out.append(rule.good.rstrip("\n"))
        out.append("```")
        out.append("")
        if rule.workspace:
            out.append(f"### {h[8]}")
            out.append("")
            for name, text in rule.workspace:
                out.extend((f"`{name}`:", "", "```python", text.rstrip("\n"), "```", ""))
        out.append(f"### {h[3]}")
        out.append("")
        out.append(rule.rationale_zh if zh else rule.rationale_en)
        out.append("")
        out.append(f"### {h[4]}")
        out.append("")
        out.append(rule.exceptions_zh if zh else rule.exceptions_en)
        out.append("")
        if rule.exceptions_table is not None:
            out.append(rule.exceptions_table(lg))
            out.append("")
        if rule.fixes:
            out.append(f"### {h[6]}")
            out.append("")
            for fix in rule.fixes.values():
                safety = _SAFETY[lg][fix.applicability]
                if fix.profile_bound and fix.applicability is Applicability.SAFE:
                    safety += _ASSUMED[lg]
                out.append(f"- {fix.doc_zh}（{safety}）" if zh else f"- {fix.doc_en} ({safety})")
            out.append("")
        out.append(f"### {h[7]}")
        out.append("")
        out.append(f"`# packgate disable={rule.code}` / `# packgate disable={rule.name}`")
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def index_page() -> str:
    """docs/rules/README.md: the rule index."""
    out = ["# packgate rules / 规则", "",
           "Generated from the rule modules in `server/packgate/core/rules/` by `make docs`; a test keeps it current.",
           "", "| code | name | severity | summary | 说明 |", "|---|---|---|---|---|"]
    for r in RULES:
        out.append(f"| [{r.code}]({r.code}.md) | `{r.name}` | {r.severity} | {r.summary_en} | {r.summary_zh} |")
    return "\n".join(out) + "\n"


def all_pages() -> dict:
    """file name -> content of every generated page."""
    pages = {f"{r.code}.md": rule_page(r) for r in RULES}
    pages["README.md"] = index_page()
    return pages
