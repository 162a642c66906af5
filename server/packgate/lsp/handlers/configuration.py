"""Changes around the documents: editor settings, files on disk, workspace folders."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from packgate.lsp.guard import guarded
from packgate.lsp.session import path_of

if TYPE_CHECKING:
    from packgate.lsp.language_server import PackgateServer

CONFIG_FILES = (".packgate.toml", "pyproject.toml")


@guarded()
async def did_change_configuration(ls: PackgateServer, params: types.DidChangeConfigurationParams) -> None:
    """New editor settings: from the payload when it carries them, else pulled; then re-diagnose."""
    settings = params.settings
    carries = isinstance(settings, dict) and any(k == "packgate" or k.startswith("packgate.") for k in settings)
    if not carries and ls.client.configuration:
        settings = await ls.pull_configuration()
    ls.say(ls.session.set_editor_section(settings))
    ls.rediagnose()


@guarded()
def did_change_watched_files(ls: PackgateServer, params: types.DidChangeWatchedFilesParams) -> None:
    """Files changed outside the editor: the project's code or config (everything is analysed
    again), or scripts (the open documents sourcing them are)."""
    paths = [path_of(change.uri) for change in params.changes]
    if any(p is None or is_project_file(p) for p in paths):
        project_changed(ls)
    else:
        ls.sources_changed(paths)


@guarded()
def did_change_workspace_folders(ls: PackgateServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
    """Other folders: other roots for sourced files and other project code (pygls has updated the list)."""
    project_changed(ls)


def is_project_file(path: str) -> bool:
    """Whether a change of path changes the project (its Python code or packgate configuration)."""
    return path.endswith(CONFIG_FILES + (".py",))


def project_changed(ls: PackgateServer) -> None:
    """Analyse every document again (profile auto and the configuration are read anew)."""
    from packgate.core import project
    project.invalidate()
    ls.session.forget_all()
    ls.rediagnose()
