"""Every conversion between packgate's core data and lsprotocol types, in one place.

Index bases, each converted here and nowhere else:

- packgate.core offsets are 0-based byte offsets into the UTF-8 bytes of the document
  (``Source.data``, what tree-sitter reports).
- LSP positions are 0-based lines and 0-based characters counted in the negotiated position
  encoding: UTF-8 bytes (Neovim 0.11), UTF-16 code units (VS Code, the LSP default) or UTF-32
  code points. Lines break at ``\\n``, ``\\r\\n`` and a lone ``\\r`` only, as LSP says; pygls'
  ``document.lines`` (``str.splitlines``) also breaks at form feed and U+2028, so it is never
  used for row arithmetic: ``Source.position`` / ``Source.offset`` are.
- ``Finding.line``/``column`` (1-based code points) are the CLI's view and are not used here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence

import attrs
import cattrs
from cattrs.gen import make_dict_unstructure_fn, override
from lsprotocol import types
from pygls.capabilities import get_capability
from pygls.protocol import default_converter
from pygls.uris import from_fs_path

from packgate.core.text import Source
from packgate.lsp.diagnostic_json import ReadyJSON, fix_json

SOURCE = "packgate"
FIX_ALL_KIND = "source.fixAll.packgate"

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}
_TAGS = {"unnecessary": types.DiagnosticTag.Unnecessary, "deprecated": types.DiagnosticTag.Deprecated}


def pulls(caps: types.ClientCapabilities | None) -> bool:
    """Whether the server offers this client pull diagnostics: it must declare them and
    `workspace/diagnostic/refresh`, since a script's findings also change when a file it sources
    or the settings change. Other clients are pushed to."""
    caps = caps or types.ClientCapabilities()
    return get_capability(caps, "text_document.diagnostic", None) is not None and \
        bool(get_capability(caps, "workspace.diagnostics.refresh_support", False))


@dataclass(frozen=True)
class ClientFeatures:
    """What the connected client can do, read once from its capabilities."""

    encoding: str = "utf-16"
    pull_diagnostics: bool = False
    diagnostic_refresh: bool = False
    markdown: bool = False
    related_information: bool = False
    document_changes: bool = False
    create_files: bool = False  # workspaceEdit.resourceOperations has "create"
    configuration: bool = False
    watch_files: bool = False
    inlay_hint_refresh: bool = False
    work_done_progress: bool = False
    completion_markdown: bool = False

    @classmethod
    def from_capabilities(cls, caps: types.ClientCapabilities | None,
                          encoding: str | None) -> "ClientFeatures":
        """Read the capabilities that change what the server sends."""
        caps = caps or types.ClientCapabilities()
        formats = get_capability(caps, "text_document.hover.content_format", None) or []
        return cls(
            encoding=encoding_name(encoding),
            pull_diagnostics=pulls(caps),
            diagnostic_refresh=bool(get_capability(caps, "workspace.diagnostics.refresh_support", False)),
            markdown=types.MarkupKind.Markdown in formats,
            related_information=bool(
                get_capability(caps, "text_document.publish_diagnostics.related_information", False)),
            document_changes=bool(get_capability(caps, "workspace.workspace_edit.document_changes", False)),
            create_files=types.ResourceOperationKind.Create in (
                get_capability(caps, "workspace.workspace_edit.resource_operations", None) or []),
            configuration=bool(get_capability(caps, "workspace.configuration", False)),
            watch_files=bool(get_capability(caps, "workspace.did_change_watched_files.dynamic_registration", False)),
            inlay_hint_refresh=bool(get_capability(caps, "workspace.inlay_hint.refresh_support", False)),
            work_done_progress=bool(get_capability(caps, "window.work_done_progress", False)),
            completion_markdown=types.MarkupKind.Markdown in (get_capability(
                caps, "text_document.completion.completion_item.documentation_format", None) or []),
        )


def encoding_name(kind: Any) -> str:
    """The negotiated PositionEncodingKind as the core's encoding name."""
    value = getattr(kind, "value", kind)
    return value if value in ("utf-8", "utf-16", "utf-32") else "utf-16"


# -- positions ---------------------------------------------------------------------------


def to_position(source: Source, offset: int, encoding: str) -> types.Position:
    """Byte offset -> LSP position in the negotiated encoding."""
    line, character = source.position(offset, encoding)
    return types.Position(line=line, character=character)


def to_range(source: Source, start: int, end: int, encoding: str) -> types.Range:
    """Byte range -> LSP range."""
    return types.Range(start=to_position(source, start, encoding), end=to_position(source, end, encoding))


def to_offset(source: Source, position: types.Position, encoding: str) -> int:
    """LSP position -> byte offset, clamped into the document (past the end is the end)."""
    return source.offset(position.line, position.character, encoding)


def change_offsets(source: Source, change: types.TextDocumentContentChangeEvent,
                   encoding: str) -> tuple[int | None, int | None]:
    """The byte range a didChange content change replaces ((None, None): the whole document)."""
    if not isinstance(change, types.TextDocumentContentChangePartial):
        return None, None
    start = to_offset(source, change.range.start, encoding)
    return start, max(start, to_offset(source, change.range.end, encoding))


def range_overlaps(a: types.Range, b: types.Range) -> bool:
    """Whether two ranges touch or overlap (a cursor at a range edge counts)."""
    return not (_key(a.end) < _key(b.start) or _key(b.end) < _key(a.start))


def _key(p: types.Position) -> tuple[int, int]:
    return p.line, p.character


# -- diagnostics -------------------------------------------------------------------------


def to_diagnostics(findings: Iterable[Any], source: Source, uri: str, version: int | None,
                   client: ClientFeatures,
                   other_source: Callable[[str], Source | None] = lambda path: None) -> list[types.Diagnostic]:
    """Findings -> LSP diagnostics, each carrying its fixes as ready-made edits in `data`."""
    return [to_diagnostic(f, source, uri, version, client, other_source) for f in findings]


def note_diagnostic(note: str) -> types.Diagnostic:
    """A document packgate did not analyse (too large): one diagnostic on its first line."""
    return types.Diagnostic(
        range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
        message=f"packgate: {note}; nothing in this file was checked",
        severity=types.DiagnosticSeverity.Information,
        source="packgate",
    )


def notice_diagnostics(notices: Iterable[Any], source: Source, version: int | None,
                       client: ClientFeatures) -> list[types.Diagnostic]:
    """Warnings about the file itself (core.notices: a directive that is not one, CRLF line
    ends) -> warning diagnostics without a code, as `packgate check` reports them as problems.
    `data.notice` names the kind (a "crlf" one gets the "convert to LF" action: code_actions)."""
    return [types.Diagnostic(
        range=to_range(source, n.start, n.end, client.encoding),
        message=n.message,
        severity=types.DiagnosticSeverity.Warning,
        source=SOURCE,
        data={"key": f"{n.kind.value}:{n.start}:{n.end}", "notice": n.kind.value, "version": version, "fixes": []},
    ) for n in notices]


_TO_LF_TITLE = {"en": "Convert the file to LF line ends", "zh": "把文件转换为 LF 换行"}


def to_lf_action(edits: Sequence[Any], source: Source, uri: str, version: int | None,
                 client: ClientFeatures, lang: str = "en",
                 diagnostic: types.Diagnostic | None = None) -> types.CodeAction:
    """The quick fix of the CRLF warning: every \\r of a CRLF removed (core.notices.crlf_edits),
    built when asked for, not carried in each diagnostic's data (one edit per line)."""
    text_edits = [types.TextEdit(range=to_range(source, e.start, e.end, client.encoding), new_text=e.text)
                  for e in edits]
    title = _TO_LF_TITLE.get(lang) or " / ".join(_TO_LF_TITLE.values())
    return types.CodeAction(title=title, kind=types.CodeActionKind.QuickFix,
                            diagnostics=[diagnostic] if diagnostic is not None else None,
                            edit=workspace_edit(uri, version, text_edits, client))


def to_diagnostic(finding: Any, source: Source, uri: str, version: int | None,
                  client: ClientFeatures,
                  other_source: Callable[[str], Source | None] = lambda path: None) -> types.Diagnostic:
    """One finding -> one LSP diagnostic."""
    enc = client.encoding
    related = None
    if client.related_information and finding.related:
        related = [r for r in (_related(item, source, uri, enc, other_source) for item in finding.related) if r]
    tags = [_TAGS[t] for t in finding.tags if t in _TAGS] or None
    return types.Diagnostic(
        range=to_range(source, finding.start, finding.end, enc),
        message=finding.message,
        severity=_SEVERITY.get(finding.severity, types.DiagnosticSeverity.Warning),
        code=finding.code,
        code_description=types.CodeDescription(href=finding.doc_url) if finding.doc_url else None,
        source=SOURCE,
        tags=tags,
        related_information=related or None,
        data={
            "key": finding.key,
            "rule": finding.rule,
            "version": version,
            "fixes": [d for d in (fix_json(fix, source, enc) for fix in finding.fixes) if d is not None],
        },
    )


def _related(item: Any, source: Source, uri: str, enc: str,
             other_source: Callable[[str], Source | None]) -> types.DiagnosticRelatedInformation | None:
    target, target_uri = source, uri
    if item.path is not None:
        target = other_source(item.path)
        target_uri = from_fs_path(item.path) or item.path
        if target is None:
            return None
    location = types.Location(uri=target_uri, range=to_range(target, item.start, item.end, enc))
    return types.DiagnosticRelatedInformation(location=location, message=item.message)


def _range_from_json(raw: Mapping[str, Any]) -> types.Range:
    s, e = raw["start"], raw["end"]
    return types.Range(start=types.Position(line=int(s["line"]), character=int(s["character"])),
                       end=types.Position(line=int(e["line"]), character=int(e["character"])))


def publish_params(uri: str, version: int | None, diagnostics: Sequence[types.Diagnostic]) -> types.PublishDiagnosticsParams:
    """The push notification's params."""
    return types.PublishDiagnosticsParams(uri=uri, diagnostics=list(diagnostics), version=version)


def full_report(diagnostics: Sequence[types.Diagnostic], result_id: str | None) -> types.RelatedFullDocumentDiagnosticReport:
    """A pulled report with every diagnostic."""
    return types.RelatedFullDocumentDiagnosticReport(items=list(diagnostics), result_id=result_id)


def unchanged_report(result_id: str) -> types.RelatedUnchangedDocumentDiagnosticReport:
    """A pulled report saying the client's copy is still current."""
    return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)


def is_ours(diagnostic: types.Diagnostic) -> bool:
    """Whether a diagnostic handed back by the client came from packgate."""
    return diagnostic.source == SOURCE and isinstance(diagnostic.code, str)


def data_version(diagnostic: types.Diagnostic) -> Any:
    """The document version a diagnostic's data was computed for (None if it has no data)."""
    data = diagnostic.data
    return data.get("version") if isinstance(data, Mapping) else None


def converter() -> cattrs.Converter:
    """pygls' converter, except that a Diagnostic's `data` and a ReadyJSON are written as they
    are: packgate makes them plain JSON (to_diagnostic, diagnostic_json, and a client's copy
    handed back is JSON too), so walking them value by value as the default converter does gives
    the same text at several times the cost."""
    out = default_converter()
    fields = {f.name: override(rename=_camel(f.name), omit_if_default=_omitted(f.name),
                               unstruct_hook=_as_is if f.name == "data" else None)
              for f in attrs.fields(types.Diagnostic)}
    out.register_unstructure_hook(types.Diagnostic, make_dict_unstructure_fn(types.Diagnostic, out, **fields))
    # reports the workspace pass' workers wrote as JSON already (lsp/diagnostic_json.py)
    out.register_unstructure_hook(ReadyJSON, _as_is)
    return out


def _camel(name: str) -> str:
    """A field's name on the wire, as lsprotocol spells it (`code_description` -> `codeDescription`)."""
    parts = name.removesuffix("_").split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


def _omitted(name: str) -> bool:
    """Whether a Diagnostic field left at its default is left out, as lsprotocol does."""
    return not types.is_special_property(types.Diagnostic, name)


def _as_is(value: Any) -> Any:
    return value


# -- hover -------------------------------------------------------------------------------


def to_hover(text: str, start: int, end: int, source: Source, client: ClientFeatures) -> types.Hover:
    """Core hover text and word range -> LSP hover (Markdown or plain text)."""
    kind = types.MarkupKind.Markdown if client.markdown else types.MarkupKind.PlainText
    return types.Hover(contents=types.MarkupContent(kind=kind, value=text),
                       range=to_range(source, start, end, client.encoding))


# -- navigation ------------------------------------------------------------------------


def to_locations(locations: Iterable[Any], uri: str, source_for: Callable[[str | None], Source],
                 line_of: Callable[[str, int], str | None], encoding: str) -> list[types.Location]:
    """core.navigation Locations -> LSP Locations, without duplicates.

    Two kinds arrive: places in shell text (byte offsets into the document, path None, or into
    a sourced file) and places in Python code packgate did not parse (`line` >= 0, 0-based,
    with code-point columns, converted with that line's text from line_of(path, line)).
    """
    out: list[types.Location] = []
    for loc in locations:
        target = uri if loc.path is None else (from_fs_path(loc.path) or loc.path)
        if loc.line >= 0:
            text = line_of(loc.path, loc.line) if loc.path is not None else None
            rng = types.Range(start=types.Position(line=loc.line, character=_units(text, loc.column, encoding)),
                              end=types.Position(line=loc.line, character=_units(text, loc.end_column, encoding)))
        else:
            rng = to_range(source_for(loc.path), loc.start, loc.end, encoding)
        out.append(types.Location(uri=target, range=rng))
    return unique_locations(out)


def unique_locations(locations: Iterable[types.Location]) -> list[types.Location]:
    """The locations without repeats, in their first order."""
    seen, out = set(), []
    for loc in locations:
        key = (loc.uri, _key(loc.range.start), _key(loc.range.end))
        if key not in seen:
            seen.add(key)
            out.append(loc)
    return out


def _units(line: str | None, code_points: int, encoding: str) -> int:
    """A code-point column of a line -> characters in the negotiated encoding."""
    if line is None or encoding == "utf-32":
        return code_points  # unreadable line: exact for ASCII, close otherwise
    prefix = line[:code_points]
    if encoding == "utf-8":
        return len(prefix.encode("utf-8", "surrogatepass"))
    return len(prefix.encode("utf-16-le", "surrogatepass")) // 2


def inlay_hints(summaries: Iterable[Any], source: Source, encoding: str,
                within: types.Range | None = None) -> list[types.InlayHint]:
    """One hint after each launch command: the gate combination it sees and the verdict (localized)."""
    out = []
    for s in summaries:
        at = to_position(source, s.end, encoding)
        if within is not None and not (_key(within.start) <= _key(at) <= _key(within.end)):
            continue
        out.append(types.InlayHint(position=at, label=s.label, padding_left=True,
                                   tooltip=f"packgate: {s.verdict}"))
    return out


_COMPLETION_KIND = {"variable": types.CompletionItemKind.Variable, "value": types.CompletionItemKind.Value,
                    "option": types.CompletionItemKind.Property}


def completion_items(completions: Iterable[Any], client: ClientFeatures,
                     source: Source | None = None) -> list[types.CompletionItem]:
    """core.navigation Completions -> completion items (gates first, in the core's order). One
    that names the bytes it replaces (an option's typed `--mic`: a client's word stops at `-`)
    gets a text edit over them, converted with source."""
    kind = types.MarkupKind.Markdown if client.completion_markdown else types.MarkupKind.PlainText
    items = []
    for rank, c in enumerate(completions):
        doc = None
        if c.documentation:
            value = f"**{c.detail}**\n\n{c.documentation}" if client.completion_markdown else c.documentation
            doc = types.MarkupContent(kind=kind, value=value)
        edit = None
        if c.replace is not None and source is not None:
            edit = types.TextEdit(range=to_range(source, *c.replace, client.encoding), new_text=c.insert)
        items.append(types.CompletionItem(
            label=c.label, kind=_COMPLETION_KIND.get(c.kind, types.CompletionItemKind.Text),
            detail=c.detail or None, documentation=doc, insert_text=None if edit else c.insert,
            text_edit=edit, sort_text=f"{rank:04d}", filter_text=c.label))
    return items


# -- workspace diagnostics ---------------------------------------------------------------


def workspace_full(uri: str, version: int | None, diagnostics: Sequence[types.Diagnostic],
                   result_id: str | None) -> types.WorkspaceFullDocumentDiagnosticReport:
    """One script's diagnostics in a workspace/diagnostic answer (version None: not open)."""
    return types.WorkspaceFullDocumentDiagnosticReport(uri=uri, version=version, items=list(diagnostics),
                                                       result_id=result_id)


def workspace_unchanged(uri: str, version: int | None, result_id: str) -> types.WorkspaceUnchangedDocumentDiagnosticReport:
    """A script whose diagnostics the client already has."""
    return types.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, version=version, result_id=result_id)


def workspace_report(items: Sequence[Any]) -> types.WorkspaceDiagnosticReport:
    """The workspace/diagnostic answer."""
    return types.WorkspaceDiagnosticReport(items=list(items))


def progress_begin(title: str, message: str | None = None) -> types.WorkDoneProgressBegin:
    """$/progress begin (percentages follow in reports)."""
    return types.WorkDoneProgressBegin(title=title, message=message, percentage=0, cancellable=False)


def progress_report(done: int, total: int) -> types.WorkDoneProgressReport:
    """$/progress report: `done/total scripts` and the percentage."""
    return types.WorkDoneProgressReport(message=f"{done}/{total} scripts",
                                        percentage=(100 * done // total) if total else 100)


def progress_end(message: str) -> types.WorkDoneProgressEnd:
    """$/progress end."""
    return types.WorkDoneProgressEnd(message=message)


def previous_result_ids(params: types.WorkspaceDiagnosticParams) -> dict[str, str]:
    """uri -> the result id the client holds."""
    return {p.uri: p.value for p in params.previous_result_ids or ()}


# -- code actions ------------------------------------------------------------------------


def wants_kind(only: Sequence[Any] | None, kind: str) -> bool:
    """Whether a code action of `kind` passes the request's `only` filter (hierarchical)."""
    if not only:
        return True
    for item in only:
        want = getattr(item, "value", item)
        if want == "" or kind == want or kind.startswith(want + "."):
            return True
    return False


def quick_fixes(diagnostic: types.Diagnostic, uri: str, version: int | None,
                client: ClientFeatures, attach: types.Diagnostic | None = None) -> list[types.CodeAction]:
    """The quickfix actions stored in a diagnostic's data (rule fixes, then disable actions).

    `attach` is the diagnostic as the client sent it, named in each action's `diagnostics`.
    """
    data = diagnostic.data if isinstance(diagnostic.data, Mapping) else {}
    actions = []
    for fix in data.get("fixes", ()):
        raw = fix.get("edits", ())
        edits = [types.TextEdit(range=_range_from_json(e["range"]), new_text=e["newText"])
                 for e in raw if not e.get("path")]
        others = [e for e in raw if e.get("path")]
        edit = workspace_edit(uri, version, edits, client) if not others else \
            files_edit(uri, version, edits, others, client)
        actions.append(types.CodeAction(
            title=fix["title"],
            kind=types.CodeActionKind.QuickFix,
            diagnostics=[attach or diagnostic],
            is_preferred=(bool(fix.get("preferred")) and not others) or None,
            edit=edit,
        ))
    return actions


def files_edit(uri: str, version: int | None, edits: list[types.TextEdit], others: list[Mapping[str, Any]],
               client: ClientFeatures) -> types.WorkspaceEdit:
    """A fix that also edits other files (a diagnostic's fix data with `path`): with
    documentChanges, a CreateFile for a file to be made (where the client can create files)
    then a TextDocumentEdit per file; else `changes`, one entry per file."""
    per_file: dict = {}
    creates: list = []
    for e in others:
        target = from_fs_path(e["path"]) or e["path"]
        per_file.setdefault(target, []).append(
            types.TextEdit(range=_range_from_json(e["range"]), new_text=e["newText"]))
        if e.get("create") and target not in creates:
            creates.append(target)
    if client.document_changes and (client.create_files or not creates):
        changes: list = []
        if edits:
            doc = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
            changes.append(types.TextDocumentEdit(text_document=doc, edits=edits))
        for target, text_edits in per_file.items():
            if target in creates:  # made only where there is none: a file made since fails the edit
                changes.append(types.CreateFile(
                    uri=target, options=types.CreateFileOptions(overwrite=False, ignore_if_exists=False)))
            doc = types.OptionalVersionedTextDocumentIdentifier(uri=target, version=None)
            changes.append(types.TextDocumentEdit(text_document=doc, edits=text_edits))
        return types.WorkspaceEdit(document_changes=changes)
    return types.WorkspaceEdit(changes={**({uri: edits} if edits else {}), **per_file})


_FIX_ALL_TITLE = {"en": "packgate: fix all safe problems", "zh": "packgate：修复所有可安全修复的问题"}


def fix_all_action(edits: Sequence[Any], source: Source, uri: str, version: int | None,
                   client: ClientFeatures, lang: str = "en") -> types.CodeAction | None:
    """`source.fixAll.packgate`: every safe fix at once (None when there is nothing to fix);
    titled in lang (en, zh, or both as the core's fix titles are)."""
    edits = [e for e in edits if e is not None]
    if not edits:
        return None
    text_edits = [types.TextEdit(range=to_range(source, e.start, e.end, client.encoding), new_text=e.text)
                  for e in edits]
    title = _FIX_ALL_TITLE.get(lang) or " / ".join(_FIX_ALL_TITLE.values())
    return types.CodeAction(title=title, kind=FIX_ALL_KIND,
                            edit=workspace_edit(uri, version, text_edits, client))


def workspace_edit(uri: str, version: int | None, edits: list[types.TextEdit],
                   client: ClientFeatures) -> types.WorkspaceEdit:
    """Edits of one document, versioned when the client supports documentChanges."""
    if client.document_changes:
        doc = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=doc, edits=edits)])
    return types.WorkspaceEdit(changes={uri: edits})


# -- messages ----------------------------------------------------------------------------


def log_params(message: str, level: str = "info") -> types.LogMessageParams:
    """window/logMessage params."""
    return types.LogMessageParams(type=_MESSAGE_TYPE[level], message=message)


def show_params(message: str, level: str = "warning") -> types.ShowMessageParams:
    """window/showMessage params."""
    return types.ShowMessageParams(type=_MESSAGE_TYPE[level], message=message)


_MESSAGE_TYPE = {
    "error": types.MessageType.Error,
    "warning": types.MessageType.Warning,
    "info": types.MessageType.Info,
    "log": types.MessageType.Log,
}


def launch_summaries(summaries: Iterable[Any], source: Source, encoding: str) -> list[dict[str, Any]]:
    """`packgate/launchSummaries`: the verdict at each launch, as the VS Code status bar reads it."""
    return [{"range": to_range(source, s.start, s.end, encoding), "verdict": s.verdict, "label": s.label}
            for s in summaries]


def uri_of(params: Any) -> str | None:
    """The textDocument.uri of a custom request's params (plain JSON or an attrs object)."""
    doc = params.get("textDocument") if isinstance(params, Mapping) else getattr(params, "textDocument", None)
    uri = doc.get("uri") if isinstance(doc, Mapping) else getattr(doc, "uri", None)
    return uri if isinstance(uri, str) else None


def watchers_registration(globs: Sequence[str]) -> types.RegistrationParams:
    """client/registerCapability for workspace/didChangeWatchedFiles on these globs."""
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=g) for g in globs])
    return types.RegistrationParams(registrations=[types.Registration(
        id="packgate-watched-files", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options)])


def configuration_params(scope_uri: str | None = None) -> types.ConfigurationParams:
    """workspace/configuration params asking for the `packgate` section."""
    return types.ConfigurationParams(items=[types.ConfigurationItem(section="packgate", scope_uri=scope_uri)])
