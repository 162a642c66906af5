"""initialize and initialized: the client's capabilities, locale and first settings; shutdown and exit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

import packgate.lsp.convert as convert
from packgate.lsp.convert import ClientFeatures
from packgate.lsp.guard import guarded
from packgate.lsp.session import warm_up

if TYPE_CHECKING:
    from packgate.lsp.language_server import PackgateServer

# What can change an analysis besides the document: the project's Python code (profile auto),
# its packgate configuration, and the scripts a launcher sources.
WATCHED = ("**/*.py", "**/pyproject.toml", "**/.packgate.toml", "**/*.sh", "**/*.bash", "**/*.env")


@guarded()
def initialize(ls: PackgateServer, params: types.InitializeParams) -> None:
    """Read the client's capabilities, its locale and the settings in initializationOptions."""
    ls.client = ClientFeatures.from_capabilities(params.capabilities, ls.workspace.position_encoding)
    ls.session.set_locale(params.locale)
    ls.pending = ls.session.set_init_options(params.initialization_options)
    if ls.client.configuration:  # asked for in `initialized`: the first diagnostics wait for it
        ls.await_settings()


@guarded()
async def initialized(ls: PackgateServer, params: types.InitializedParams) -> None:
    """Show early settings problems, pull the editor settings (the first diagnostics wait for
    them: ls.settings_arrived), watch the project's files."""
    ls.thread_pool.submit(warm_up)
    ls.collect_when_idle()
    ls.say(ls.pending)
    if ls.client.configuration:
        before = ls.session.editor
        try:
            ls.say(ls.session.set_editor_section(await ls.pull_configuration()))
        finally:
            changed = ls.session.editor != before
            ls.settings_arrived(publish_held=not changed)
        if changed:  # documents diagnosed meanwhile (after SETTINGS_WAIT) used the older settings
            ls.rediagnose()
    if ls.client.watch_files:
        try:
            await ls.client_register_capability_async(convert.watchers_registration(WATCHED))
        except Exception as exc:  # a client that declines: open and save still revalidate
            ls.log(f"file watching not registered: {exc!r}", "warning")


@guarded()
def shutdown(ls: PackgateServer, params: None) -> None:
    """The client asks the server to stop: the worker processes go first."""
    ls.pool.shutdown()


@guarded()
def exit_server(ls: PackgateServer, params: None) -> None:
    """The server stops (after shutdown, or without it): no worker process outlives it."""
    ls.pool.shutdown()
