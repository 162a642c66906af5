"""The real `python -m packgate lsp` over pipes: raw bytes in, whole frames out.

What a client sees on the wire, byte for byte: one answer to `initialize` for each capability set
pytest-lsp ships, a message split across writes or several in one write, a first message that is
not `initialize`, stdin a file rather than a pipe, and frames a client got wrong (one log line
each, no traceback). Nothing here measures time.
"""

from __future__ import annotations

import importlib.resources
import json
import os
import subprocess
import sys
import threading
import time
from typing import Any

import pytest

from lsp_helpers import ROOT, server_env

SERVER = [sys.executable, "-m", "packgate", "lsp"]
SCRIPT = "export OFFLINE_PACKING_BMR=1\ntorchrun train.py --micro-batch-size 1\n"
URI = "file:///packgate-wire/train.sh"


def client_params(name: str) -> dict[str, Any]:
    """initialize params as a client sends them (pytest-lsp's recorded JSON, not re-encoded)."""
    return json.loads((importlib.resources.files("pytest_lsp") / "clients" / name).read_text(encoding="utf-8"))




def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def message(method: str, params: Any = None, msg_id: Any = None) -> bytes:
    msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if msg_id is not None:
        msg["id"] = msg_id
    if params is not None:
        msg["params"] = params
    return frame(json.dumps(msg).encode())


def initialize(capabilities: dict[str, Any], msg_id: Any = 1, **params: Any) -> bytes:
    return message("initialize", {"processId": None, "capabilities": capabilities, **params}, msg_id)


CAPS = {"general": {"positionEncodings": ["utf-8", "utf-16"]}}
INIT = initialize(CAPS)


class Wire:
    """`python -m packgate lsp` with raw bytes in and whole frames out (each frame kept as sent)."""

    def __init__(self, command: list[str] | None = None):
        env = server_env()
        self.proc = subprocess.Popen(command or SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, cwd=ROOT)
        self.frames: list[tuple[bytes, dict]] = []
        self.stderr = b""
        self.cond = threading.Condition()
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self) -> None:
        self.stderr = self.proc.stderr.read()

    def _read(self) -> None:
        out = self.proc.stdout
        try:
            while True:
                head = b""
                while not head.endswith(b"\r\n\r\n"):
                    line = out.readline()
                    if not line:
                        return
                    head += line
                length = int(head.split(b"Content-Length: ", 1)[1].split(b"\r\n", 1)[0])
                body = out.read(length)
                msg = json.loads(body)
                if "method" in msg and "id" in msg:  # a request from the server: answer as a plain client
                    items = len((msg.get("params") or {}).get("items") or [])
                    result = [None] * items if msg["method"] == "workspace/configuration" else None
                    self.send(frame(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}).encode()))
                with self.cond:
                    self.frames.append((head + body, msg))
                    self.cond.notify_all()
        finally:
            with self.cond:
                self.closed = True
                self.cond.notify_all()

    def send(self, data: bytes) -> None:
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def wait(self, predicate, timeout: float = 60.0) -> tuple[bytes, dict]:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for item in self.frames:
                    if predicate(item[1]):
                        return item
                if self.closed or time.monotonic() > deadline:
                    raise AssertionError(f"not seen; frames {[m for _, m in self.frames]}; stderr {self.stderr[-2000:]!r}")
                self.cond.wait(0.2)

    def answers(self, msg_id: Any) -> list[bytes]:
        with self.cond:
            return [raw for raw, m in self.frames if "method" not in m and m.get("id") == msg_id
                    and type(m.get("id")) is type(msg_id)]

    def publish(self, uri: str = URI) -> list[str]:
        _, note = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri)
        return [d["code"] for d in note["params"]["diagnostics"]]

    def finish(self) -> int:
        self.send(message("shutdown", None, "bye"))
        self.wait(lambda m: m.get("id") == "bye")
        self.send(message("exit"))
        code = self.proc.wait(60)
        self.proc.stdin.close()
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(30)


def did_open(text: str = SCRIPT, uri: str = URI) -> bytes:
    return message("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "shellscript",
                                                             "version": 1, "text": text}})


def session_frames(chunks: list[bytes], then: list[bytes], msg_id: Any = 1) -> tuple[list[bytes], Wire]:
    """Send chunks (an initialize among them), wait for its answer, send `then`; the answers to msg_id."""
    wire = Wire()
    try:
        for chunk in chunks:
            wire.send(chunk)
            time.sleep(0.01)
        wire.wait(lambda m: m.get("id") == msg_id and "method" not in m)
        for data in then:
            wire.send(data)
        return wire.answers(msg_id), wire
    except BaseException:
        wire.kill()
        raise


def body_of(raw: bytes) -> dict[str, Any]:
    return json.loads(raw.split(b"\r\n\r\n", 1)[1])


@pytest.mark.parametrize("name", ["visual_studio_code_v1.65.2.json", "neovim_v0.11.0.json", "emacs_v29.1.json"])
def test_the_real_server_answers_initialize_once_and_diagnoses(name):
    params = client_params(name)
    init = message("initialize", {**params, "processId": os.getpid(), "rootUri": None}, 1)
    answers, wire = session_frames([init], [message("initialized", {}), did_open()])
    try:
        pulls = ((params["capabilities"].get("textDocument") or {}).get("diagnostic")) is not None
        if pulls:
            wire.send(message("textDocument/diagnostic", {"textDocument": {"uri": URI}}, 2))
            _, report = wire.wait(lambda m: m.get("id") == 2)
            assert [d["code"] for d in report["result"]["items"]] == ["PG001"]
        else:
            assert wire.publish() == ["PG001"]
        assert wire.finish() == 0
    finally:
        wire.kill()
    assert len(wire.answers(1)) == 1, wire.frames  # one answer to initialize, never two
    assert body_of(answers[0])["result"]["serverInfo"]["name"] == "packgate"


def test_an_invalid_setting_in_initialization_options_is_shown_once():
    init = initialize(CAPS, 1, initializationOptions={"packgate": {"lang": "klingon"}})
    answers, wire = session_frames([init], [message("initialized", {}), did_open()])
    try:
        assert wire.publish() == ["PG001"]
        assert wire.finish() == 0
    finally:
        wire.kill()
    shown = [m for _, m in wire.frames if m.get("method") == "window/showMessage"]
    assert len(shown) == 1 and "klingon" in shown[0]["params"]["message"], shown
    assert len(answers) == 1


def test_initialize_in_pieces_and_with_initialized_in_one_write():
    pieces = [INIT[:7], INIT[7:30], INIT[30:60], INIT[60:]]
    split, wire = session_frames(pieces, [message("initialized", {}) + did_open()])
    try:
        assert wire.publish() == ["PG001"] and wire.finish() == 0
    finally:
        wire.kill()
    whole, wire = session_frames([INIT + message("initialized", {}) + did_open()], [])
    try:
        assert wire.publish() == ["PG001"] and wire.finish() == 0
    finally:
        wire.kill()
    assert len(split) == 1 and split == whole  # the same answer, byte for byte


@pytest.mark.parametrize("first", ["garbage frame", "request before initialize", "garbage line"])
def test_a_first_message_that_is_not_initialize_is_survived(first):
    lead = {"garbage frame": frame(b"{this is not json"),
            "request before initialize": message("textDocument/hover", {
                "textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}, 5),
            "garbage line": b"hello\r\n"}[first]
    answers, wire = session_frames([lead + INIT], [message("initialized", {}), did_open()])
    try:
        assert wire.publish() == ["PG001"] and wire.finish() == 0
    finally:
        wire.kill()
    assert len(answers) == 1 and "result" in body_of(answers[0])
    if first == "request before initialize":
        assert body_of(wire.answers(5)[0])["error"]["code"] == -32002
    else:
        assert wire.answers(5) == []


def test_a_capability_set_lsprotocol_reads_loosely_is_served():
    """Neovim 0.9.1 sends textDocument.callHierarchy as a list where LSP has an object."""
    params = client_params("neovim_v0.9.1.json")
    answers, wire = session_frames([message("initialize", params, 1)], [message("initialized", {}), did_open()])
    try:
        assert wire.publish() == ["PG001"] and wire.finish() == 0
    finally:
        wire.kill()
    assert len(answers) == 1 and "result" in body_of(answers[0])


def test_a_file_on_stdin_is_served(tmp_path):
    path = tmp_path / "session.bin"
    path.write_bytes(INIT + message("initialized", {}) + message("shutdown", None, 2) + message("exit"))
    with open(path, "rb") as stdin:
        done = subprocess.run(SERVER, stdin=stdin, capture_output=True, env=server_env(), cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    head, rest = done.stdout.split(b"\r\n\r\n", 1)
    first = json.loads(rest[:int(head.split(b"Content-Length: ", 1)[1].split(b"\r\n")[0])])
    assert first["id"] == 1 and first["result"]["serverInfo"]["name"] == "packgate"


BAD_FRAMES = [
    frame(b"{this is not json"),
    frame(b'{"jsonrpc": "2.0", "id": 7, "method": "textDocument/hover", "params": "\xff"}'),
    frame(b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"x": "\xc3("}}'),
    frame(json.dumps({"jsonrpc": "2.0", "id": 8, "method": "textDocument/hover", "params": 42}).encode()),
]


def _no_tracebacks(stderr: bytes) -> None:
    text = stderr.decode("utf-8", "replace")
    assert "Traceback" not in text, text
    assert "dropped a message that is not JSON" in text and "dropped a message that is not UTF-8: byte 71" in text


def test_bad_frames_get_one_line_each_and_no_traceback():
    """Frames that are not JSON or not UTF-8 and a request with wrong params: the server goes on,
    answers what has an id (-32700 for bytes that are not UTF-8), logs one line, no traceback,
    and nothing reaches the client's log as packgate's own error."""
    wire = Wire()
    try:
        wire.send(INIT + message("initialized", {}))
        wire.wait(lambda m: m.get("id") == 1)
        for data in BAD_FRAMES:
            wire.send(data)
        wire.send(did_open())
        assert wire.publish() == ["PG001"]
        _, bad_utf8 = wire.wait(lambda m: m.get("id") == 7)
        _, bad_params = wire.wait(lambda m: m.get("id") == 8)
        assert bad_utf8["error"]["code"] == -32700 and "not UTF-8" in bad_utf8["error"]["message"]
        assert bad_params["error"]["code"] == -32602
        assert wire.finish() == 0
    finally:
        wire.kill()
    logs = [m for _, m in wire.frames if m.get("method") == "window/logMessage"]
    assert not [m for m in logs if "internal error" in m["params"]["message"]], logs
    _no_tracebacks(wire.stderr)


def test_bad_frames_from_a_file_on_stdin_get_no_traceback(tmp_path):
    """The same frames through pygls' own loop (stdin a file, not a pipe)."""
    path = tmp_path / "session.bin"
    path.write_bytes(INIT + message("initialized", {}) + b"".join(BAD_FRAMES) + message("shutdown", None, 2)
                     + message("exit"))
    with open(path, "rb") as stdin:
        done = subprocess.run(SERVER, stdin=stdin, capture_output=True, env=server_env(), cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert b'"code": -32700' in done.stdout and b"internal error" not in done.stdout
    _no_tracebacks(done.stderr)
