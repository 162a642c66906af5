"""In-process checks of the server's own logic: change application, tree reuse, fixAll's edit, settings payloads."""

from __future__ import annotations

import random

import pytest
from lsprotocol import types

from lsp_helpers import index_of, position_of
from packgate.core.engine import Previous, analyze
from packgate.core.settings import Settings
from packgate.core.text import Source
from packgate.lsp import convert
from packgate.lsp import session as session_module
from packgate.lsp.session import Session, minimal_edit, section_of

SCRIPT = ("#!/bin/bash\r\n# 训练 🚀\f第二页\r\nMBS=\"${4:-2}\"\r\nexport OFFLINE_PACKING_BMR='1'\r\n"
          "if [ -n \"$X\" ]; then\r\n  export OFFLINE_PACKED_DATA=1\r\nfi\r\n"
          "ARGS=(\r\n  --micro-batch-size \"${MBS}\"  # 注释\r\n)\r\ntorchrun aiak_training_llm/train.py \"${ARGS[@]}\"\r\n")
SNIPPETS = ["", "1", "0", "\n", "\r\n", "export ", "OFFLINE_PACKED_DATA=1\n", "# 😀 中文\t", "\"", "(", ")",
            "fi\n", " & ", "unset OFFLINE_PACKING_BMR\n", "\u2028", "\f"]


def facts(text: str, **options) -> list[tuple]:
    return [(f.code, f.start, f.end, f.message) for f in analyze(text, **options).findings]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16", "utf-32"])
def test_changes_land_where_the_client_means_them(encoding):
    text = SCRIPT
    rng = random.Random(encoding)
    for _ in range(60):
        a, b = sorted(rng.randrange(len(text) + 1) for _ in range(2))
        if text[a - 1:a + 1] == "\r\n":
            a -= 1  # a client never points between \r and \n
        if text[b - 1:b + 1] == "\r\n":
            b -= 1
        a = min(a, b)
        new = rng.choice(SNIPPETS)
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=position_of(text, a, encoding), end=position_of(text, b, encoding)), text=new)
        source = Source(text)
        start, end = convert.change_offsets(source, change, encoding)
        text_after = Session().splice("file:///x.sh", source, start, end, new)
        assert text_after == text[:a] + new + text[b:]
        text = text_after


def test_reused_trees_give_the_findings_of_a_fresh_parse(monkeypatch):
    reused = []

    def recording(text, **options):
        reused.append(options["previous"].tree is not None)
        return analyze(text, **options)

    monkeypatch.setattr(session_module, "analyze", recording)
    session, uri, text = Session(), "untitled:reuse", SCRIPT
    rng = random.Random(7)
    session.analysis(uri, 0, text)
    for version in range(1, 120):
        a = rng.randrange(len(text) + 1)
        b = min(len(text), a + rng.choice([0, 0, 1, 3, 12]))
        while text[a - 1:a + 1] == "\r\n" or (a < len(text) and "\udc00" <= text[a] <= "\udfff"):
            a -= 1
        b = max(a, b)
        source = Source(text)
        data_a, data_b = len(text[:a].encode()), len(text[:b].encode())
        text = session.splice(uri, source, data_a, data_b, rng.choice(SNIPPETS))
        if version % 3 == 0:  # several changes may arrive between two analyses
            continue
        entry, _ = session.analysis(uri, version, text)
        assert [(f.code, f.start, f.end, f.message) for f in entry.analysis.findings] == facts(text), text
    assert reused[0] is False and all(reused[1:]), reused


def test_whole_document_changes_drop_the_tree():
    session, uri = Session(), "untitled:whole"
    session.analysis(uri, 1, SCRIPT)
    assert uri in session.trees
    assert session.splice(uri, Source(SCRIPT), None, None, "echo hi\n") == "echo hi\n"
    assert uri not in session.trees


@pytest.mark.parametrize("old,new", [
    ("a\r\nb\r\n", "a\r\nX\r\nb\r\n"),
    ("a\r\nb", "a\r\n\r\nb"),
    ("中文", "中文字"),
    ("x😀y", "x😁y"),
    ("same", "same"),
    ("", "new"),
    ("old", ""),
    ("export A=1\r\ntorchrun\r\n", "export A=1\r\nexport B=1\r\ntorchrun\r\n"),
])
def test_minimal_edit_never_splits_a_character_or_a_crlf(old, new):
    o, n = old.encode(), new.encode()
    edit = minimal_edit(o, n)
    if old == new:
        assert edit is None
        return
    assert o[:edit.start] + edit.text.encode() + o[edit.end:] == n
    o[:edit.start].decode(), o[edit.end:].decode()  # both cuts are character boundaries
    assert not (edit.start > 0 and o[edit.start - 1:edit.start + 1] == b"\r\n")
    assert not (0 < edit.end < len(o) and o[edit.end - 1:edit.end + 1] == b"\r\n")


def test_fix_all_converges_like_check_fix():
    text = ("export OFFLINE_PACKED_DATA='1' & export OFFLINE_PACKING_BMR='1'\n"
            "torchrun aiak_training_llm/train.py --micro-batch-size 4\n")
    session, uri = Session(), "untitled:fixall"
    session.set_init_options({"profile": "ov2"})  # named: under an assumed one the gate fixes are unsafe
    entry, _ = session.analysis(uri, 1, text)
    edit = session.fix_all(uri, entry)
    fixed = (text.encode()[:edit.start] + edit.text.encode() + text.encode()[edit.end:]).decode()
    left = analyze(fixed, settings=entry.settings).findings
    assert not [f for f in left if any(x.safe and x.kind == "fix" for x in f.fixes)], fixed


@pytest.mark.parametrize("raw,expected,problems", [
    (None, {}, 0),
    ({"packgate": {"lang": "zh"}}, {"lang": "zh"}, 0),
    ({"packgate.lang": "en", "other.x": 1}, {"lang": "en"}, 0),
    ({"lang": "en", "profile": "ov15"}, {"lang": "en", "profile": "ov15"}, 0),
    ({"packgate": "zh"}, {}, 1),
    ([1, 2], {}, 1),
])
def test_settings_payload_shapes(raw, expected, problems):
    found: list[str] = []
    assert section_of(raw, found) == expected
    assert len(found) == problems


def test_invalid_editor_value_keeps_the_layer_below_and_is_reported_once():
    session = Session()
    assert session.set_init_options({"packgate": {"lang": "zh"}}) == []
    problems = session.set_editor_section({"packgate": {"lang": "klingon", "profile": "ov15"}})
    assert session.editor == Settings(lang="zh", profile="ov15")
    assert len(problems) == 1 and "lang" in problems[0]
    assert session.unseen(problems) == problems
    assert session.unseen(session.set_editor_section({"packgate": {"lang": "klingon"}})) == []


@pytest.mark.parametrize("only,kind,wanted", [
    (None, "quickfix", True),
    (["quickfix"], "quickfix", True),
    (["source"], "source.fixAll.packgate", True),
    (["source.fixAll"], "source.fixAll.packgate", True),
    (["source.fixAll.packgate"], "source.fixAll.packgate", True),
    (["source.fix"], "source.fixAll.packgate", False),
    (["refactor"], "quickfix", False),
    ([""], "quickfix", True),
])
def test_code_action_kind_filter_is_hierarchical(only, kind, wanted):
    assert convert.wants_kind(only, kind) is wanted


def test_positions_count_the_negotiated_units():
    text = "a\f😀\r\nb中\rc"
    source = Source(text)
    for encoding in ("utf-8", "utf-16", "utf-32"):
        for i in range(len(text) + 1):
            if text[i - 1:i + 1] == "\r\n":
                continue
            offset = len(text[:i].encode())
            pos = convert.to_position(source, offset, encoding)
            assert pos == position_of(text, i, encoding)
            assert index_of(text, pos.line, pos.character, encoding) == i
            assert convert.to_offset(source, pos, encoding) == offset


def test_workspace_scan_finds_scripts_as_the_cli_does_and_never_blocks(tmp_path):
    from packgate.lsp import workspace
    root, outside = tmp_path / "ws", tmp_path / "outside"
    (root / "sub").mkdir(parents=True)
    outside.mkdir()
    (root / "a.sh").write_text("echo\n")
    (root / "sub" / "b.bash").write_text("echo\n")
    (root / "sub" / "run").write_text("#!/usr/bin/env bash\necho\n")
    (root / "notes").write_text("plain text\n")
    (root / "x.py").write_text("print()\n")
    (root / "node_modules").mkdir()
    (root / "node_modules" / "c.sh").write_text("echo\n")
    import os
    os.mkfifo(root / "pipe")  # no suffix: the shebang test would block on it
    os.mkfifo(root / "pipe.sh")
    (outside / "evil.sh").write_text("echo\n")
    (root / "evil.sh").symlink_to(outside / "evil.sh")
    (root / "inside.sh").symlink_to(root / "a.sh")
    real = os.path.realpath(root)
    found, cut = workspace.scripts([real])
    assert [os.path.relpath(p, real) for p in found] == ["a.sh", "inside.sh", "sub/b.bash", "sub/run"]
    assert not cut
    assert workspace.scripts([real], workspace.ScanLimits(2, 0)) == (found[:2], workspace.CUT_SCRIPTS)
    assert workspace.scripts([real, os.path.join(real, "sub")])[0] == found  # nested folders: once each


@pytest.mark.parametrize("encoding,expected", [("utf-8", (36, 55)), ("utf-16", (30, 49)), ("utf-32", (29, 48))])
def test_python_read_columns_are_converted_with_the_line_text(encoding, expected):
    from packgate.core.navigation import Location
    line = 'L = ("数据 🚀", os.environ.get("OFFLINE_PACKED_DATA"))'
    start = line.index("OFFLINE")
    loc = Location("/p/x.py", 0, 0, 3, start, start + len("OFFLINE_PACKED_DATA"))
    got = convert.to_locations([loc], "file:///doc.sh", lambda path: Source(""), lambda path, n: line, encoding)
    assert [(g.uri, g.range.start.line, g.range.start.character, g.range.end.character) for g in got] == \
        [("file:///p/x.py", 3, *expected)]
    assert (position_of(line, start, encoding).character, position_of(line, start + 19, encoding).character) == expected
    # an unreadable line falls back to code points
    got = convert.to_locations([loc, loc], "file:///doc.sh", lambda path: Source(""), lambda path, n: None, encoding)
    assert len(got) == 1 and got[0].range.start.character == start


def test_memory_stays_bounded_with_many_documents(monkeypatch):
    """Only the KEEP_FULL most recently used documents keep their model and flow facts, and at
    most KEEP_TREES keep a parse tree; the others keep their findings, which equal a fresh
    analysis', and a request needing more analyses them again."""
    monkeypatch.setattr(session_module, "KEEP_FULL", 3)
    monkeypatch.setattr(session_module, "KEEP_TREES", 3)
    s = Session()
    uris = [f"untitled:doc{i}" for i in range(8)]
    for uri in uris:
        s.analysis(uri, 1, SCRIPT)
    full = [u for u in uris if not s.entries[u].analysis.slim]
    assert full == uris[-3:]
    assert len(s.trees) <= 3
    entry, _ = s.analysis(uris[0], 1, SCRIPT, full=False)
    assert entry.analysis.slim and entry.analysis.script is None
    assert entry.analysis.launch_summaries == analyze(SCRIPT).launch_summaries
    assert [(f.code, f.start, f.end) for f in entry.analysis.findings] == \
        [(c, a, b) for c, a, b, _ in facts(SCRIPT)]
    result_id = entry.result_id
    entry, _ = s.analysis(uris[0], 1, SCRIPT)
    assert not entry.analysis.slim and entry.analysis.script is not None
    assert entry.result_id == result_id  # the same findings: a pulling client sees `unchanged`
    assert {u for u in uris if not s.entries[u].analysis.slim} == {uris[6], uris[7], uris[0]}


COMMENTED = ("#!/bin/bash\r\n# 训练脚本 🚀 stage 2\r\nMBS=\"${4:-2}\"  # 注释 micro batch\r\n"
             "export OFFLINE_PACKING_BMR='1'  # the encoding gate\r\n\t# tab-indented note\r\n"
             "if [ -n \"$X\" ]; then\r\n  export OFFLINE_PACKED_DATA=1 # on one branch\r\nfi\r\n"
             "# packgate disable=PG008\r\nA=a#b\r\n"
             "ARGS=(\r\n  --micro-batch-size \"${MBS}\"  # 注释\r\n  # --micro-batch-size 4\r\n)\r\n"
             "export OFFLINE_PACKING_VQA=1 # legacy\r\n"
             "torchrun aiak_training_llm/train.py \"${ARGS[@]}\" # launch 😀\r\n# the end")
COMMENT_SNIPPETS = ["x", "", "中", "😀", "$", "\"", "'", "(", "`", "\\", "\t", " ", "packgate disable=PG001",
                    "--micro-batch-size 8", "export OFFLINE_PACKED_DATA=1", "\u2028", "\f", "\n", "\r\n", "#"]


def _full_facts(findings) -> list[tuple]:
    return [(f.code, f.start, f.end, f.line, f.column, f.end_line, f.end_column, f.message,
             tuple((x.description, x.edits) for x in f.fixes), f.related, dict(f.data)) for f in findings]


def test_typing_in_comments_moves_the_findings_exactly(monkeypatch):
    """Edits inside ordinary comments skip the analysis (Session.shifts): the findings, fixes,
    related ranges and data must equal a fresh analysis' after every change; any other change,
    a line break, a `#!` line or a `# packgate` directive analyses again."""
    from packgate.core.parse import parse_bytes
    analysed = []

    def recording(text, **options):
        analysed.append(text)
        return analyze(text, **options)

    monkeypatch.setattr(session_module, "analyze", recording)
    session, uri, text = Session(), "untitled:comments", COMMENTED
    rng = random.Random(11)
    session.analysis(uri, 0, text, full=False)
    moved = 0
    for version in range(1, 200):
        data = text.encode("utf-8", "surrogatepass")
        comments = []
        stack = [parse_bytes(data).tree.root_node]
        while stack:
            node = stack.pop()
            if node.type == "comment":  # its text after the `#` (tree-sitter counts a CRLF's \r in)
                comments.append((node.start_byte + 1, node.end_byte - (data[node.end_byte - 1:node.end_byte] == b"\r")))
            stack.extend(node.children)
        if rng.random() < 0.85 and comments:
            s, e = rng.choice(comments)
            a = rng.randrange(s, e + 1)
            b = min(e, a + rng.choice([0, 0, 1, 2, 5]))
        else:
            a = rng.randrange(len(data) + 1)
            b = min(len(data), a + rng.choice([0, 1, 3]))
        prefix = data[:a].decode("utf-8", "ignore")
        a = len(prefix.encode())
        b = max(a, len(data[:b].decode("utf-8", "ignore").encode()))
        if data[a - 1:a + 1] == b"\r\n" or data[b - 1:b + 1] == b"\r\n":
            continue
        before = len(analysed)
        text = session.splice(uri, Source(text), a, b, rng.choice(COMMENT_SNIPPETS))
        if version % 4 == 0:
            continue  # several changes between two analyses
        entry, _ = session.analysis(uri, version, text, full=False)
        moved += len(analysed) == before
        state = session.trees.get(uri)
        cuts = state.script.cuts if state is not None and state.script is not None else None
        # an edit that broke a statement reads the text in pieces (parse/contain.py): the same pieces from scratch
        fresh = analyze(text) if cuts is None else analyze(text, previous=Previous(cuts=cuts))
        assert _full_facts(entry.analysis.findings) == _full_facts(fresh.findings), text
        assert entry.analysis.launch_summaries == fresh.launch_summaries  # inlay hints, status bar
        if version % 9 == 0:  # a request needing the model analyses fully, with the same findings
            full, _ = session.analysis(uri, version, text)
            assert not full.analysis.slim and _full_facts(full.analysis.findings) == _full_facts(entry.analysis.findings)
    assert moved > 15, moved  # the shortcut was taken often
    assert len(analysed) > 20  # ... and not for everything


@pytest.mark.parametrize("before,at,typed,shortcut", [
    # a directive typed into a comment changes the findings: analysed again
    ("export OFFLINE_PACKING_BMR=1\n# \ntorchrun aiak_training_llm/train.py\n", "# ", "packgate disable=PG001", False),
    # ... also when it is completed by the last keystroke
    ("export OFFLINE_PACKING_BMR=1\n# packgat\ntorchrun aiak_training_llm/train.py\n", "# packgat", "e disable=PG001", False),
    # `#!` typed on the first line moves the file-wide disable fix below it
    ("# x\nexport OFFLINE_PACKING_BMR=1\ntorchrun aiak_training_llm/train.py\n", "#", "!", False),
    # an ordinary comment: the findings only move
    ("export OFFLINE_PACKING_BMR=1\n# note\ntorchrun aiak_training_llm/train.py\n", "# no", "中文 😀", True),
])
def test_comment_edits_that_change_findings_are_analysed(monkeypatch, before, at, typed, shortcut):
    analysed = []

    def recording(text, **options):
        analysed.append(text)
        return analyze(text, **options)

    monkeypatch.setattr(session_module, "analyze", recording)
    session, uri = Session(), "untitled:directive"
    session.analysis(uri, 1, before, full=False)
    offset = len(before[:before.index(at) + len(at)].encode())
    text = session.splice(uri, Source(before), offset, offset, typed)
    entry, _ = session.analysis(uri, 2, text, full=False)
    assert (len(analysed) == 1) == shortcut
    assert _full_facts(entry.analysis.findings) == _full_facts(analyze(text).findings)


class _Cycle:
    pass


def _collector_scenario(body) -> None:
    """Run `await body(server, alive, memory module)` in an event loop: a fresh server that
    collects when the client is quiet, and `alive`, a weak reference to an object only the cycle
    collector frees. The collector is left enabled and unfrozen after."""
    import asyncio
    import gc
    import weakref

    from packgate.lsp import memory as memory_module
    from packgate.lsp import server as server_module

    async def scenario():
        ls = server_module.create_server()
        ls.collect_when_idle()
        node = _Cycle()
        node.me = node
        alive = weakref.ref(node)
        del node
        await body(ls, alive, memory_module)

    try:
        asyncio.run(scenario())
    finally:
        gc.unfreeze()
        gc.enable()


def test_the_server_collects_cycles_between_keystrokes():
    """Automatic collection is off in the server; a quiet client gets a full collection."""
    import asyncio
    import gc
    import time

    async def body(ls, alive, memory):
        assert not gc.isenabled()
        junk = [[i] for i in range(memory.GC_IDLE_MIN * 3)]  # allocations to collect after
        ls.last_activity = time.monotonic()
        await asyncio.sleep(memory.IDLE_GC * 0.5)
        assert alive() is not None  # busy: not yet
        await asyncio.sleep(memory.IDLE_GC * 3)
        assert alive() is None and junk

    _collector_scenario(body)


def test_a_busy_server_sets_its_backlog_aside_and_collects_it_when_quiet(monkeypatch):
    """Past GC_BACKLOG allocations while the client is busy, the objects are frozen (no pause
    in the middle of a keystroke); the next quiet moment unfreezes and collects them."""
    import asyncio
    import gc
    import time

    from packgate.lsp import memory as memory_module
    monkeypatch.setattr(memory_module, "GC_BACKLOG", 5_000)

    async def body(ls, alive, memory):
        junk = [[i] for i in range(20_000)]
        for _ in range(6):  # a busy client: a message every tenth of the idle time
            ls.last_activity = time.monotonic()
            await asyncio.sleep(memory.IDLE_GC * 0.5)
        assert gc.get_freeze_count() > 0 and alive() is not None
        await asyncio.sleep(memory.IDLE_GC * 3)
        assert gc.get_freeze_count() == 0 and alive() is None and junk

    _collector_scenario(body)


def test_a_workspace_pass_is_not_a_quiet_moment(monkeypatch):
    """While a workspace pass runs the client says nothing, yet the server is busy: no full
    collection then (the backlog is frozen); one follows the pass."""
    import asyncio
    import gc

    from packgate.lsp import memory as memory_module
    monkeypatch.setattr(memory_module, "GC_BACKLOG", 5_000)

    async def body(ls, alive, memory):
        ls.passes += 1
        junk = [[i] for i in range(20_000)]
        await asyncio.sleep(memory.IDLE_GC * 3)
        assert gc.get_freeze_count() > 0 and alive() is not None
        ls.passes -= 1
        await asyncio.sleep(memory.IDLE_GC * 3)
        assert gc.get_freeze_count() == 0 and alive() is None and junk

    _collector_scenario(body)


def test_typing_waits_only_after_a_slow_incremental_analysis():
    """A slow analysis makes the next keystroke wait for a pause in the typing (a burst costs
    one analysis), except when it was the full analysis of an open: the next one starts from
    its tree and walk, and is not judged by it."""
    from packgate.core.text import Source
    from packgate.lsp.session import MAX_PAUSE, SLOW, Session

    session, uri = Session(), "untitled:pause"
    text = "export OFFLINE_PACKING_BMR=1\ntorchrun aiak_training_llm/train.py\n"
    entry, _ = session.analysis(uri, 1, text)
    assert not entry.incremental
    entry.elapsed = SLOW * 2
    assert session.pause_before(uri) == 0.0  # the open was slow: typing is not made to wait
    text = session.splice(uri, Source(text), 0, 0, "X=1\n")
    entry, _ = session.analysis(uri, 2, text)
    assert entry.incremental
    entry.elapsed = SLOW * 2
    assert session.pause_before(uri) == SLOW * 2  # a slow keystroke: wait for a pause
    entry.elapsed = SLOW / 2
    assert session.pause_before(uri) == 0.0
    entry.elapsed = MAX_PAUSE * 3
    assert session.pause_before(uri) == MAX_PAUSE
    session.documents[uri].tree = None  # no tree to start from: the next analysis is a full one as well
    entry.incremental = False
    entry.elapsed = SLOW * 2
    assert session.pause_before(uri) == SLOW * 2


def test_the_server_pauses_the_cycle_collector_before_importing_pygls():
    """`packgate lsp` turns automatic collection off before pygls and lsprotocol are imported:
    otherwise a full collection among their objects (about 25 ms) lands in every start. The
    server collects when the client is quiet instead (lsp/memory.py)."""
    import subprocess
    import sys
    code = (
        "import gc, sys\n"
        "real = gc.disable\n"
        "def disable():\n"
        "    print('PAUSED', 'lsprotocol.types' in sys.modules, flush=True)\n"
        "    real()\n"
        "gc.disable = disable\n"
        "from packgate.cli.main import main\n"
        "main(['lsp'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], input="", capture_output=True, text=True, timeout=60)
    assert out.stdout.splitlines()[:1] == ["PAUSED False"], out.stdout + out.stderr


def test_the_loader_of_sourced_files_costs_a_keystroke_nothing_until_a_script_sources(tmp_path):
    """loader_for builds its SourceLoader (the workspace root and every open document's real
    path) at the first `source`, once: a script that sources nothing pays nothing per keystroke."""
    from types import SimpleNamespace

    from packgate.lsp.language_server import PackgateServer
    (tmp_path / "lib.sh").write_text("export OFFLINE_PACKED_DATA=1\n", encoding="utf-8")
    unsaved = str(tmp_path / "open.sh")
    calls: list = []
    fake = SimpleNamespace(root_for=lambda path: calls.append("root") or str(tmp_path),
                           overlay=lambda: calls.append("overlay") or {unsaved: "export OFFLINE_PACKING_BMR=1\n"})
    load = PackgateServer.loader_for(fake, str(tmp_path / "main.sh"))
    assert calls == []
    assert load(str(tmp_path / "lib.sh")) == ("export OFFLINE_PACKED_DATA=1\n", None)
    assert load(unsaved) == ("export OFFLINE_PACKING_BMR=1\n", None)  # the editor's text, unsaved
    assert load("/etc/passwd")[0] is None  # outside the root
    assert calls == ["root", "overlay"]
