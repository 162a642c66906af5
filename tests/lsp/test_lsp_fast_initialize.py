"""The `initialize` answer packgate.lsp.fastinit sends before pygls is imported.

Three layers: the stored answer against pygls itself (every capability set pytest-lsp ships,
variants, and seeded random mutations of them); fastinit's reader on a real pipe (frames split
across reads, two messages in one read, first messages it must leave alone); and the real
`python -m packgate lsp` over pipes, compared byte for byte with the same server run with the
early answer turned off (PACKGATE_FAST_INITIALIZE=0). Nothing here measures time.
"""

from __future__ import annotations

import ast
import copy
import functools
import importlib.resources
import json
import os
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from lsp_helpers import ROOT, server_env

from packgate.lsp import fastinit, gen_initialize

CLIENT_SETS = sorted(p.name for p in (importlib.resources.files("pytest_lsp") / "clients").iterdir()
                     if p.name.endswith(".json"))
# Neovim 0.9.1 sends textDocument.callHierarchy as a list where LSP has an object: lsprotocol
# reads it anyway (as an empty object), fastinit does not vouch for that and leaves it to pygls.
REFUSED_SETS = {"neovim_v0.9.1.json"}
SERVER = [sys.executable, "-m", "packgate", "lsp"]
SCRIPT = "export OFFLINE_PACKING_BMR=1\ntorchrun train.py --micro-batch-size 1\n"
URI = "file:///packgate-fastinit/train.sh"


def client_params(name: str) -> dict[str, Any]:
    """initialize params as a client sends them (pytest-lsp's recorded JSON, not re-encoded)."""
    return json.loads((importlib.resources.files("pytest_lsp") / "clients" / name).read_text(encoding="utf-8"))


def stored() -> dict[str, Any]:
    return json.loads(fastinit.RESULT_FILE.read_text(encoding="utf-8"))


def fast_result(params: Any) -> dict[str, Any] | None:
    """What fastinit answers an initialize with these params, None when it leaves it to pygls."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}).encode()
    answer = fastinit.answer_for(body, stored())
    return None if answer is None else answer[1]


def pygls_outcome(params: Any) -> dict[str, Any]:
    """pygls' answer (the response object) to an initialize with these params; {} when it sends
    none (a message it cannot read at all, such as one with a nested "jsonrpc" member)."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}).encode()
    frames = [json.loads(f.split(b"\r\n\r\n", 1)[1]) for f in gen_initialize.pygls_frames(body, _server())]
    answers = [f for f in frames if f.get("id") == 1 and "method" not in f]
    assert len(answers) <= 1, frames
    return answers[0] if answers else {}


@functools.lru_cache(maxsize=1)
def _server() -> Any:
    """One server for every comparison (its converter builds lsprotocol's readers once): each
    initialize is computed afresh from its own params, as pygls does for a second initialize."""
    from packgate.lsp.server import create_server
    return create_server()


def _version() -> str:
    import packgate
    return packgate.__version__


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


# -- the stored answer against pygls ------------------------------------------------------------


def test_stored_answer_is_current():
    assert stored() == gen_initialize.build(), "run `make initialize-result`: initialize_result.json is stale"


def test_fastinit_imports_only_the_standard_library():
    allowed = {"__future__", "json", "os", "re", "stat", "sys", "pathlib", "typing", "importlib.util",
               "select", "urllib.parse", "packgate"}
    tree = ast.parse(Path(fastinit.__file__).read_text(encoding="utf-8"))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert imported <= allowed, imported - allowed


@pytest.mark.parametrize("name", CLIENT_SETS)
def test_answer_equals_pygls_for_every_shipped_client(name):
    params = client_params(name)
    answer = pygls_outcome(params)
    assert "result" in answer, answer
    ours = fast_result(params)
    if name in REFUSED_SETS:
        assert ours is None
    else:
        assert ours == answer["result"]


@pytest.mark.parametrize("name", [n for n in CLIENT_SETS if "v0.7" not in n and "v0.8" not in n and "v0.9" not in n])
def test_the_params_description_names_every_key_of_current_clients(name):
    """Keys the description does not know are skipped by fastinit as by lsprotocol; for today's
    clients there are none, so every key is checked (Neovim 0.7-0.9 send two non-LSP keys)."""
    types_ = stored()["params"]["types"]
    unknown: list[str] = []

    def walk(value: Any, kind: Any, path: str) -> None:
        if isinstance(kind, list) and kind[0] == "or":
            for alternative in kind[1:]:
                if fastinit._valid(value, alternative, types_):
                    walk(value, alternative, path)
                    return
        elif isinstance(kind, list) and kind[0] == "ref" and isinstance(value, dict):
            fields = types_[kind[1]]["fields"]
            for key, item in value.items():
                if key in fields:
                    walk(item, fields[key], f"{path}.{key}")
                else:
                    unknown.append(f"{path}.{key}")
        elif isinstance(kind, list) and kind[0] == "list" and isinstance(value, list):
            for item in value:
                walk(item, kind[1], f"{path}[]")

    walk(client_params(name), ["ref", "InitializeParams"], "params")
    assert unknown == []


def _with(base: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    """A deep copy of base with the dotted path set (intermediate objects created; value
    DELETE removes the key)."""
    out = copy.deepcopy(base)
    *parents, last = path.split(".")
    target = out
    for part in parents:
        if not isinstance(target.get(part), dict):
            target[part] = {}
        target = target[part]
    if value is DELETE:
        target.pop(last, None)
    else:
        target[last] = value
    return out


DELETE = object()
VSCODE = client_params("visual_studio_code_v1.65.2.json")
VARIANTS = {
    "empty capabilities": {"capabilities": {}},
    "no general": _with(VSCODE, "capabilities.general", DELETE),
    "general null": _with(VSCODE, "capabilities.general", None),
    "no positionEncodings": _with(VSCODE, "capabilities.general.positionEncodings", DELETE),
    "positionEncodings null": _with(VSCODE, "capabilities.general.positionEncodings", None),
    "positionEncodings empty": _with(VSCODE, "capabilities.general.positionEncodings", []),
    "utf-8 only": _with(VSCODE, "capabilities.general.positionEncodings", ["utf-8"]),
    "utf-32 only": _with(VSCODE, "capabilities.general.positionEncodings", ["utf-32"]),
    "utf-16 only": _with(VSCODE, "capabilities.general.positionEncodings", ["utf-16"]),
    "utf-32 then utf-8": _with(VSCODE, "capabilities.general.positionEncodings", ["utf-32", "utf-8"]),
    "unknown encodings": _with(VSCODE, "capabilities.general.positionEncodings", ["latin-1", "UTF-8", "utf8"]),
    "unknown then utf-32": _with(VSCODE, "capabilities.general.positionEncodings", ["ucs-2", "utf-32"]),
    "a number as encoding": _with(VSCODE, "capabilities.general.positionEncodings", [8, "utf-8"]),
    "willSave true": _with(VSCODE, "capabilities.textDocument.synchronization.willSave", True),
    "willSave false": _with(VSCODE, "capabilities.textDocument.synchronization.willSave", False),
    "willSave null": _with(VSCODE, "capabilities.textDocument.synchronization.willSave", None),
    "no willSave": _with(VSCODE, "capabilities.textDocument.synchronization.willSave", DELETE),
    "willSaveWaitUntil true": _with(VSCODE, "capabilities.textDocument.synchronization.willSaveWaitUntil", True),
    "willSaveWaitUntil false only": _with({"capabilities": {}}, "capabilities.textDocument.synchronization.willSaveWaitUntil", False),
    "willSave 1": _with(VSCODE, "capabilities.textDocument.synchronization.willSave", 1),
    "synchronization null": _with(VSCODE, "capabilities.textDocument.synchronization", None),
    "textDocument null": _with(VSCODE, "capabilities.textDocument", None),
    "notebookDocument": _with(VSCODE, "capabilities.notebookDocument", {"synchronization": {"dynamicRegistration": True}}),
    "rename prepareSupport": _with(VSCODE, "capabilities.textDocument.rename", {"prepareSupport": True}),
    "fileOperations": _with(VSCODE, "capabilities.workspace.fileOperations", {
        k: True for k in ("didCreate", "willCreate", "didRename", "willRename", "didDelete", "willDelete")}),
    "diagnostic pull": _with(VSCODE, "capabilities.textDocument.diagnostic", {"dynamicRegistration": False}),
    "initializationOptions": _with(VSCODE, "initializationOptions", {"packgate": {"lang": "klingon"}, "x": [1, {"y": None}]}),
    "nested jsonrpc key": _with(VSCODE, "initializationOptions", {"jsonrpc": "2.0", "method": 5}),
    "workspace folders": _with(VSCODE, "workspaceFolders", [{"uri": "file:///w", "name": "w"}]),
    "workspace folder without name": _with(VSCODE, "workspaceFolders", [{"uri": "file:///w"}]),
    "rootUri": _with(VSCODE, "rootUri", "file:///tmp/project"),
    "rootUri with a broken host": _with(VSCODE, "rootUri", "file://[oops/x"),
    "rootPath": _with(VSCODE, "rootPath", "/tmp/project"),
    "rootPath of a share": _with(VSCODE, "rootPath", "//share"),
    "processId": _with(VSCODE, "processId", 4242),
    "processId too large": _with(VSCODE, "processId", 2 ** 40),
    "processId text": _with(VSCODE, "processId", "4242"),
    "trace verbose": _with(VSCODE, "trace", "verbose"),
    "trace unknown": _with(VSCODE, "trace", "loud"),
    "locale": _with(VSCODE, "locale", "zh-CN"),
    "workDoneToken": _with(VSCODE, "workDoneToken", "token-1"),
    "clientInfo without name": _with(VSCODE, "clientInfo", {"version": "1"}),
    "experimental": _with(VSCODE, "capabilities.experimental", {"anything": [1, "two"]}),
    "a capability as a list": _with(VSCODE, "capabilities.textDocument.hover", [{"dynamicRegistration": True}]),
    "a symbol kind it does not know": _with(VSCODE, "capabilities.workspace.symbol.symbolKind.valueSet", [1, 99]),
    "capabilities null": {"capabilities": None},
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_answer_equals_pygls_for_variants(variant):
    params = VARIANTS[variant]
    answer = pygls_outcome(params)
    ours = fast_result(params)
    if ours is not None:
        assert "result" in answer, answer  # fastinit only vouches for params pygls takes
        assert ours == answer["result"]


def test_the_variants_that_matter_are_answered_early():
    """The variants about the negotiated parts must take the fast path, or the test above proves little."""
    for variant in ("empty capabilities", "no general", "positionEncodings empty", "utf-8 only", "utf-32 only",
                    "unknown encodings", "unknown then utf-32", "willSave true", "willSave false", "no willSave",
                    "willSaveWaitUntil false only", "synchronization null", "textDocument null", "notebookDocument",
                    "rename prepareSupport", "fileOperations", "initializationOptions", "rootUri", "rootPath"):
        assert fast_result(VARIANTS[variant]) is not None, variant
    assert fast_result(VARIANTS["utf-32 then utf-8"])["capabilities"]["positionEncoding"] == "utf-32"
    assert "willSave" not in fast_result(VARIANTS["no willSave"])["capabilities"]["textDocumentSync"]


MUTANT_VALUES = [None, True, False, 0, -1, 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 40, 1.0, 1.5, "", "utf-8", "utf-32",
                 "markdown", "x", [], [1], ["utf-8"], [None], {}, {"a": 1}, {"dynamicRegistration": "yes"}]


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, path + (i,))
    return out


def _mutate(params: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One to three changes: a key dropped, a flag flipped, a list shortened, a value replaced by
    one of MUTANT_VALUES or wrapped in a list."""
    out = copy.deepcopy(params)
    for _ in range(rng.choice((1, 1, 2, 3))):
        paths = _paths(out)[1:]
        if not paths:
            break
        path = rng.choice(paths)
        parent = out
        for step in path[:-1]:
            parent = parent[step]
        last, value, roll = path[-1], parent[path[-1]], rng.random()
        if roll < 0.25 and isinstance(parent, dict):
            del parent[last]
        elif roll < 0.45 and isinstance(value, bool):
            parent[last] = not value
        elif roll < 0.55 and isinstance(value, list) and value:
            del value[rng.randrange(len(value))]
        elif roll < 0.6:
            parent[last] = [value]
        else:
            parent[last] = copy.deepcopy(rng.choice(MUTANT_VALUES))
    return out


def test_random_mutations_never_get_an_answer_pygls_would_not_give():
    """Seeded mutations of the shipped capability sets: whenever fastinit would answer, pygls
    takes the params and answers the same (fastinit may refuse more, never less)."""
    rng = random.Random(20261130)
    bases = [client_params(n) for n in CLIENT_SETS] + [{"capabilities": {}}]
    answered = refused = pygls_refused = 0
    for _ in range(600):
        params = _mutate(rng.choice(bases), rng)
        answer = pygls_outcome(params)
        pygls_refused += "result" not in answer
        ours = fast_result(params)
        if ours is None:
            refused += 1
            continue
        answered += 1
        assert "result" in answer, (params, answer)
        assert ours == answer["result"], params
    assert answered > 40 and pygls_refused > 100, (answered, refused, pygls_refused)  # both sides exercised


def test_a_stale_answer_is_reported_and_pygls_answer_still_dropped():
    """If the stored answer ever differs from pygls' (a forgotten `make initialize-result`), the
    client hears about it in its log; pygls' answer stays unsent (the client has one already)."""
    from packgate.lsp.server import create_server

    server = create_server()
    written: list[bytes] = []
    server.protocol.set_writer(type("W", (), {"write": lambda self, d: written.append(d), "close": lambda self: None})())
    server.protocol.expect_early_answer(7, {"capabilities": {}, "serverInfo": {"name": "packgate", "version": "0"}})
    body = initialize({}, 7).split(b"\r\n\r\n", 1)[1]
    server.protocol.handle_message(json.loads(body, object_hook=server.protocol.structure_message))
    sent = [json.loads(w.split(b"\r\n\r\n", 1)[1]) for w in written]
    assert [m for m in sent if m.get("id") == 7] == []
    assert [m["params"]["type"] for m in sent if m.get("method") == "window/logMessage"] == [1]
    # the next response with that id (a client may reuse it after the answer) goes out
    server.protocol._send_response(7, result=None)
    assert json.loads(written[-1].split(b"\r\n\r\n", 1)[1])["id"] == 7


# -- fastinit's reader on a real pipe -----------------------------------------------------------


def run_fastinit(chunks: list[bytes], close: bool = True, pause: float = 0.02,
                 env: dict[str, str] | None = None) -> tuple[fastinit.Early, bytes]:
    """answer_initialize() on a pipe fed chunk by chunk from a thread; (early, what it wrote)."""
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()

    def feed() -> None:
        for chunk in chunks:
            os.write(in_write, chunk)
            time.sleep(pause)
        if close:
            os.close(in_write)

    feeder = threading.Thread(target=feed)
    saved = {k: os.environ.get(k) for k in (env or {})}
    os.environ.update(env or {})
    try:
        feeder.start()
        early = fastinit.answer_initialize(in_read, out_write)
        feeder.join()
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        os.close(out_write)
        os.close(in_read)
        if not close:
            os.close(in_write)
    with os.fdopen(out_read, "rb") as out:
        return early, out.read()


CAPS = {"general": {"positionEncodings": ["utf-8", "utf-16"]}}
INIT = initialize(CAPS)
EXPECTED = fastinit.encode_response(1, fastinit.negotiate(stored()["result"], CAPS, _version()))


def test_whole_initialize_is_answered_and_kept_for_the_server():
    early, out = run_fastinit([INIT])
    assert early.answered and early.request_id == 1 and out == EXPECTED
    assert bytes(early.data) == INIT


def test_initialize_split_across_reads():
    pieces = [INIT[:3], INIT[3:17], INIT[17:20], INIT[20:21], INIT[21:40], INIT[40:-5], INIT[-5:]]
    early, out = run_fastinit(pieces, close=False)
    assert early.answered and out == EXPECTED and bytes(early.data) == INIT


def test_initialize_and_initialized_in_one_read():
    both = INIT + message("initialized", {}) + message("textDocument/didOpen", {})
    early, out = run_fastinit([both], close=False)
    assert early.answered and out == EXPECTED and bytes(early.data) == both


def test_other_header_lines_are_fine():
    body = INIT.split(b"\r\n\r\n", 1)[1]
    framed = b"Content-Length: %d\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" % len(body) + body
    early, out = run_fastinit([framed], close=False)
    assert early.answered and out == EXPECTED


def test_string_ids_are_answered_with_the_same_id():
    early, out = run_fastinit([initialize(CAPS, "init-1")], close=False)
    assert early.answered and json.loads(out.split(b"\r\n\r\n", 1)[1])["id"] == "init-1"


LEFT_ALONE = {
    "garbage": b"hello there\r\n",
    "no header, JSON": b'{"jsonrpc": "2.0", "id": 1, "method": "initialize"}',
    "lower-case header": INIT.replace(b"Content-Length", b"content-length"),
    "header without CR": INIT.replace(b"\r\n\r\n", b"\n\r\n", 1),
    "length 0": b"Content-Length: 0\r\n\r\n",
    "blank line first": b"\r\n" + INIT,
    "request before initialize": message("shutdown", None, 1) + INIT,
    "notification first": message("initialized", {}) + INIT,
    "not JSON": frame(b"{this is not json"),
    "not JSON-RPC": frame(json.dumps({"id": 1, "method": "initialize", "params": {"capabilities": {}}}).encode()),
    "jsonrpc 1.0": frame(json.dumps({"jsonrpc": "1.0", "id": 1, "method": "initialize",
                                     "params": {"capabilities": {}}}).encode()),
    "id true": initialize(CAPS, True),
    "id null": frame(json.dumps({"jsonrpc": "2.0", "id": None, "method": "initialize",
                                 "params": {"capabilities": {}}}).encode()),
    "id 1.0": frame(b'{"jsonrpc": "2.0", "id": 1.0, "method": "initialize", "params": {"capabilities": {}}}'),
    "no params": message("initialize", None, 1),
    "no capabilities": message("initialize", {"processId": None}, 1),
    "an extra member": frame(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "result": 1,
                                         "params": {"capabilities": {}}}).encode()),
    "nested jsonrpc": initialize({}, 1, initializationOptions={"jsonrpc": "2.0"}),
    "a list": frame(b"[1, 2]"),
    "not UTF-8": frame(b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "locale": "\xff"}}'),
}


@pytest.mark.parametrize("case", sorted(LEFT_ALONE))
def test_first_messages_left_to_pygls(case):
    """Nothing written, and every byte read is handed on (no wait for bytes pygls would not wait for)."""
    sent = LEFT_ALONE[case]
    early, out = run_fastinit([sent], close=False)
    assert not early.answered and out == b""
    assert sent.startswith(bytes(early.data)) and early.data  # a prefix of what was sent, at least one read


def test_end_of_input_inside_a_frame():
    for cut in (5, 18, 25, len(INIT) - 1):
        early, out = run_fastinit([INIT[:cut]], close=True)
        assert not early.answered and out == b"" and bytes(early.data) == INIT[:cut]


def test_turned_off_or_on_a_file_nothing_is_read(tmp_path):
    early, out = run_fastinit([INIT], close=False, env={fastinit.DISABLE: "0"})
    assert not early.answered and out == b"" and early.data == b""
    path = tmp_path / "in"
    path.write_bytes(INIT)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        with open(path, "rb") as f:
            early = fastinit.answer_initialize(f.fileno(), null)
            assert not early.answered and early.data == b"" and f.read() == INIT
    finally:
        os.close(null)


def test_other_pygls_or_lsprotocol_versions_get_no_early_answer(tmp_path, monkeypatch):
    content = stored()
    content["versions"]["pygls"] = "0.0.1"
    stale = tmp_path / "initialize_result.json"
    stale.write_text(json.dumps(content), encoding="utf-8")
    monkeypatch.setattr(fastinit, "RESULT_FILE", stale)
    early, out = run_fastinit([INIT], close=False)
    assert not early.answered and out == b"" and early.data == b""


def test_a_closed_output_means_no_early_answer():
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    os.close(out_read)
    os.write(in_write, INIT)
    try:
        early = fastinit.answer_initialize(in_read, out_write)
    finally:
        for fd in (in_read, in_write, out_write):
            os.close(fd)
    assert not early.answered and bytes(early.data) == INIT  # the server still gets the message


# -- the real command over pipes ----------------------------------------------------------------


class Wire:
    """`python -m packgate lsp` with raw bytes in and whole frames out (each frame kept as sent)."""

    def __init__(self, fast: bool = True, command: list[str] | None = None):
        env = server_env()
        env[fastinit.DISABLE] = "1" if fast else "0"
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


def session_frames(fast: bool, chunks: list[bytes], then: list[bytes], msg_id: Any = 1) -> tuple[list[bytes], Wire]:
    """Send chunks (an initialize among them), wait for its answer, send `then`; the answers to msg_id."""
    wire = Wire(fast)
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


@pytest.mark.parametrize("name", ["visual_studio_code_v1.65.2.json", "neovim_v0.11.0.json", "emacs_v29.1.json"])
def test_the_real_server_answers_early_as_pygls_does(name):
    params = client_params(name)
    init = message("initialize", {**params, "processId": os.getpid(), "rootUri": None}, 1)
    runs = {}
    for fast in (True, False):
        answers, wire = session_frames(fast, [init], [message("initialized", {}), did_open()])
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
        runs[fast] = answers[0]
    assert runs[True] == runs[False]  # byte for byte, header included


def test_the_real_server_takes_the_early_path():
    """The early answer is written before lsprotocol is imported (watched from inside the real
    command: the same `packgate lsp` with answer_initialize wrapped to report sys.modules)."""
    wrapper = ("import sys, runpy\n"
               "import packgate.lsp.fastinit as f\n"
               "real = f.answer_initialize\n"
               "def watched(*a):\n"
               "    early = real(*a)\n"
               "    sys.stderr.write(f'EARLY {early.answered} {\"lsprotocol\" in sys.modules} {\"pygls\" in sys.modules}\\n')\n"
               "    return early\n"
               "f.answer_initialize = watched\n"
               "sys.argv = ['packgate', 'lsp']\n"
               "runpy.run_module('packgate', run_name='__main__')\n")
    wire = Wire(command=[sys.executable, "-c", wrapper])
    try:
        wire.send(initialize(CAPS) + message("initialized", {}) + did_open())
        assert wire.publish() == ["PG001"]
        assert wire.finish() == 0
    finally:
        wire.kill()
    assert b"EARLY True False False" in wire.stderr, wire.stderr
    assert len(wire.answers(1)) == 1


def test_an_invalid_setting_in_initialization_options_is_shown_once():
    init = initialize(CAPS, 1, initializationOptions={"packgate": {"lang": "klingon"}})
    for fast in (True, False):
        answers, wire = session_frames(fast, [init], [message("initialized", {}), did_open()])
        try:
            assert wire.publish() == ["PG001"]
            assert wire.finish() == 0
        finally:
            wire.kill()
        shown = [m for _, m in wire.frames if m.get("method") == "window/showMessage"]
        assert len(shown) == 1 and "klingon" in shown[0]["params"]["message"], (fast, shown)
        assert len(answers) == 1


def test_initialize_in_pieces_and_with_initialized_in_one_write():
    pieces = [INIT[:7], INIT[7:30], INIT[30:60], INIT[60:]]
    answers, wire = session_frames(True, pieces, [message("initialized", {}) + did_open()])
    try:
        assert wire.publish() == ["PG001"] and wire.finish() == 0
    finally:
        wire.kill()
    assert answers == [EXPECTED]
    answers, wire = session_frames(True, [INIT + message("initialized", {}) + did_open()], [])
    try:
        assert wire.publish() == ["PG001"] and wire.finish() == 0
    finally:
        wire.kill()
    assert answers == [EXPECTED]


@pytest.mark.parametrize("first", ["garbage frame", "request before initialize", "garbage line"])
def test_a_first_message_that_is_not_initialize_behaves_as_before(first):
    lead = {"garbage frame": frame(b"{this is not json"),
            "request before initialize": message("textDocument/hover", {
                "textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}, 5),
            "garbage line": b"hello\r\n"}[first]
    seen = {}
    for fast in (True, False):
        answers, wire = session_frames(fast, [lead + INIT], [message("initialized", {}), did_open()])
        try:
            assert wire.publish() == ["PG001"] and wire.finish() == 0
        finally:
            wire.kill()
        assert len(answers) == 1
        seen[fast] = (answers[0], wire.answers(5))
    assert seen[True] == seen[False]
    if first == "request before initialize":
        assert json.loads(seen[True][1][0].split(b"\r\n\r\n", 1)[1])["error"]["code"] == -32002


def test_a_refused_capability_set_is_served_by_pygls():
    params = client_params("neovim_v0.9.1.json")
    answers, wire = session_frames(True, [message("initialize", params, 1)], [message("initialized", {}), did_open()])
    try:
        assert wire.publish() == ["PG001"] and wire.finish() == 0
    finally:
        wire.kill()
    assert len(answers) == 1 and "result" in json.loads(answers[0].split(b"\r\n\r\n", 1)[1])


def test_a_file_on_stdin_is_read_by_pygls_as_before(tmp_path):
    path = tmp_path / "session.bin"
    path.write_bytes(INIT + message("initialized", {}) + message("shutdown", None, 2) + message("exit"))
    env = server_env()
    with open(path, "rb") as stdin:
        done = subprocess.run(SERVER, stdin=stdin, capture_output=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(EXPECTED)  # pygls' own answer, the same bytes


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
    wire = Wire(True)
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
