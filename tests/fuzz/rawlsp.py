"""A bare JSON-RPC client for `packgate lsp` over stdio, written from the LSP spec alone.

No pygls or pytest-lsp on this side: the fuzz and abuse tests must be able to send anything
(malformed JSON, wrong types, negative positions) and see exactly what comes back.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SERVER = [sys.executable, "-m", "packgate", "lsp"]


def server_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "server"), env.get("PYTHONPATH", "")) if p)
    env.setdefault("PYTHONFAULTHANDLER", "1")  # a crash in C code prints the Python stacks
    env.update(extra)
    return env


def frame(payload: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(payload) + payload


class RawServer:
    """One `packgate lsp` process; a reader thread sorts what it writes.

    Requests from the server (workspace/configuration, client/registerCapability, ...) are
    answered by the reader thread as a plain client would; `answers` maps request ids to
    responses; `notes` keeps every notification in arrival order.
    """

    def __init__(self, command: list[str] | None = None, cwd: str | None = None,
                 env: dict[str, str] | None = None, configuration: Any = None):
        command = command or (os.environ["RAWLSP_SERVER"].split() if os.environ.get("RAWLSP_SERVER") else SERVER)
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd, env=env or server_env())
        self.configuration = configuration
        self.answers: dict[Any, dict] = {}
        self.notes: list[dict] = []
        self.server_requests: list[dict] = []
        self.garbage: list[bytes] = []
        self.stderr = bytearray()
        self._cond = threading.Condition()
        self._ids = itertools.count(1)
        self._write_lock = threading.Lock()
        self.closed = False
        self.broken = ""
        # RAWLSP_TRANSCRIPT=FILE records every byte sent, to replay a failure without the test
        path = os.environ.get("RAWLSP_TRANSCRIPT")
        self.transcript = open(f"{path}.{self.proc.pid}", "wb") if path else None
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain_stderr, daemon=True).start()

    # -- transport
    def _drain_stderr(self) -> None:
        for chunk in iter(lambda: self.proc.stderr.read1(65536), b""):
            self.stderr += chunk

    def _read(self) -> None:
        out = self.proc.stdout
        try:
            while True:
                headers = {}
                while True:
                    line = out.readline()
                    if not line:
                        raise EOFError
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.decode("ascii", "replace").partition(":")
                    headers[name.strip().lower()] = value.strip()
                body = out.read(int(headers["content-length"]))
                try:
                    msg = json.loads(body)
                except ValueError:
                    self.garbage.append(body)
                    continue
                self._dispatch(msg)
        except EOFError:
            pass
        except (KeyError, ValueError, OSError) as exc:  # a broken frame: keep what came
            self.broken = f"{exc!r} after headers {headers!r}"
        finally:
            with self._cond:
                self.closed = True
                self._cond.notify_all()

    def _dispatch(self, msg: dict) -> None:
        if "method" in msg and "id" in msg:  # a request from the server
            self.server_requests.append(msg)
            result: Any = None
            if msg["method"] == "workspace/configuration":
                items = (msg.get("params") or {}).get("items") or []
                result = [self.configuration for _ in items]
            try:
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
            except OSError:
                pass
            return
        with self._cond:
            if "method" in msg:
                self.notes.append(msg)
            else:
                self.answers[msg.get("id")] = msg
            self._cond.notify_all()

    def send_bytes(self, data: bytes) -> None:
        with self._write_lock:
            if self.transcript is not None:
                self.transcript.write(data)
                self.transcript.flush()
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

    def send(self, msg: dict) -> None:
        self.send_bytes(frame(json.dumps(msg).encode("utf-8")))

    # -- JSON-RPC
    def request_id(self) -> int:
        return next(self._ids)

    def start_request(self, method: str, params: Any = None, msg_id: Any = None) -> Any:
        msg_id = self.request_id() if msg_id is None else msg_id
        msg = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return msg_id

    def wait_answer(self, msg_id: Any, timeout: float = 30.0) -> dict:
        deadline = time.monotonic() + timeout
        with self._cond:
            while msg_id not in self.answers:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no answer to request {msg_id!r} in {timeout} s")
                if self.closed:
                    raise ConnectionError(f"the server closed its output before answering {msg_id!r} "
                                          f"(exit code: {self._exit_code()}, framing: {self.broken or 'fine'}); "
                                          f"stderr: {bytes(self.stderr[-int(os.environ.get('RAWLSP_STDERR', '2000')):]).decode(errors='replace')}")
                self._cond.wait(min(left, 0.5))
            return self.answers.pop(msg_id)

    def _exit_code(self):
        try:
            return self.proc.wait(5)
        except subprocess.TimeoutExpired:
            return "still running"

    def request(self, method: str, params: Any = None, timeout: float = 30.0) -> dict:
        return self.wait_answer(self.start_request(method, params), timeout)

    def notify(self, method: str, params: Any = None) -> None:
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def wait_note(self, predicate, timeout: float = 30.0, start: int = 0) -> dict:
        """The first notification from index `start` on that satisfies predicate."""
        deadline = time.monotonic() + timeout
        seen = start
        with self._cond:
            while True:
                for note in self.notes[seen:]:
                    if predicate(note):
                        return note
                seen = len(self.notes)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("no such notification")
                if self.closed:
                    raise ConnectionError("the server closed its output")
                self._cond.wait(min(left, 0.5))

    # -- session helpers
    def initialize(self, capabilities: dict | None = None, options: Any = None, root_uri: Any = None) -> dict:
        answer = self.request("initialize", {"processId": os.getpid(), "rootUri": root_uri,
                                             "capabilities": capabilities or {},
                                             "initializationOptions": options})
        assert "result" in answer, answer
        self.notify("initialized", {})
        return answer["result"]

    def shutdown_and_exit(self, timeout: float = 30.0) -> int:
        answer = self.request("shutdown", None, timeout)
        assert "result" in answer and answer["result"] is None, answer
        self.notify("exit")
        return self.proc.wait(timeout)

    def errors_logged(self) -> list[str]:
        """window/logMessage and showMessage of type Error (1): the server caught an exception."""
        return [n["params"]["message"] for n in self.notes
                if n["method"] in ("window/logMessage", "window/showMessage") and n["params"].get("type") == 1]

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)
        for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                pipe.close()
            except OSError:
                pass

    def __enter__(self) -> "RawServer":
        return self

    def __exit__(self, *exc) -> None:
        self.kill()


def capabilities(encoding: str = "utf-16", pull: bool = False) -> dict:
    """Client capabilities: one position encoding, push or pull diagnostics, most features on."""
    caps: dict = {
        "general": {"positionEncodings": [encoding]},
        "textDocument": {
            "synchronization": {"didSave": True, "dynamicRegistration": False},
            "hover": {"contentFormat": ["markdown", "plaintext"]},
            "publishDiagnostics": {"relatedInformation": True, "versionSupport": True,
                                   "tagSupport": {"valueSet": [1, 2]}, "codeDescriptionSupport": True,
                                   "dataSupport": True},
            "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": [
                "", "quickfix", "refactor", "source", "source.fixAll"]}}, "isPreferredSupport": True,
                "dataSupport": True},
            "definition": {"linkSupport": False},
            "completion": {"completionItem": {"snippetSupport": False}},
            "inlayHint": {},
            "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
        },
        "workspace": {"configuration": True, "workspaceEdit": {"documentChanges": True},
                      "didChangeConfiguration": {"dynamicRegistration": False}},
        "window": {"workDoneProgress": False},
    }
    if pull:  # the server offers pull only to a client it can ask to pull again
        caps["textDocument"]["diagnostic"] = {"dynamicRegistration": False, "relatedDocumentSupport": False}
        caps["workspace"]["diagnostics"] = {"refreshSupport": True}
    return caps
