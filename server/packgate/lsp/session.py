"""The language server's state: editor settings, per-file settings and one analysis per document version.

No protocol types live here; ``server.py`` feeds it plain values and ``convert.py`` renders
what it returns.

Settings are layered like ruff's server does it, lowest first:

1. packgate's defaults (``Settings()``);
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
from dataclasses import dataclass, field
from typing import Any, Mapping
from urllib.parse import urlparse

from pygls.uris import to_fs_path

from packgate.core.engine import Analysis, analyze
from packgate.core.settings import SCHEMA, Settings, settings_for


@dataclass
class Entry:
    """One analysis of one document version under one set of settings."""

    version: int | None
    settings: Settings
    analysis: Analysis
    result_id: str
    rendered: Any = None  # the converted diagnostics, filled lazily by the server


@dataclass
class Session:
    """Settings and analysis cache shared by every handler."""

    init_section: Mapping[str, Any] = field(default_factory=dict)
    editor_section: Mapping[str, Any] = field(default_factory=dict)
    editor: Settings = field(default_factory=Settings)
    entries: dict[str, Entry] = field(default_factory=dict)
    _shown: set[str] = field(default_factory=set)
    _ids: Any = field(default_factory=itertools.count)

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
        self.editor = Settings().merged(self.init_section, problems).merged(self.editor_section, problems)
        return problems

    def settings_for(self, uri: str, problems: list[str]) -> Settings:
        """The editor settings overridden by the file's nearest packgate configuration."""
        path = path_of(uri)
        return settings_for(path, self.editor, problems) if path else self.editor

    def analysis(self, uri: str, version: int | None, text: str) -> tuple[Entry, list[str]]:
        """The cached analysis of this document version, made if the text or settings changed."""
        problems: list[str] = []
        settings = self.settings_for(uri, problems)
        entry = self.entries.get(uri)
        if entry is None or entry.version != version or entry.settings != settings \
                or entry.analysis.source.text != text:
            result = analyze(text, path=path_of(uri), settings=settings)
            entry = Entry(version, settings, result, f"{version}-{next(self._ids)}")
            self.entries[uri] = entry
        return entry, problems

    def forget(self, uri: str) -> None:
        """Drop a closed document's analysis."""
        self.entries.pop(uri, None)

    def unseen(self, problems: list[str]) -> list[str]:
        """The problems not yet shown to the user (each is shown once per session)."""
        fresh = [p for p in dict.fromkeys(problems) if p not in self._shown]
        self._shown.update(fresh)
        return fresh


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
    found.update({k: v for k, v in raw.items() if k in SCHEMA})
    return found


def path_of(uri: str) -> str | None:
    """The file system path of a file: URI (None for untitled: and other schemes)."""
    if urlparse(uri).scheme != "file":
        return None
    return to_fs_path(uri) or None
