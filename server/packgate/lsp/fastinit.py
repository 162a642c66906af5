"""Answer the client's `initialize` before pygls and lsprotocol are imported.

Importing lsprotocol builds several hundred attrs classes: about 0.4 s on a small machine, and
more than the whole budget an editor gives a server to answer `initialize` promptly. That
answer, though, is known in advance: pygls derives it from the features packgate registers
(fixed), the package version and two things the client says (the position encodings it
accepts; whether it declares `willSave` / `willSaveWaitUntil`). ``initialize_result.json`` holds
what pygls answered when the generator ran it (``python -m packgate.lsp.gen_initialize``,
``make initialize-result``), and a test checks it against pygls for many capability sets.

So, on a pipe, `packgate lsp` first reads one message from standard input with the standard
library only. When it is an `initialize` request this module can answer exactly as pygls would,
the answer is written at once; then the server is imported and handed every byte read so far.
pygls still processes that `initialize` in full (workspace, position encoding, client
capabilities, initializationOptions); its own answer to it is dropped by the protocol
(``PackgateProtocol._send_data``), after a comparison with the one sent early.

Anything else (another first message, a frame that pygls would read differently, params that
lsprotocol might refuse or read differently, other pygls or lsprotocol versions than the ones
the answer was generated with, PACKGATE_FAST_INITIALIZE=0) gets no early answer: the bytes go
to the server unchanged, as if this module did not exist. Nothing in here may raise.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any

RESULT_FILE = Path(__file__).with_name("initialize_result.json")
DISABLE = "PACKGATE_FAST_INITIALIZE"  # "0" turns the early answer off
MAX_HEADER = 64 * 1024  # bytes of header lines before the body; more is left to pygls
MAX_BODY = 16 * 1024 * 1024  # an initialize larger than this is left to pygls
CHUNK = 1 << 16
# pygls' own header test (pygls.io_.run_async): the line must be exactly this
CONTENT_LENGTH = re.compile(rb"Content-Length: (\d+)\r\n")
CONTENT_LENGTH_PREFIX = b"Content-Length: "
MAX_DIGITS = 12
ENCODINGS = ("utf-8", "utf-16", "utf-32")  # what pygls can serve (pygls.capabilities)
INT_RANGE = {"int": (-(2 ** 31), 2 ** 31 - 1), "uint": (0, 2 ** 31 - 1)}  # lsprotocol's validators
ENVELOPE_KEYS = {"jsonrpc", "id", "method", "params"}


class Early:
    """What happened before the server was imported: the bytes read from standard input (the
    server must read them first), and the id and result of an `initialize` answered already."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.answered = False
        self.request_id: int | str | None = None
        self.result: dict[str, Any] | None = None
        self.reason = "not tried"  # why there was no early answer (for tests and debugging)


def stdin_is_pipe(fd: int = 0) -> bool:
    """Whether fd is a pipe or a socket (what the server's event-loop reader can watch)."""
    try:
        mode = os.fstat(fd).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


def answer_initialize(fd_in: int = 0, fd_out: int = 1) -> Early:
    """Read the first message from fd_in and, when it is an initialize this module can answer
    exactly, write pygls' answer to fd_out. Never raises; see Early for what comes back."""
    early = Early()
    try:
        if os.environ.get(DISABLE, "").strip() in ("0", "false", "no", "off"):
            early.reason = f"{DISABLE}={os.environ[DISABLE]}"
            return early
        if not stdin_is_pipe(fd_in):
            early.reason = "standard input is not a pipe or socket"
            return early
        stored = _stored_answer()
        if stored is None:
            early.reason = "no stored answer for the installed pygls and lsprotocol"
            return early
        span = _read_first_message(fd_in, early.data)
        if span is None:
            early.reason = "the first frame is not a plain Content-Length frame"
            return early
        answer = answer_for(bytes(early.data[span[0]:span[1]]), stored)
        if answer is None:
            early.reason = "the first message is not an initialize request this module can answer for pygls"
            return early
        if not _write_all(fd_out, encode_response(*answer)):
            early.reason = "writing the answer failed"
            return early
        early.answered = True
        early.request_id, early.result = answer
        early.reason = "answered"
    except Exception as exc:  # never in the way of the normal path
        early.reason = f"skipped after {exc!r}"
    return early


# -- the stored answer ------------------------------------------------------------------------


def _stored_answer() -> dict[str, Any] | None:
    """The generated file, when it was generated with the pygls and lsprotocol installed now."""
    try:
        stored = json.loads(RESULT_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    versions = stored.get("versions") or {}
    for dist in ("pygls", "lsprotocol"):
        if versions.get(dist) is None or _installed_version(dist) != versions[dist]:
            return None
    return stored


def _installed_version(dist: str) -> str | None:
    """The version of an installed distribution from its .dist-info folder name, without
    importlib.metadata (which costs tens of milliseconds here); None when not found for sure."""
    import importlib.util
    try:
        spec = importlib.util.find_spec(dist)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = os.path.dirname(list(spec.submodule_search_locations)[0])
    prefix = dist.replace("-", "_") + "-"
    try:
        found = [name[len(prefix):-len(".dist-info")] for name in os.listdir(folder)
                 if name.startswith(prefix) and name.endswith(".dist-info")]
    except OSError:
        return None
    return found[0] if len(found) == 1 else None


def _package_version() -> str:
    import packgate
    return packgate.__version__


def answer_for(body: bytes, stored: dict[str, Any]) -> tuple[int | str, dict[str, Any]] | None:
    """(id, result) of pygls' answer when body is an initialize request it answers that way for
    sure; None for anything else."""
    message = _parse(body)
    if message is None or not _accepted(message["params"], stored["params"]):
        return None
    return message["id"], negotiate(stored["result"], message["params"]["capabilities"], _package_version())


def negotiate(stored: dict[str, Any], capabilities: dict[str, Any], version: str) -> dict[str, Any]:
    """pygls' initialize result for these (already checked) client capabilities.

    The stored result is what pygls answers a client that declares willSave and
    willSaveWaitUntil as true; pygls writes `client_flag and server_supports` for each, so a
    client that leaves a flag out (or null) gets no such key, and one that says false gets false.
    The position encoding is the first of the client's that pygls supports, else utf-16.
    The stored client pulls diagnostics and takes their refresh; for any other client
    diagnosticProvider is left out (PackgateProtocol.lsp_initialize).
    """
    result = json.loads(json.dumps(stored))  # a copy: key order kept
    caps = result["capabilities"]
    caps["positionEncoding"] = choose_encoding(capabilities)
    sync = ((capabilities.get("textDocument") or {}).get("synchronization") or {})
    options = caps.get("textDocumentSync")
    if isinstance(options, dict):
        for key in ("willSave", "willSaveWaitUntil"):
            flag = sync.get(key)
            if flag is None:
                options.pop(key, None)
            elif flag is False:
                options[key] = False
    # convert.pulls: pull diagnostics only for a client that declares them and their refresh
    text_document = capabilities.get("textDocument") or {}
    workspace = capabilities.get("workspace") or {}
    if text_document.get("diagnostic") is None or not (workspace.get("diagnostics") or {}).get("refreshSupport"):
        caps.pop("diagnosticProvider", None)
    result["serverInfo"]["version"] = version
    return result


def choose_encoding(capabilities: dict[str, Any]) -> str:
    """The client's first position encoding that pygls supports, else utf-16 (as pygls chooses)."""
    general = capabilities.get("general") or {}
    for encoding in general.get("positionEncodings") or ():
        if encoding in ENCODINGS:
            return encoding
    return "utf-16"


def encode_response(request_id: int | str, result: dict[str, Any]) -> bytes:
    """The response frame as pygls writes it (JsonRPCProtocol._send_data): same keys, same order."""
    body = json.dumps({"id": request_id, "jsonrpc": "2.0", "result": result})
    return (f"Content-Length: {len(body)}\r\n"
            f"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{body}").encode("utf-8")


# -- reading the first frame ------------------------------------------------------------------


def _fill(fd: int, buf: bytearray) -> bool:
    """Append what the next read returns; False at the end of input or on an error."""
    while True:
        try:
            chunk = os.read(fd, CHUNK)
            break
        except BlockingIOError:  # a non-blocking descriptor: wait until there is something
            import select
            select.select([fd], [], [])
        except OSError:
            return False
    buf += chunk
    return bool(chunk)


def _could_be_length_line(prefix: bytes) -> bool:
    """Whether more bytes could still make prefix a `Content-Length: N\\r\\n` line."""
    head = CONTENT_LENGTH_PREFIX
    if len(prefix) <= len(head):
        return head.startswith(prefix)
    if not prefix.startswith(head):
        return False
    digits = prefix[len(head):]
    if digits.endswith(b"\r"):
        digits = digits[:-1]
    return digits.isdigit() and len(digits) <= MAX_DIGITS


def _read_first_message(fd: int, buf: bytearray) -> tuple[int, int] | None:
    """Read until buf holds the first frame; its body's (start, end) in buf, or None.

    Only the plain frame is taken: a `Content-Length: N` first line (N > 0), any other header
    lines, an empty line, the body; pygls reads those bytes as the same message. Reading stops
    as soon as the bytes cannot be such a frame (pygls gets them as they are) and never asks for
    bytes pygls would not wait for itself.
    """
    while b"\n" not in buf:
        if not _could_be_length_line(bytes(buf)) or not _fill(fd, buf):
            return None
    end = buf.index(b"\n") + 1
    match = CONTENT_LENGTH.fullmatch(bytes(buf[:end]))
    if match is None:
        return None
    length = int(match.group(1))
    if length == 0 or length > MAX_BODY:  # pygls takes 0 for "no length yet"
        return None
    pos = end
    while True:  # the other header lines, up to the empty one (pygls ignores their content)
        newline = buf.find(b"\n", pos)
        if newline < 0:
            if len(buf) > MAX_HEADER or not _fill(fd, buf):
                return None
            continue
        line, pos = bytes(buf[pos:newline + 1]), newline + 1
        if not line.strip():
            break
    while len(buf) < pos + length:
        if not _fill(fd, buf):
            return None
    return pos, pos + length


def _write_all(fd: int, data: bytes) -> bool:
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except BlockingIOError:
            import select
            select.select([], [fd], [])
            continue
        except OSError:
            # Nothing sent: the server answers as usual (and meets the same error). Part of a
            # frame sent: the stream is broken either way.
            return len(view) < len(data)
        view = view[written:]
    return True


# -- what the message says ----------------------------------------------------------------------


def _parse(body: bytes) -> dict[str, Any] | None:
    """The message when it is a plain initialize request, else None.

    pygls decodes the body with json.loads and hands every JSON object holding a "jsonrpc" key to
    its message reader; only the outer object may hold one here.
    """
    marked: list[dict] = []

    def hook(obj: dict) -> dict:
        if "jsonrpc" in obj:
            marked.append(obj)
        return obj

    try:
        message = json.loads(body, object_hook=hook)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or len(marked) != 1 or marked[0] is not message:
        return None
    if set(message) != ENVELOPE_KEYS or message["jsonrpc"] != "2.0" or message["method"] != "initialize":
        return None
    request_id = message["id"]
    if type(request_id) is not str and type(request_id) is not int:  # not bool, float or null
        return None
    params = message["params"]
    if type(params) is not dict or type(params.get("capabilities")) is not dict:
        return None
    return message


def _accepted(params: dict[str, Any], schema: dict[str, Any]) -> bool:
    """Whether lsprotocol reads params into InitializeParams with every value as sent, and pygls'
    initialize goes through with them.

    The schema (generated from lsprotocol's classes) is stricter than lsprotocol's converter: exact
    JSON types, integers in LSP's range, enum values it knows. Anything it refuses goes to pygls.
    """
    if not _valid(params, ["ref", schema["root"]], schema["types"]):
        return False
    # pygls' Workspace parses the root URI (or builds one from rootPath); urllib raises on some
    # (an unclosed "[" in the host), and a rootPath starting with "//" without a further "/" raises
    # in pygls.uris: leave all of those, and anything else unusual, to pygls.
    root_uri, root_path = params.get("rootUri"), params.get("rootPath")
    if root_uri is None and root_path is not None:
        if root_path.startswith("//") or "\\" in root_path:  # UNC shares, Windows separators
            return False
        root_uri = "file://" + (root_path if root_path.startswith("/") else "/" + root_path)
    if root_uri is not None:
        from urllib.parse import urlparse
        try:
            urlparse(root_uri)
        except Exception:
            return False
    return True


def _valid(value: Any, kind: Any, types: dict[str, Any]) -> bool:
    """Whether value is of kind, strictly (see _accepted)."""
    if isinstance(kind, str):
        if kind == "any":
            return True
        if kind == "null":
            return value is None
        if kind == "bool":
            return value is True or value is False
        if kind == "str":
            return type(value) is str
        if kind in INT_RANGE:
            low, high = INT_RANGE[kind]
            return type(value) is int and low <= value <= high
        return False
    tag = kind[0]
    if tag == "or":
        return any(_valid(value, alternative, types) for alternative in kind[1:])
    if tag == "list":
        return type(value) is list and all(_valid(item, kind[1], types) for item in value)
    if tag == "enum":
        return any(type(value) is type(known) and value == known for known in kind[1])
    if tag == "ref":
        spec = types[kind[1]]
        if type(value) is not dict or any(name not in value for name in spec["required"]):
            return False
        fields = spec["fields"]
        return all(_valid(item, fields[name], types) for name, item in value.items() if name in fields)
    return False
