"""The pieces every hover is written with: a heading, code, a two-column table, where an
assignment is, as Markdown or plain text (core/hover.py, core/contract_hover.py)."""

from __future__ import annotations

import os


def heading(text: str, markdown: bool) -> str:
    """A heading line: bold in Markdown."""
    return f"**{text}**" if markdown else text


def code(text: str, markdown: bool) -> str:
    """Inline code: backquoted in Markdown."""
    return f"`{text}`" if markdown else text


def table(header, rows, markdown: bool) -> str:
    """A two-column table in Markdown, `key: value` lines in plain text."""
    if not markdown:
        return "\n".join(f"{k}: {v}" for k, v in rows)
    lines = [f"| {header[0]} | {header[1]} |", "|---|---|"]
    for k, v in rows:
        lines.append(f"| {k} | {v} |")
    return "\n".join(lines)


def site_line(analysis, site, zh: bool) -> str:
    """Where an assignment is: its line here, or its line in the sourced file it lives in."""
    file = getattr(site, "file", None)
    if file:
        line = analysis.source_for(file).line_of(site.start) + 1
        name = os.path.basename(file)
        return f"{name} 第 {line} 行" if zh else f"line {line} of {name}"
    line = analysis.source.line_of(site.start) + 1
    return f"第 {line} 行" if zh else f"line {line}"
