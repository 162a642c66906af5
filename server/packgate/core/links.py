"""Where packgate lives on the web: the one place every rule link is built from.

Rule links (SARIF `helpUri`, the editor's `codeDescription.href`, the hover) always point at the
published page, never at a file of the installed package, which ships no docs/ folder.
`project.urls` in pyproject.toml names the same repository (a test keeps them equal).
"""

from __future__ import annotations

REPOSITORY_URL = "https://github.com/packgate/packgate"
DOCS_BRANCH = "main"


def rule_url(code: str) -> str:
    """The web address of a rule's page (docs/rules/PGxxx.md in the repository)."""
    return f"{REPOSITORY_URL}/blob/{DOCS_BRANCH}/docs/rules/{code}.md"
