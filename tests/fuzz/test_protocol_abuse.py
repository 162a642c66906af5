"""Protocol abuse against the real `packgate lsp` over stdio, with hand-written JSON-RPC framing.

What a broken or hostile client can send: malformed JSON, messages that are not requests,
wrong-typed params, unknown methods, notifications for documents never opened, versions out
of order, requests before initialize and after shutdown, exit with and without shutdown. The
server must answer as the LSP and JSON-RPC 2.0 specifications say, never die, and keep no
state from a document once it is closed.
"""

from __future__ import annotations

import json
import time

import pytest

from rawlsp import RawServer, capabilities, frame

from packgate.core.engine import analyze
from packgate.core.settings import Settings

BAD = "export OFFLINE_PACKING_BMR=1\ntorchrun train.py --micro-batch-size 1\n"
GOOD = "export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\ntorchrun train.py --micro-batch-size 1\n"
URI = "file:///packgate-abuse/train.sh"
HOVER = {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 10}}
ANSWER = 30.0  # seconds to wait for an answer that must come (a loaded machine, a cold start)


def publishes(server: RawServer, uri: str) -> list[tuple]:
    return [(n["params"].get("version"), [d["code"] for d in n["params"]["diagnostics"]])
            for n in server.notes if n["method"] == "textDocument/publishDiagnostics" and n["params"]["uri"] == uri]


def open_doc(server: RawServer, text: str, version: int = 1, uri: str = URI) -> None:
    server.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "shellscript",
                                                            "version": version, "text": text}})


def wait_publish(server: RawServer, uri: str, version, after: int = 0) -> list:
    """The codes of the first publish for (uri, version) among the notifications after index `after`."""
    def match(n) -> bool:
        return n["method"] == "textDocument/publishDiagnostics" and n["params"]["uri"] == uri \
            and n["params"].get("version") == version
    note = server.wait_note(match, 30, start=after)
    return [d["code"] for d in note["params"]["diagnostics"]]


def alive(server: RawServer) -> None:
    """The server still analyses and answers."""
    uri = f"file:///packgate-abuse/alive-{time.monotonic_ns()}.sh"
    open_doc(server, BAD, 1, uri)
    assert wait_publish(server, uri, 1) == ["PG001"]
    answer = server.request("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 10}})
    assert answer["result"]["contents"]["value"]


@pytest.fixture
def server():
    """A fresh server, for tests that end it or judge everything it logged."""
    with RawServer() as s:
        s.initialize(capabilities("utf-16"))
        yield s


@pytest.fixture(scope="module")
def shared():
    """One server the abuse tests take turns on: what one test does must not break the next.
    It must still shut down and exit cleanly at the end."""
    with RawServer() as s:
        s.initialize(capabilities("utf-16"))
        yield s
        assert s.shutdown_and_exit() == 0


# -- malformed messages --------------------------------------------------------------------

GARBAGE = {
    "not json": b"{this is not json",
    "truncated json": b'{"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "par',
    "a number": b"42",
    "an empty batch": b"[]",
    "null": b"null",
    "invalid utf-8": b'{"jsonrpc": "2.0", "method": "x\xff\xfe"}',
    "no method": json.dumps({"jsonrpc": "2.0", "id": 77}).encode(),
    "method not a string": json.dumps({"jsonrpc": "2.0", "id": 78, "method": 42}).encode(),
    "wrong jsonrpc version": json.dumps({"jsonrpc": "1.0", "id": 79, "method": "textDocument/hover",
                                         "params": HOVER}).encode(),
    "nested 100000 deep": b'{"jsonrpc":"2.0","id":80,"method":"textDocument/hover","params":'
                          + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "params a string": json.dumps({"jsonrpc": "2.0", "id": 81, "method": "textDocument/hover",
                                   "params": "x"}).encode(),
}


def test_malformed_messages_do_not_kill_the_server(shared):
    for body in GARBAGE.values():
        shared.send_bytes(frame(body))
    # Framing variants a client may legally send: extra headers, a Content-Type.
    body = json.dumps({"jsonrpc": "2.0", "id": "framed", "method": "textDocument/hover", "params": HOVER}).encode()
    shared.send_bytes(b"Content-Length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"
                      % len(body) + body)
    assert shared.wait_answer("framed", 30) == {"jsonrpc": "2.0", "id": "framed", "result": None}
    alive(shared)
    assert shared.garbage == []  # every frame the server wrote was JSON


def test_invalid_messages_are_answered(server):
    # Unparseable JSON would get -32700 with id null, which pygls' and vscode-jsonrpc's own clients
    # reject as a response without an id: the server logs and drops it (see report_server_error).
    expected = {"no method": (-32600, 77), "method not a string": (-32600, 78)}
    got = {}
    for name, (code, msg_id) in expected.items():
        server.send_bytes(frame(GARBAGE[name]))
        deadline = time.monotonic() + ANSWER
        while time.monotonic() < deadline and msg_id not in server.answers:
            time.sleep(0.02)
        answer = server.answers.pop(msg_id, None)
        got[name] = answer["error"]["code"] if answer and "error" in answer else answer
    assert got == {name: code for name, (code, _) in expected.items()}


def test_wrong_typed_params_are_invalid_params(shared):
    cases = [
        ("textDocument/hover", {"textDocument": 42, "position": "nowhere"}),
        ("textDocument/hover", None),
        ("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": -1, "character": 0}}),
        ("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": 2**40, "character": 0}}),
        ("textDocument/codeAction", {"textDocument": {"uri": URI}, "range": [], "context": {}}),
        ("textDocument/diagnostic", {"textDocument": None}),
    ]
    for method, params in cases:
        answer = shared.request(method, params)
        assert answer.get("error", {}).get("code") == -32602, (method, params, answer)
    # The same garbage as notifications: nothing to answer, nothing may break.
    shared.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "text": 42}})
    shared.notify("textDocument/didChange", {"textDocument": {"uri": URI}, "contentChanges": "x"})
    shared.notify("workspace/didChangeConfiguration", {"settings": [1, 2, 3]})
    shared.notify("textDocument/didClose", None)
    alive(shared)


def test_unknown_methods(shared):
    for method in ("packgate/noSuchMethod", "$/noSuchRequest", "textDocument/noSuch"):
        answer = shared.request(method, {})
        assert answer["error"]["code"] == -32601, answer
    shared.notify("$/noSuchNotification", {})
    shared.notify("packgate/noSuchNotification", {"x": 1})
    shared.notify("$/cancelRequest", {"id": 123456})  # nothing in flight with that id
    shared.notify("$/setTrace", {"value": "verbose"})
    alive(shared)


def test_client_mistakes_are_not_logged_as_internal_errors(server):
    server.request("packgate/noSuchMethod", {})
    server.request("textDocument/hover", {"textDocument": 42, "position": "nowhere"})
    alive(server)
    assert server.errors_logged() == []


def test_json_that_is_not_json_rpc(server):
    """`{}` and `{"id": 5}` without "jsonrpc": "2.0" reached pygls as plain dicts, and the
    AttributeError was logged to the client as packgate's internal error."""
    server.send_bytes(frame(b"{}"))
    server.send_bytes(frame(json.dumps({"id": 5, "method": "textDocument/hover"}).encode()))
    answer = server.wait_answer(5, 10)
    assert answer["error"]["code"] == -32600
    alive(server)
    assert server.errors_logged() == []


# -- documents ----------------------------------------------------------------------------

def test_notifications_for_documents_never_opened(shared):
    ghost = "file:///packgate-abuse/ghost.sh"
    shared.notify("textDocument/didChange", {"textDocument": {"uri": ghost, "version": 3},
                                             "contentChanges": [{"text": BAD}]})
    shared.notify("textDocument/didChange", {"textDocument": {"uri": ghost, "version": 4}, "contentChanges": [
        {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "x"}]})
    shared.notify("textDocument/didSave", {"textDocument": {"uri": ghost}})
    shared.notify("textDocument/didClose", {"textDocument": {"uri": ghost}})
    assert shared.request("textDocument/hover", {"textDocument": {"uri": ghost},
                                                 "position": {"line": 0, "character": 10}})["result"] is None
    assert shared.request("textDocument/codeAction", {"textDocument": {"uri": ghost}, "range": {
        "start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}},
        "context": {"diagnostics": []}})["result"] in (None, [])
    report = shared.request("textDocument/diagnostic", {"textDocument": {"uri": ghost}})["result"]
    assert report["kind"] == "full" and report["items"] == []
    alive(shared)
    # Nothing about the ghost was ever diagnosed: at most the empty list a close sends.
    assert all(codes == [] for _, codes in publishes(shared, ghost))


def test_versions_out_of_order_and_reopen(shared):
    """Stale versions are applied as sent (the client's text is the truth) and published with the
    version they came with; opening again replaces everything the server knew."""
    mark = len(shared.notes)
    open_doc(shared, BAD, 5)
    assert wait_publish(shared, URI, 5, mark) == ["PG001"]
    shared.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 3},
                                             "contentChanges": [{"text": GOOD}]})
    assert wait_publish(shared, URI, 3, mark) == []
    shared.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 3}, "contentChanges": [
        {"range": {"start": {"line": 0, "character": 29}, "end": {"line": 0, "character": 49}}, "text": ""}]})
    time.sleep(0.3)
    shared.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 4}, "contentChanges": [
        {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "# x\n"}]})
    assert wait_publish(shared, URI, 4, mark) == ["PG001"]  # the pair was cut back to the BMR gate alone
    # didOpen again without a close, at a lower version, with different text.
    mark = len(shared.notes)
    open_doc(shared, "echo hello\n", 1)
    assert wait_publish(shared, URI, 1, mark) == []
    assert shared.request("textDocument/hover", HOVER)["result"] is None  # no gate at line 0 any more
    # Close and reopen with the first text: diagnosed afresh, not from a cache.
    shared.notify("textDocument/didClose", {"textDocument": {"uri": URI}})
    mark = len(shared.notes)
    open_doc(shared, BAD, 1)
    assert wait_publish(shared, URI, 1, mark) == ["PG001"]
    shared.notify("textDocument/didClose", {"textDocument": {"uri": URI}})


def test_closed_document_leaves_nothing_behind(shared):
    """A closed document's tree is not reused for a new one of the same size at the same URI."""
    text_a = "export OFFLINE_PACKING_BMR=1\ntorchrun train.py --micro-batch-size 1\n"
    text_b = "echo OFFLINE_PACKING_BMR=1 ;\ntorchrun train.py --micro-batch-size 1\n"
    assert len(text_a) == len(text_b)
    mark = len(shared.notes)
    open_doc(shared, text_a, 1)
    assert wait_publish(shared, URI, 1, mark) == ["PG001"]
    shared.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": 2}, "contentChanges": [
        {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": ""}]})
    shared.notify("textDocument/didClose", {"textDocument": {"uri": URI}})
    mark = len(shared.notes)
    open_doc(shared, text_b, 1)
    expected = [f.code for f in analyze(text_b, settings=Settings()).findings]
    assert wait_publish(shared, URI, 1, mark) == expected


def test_settings_answer_of_the_wrong_shape():
    for answer in ({"packgate": {"profile": "nope", "lang": 7, "select": 3}},):
        with RawServer(configuration=answer) as s:
            s.initialize(capabilities("utf-16"), options={"packgate": "not an object"})
            alive(s)
            shown = [n["params"]["message"] for n in s.notes if n["method"] == "window/showMessage"]
            assert shown and all("packgate" in m for m in shown), shown
            assert len(shown) == len(set(shown))  # each problem shown once
            assert s.shutdown_and_exit() == 0


# -- lifecycle ----------------------------------------------------------------------------

@pytest.mark.parametrize("initialized", [True, False], ids=["after-initialize", "before-initialize"])
def test_exit_without_shutdown_is_1(initialized):
    with RawServer() as s:
        if initialized:
            s.initialize(capabilities("utf-16"))
            open_doc(s, BAD)
        s.notify("exit")
        assert s.proc.wait(30) == 1


def test_requests_after_shutdown_are_invalid_request(server):
    assert server.request("shutdown")["result"] is None
    for method, params in (("textDocument/hover", HOVER), ("shutdown", None), ("packgate/noSuch", {})):
        answer = server.request(method, params, timeout=ANSWER)
        assert answer.get("error", {}).get("code") == -32600, answer


def test_after_shutdown_the_server_still_exits_with_0(server):
    """Whatever comes between shutdown and exit (requests, notifications), exit ends it with 0."""
    open_doc(server, BAD)
    assert server.request("shutdown")["result"] is None
    server.start_request("textDocument/hover", HOVER)
    open_doc(server, BAD)
    server.notify("exit")
    assert server.proc.wait(30) == 0


def test_request_before_initialize_is_server_not_initialized():
    with RawServer() as s:
        answer = s.request("textDocument/hover", HOVER, timeout=ANSWER)  # includes the start-up
        assert answer.get("error", {}).get("code") == -32002, answer


def test_end_of_input_ends_the_server():
    """The client vanishes (stdin closed, no exit): the server does not linger."""
    with RawServer() as s:
        s.initialize(capabilities("utf-16"))
        open_doc(s, BAD)
        s.proc.stdin.close()
        s.proc.wait(30)


def test_initialize_twice(server):
    """A second initialize (a client bug) gets an answer and leaves a working server."""
    open_doc(server, BAD)
    assert wait_publish(server, URI, 1) == ["PG001"]
    answer = server.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    assert "result" in answer or isinstance(answer["error"]["code"], int)
    alive(server)
    assert server.shutdown_and_exit() == 0
