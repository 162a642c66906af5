"""textDocument/definition and textDocument/references on a variable (a gate or any other) or a
trainer option."""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Any, Iterator

from lsprotocol import types
from pygls.uris import from_fs_path

import packgate.lsp.convert as convert
import packgate.lsp.workspace as workspace
from packgate.lsp.guard import guarded
from packgate.lsp.session import path_of

if TYPE_CHECKING:
    from packgate.lsp.language_server import PackgateServer


def scan_settings() -> Any:
    """The settings of a references scan: it reads assignments only, so the cheapest rule and a
    fixed profile (no project index)."""
    from packgate.core.settings import Settings
    return Settings(profile="ov2", select=("PG009",))


@guarded()
def definition(ls: PackgateServer, params: types.DefinitionParams) -> list[types.Location] | None:
    """On a gate: the training code's line(s) reading it, and the assignment(s) reaching a launch;
    on another variable or a trainer option, the code that reads or defines it
    (core.navigation.definition gives the precedence)."""
    from packgate.core.navigation import definition as find
    doc, entry = ls.document(params.text_document.uri), ls.entry(params.text_document.uri)
    if doc is None or entry is None:
        return None
    analysis = entry.analysis
    found = find(analysis, convert.to_offset(analysis.source, params.position, ls.client.encoding), ls.python_line)
    return convert.to_locations(found, doc.uri, analysis.source_for, ls.python_line, ls.client.encoding) or None


@guarded()
async def references(ls: PackgateServer, params: types.ReferenceParams) -> list[types.Location] | None:
    """On a variable: every place a shell script of the workspace sets (exports, assigns, unsets) it.

    The declaration is what definition answers in the shell: the assignment reaching a launch.
    """
    from packgate.core import navigation
    doc, entry = ls.document(params.text_document.uri), ls.entry(params.text_document.uri)
    if doc is None or entry is None:
        return None
    here, enc = entry.analysis, ls.client.encoding
    offset = convert.to_offset(here.source, params.position, enc)
    name = navigation.name_at(here, offset)
    if name is None:
        return None
    scripts, _cut = await ls.scripts(doc.uri)
    found: list[types.Location] = []
    for uri, analysis in scripts_setting(ls, doc.uri, here, name, scripts):
        found += convert.to_locations(navigation.assignments(analysis, name), uri, analysis.source_for,
                                      ls.python_line, enc)
        await asyncio.sleep(0)
    if not params.context.include_declaration:
        declared = convert.to_locations([d for d in navigation.definition(here, offset, ls.python_line) if d.line < 0],
                                        doc.uri, here.source_for, ls.python_line, enc)
        found = [loc for loc in found if loc not in declared]
    return convert.unique_locations(found) or None


def scripts_setting(ls: PackgateServer, uri: str, here: Any, name: str, found: list[str]) -> Iterator[tuple[str, Any]]:
    """(uri, analysis) of this document, then of each workspace script (and sourced file) naming the variable."""
    yield uri, here
    this = path_of(uri)
    this = os.path.realpath(this) if this else None
    opened = ls.open_uris()
    root = ls.root_for(this) if this else None
    sourced = [p for p in sorted(here.dependencies) if root and workspace.inside(p, os.path.realpath(root))]
    paths = dict.fromkeys([os.path.realpath(p) for p in found] + sourced)
    for path in paths:
        if path == this:
            continue
        if path in opened:
            entry = ls.entry(opened[path])
            if entry is not None and name in entry.analysis.source.text:
                yield opened[path], entry.analysis
            continue
        text = workspace.read_text(path)
        if text is None or name not in text:
            continue
        # Only the file's own assignments count here: no source following, no project index.
        yield from_fs_path(path) or path, ls.session.analyze_file(text, path, scan_settings(), follow_sources=False)
