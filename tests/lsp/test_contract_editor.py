"""The launch contract in the editor, over the wire: hover, definition, completion and references
on any variable or trainer option of a launcher, in a copy of tests/fixtures/repo_contract, with a
Chinese comment, an emoji, a tab and CRLF line ends before the words (UTF-16 or UTF-8 columns)."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types

from lsp_helpers import CLIENTS, capabilities, diagnostics, lines_of, open_doc, position_of, session, text_in

pytestmark = pytest.mark.asyncio(loop_scope="session")

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "repo_contract"
AWKWARD = "# 中文注释 😀\r\n\t"
LAUNCHERS = ("stage_1_alignment.sh", "stage_2_instruct_2b.sh", "stage_2_instruct_4b.sh")


@pytest.fixture(scope="module")
def ws(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("contract-ws")


@pytest_asyncio.fixture(scope="module", loop_scope="session", params=CLIENTS)
async def cc(request, ws):
    """A server with `ws` as its workspace folder, per client capability set."""
    async with session(capabilities(request.param), folders=[ws]) as client:
        client.name = request.param  # type: ignore[attr-defined]
        yield client


def copy_repo(ws: Path) -> Path:
    target = Path(tempfile.mkdtemp(prefix="repo_contract-", dir=ws))
    shutil.copytree(FIXTURE, target, dirs_exist_ok=True)
    return target


async def opened(client, repo: Path, name: str, text: str) -> str:
    """A launcher written beside the fixture's, opened and analysed."""
    path = repo / "examples" / "quick_start" / name
    path.write_bytes(text.encode())
    uri = open_doc(client, text, uri=path.as_uri())
    await diagnostics(client, uri, 1)
    return uri


def at(text: str, needle: str, client, shift: int = 2, nth: int = 0) -> types.Position:
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    return position_of(text, i + shift, client.encoding)


def doc_id(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def items_of(result) -> list[types.CompletionItem]:
    return list(result.items if isinstance(result, types.CompletionList) else result or [])


LAUNCH = (AWKWARD + "export ENABLE_SWANLAB=1\r\n" + AWKWARD +
          "torchrun --nproc_per_node 8 aiak_training_llm/train.py \\\r\n"
          "\t--micro-batch-size 1 --seq-length 4096\r\n")


async def test_hover_on_a_variable_the_code_reads(cc, ws):
    repo = copy_repo(ws)
    uri = await opened(cc, repo, "hover.sh", LAUNCH)
    result = await cc.text_document_hover_async(types.HoverParams(
        text_document=doc_id(uri), position=at(LAUNCH, "ENABLE_SWANLAB", cc)))
    value = result.contents.value
    assert "aiak_training_llm/models/encoder.py:13" in value and '== "1"' in value
    assert (repo / "aiak_training_llm/models/encoder.py").as_uri() + "#L13" in value
    assert text_in(LAUNCH, result.range, cc.encoding) == "ENABLE_SWANLAB"


async def test_hover_on_a_trainer_option(cc, ws):
    repo = copy_repo(ws)
    uri = await opened(cc, repo, "option.sh", LAUNCH)
    result = await cc.text_document_hover_async(types.HoverParams(
        text_document=doc_id(uri), position=at(LAUNCH, "--micro-batch-size", cc, shift=5)))
    value = result.contents.value
    assert "aiak_megatron/megatron/training/arguments.py:18" in value and "`int`" in value
    assert "cu_lengths" in value  # the micro-batch hover it had before stays
    assert text_in(LAUNCH, result.range, cc.encoding) == "--micro-batch-size"


async def test_definition_of_an_option_jumps_to_its_add_argument(cc, ws):
    repo = copy_repo(ws)
    uri = await opened(cc, repo, "definition.sh", LAUNCH)
    result = await cc.text_document_definition_async(types.DefinitionParams(
        text_document=doc_id(uri), position=at(LAUNCH, "--seq-length", cc, shift=4)))
    [loc] = result
    arguments = repo / "aiak_megatron" / "megatron" / "training" / "arguments.py"
    assert loc.uri == arguments.as_uri()
    code = arguments.read_text()
    row = lines_of(code)[loc.range.start.line]
    assert "add_argument" in row and text_in(code, loc.range, cc.encoding) == "--seq-length"


async def test_definition_of_a_variable_jumps_to_the_code_reading_it(cc, ws):
    repo = copy_repo(ws)
    uri = await opened(cc, repo, "variable.sh", LAUNCH)
    result = await cc.text_document_definition_async(types.DefinitionParams(
        text_document=doc_id(uri), position=at(LAUNCH, "ENABLE_SWANLAB", cc)))
    encoder = repo / "aiak_training_llm" / "models" / "encoder.py"
    assert [loc.uri for loc in result] == [encoder.as_uri()]
    assert text_in(encoder.read_text(), result[0].range, cc.encoding) == "ENABLE_SWANLAB"


async def test_completion_offers_the_parsers_options(cc, ws):
    repo = copy_repo(ws)
    text = AWKWARD + "torchrun aiak_training_llm/train.py \\\r\n\t--bf16 --mic\r\n"
    uri = await opened(cc, repo, "complete.sh", text)
    end = text.index("--mic") + len("--mic")
    result = await cc.text_document_completion_async(types.CompletionParams(
        text_document=doc_id(uri), position=position_of(text, end, cc.encoding)))
    items = {i.label: i for i in items_of(result)}
    mbs = items["--micro-batch-size"]
    assert mbs.kind == types.CompletionItemKind.Property and mbs.detail == "int"
    assert text_in(text, mbs.text_edit.range, cc.encoding) == "--mic" and mbs.text_edit.new_text == mbs.label
    # not in a comment
    comment = text.index("中文")
    assert not items_of(await cc.text_document_completion_async(types.CompletionParams(
        text_document=doc_id(uri), position=position_of(text, comment, cc.encoding))))


async def test_completion_offers_the_names_the_code_reads(cc, ws):
    repo = copy_repo(ws)
    text = AWKWARD + "export SCA\r\n"
    uri = await opened(cc, repo, "names.sh", text)
    end = text.index("SCA") + 3
    result = await cc.text_document_completion_async(types.CompletionParams(
        text_document=doc_id(uri), position=position_of(text, end, cc.encoding)))
    items = {i.label: i for i in items_of(result)}
    scatter = items["SCATTER_BEFORE_PATCH_EMBED"]
    assert scatter.kind == types.CompletionItemKind.Variable and "encoder.py:5" in scatter.detail


async def test_references_list_every_launcher_that_sets_the_name(cc, ws):
    repo = copy_repo(ws)
    path = repo / "examples" / "quick_start" / LAUNCHERS[0]
    text = path.read_text()
    uri = open_doc(cc, text, uri=path.as_uri())
    await diagnostics(cc, uri, 1)
    result = await cc.text_document_references_async(types.ReferenceParams(
        text_document=doc_id(uri), position=at(text, "PYTORCH_CUDA_ALLOC_CONF", cc),
        context=types.ReferenceContext(include_declaration=True)))
    mine = {}
    for loc in result:
        if loc.uri.startswith(repo.as_uri() + "/"):
            mine.setdefault(loc.uri, []).append(loc.range.start.line)
    expected = {(repo / "examples" / "quick_start" / n).as_uri() for n in LAUNCHERS}
    assert set(mine) == expected
    assert all(len(lines) == 2 for lines in mine.values())  # both exports of each


async def test_a_python_change_the_file_watcher_reports_reaches_the_hover(cc, ws):
    repo = copy_repo(ws)
    uri = await opened(cc, repo, "watched.sh", LAUNCH)
    params = types.HoverParams(text_document=doc_id(uri), position=at(LAUNCH, "ENABLE_SWANLAB", cc))
    assert "encoder.py:13" in (await cc.text_document_hover_async(params)).contents.value
    encoder = repo / "aiak_training_llm" / "models" / "encoder.py"
    encoder.write_text("# moved down a line\n" + encoder.read_text())
    cc.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=encoder.as_uri(), type=types.FileChangeType.Changed)]))
    await diagnostics(cc, uri)
    value = (await cc.text_document_hover_async(params)).contents.value
    assert "encoder.py:14" in value and "encoder.py:13" not in value
