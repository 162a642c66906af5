"""The language server's state: the settings, and one record per open document (its analysis,
parse state, Source and pending comment edits).

No protocol types live here; the handlers feed it plain values and ``convert.py`` renders
what it returns. Offsets are byte offsets into the UTF-8 text, as in packgate.core. Every
call into ``packgate.core.engine.analyze`` is made here, in ``Session._analyze``; the parse
tree is the core's (``packgate.core.parse.edit``): the session holds its state and hands each
change to it.

Settings are layered like ruff's server does it, lowest first:

1. packgate's defaults (``Settings()``), with ``lang`` taken from the client's locale (the
   ``locale`` of ``initialize``: ``zh*`` Chinese, anything else English; ``both`` when the
   client sends none);
2. the editor's ``packgate`` section from ``initializationOptions``;
3. the editor's ``packgate`` section from ``workspace/configuration`` or the payload of
   ``workspace/didChangeConfiguration`` (replaces the previous one, so removing a key reverts it);
4. the nearest ``.packgate.toml`` or ``pyproject.toml`` ``[tool.packgate]`` above the file,
   which overrides the editor: a repository's own configuration wins over a user's editor, so
   the editor and ``packgate check`` in CI agree on that repository.

An invalid value at any layer keeps the layer below and is reported once.
"""

from __future__ import annotations

import itertools
import os
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Callable, Mapping
from urllib.parse import urlparse

from pygls.uris import to_fs_path

from packgate.core.findings import Edit
from packgate.core.settings import (
    EDITOR_ONLY_KEYS, FROM_CLIENT, LANGS, SCHEMA, Settings, editor_only, settings_for,
)
from packgate.core.text import Source, apply_edits

if TYPE_CHECKING:
    from packgate.core.engine import Analysis
    from packgate.core.parse.edit import ParseState

FIX_PASSES = 4  # as `packgate check --fix`: a fix may reveal the next (PG006, then PG003)
# Keystrokes come about 100-250 ms apart: an analysis faster than that never falls behind, so
# it runs at once; a slower one waits for the typing to pause, so a burst costs one analysis.
SLOW = 0.1
MAX_PAUSE = 0.3
# Documents whose full analysis (model and flow facts, about 280 KB for a 300-line launcher) and
# parse tree (about 180 KB) stay in memory: the most recently used ones. The others keep their
# findings and launch summaries (about 35 KB), enough for diagnostics, code actions and inlay
# hints; hover and navigation there analyse once more (a few milliseconds), and the next edit
# parses without the old tree.
KEEP_FULL = 16
KEEP_TREES = 16
LARGE = 1024 * 1024  # bytes: fixAll on a larger document first drops its model


def analyze(text: str, **options: Any) -> "Analysis":
    """packgate.core.engine.analyze, imported on first use so that `initialize` is answered sooner."""
    from packgate.core.engine import analyze as run
    return run(text, **options)


def warm_up() -> None:
    """Import the core ahead of the first document (called off the event loop after initialize)."""
    import packgate.core.engine  # noqa: F401


def parse_edit():
    """packgate.core.parse.edit, the core's incremental-parse API, imported on first use as
    warm_up imports it: through the engine. A change can arrive while warm_up is importing the
    core on its thread, and two threads entering the core by different modules can each hold
    an import lock the other waits for (Python raises _DeadlockError)."""
    import packgate.core.engine  # noqa: F401
    from packgate.core.parse import edit
    return edit


@dataclass
class Entry:
    """One analysis of one document version under one set of settings."""

    version: int | None
    settings: Settings
    analysis: "Analysis"
    result_id: str
    elapsed: float = 0.0  # seconds the analysis took
    incremental: bool = False  # it started from the previous version's tree, model and walk
    rendered: Any = None  # the converted diagnostics, filled lazily by the server
    stale: bool = False  # a file it sources changed: analyse again on next use


@dataclass
class Document:
    """What the session keeps of one open document."""

    entry: Entry | None = None  # the analysis of its last analysed version
    tree: "ParseState | None" = None  # its last parse, edited in step since: for the next incremental parse
    parsed: int = 0  # when that parse was made (Session's clock): the oldest are dropped first
    source: Source | None = None  # the Source of its latest text (each change edits it instead of indexing anew)
    # the changes since the entry's text while each was inside a comment (None: one was not)
    shifts: list | None = None
    # ((session generation, editor settings), its settings, their problems): document_settings
    settings: tuple | None = None


def locale_lang(locale: Any) -> str | None:
    """The `lang` a client locale asks for: `zh*` Chinese, any other English, None without one."""
    if not isinstance(locale, str) or not locale.strip():
        return None
    return "zh" if locale.strip().lower().startswith("zh") else "en"


@dataclass
class Session:
    """Settings and the open documents' records, shared by every handler."""

    init_section: Mapping[str, Any] = field(default_factory=dict)
    editor_section: Mapping[str, Any] = field(default_factory=dict)
    editor: Settings = field(default_factory=Settings)
    locale: str | None = None  # the `lang` the client's locale asks for (locale_lang)
    documents: dict[str, Document] = field(default_factory=dict)
    recent: "OrderedDict[str, None]" = field(default_factory=OrderedDict)  # full analyses, least recently used first
    _shown: set[str] = field(default_factory=set)
    _ids: Any = field(default_factory=itertools.count)
    _clock: Any = field(default_factory=itertools.count)
    # path -> the loader of sourced files for that document (None: the core's default, as the CLI)
    loader_for: Callable[[str | None], Any] | None = None
    generation: int = 0  # bumped when the project's code or configuration changed

    @property
    def entries(self) -> dict[str, Entry]:
        """uri -> the document's last analysis (a view; the records are in `documents`)."""
        return {uri: d.entry for uri, d in self.documents.items() if d.entry is not None}

    @property
    def trees(self) -> dict[str, "ParseState"]:
        """uri -> the document's kept parse state (a view; the records are in `documents`)."""
        return {uri: d.tree for uri, d in self.documents.items() if d.tree is not None}

    def _document(self, uri: str) -> Document:
        found = self.documents.get(uri)
        if found is None:
            found = self.documents[uri] = Document()
        return found

    # -- settings

    def set_locale(self, locale: Any) -> None:
        """Take the client's locale (initialize's `locale`) as the default `lang`."""
        self.locale = locale_lang(locale)
        self._rebuild()

    def set_init_options(self, raw: Any) -> list[str]:
        """Take the editor settings from initializationOptions; returns problems found."""
        problems: list[str] = []
        self.init_section = section_of(raw, problems)
        return problems + self._rebuild()

    def set_editor_section(self, raw: Any) -> list[str]:
        """Take the editor settings from workspace/configuration or didChangeConfiguration."""
        problems: list[str] = []
        self.editor_section = section_of(raw, problems)
        return problems + self._rebuild()

    def _rebuild(self) -> list[str]:
        problems: list[str] = []
        base = Settings() if self.locale is None else Settings(lang=self.locale)
        self.editor = base.merged(self.init_section, problems).merged(self.editor_section, problems)
        return problems

    def editor_only(self, problems: list[str]) -> dict[str, int]:
        """The editor-only settings (settings.EDITOR_ONLY_KEYS): the workspace scan's limits."""
        return editor_only([self.init_section, self.editor_section], problems)

    def settings_for(self, uri: str, problems: list[str]) -> Settings:
        """The editor settings overridden by the file's nearest packgate configuration."""
        path = path_of(uri)
        return settings_for(path, self.editor, problems) if path else self.editor

    def document_settings(self, uri: str, problems: list[str], refresh: bool) -> Settings:
        """settings_for an open document, looked up on disk on open and save (refresh) and after
        a settings or project change, not on every keystroke (the lookup stats every folder up
        to the root: a fifth of a keystroke on a 250-line launcher)."""
        doc = self._document(uri)
        key = (self.generation, self.editor)
        held = doc.settings
        if not refresh and held is not None and held[0][0] == key[0] and held[0][1] is key[1]:
            problems.extend(held[2])
            return held[1]
        found: list[str] = []
        settings = self.settings_for(uri, found)
        doc.settings = (key, settings, found)
        problems.extend(found)
        return settings

    def hover_lang(self, uri: str, settings: Settings) -> str:
        """The hover's language: `lang` where the settings or a configuration file set it, else
        both (the truth table is bilingual by default, whatever the client's locale)."""
        if self.locale is None or any(s.get("lang") in LANGS for s in (self.init_section, self.editor_section)):
            return settings.lang
        path = path_of(uri)
        return settings_for(path, self.editor.merged({"lang": "both"})).lang if path else "both"

    def unseen(self, problems: list[str]) -> list[str]:
        """The problems not yet shown to the user (each is shown once per session)."""
        fresh = [p for p in dict.fromkeys(problems) if p not in self._shown]
        self._shown.update(fresh)
        return fresh

    # -- text changes

    def source(self, uri: str, text: str) -> Source:
        """The Source of a document's text (the one the last change made, when it is this text)."""
        doc = self._document(uri)
        if doc.source is not None and doc.source.text is text:
            return doc.source
        doc.source = Source(text)
        return doc.source

    def splice(self, uri: str, source: Source, start: int | None, end: int | None, new: str) -> str:
        """Apply one change (start None: the whole text) and keep the document's parse state in step."""
        doc = self._document(uri)
        if start is None or end is None:
            doc.tree = doc.shifts = doc.source = None
            return new
        api = parse_edit()
        edit = api.TextEdit(start, end, new.encode("utf-8", "surrogatepass"))
        if doc.shifts is not None:
            if api.in_comment(doc.tree, source.data, edit):
                doc.shifts.append((start, end, edit.inserted))
            else:
                doc.shifts = None
        doc.tree = api.apply_edits(doc.tree, source.data, [edit])
        doc.source = source.edited(start, end, edit.inserted)
        return doc.source.text

    # -- analyses

    def analysis(self, uri: str, version: int | None, text: str, *, revalidate: bool = False,
                 full: bool = True) -> tuple[Entry, list[str]]:
        """The cached analysis of this document version, made if the text or settings changed.

        revalidate: re-check the project's Python code for `profile = auto` (on open and save;
        typing never stats the tree, file watching invalidates instead).
        full: the model and flow facts are needed (hover, navigation), not only the findings.
        """
        problems: list[str] = []
        settings = self.document_settings(uri, problems, refresh=revalidate)
        doc = self._document(uri)
        entry = doc.entry
        current = entry is not None and not entry.stale and entry.version == version \
            and entry.settings == settings and entry.analysis.source.text == text
        if current and not (full and entry.analysis.slim):
            if not entry.analysis.slim:
                self._used(uri)
            return entry, problems
        if doc.shifts and not full and entry is not None and not entry.stale and entry.settings == settings:
            # typing inside comments: the findings only move (measured on a 2,000-line
            # launcher: a millisecond instead of a new analysis)
            moved = entry.analysis.shifted(doc.shifts, text, self.source(uri, text))
            if moved is not None:
                doc.shifts = []
                doc.entry = Entry(version, settings, moved, f"{version}-{next(self._ids)}", entry.elapsed)
                return doc.entry, problems
        kept, doc.tree = doc.tree, None
        source = self.source(uri, text)
        if kept is not None and kept.size != len(source.data):
            kept = None
        started = time.perf_counter()
        result = self._analyze(text, path_of(uri), settings, revalidate=revalidate, source=source, kept=kept)
        elapsed = time.perf_counter() - started
        # the analysis is done with its tree: keep one (for the next incremental parse) instead
        # of a copy per version, which a few hundred open documents feel
        doc.tree = parse_edit().kept(result.script, len(result.source.data),
                                     result.walk.resume if result.walk is not None else None)
        if doc.tree is not None:
            doc.parsed = next(self._clock)
        if current:  # a slimmed entry made full again: the same findings, keep the rendering
            entry.analysis = result
        else:
            entry = Entry(version, settings, result, f"{version}-{next(self._ids)}", elapsed,
                          incremental=kept is not None)
        doc.entry = entry
        doc.shifts = []
        self._used(uri)
        return entry, problems

    def analyze_file(self, text: str, path: str, settings: Settings, *, follow_sources: bool = True) -> "Analysis":
        """An analysis of a file that is not open (workspace diagnostics, references)."""
        return self._analyze(text, path, settings, revalidate=False, follow_sources=follow_sources)

    def _analyze(self, text: str, path: str | None, settings: Settings, *, revalidate: bool,
                 source: Source | None = None, kept: "ParseState | None" = None,
                 follow_sources: bool = True) -> "Analysis":
        """The one call into the core. An open document's (source given) keeps what the next
        version's analysis takes over, and starts from its last parse (kept) when there is one."""
        from packgate.core.engine import Previous
        if revalidate and path:
            from packgate.core.project import root_of
            root_of(path)  # open and save look the project root up again; typing keeps it
        options: dict[str, Any] = {"loader": None} if not follow_sources else self.loader_option(path)
        if source is not None:
            options["previous"] = Previous(kept.tree, kept.script, kept.resume, kept.edits, source) if kept \
                else Previous(source=source)
        return analyze(text, path=path, settings=settings, revalidate=revalidate, **options)

    def pause_before(self, uri: str) -> float:
        """Seconds to wait before analysing a changed document: none when its analyses are fast;
        as long as the last one took when they are slow, so a burst of keystrokes costs one."""
        doc = self.documents.get(uri) or Document()
        if doc.shifts:
            return 0.0  # only comments changed: the findings move, nothing is analysed
        elapsed = doc.entry.elapsed if doc.entry is not None else 0.0
        if elapsed >= SLOW and doc.entry is not None and not doc.entry.incremental and doc.tree is not None:
            return 0.0  # a full analysis (the open): the next one starts from its tree and walk
        return 0.0 if elapsed < SLOW else min(elapsed, MAX_PAUSE)

    def fix_all(self, uri: str, entry: Entry) -> Edit | None:
        """Every safe fix, repeated until nothing is left to fix, as one minimal edit (None if none)."""
        if len(entry.analysis.source.data) > LARGE:
            # the passes below each build a model as large as the kept one: keep only findings
            # (and the tree, without the model and walk checkpoints kept for the next edit)
            entry.analysis = entry.analysis.slimmed()
            self.recent.pop(uri, None)
            kept = self._document(uri).tree
            if kept is not None:
                kept.script = kept.resume = None
        current = entry.analysis
        data = current.source.data
        for _ in range(FIX_PASSES):
            edits = current.fix_all_edits()
            if not edits:
                break
            fixed = apply_edits(current.source.data, edits).decode("utf-8", "surrogatepass")
            current = self._analyze(fixed, path_of(uri), entry.settings, revalidate=False)
        return minimal_edit(data, current.source.data)

    def _used(self, uri: str) -> None:
        """uri's full analysis was just used: slim the least recently used ones past KEEP_FULL,
        and drop the oldest trees of the others past KEEP_TREES."""
        self.recent.pop(uri, None)
        self.recent[uri] = None
        while len(self.recent) > KEEP_FULL:
            old, _ = self.recent.popitem(last=False)
            entry = self.documents[old].entry if old in self.documents else None
            if entry is not None and not entry.analysis.slim:
                entry.analysis = entry.analysis.slimmed()
        holding = [(u, d) for u, d in self.documents.items() if d.tree is not None]
        excess = len(holding) - KEEP_TREES
        if excess > 0:
            others = sorted((d for u, d in holding if u not in self.recent), key=lambda d: d.parsed)
            for doc in others[:excess]:
                doc.tree = None

    def forget(self, uri: str) -> None:
        """Drop a closed (or reopened) document's record."""
        self.documents.pop(uri, None)
        self.recent.pop(uri, None)

    def loader_option(self, path: str | None) -> dict[str, Any]:
        """`loader=` for analyze(): the server's (workspace root, open documents), else the core's default."""
        return {} if self.loader_for is None else {"loader": self.loader_for(path)}

    def forget_all(self) -> None:
        """Analyse every document again on next use (the project's code or config changed).

        The stale entries keep what each analysis read, so a later change of a sourced file
        still finds the documents that depend on it.
        """
        self.mark_stale(list(self.entries))
        self.generation += 1

    def depending_on(self, paths: str | list[str]) -> list[str]:
        """The URIs whose last analysis read (or tried to read) one of paths (sourced files)."""
        # every keystroke asks: without a document that read another file, skip resolving the
        # paths (realpath stats each folder on the way: about 10 us a path)
        reading = [(uri, read) for uri, d in self.documents.items()
                   if d.entry is not None and (read := d.entry.analysis.dependencies)]
        if not reading:
            return []
        wanted = {os.path.realpath(p) for p in ([paths] if isinstance(paths, str) else paths)}
        return [uri for uri, read in reading if wanted & read]

    def mark_stale(self, uris: list[str]) -> None:
        """Analyse these documents again on next use (their text did not change; a sourced file did)."""
        for uri in uris:
            doc = self.documents.get(uri)
            if doc is not None and doc.entry is not None:
                doc.entry.stale = True


def minimal_edit(old: bytes, new: bytes) -> Edit | None:
    """One edit turning old into new, trimmed to what changed, never splitting a character or a CRLF."""
    if old == new:
        return None
    limit = min(len(old), len(new))
    start = 0
    while start < limit and old[start] == new[start]:
        start += 1
    while start > 0 and (start < len(old) and (old[start] & 0xC0) == 0x80 or old[start - 1] == 0x0D):
        start -= 1
    tail = 0
    while tail < limit - start and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail += 1
    end, new_end = len(old) - tail, len(new) - tail
    while end < len(old) and ((old[end] & 0xC0) == 0x80 or (end > 0 and old[end - 1] == 0x0D and old[end] == 0x0A)):
        end, new_end = end + 1, new_end + 1
    return Edit(start, end, new[start:new_end].decode("utf-8", "surrogatepass"))


def section_of(raw: Any, problems: list[str]) -> dict[str, Any]:
    """The `packgate` keys of an editor payload: `{"packgate": {...}}`, dotted keys or flat keys."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        problems.append(f"packgate settings must be an object, got {raw!r}; using the defaults")
        return {}
    nested = raw.get("packgate")
    if isinstance(nested, Mapping):
        return dict(nested)
    if nested is not None:
        problems.append(f"packgate settings must be an object, got {nested!r}; using the defaults")
        return {}
    found = {k[len("packgate."):]: v for k, v in raw.items() if isinstance(k, str) and k.startswith("packgate.")}
    found.update({k: v for k, v in raw.items() if k in SCHEMA or k in FROM_CLIENT or k in EDITOR_ONLY_KEYS})
    return found


@lru_cache(maxsize=1024)  # parsing a URI costs about 8 us, and every keystroke asks again for the same one
def path_of(uri: str) -> str | None:
    """The file system path of a file: URI (None for untitled: and other schemes)."""
    if urlparse(uri).scheme != "file":
        return None
    return to_fs_path(uri) or None
