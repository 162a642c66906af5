"""Workspace intelligence over LSP (issue 6): sourced files, profile auto, definition, references,
inlay hints, completion and workspace diagnostics, on copies of the fixture training repositories."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types

from packgate.core.rules import RULES
from lsp_helpers import (
    CJK, CLIENTS, PULLING, capabilities, codes, diagnostics, lines_of, open_doc, position_of, pulled, pulls,
    session, text_in, wait_until,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
LAUNCH = "torchrun aiak_training_llm/train.py --micro-batch-size 1\n"
BMR, PACKED, VQA = "OFFLINE_PACKING_BMR", "OFFLINE_PACKED_DATA", "OFFLINE_PACKING_VQA"


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    """The workspace folder: each test copies the repositories it needs into it."""
    return tmp_path_factory.mktemp("ws")


@pytest_asyncio.fixture(scope="module", loop_scope="session", params=CLIENTS)
async def wsc(request, ws):
    """A server with `ws` as its workspace folder, per client capability set."""
    async with session(capabilities(request.param), folders=[ws]) as client:
        client.name = request.param  # type: ignore[attr-defined]
        yield client


def copy_repo(ws: Path, name: str) -> Path:
    """A fresh copy of a fixture repository inside the workspace."""
    target = Path(tempfile.mkdtemp(prefix=name + "-", dir=ws))
    shutil.copytree(FIXTURES / name, target, dirs_exist_ok=True)
    return target


def at(text: str, needle: str, client, shift: int = 2) -> types.Position:
    return position_of(text, text.index(needle) + shift, client.encoding)


def doc_id(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


async def settled(client, uri: str, predicate) -> list[types.Diagnostic]:
    """The document's diagnostics once predicate(codes) holds (pulled again, or the latest push)."""
    found: list[types.Diagnostic] = []

    async def check() -> bool:
        nonlocal found
        if pulls(client):
            found = await pulled(client, uri)
        else:
            got = client.published.get(uri, [])
            found = list(got[-1].diagnostics) if got else []
        return predicate(codes(found))

    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while not await check():
        assert loop.time() < deadline, f"diagnostics of {uri} never settled: {codes(found)}"
        await asyncio.sleep(0.01)
    return found


def only(diags: list[types.Diagnostic], code: str) -> types.Diagnostic:
    found = [d for d in diags if d.code == code]
    assert len(found) == 1, codes(diags)
    return found[0]


# -- profile auto and sourced files --------------------------------------------------------


async def test_profile_auto_reads_each_repository_s_training_code(wsc, ws):
    ov2, ov15 = copy_repo(ws, "repo_ov2"), copy_repo(ws, "repo_ov15")
    text = (ov15 / "scripts" / "stage2.sh").read_text()  # VQA, PACKED_DATA and BMR all on
    (ov2 / "scripts" / "same.sh").write_text(text)
    in_ov15 = open_doc(wsc, text, uri=(ov15 / "scripts" / "stage2.sh").as_uri())
    in_ov2 = open_doc(wsc, text, uri=(ov2 / "scripts" / "same.sh").as_uri())
    dead15 = only(await diagnostics(wsc, in_ov15, 1), "PG002")  # the 1.5 code reads VQA: BMR is dead
    dead2 = only(await diagnostics(wsc, in_ov2, 1), "PG002")  # the 2 code reads BMR: VQA is dead
    assert text_in(text, dead15.range, wsc.encoding) == BMR
    assert text_in(text, dead2.range, wsc.encoding) == VQA
    assert "PG001" not in codes(await diagnostics(wsc, in_ov15, 1))


async def test_a_sourced_env_file_with_only_bmr_and_its_edits(wsc, ws):
    repo = copy_repo(ws, "repo_ov2")
    stage2, env = repo / "scripts" / "stage2.sh", repo / "scripts" / "env" / "packing.sh"
    text, env_text = stage2.read_text(), env.read_text()
    uri = open_doc(wsc, text, uri=stage2.as_uri())
    pg001 = only(await diagnostics(wsc, uri, 1), "PG001")
    source_line = next(i for i, row in enumerate(lines_of(text)) if row.startswith("source"))
    assert pg001.range.start.line == source_line  # reported where the env file is sourced
    assert text_in(text, pg001.range, wsc.encoding).startswith("source ")
    into_env = [r for r in pg001.related_information or [] if r.location.uri == env.as_uri()]
    assert into_env and text_in(env_text, into_env[0].location.range, wsc.encoding) == BMR

    # The env file opened and edited, unsaved: the sourcing script is diagnosed again, clean.
    env_uri = open_doc(wsc, env_text, uri=env.as_uri())
    refreshes = wsc.inlay_refreshes
    end = position_of(env_text, len(env_text), wsc.encoding)
    wsc.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=env_uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(start=end, end=end), text="export OFFLINE_PACKED_DATA='1'\n")]))
    await settled(wsc, uri, lambda found: found == [])
    assert (await diagnostics(wsc, env_uri, 2)) == []
    if wsc.name.startswith("neovim"):  # it declares inlayHint refreshSupport: the launch's verdict changed
        await wait_until(lambda: wsc.inlay_refreshes > refreshes)

    # Closed without saving: the file on disk counts again.
    wsc.text_document_did_close(types.DidCloseTextDocumentParams(text_document=doc_id(env_uri)))
    await settled(wsc, uri, lambda found: found == ["PG001"])

    # Changed on disk, reported by the file watcher.
    env.write_text(env_text + "export OFFLINE_PACKED_DATA='1'\n")
    wsc.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=env.as_uri(), type=types.FileChangeType.Changed)]))
    await settled(wsc, uri, lambda found: found == [])


async def test_unsafe_sources_are_refused_quickly_with_a_reason(wsc, ws, tmp_path_factory):
    repo = copy_repo(ws, "repo_ov2")
    scripts = repo / "scripts"
    outside = tmp_path_factory.mktemp("outside") / "evil.sh"
    outside.write_text("export OFFLINE_PACKED_DATA=1\n")
    os.mkfifo(scripts / "pipe")  # reading it would block forever
    (scripts / "outside.sh").symlink_to(outside)
    (scripts / "loop.sh").write_text("source ./main.sh\n")
    main = scripts / "main.sh"
    text = "source /dev/zero\nsource ./pipe\nsource ./outside.sh\nsource ./loop.sh\n" + LAUNCH
    main.write_text(text)
    started = time.monotonic()
    uri = open_doc(wsc, text, uri=main.as_uri())
    found = [d for d in await diagnostics(wsc, uri, 1) if d.code == "PG009"]
    assert time.monotonic() - started < 5
    by_line = {d.range.start.line: d.message for d in found}
    assert sorted(by_line) == [0, 1, 2, 3], by_line
    assert "/dev/zero" in by_line[0] and "device" in by_line[0]
    assert "not a regular file" in by_line[1]
    assert "outside" in by_line[2]
    assert "cycle" in by_line[3] and "main.sh → loop.sh → main.sh" in by_line[3]
    assert "PG001" not in codes(await diagnostics(wsc, uri, 1))  # nothing was read from outside


# -- definition and references -------------------------------------------------------------


async def test_definition_lands_on_the_reading_line_and_the_assignment(wsc, ws):
    repo = copy_repo(ws, "repo_ov2")
    # A second reader with Chinese and an emoji before the name: its columns must be converted.
    extra = repo / "aiak_training_llm" / "extra.py"
    extra_text = 'import os\nLABEL = ("数据 🚀", os.environ.get("OFFLINE_PACKED_DATA"))\n'
    extra.write_text(extra_text)
    encoder = repo / "aiak_training_llm" / "data" / "multimodal" / "task_encoder.py"
    env = repo / "scripts" / "env" / "packing.sh"
    script = repo / "scripts" / "definition.sh"
    text = "source ./env/packing.sh\nexport OFFLINE_PACKED_DATA=1\nexport OFFLINE_PACKING_BMR\n" + LAUNCH
    script.write_text(text)
    uri = open_doc(wsc, text, uri=script.as_uri())
    await diagnostics(wsc, uri, 1)

    async def definition(position: types.Position) -> list[types.Location]:
        result = await wsc.text_document_definition_async(types.DefinitionParams(
            text_document=doc_id(uri), position=position))
        return list(result or [])

    def shown(loc: types.Location) -> tuple[str, int, str]:
        target = Path(loc.uri.removeprefix("file://")).read_text() if loc.uri != uri else text
        return Path(loc.uri).name, loc.range.start.line, text_in(target, loc.range, wsc.encoding)

    bmr = [shown(loc) for loc in await definition(at(text, "export OFFLINE_PACKING_BMR", wsc, 10))]
    reading = next(i for i, row in enumerate(lines_of(encoder.read_text())) if f'"{BMR}"' in row)
    assert bmr == [("task_encoder.py", reading, BMR), ("packing.sh", 1, BMR)], bmr
    assert all(loc.uri in (encoder.as_uri(), env.as_uri()) for loc in await definition(at(text, BMR, wsc)))

    packed = [shown(loc) for loc in await definition(at(text, PACKED, wsc))]
    assert ("extra.py", 1, PACKED) in packed  # exact in UTF-16 and UTF-8 despite 数据 🚀
    assert ("task_encoder.py", next(i for i, r in enumerate(lines_of(encoder.read_text())) if f'"{PACKED}"' in r),
            PACKED) in packed
    assert ("definition.sh", 1, PACKED) in packed
    assert await definition(at(text, "torchrun", wsc)) == []


async def test_references_list_every_script_that_sets_the_gate(wsc, ws):
    repo = copy_repo(ws, "repo_ov2")
    scripts = repo / "scripts"
    (scripts / "stage3.sh").write_text("OFFLINE_PACKING_BMR=0\nexport OFFLINE_PACKING_BMR\nunset OFFLINE_PACKING_BMR\n")
    (scripts / "other.sh").write_text("export OFFLINE_PACKED_DATA=1\n")  # sets another gate only
    env = scripts / "env" / "packing.sh"
    env_open = "# 说明 🚀\n\nexport OFFLINE_PACKING_BMR='1'\n"  # unsaved: the gate moved to line 2
    open_doc(wsc, env_open, uri=env.as_uri())
    main = scripts / "main.sh"
    text = "export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n" + LAUNCH
    main.write_text(text)
    uri = open_doc(wsc, text, uri=main.as_uri())
    await diagnostics(wsc, uri, 1)

    async def references(declaration: bool) -> dict[str, list[int]]:
        result = await wsc.text_document_references_async(types.ReferenceParams(
            text_document=doc_id(uri), position=at(text, BMR, wsc),
            context=types.ReferenceContext(include_declaration=declaration)))
        out: dict[str, list[int]] = {}
        for loc in result or []:
            out.setdefault(loc.uri, []).append(loc.range.start.line)
        return out

    found = await references(True)
    assert found[uri] == [0]
    assert found[env.as_uri()] == [2]  # the open document's text, not the disk's
    assert sorted(found[(scripts / "stage3.sh").as_uri()]) == [0, 1, 2]
    assert (scripts / "other.sh").as_uri() not in found
    assert not any(u.endswith(".py") for u in found)
    without = await references(False)
    assert uri not in without and without[env.as_uri()] == [2]
    nothing = await wsc.text_document_references_async(types.ReferenceParams(
        text_document=doc_id(uri), position=at(text, "torchrun", wsc),
        context=types.ReferenceContext(include_declaration=True)))
    assert not nothing


# -- inlay hints and completion ------------------------------------------------------------


async def inlay_hints(client, uri: str, text: str, last_line: int | None = None) -> list[types.InlayHint]:
    rows = lines_of(text)
    end = types.Position(line=len(rows) - 1, character=0) if last_line is None else \
        types.Position(line=last_line, character=len(rows[last_line]))
    result = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=doc_id(uri), range=types.Range(start=types.Position(line=0, character=0), end=end)))
    return list(result or [])


async def test_inlay_hints_show_the_verdict_after_each_launch(wsc, ws):
    repo = copy_repo(ws, "repo_ov2")  # its pyproject.toml says lang = "en"
    text = (repo / "scripts" / "stage2.sh").read_text()
    uri = open_doc(wsc, text, uri=(repo / "scripts" / "stage2.sh").as_uri())
    hints = await inlay_hints(wsc, uri, text)
    assert [h.label for h in hints] == ["BMR=1 PACKED_DATA=unset ✗ leakage"]
    launch_line = next(i for i, row in enumerate(lines_of(text)) if row.startswith("torchrun"))
    assert hints[0].position == position_of(text, text.index("\n", text.index("torchrun")), wsc.encoding)
    assert hints[0].position.line == launch_line and hints[0].padding_left

    zh = Path(tempfile.mkdtemp(prefix="zh-", dir=ws))
    (zh / ".packgate.toml").write_text('lang = "zh"\n')
    text = ("echo \"训练 🚀\"; export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\ntorchrun a.py\n"
            "export OFFLINE_PACKED_DATA=0\ntorchrun b.py \\\n  --micro-batch-size 1\n")
    uri = open_doc(wsc, text, uri=(zh / "two.sh").as_uri())
    hints = await inlay_hints(wsc, uri, text)
    assert [h.label for h in hints] == ["BMR=1 PACKED_DATA=1 ✓ 无填充（padding-free）", "BMR=1 PACKED_DATA=0 ✗ 跨样本泄漏"]
    assert hints[0].position == position_of(text, text.index("a.py") + 4, wsc.encoding)
    assert hints[1].position == position_of(text, text.index("size 1") + 6, wsc.encoding)
    assert [h.label for h in await inlay_hints(wsc, uri, text, last_line=2)] == [hints[0].label]


async def test_completion_after_export_and_in_assignments(client):
    text = "export \nOFFLINE_PACKING_BMR=\n" + LAUNCH
    uri = open_doc(client, text)
    await diagnostics(client, uri, 1)

    async def complete(line: int, character: int) -> list[types.CompletionItem]:
        result = await client.text_document_completion_async(types.CompletionParams(
            text_document=doc_id(uri), position=types.Position(line=line, character=character)))
        return list(result.items if isinstance(result, types.CompletionList) else result or [])

    names = await complete(0, len("export "))
    assert [i.label for i in names] == [BMR, PACKED, VQA]
    assert all(i.kind == types.CompletionItemKind.Variable and i.insert_text == i.label for i in names)
    assert "encoding gate" in names[0].detail and "dead" in names[2].detail  # the default profile: ov2
    doc = names[1].documentation
    assert isinstance(doc, types.MarkupContent) and "cu_lengths" in doc.value and CJK.search(doc.value)
    assert [i.label for i in await complete(1, 0)] == [BMR, PACKED, VQA]  # where an assignment starts
    values = await complete(1, len("OFFLINE_PACKING_BMR="))
    assert [(i.label, i.insert_text, i.kind) for i in values] == [
        ("'1'", "'1'", types.CompletionItemKind.Value), ("'0'", "'0'", types.CompletionItemKind.Value)]
    assert await complete(2, len("torchrun ")) == []


async def test_completion_in_a_directive_after_its_equals_sign(client):
    text = "# 中文 😀\n\t# packgate disable=missing-companion,\n" + LAUNCH
    uri = open_doc(client, text)
    await diagnostics(client, uri, 1)
    line = lines_of(text)[1].rstrip("\n")  # the cursor right after the comma
    position = position_of(text, text.index(line) + len(line), client.encoding)
    result = await client.text_document_completion_async(types.CompletionParams(
        text_document=doc_id(uri), position=position))
    items = list(result.items if isinstance(result, types.CompletionList) else result or [])
    assert [i.label for i in items] == [r.code for r in RULES[1:]] + ["all"]
    assert items[0].detail == "dead-var (warning)" and items[0].kind == types.CompletionItemKind.Value


async def test_capabilities_of_the_workspace_features(client):
    caps = client.server_capabilities
    assert caps.definition_provider and caps.references_provider and caps.inlay_hint_provider
    assert set(caps.completion_provider.trigger_characters) == {" ", "="}
    if client.name == PULLING:
        assert caps.diagnostic_provider.workspace_diagnostics and caps.diagnostic_provider.inter_file_dependencies
    else:  # pushed to: VS Code 1.65 cannot pull, Neovim 0.11 cannot be told to pull again
        assert caps.diagnostic_provider is None
    assert caps.workspace.workspace_folders.supported
    # what packgate does not implement is not announced
    assert not caps.rename_provider and not caps.document_symbol_provider and not caps.signature_help_provider


# -- workspace diagnostics -----------------------------------------------------------------


async def test_workspace_diagnostics_with_progress(tmp_path):
    ov2, ov15 = tmp_path / "ov2", tmp_path / "ov15"
    shutil.copytree(FIXTURES / "repo_ov2", ov2)
    shutil.copytree(FIXTURES / "repo_ov15", ov15)
    extra = tmp_path / "more"
    extra.mkdir()
    for i in range(12):
        (extra / f"s{i}.sh").write_text(f"export OFFLINE_PACKING_BMR={i % 2}\n" + LAUNCH)
    (extra / "notes.txt").write_text("export OFFLINE_PACKING_BMR=1\n")
    (extra / "launch").write_text("#!/usr/bin/env bash\nexport OFFLINE_PACKING_BMR=1\n" + LAUNCH)  # a shebang
    os.mkfifo(extra / "pipe.sh")
    (tmp_path / "node_modules").mkdir()
    (tmp_path / "node_modules" / "x.sh").write_text("export OFFLINE_PACKING_BMR=1\n" + LAUNCH)
    stage2, env = ov2 / "scripts" / "stage2.sh", ov2 / "scripts" / "env" / "packing.sh"
    open_text = "export OFFLINE_PACKING_VQA=1\nexport OFFLINE_PACKED_DATA=1\n" + LAUNCH  # clean under 1.5

    async with session(capabilities(PULLING), folders=[tmp_path]) as client:
        opened = open_doc(client, open_text, uri=(ov15 / "scripts" / "stage2.sh").as_uri(), version=7)

        async def workspace(token=None, previous=()) -> dict[str, types.WorkspaceDocumentDiagnosticReport]:
            report = await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(
                previous_result_ids=[types.PreviousResultId(uri=u, value=v) for u, v in previous],
                work_done_token=token))
            return {item.uri: item for item in report.items}

        client.progress_reports["wd-1"] = []  # the client's own token
        first = await workspace("wd-1")
        expected = {stage2.as_uri(), env.as_uri(), (ov15 / "scripts" / "stage2.sh").as_uri(),
                    (extra / "launch").as_uri(), *((extra / f"s{i}.sh").as_uri() for i in range(12))}
        assert set(first) == expected
        assert codes(first[stage2.as_uri()].items) == ["PG001"] and first[stage2.as_uri()].version is None
        assert first[opened].version == 7 and list(first[opened].items) == []  # the open text, not the disk's
        assert codes(first[(extra / "s1.sh").as_uri()].items) == ["PG001"]
        kinds = [type(v).__name__ for v in client.progress_reports["wd-1"]]
        assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd", kinds
        assert "WorkDoneProgressReport" in kinds

        ids = [(u, r.result_id) for u, r in first.items()]
        again = await workspace(previous=ids)
        assert {r.kind for r in again.values()} == {"unchanged"}, {u: r.kind for u, r in again.items()}

        env.write_text("export OFFLINE_PACKING_BMR='1'\nexport OFFLINE_PACKED_DATA='1'\n")
        changed = await workspace(previous=ids)
        assert changed[stage2.as_uri()].kind == "full" and list(changed[stage2.as_uri()].items) == []
        assert changed[env.as_uri()].kind == "full"
        assert changed[(extra / "s1.sh").as_uri()].kind == "unchanged"

        before = set(client.progress_reports)
        for i in range(12):  # enough work for a server-initiated progress
            (extra / f"s{i}.sh").write_text("export OFFLINE_PACKING_BMR=1\nexport OFFLINE_PACKED_DATA=1\n" + LAUNCH)
        fresh = await workspace()
        assert all(list(fresh[(extra / f"s{i}.sh").as_uri()].items) == [] for i in range(12))
        created = set(client.progress_reports) - before
        assert len(created) == 1, created
        kinds = [type(v).__name__ for v in client.progress_reports[created.pop()]]
        assert kinds[0] == "WorkDoneProgressBegin" and kinds[-1] == "WorkDoneProgressEnd", kinds
