"""Findings and fixes as plain data, shared by every renderer (CLI formats, LSP)."""

from __future__ import annotations

from typing import Any

from .records import factory, record


@record(frozen=True)
class Edit:
    """Replace the byte range [start, end) of the document with text."""

    start: int
    end: int
    text: str


@record(frozen=True)
class Fix:
    """A named set of edits; `safe` fixes are applied by `--fix` and fixAll."""

    description: str
    edits: tuple[Edit, ...]
    safe: bool = True
    preferred: bool = False
    kind: str = "fix"  # "fix" or "disable"


@record(frozen=True)
class Related:
    """Another place that explains a finding (the launch, the other gate)."""

    start: int
    end: int
    message: str
    path: str | None = None


@record(frozen=True)
class Finding:
    """One diagnostic: where, which rule, how bad, what to do."""

    code: str
    rule: str
    severity: str
    message: str
    start: int
    end: int
    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0
    fixes: tuple[Fix, ...] = ()
    related: tuple[Related, ...] = ()
    tags: tuple[str, ...] = ()
    doc_url: str = ""
    path: str | None = None
    data: dict[str, Any] = factory(dict, compare=False)

    @property
    def key(self) -> str:
        """A stable id of this finding within its analysis."""
        return f"{self.code}:{self.start}:{self.end}"
