"""Write initialize_result.json, the early `initialize` answer: `python -m packgate.lsp.gen_initialize`.

The answer is not written by hand: the real server (create_server(), every packgate feature
registered) processes an `initialize` through pygls, and what pygls writes back is stored. Next
to it: the pygls and lsprotocol versions it came from (the early answer is used with those
only), and a description of InitializeParams taken from lsprotocol's classes, which fastinit
checks a client's params against before answering for pygls. tests/lsp/test_lsp_fast_initialize.py
fails when the file differs from what this module builds now (`make initialize-result`).
"""

from __future__ import annotations

import enum
import json
import sys
import typing
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

import attrs
from lsprotocol import types
from lsprotocol import validators as lsp_validators

from packgate.lsp.fastinit import RESULT_FILE

# The client of the stored answer declares both flags pygls reads from it (true), so the answer
# holds pygls' `client_flag and server_supports` for each, and pulls diagnostics with refresh, so
# it holds diagnosticProvider; fastinit removes or clears them for clients that do not (see
# fastinit.negotiate).
CLIENT = {"textDocument": {"synchronization": {"willSave": True, "willSaveWaitUntil": True}, "diagnostic": {}},
          "workspace": {"diagnostics": {"refreshSupport": True}}}


def pygls_frames(body: bytes, server: Any = None) -> list[bytes]:
    """Every frame packgate's real server (pygls) writes when it reads this message body (first,
    unless a server that has read others is given: a later initialize is answered the same way)."""
    if server is None:
        from packgate.lsp.server import create_server
        server = create_server()
    written: list[bytes] = []

    class Capture:
        def write(self, data: bytes) -> None:
            written.append(data)

        def close(self) -> None:
            pass

    server.protocol.set_writer(Capture())
    try:  # as pygls' reader loop does (pygls.io_.run_async)
        server.protocol.handle_message(json.loads(body, object_hook=server.protocol.structure_message))
    except Exception:  # params pygls refuses: it has written its error answer already
        pass
    return written


def pygls_result(params: dict[str, Any]) -> dict[str, Any]:
    """The `result` pygls answers an `initialize` with these params (RuntimeError when it does not)."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}).encode()
    frames = [json.loads(f.split(b"\r\n\r\n", 1)[1]) for f in pygls_frames(body)]
    answers = [f for f in frames if f.get("id") == 1 and "method" not in f]
    if len(answers) != 1 or "result" not in answers[0]:
        raise RuntimeError(f"pygls did not answer this initialize with a result: {frames!r}")
    return answers[0]["result"]


def _json_name(field: str) -> str:
    # lsprotocol's field names on the wire: snake_case to camelCase, a trailing "_" dropped
    parts = (field[:-1] if field.endswith("_") else field).split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


def _int_kind(validator: Any) -> str:
    """'uint' when the field's validator is lsprotocol's unsigned one, else 'int'."""
    inner = getattr(validator, "validator", validator)  # attrs.validators.optional(...)
    return "uint" if inner is lsp_validators.uinteger_validator else "int"


class _Schema:
    """InitializeParams described as JSON for fastinit._valid."""

    def __init__(self) -> None:
        self.types: dict[str, Any] = {}

    def kind(self, tp: Any, validator: Any = None) -> Any:
        if tp is Any:
            return "any"
        if tp is type(None):
            return "null"
        if tp is bool:
            return "bool"
        if tp is str:
            return "str"
        if tp is int:
            return _int_kind(validator)
        origin, args = typing.get_origin(tp), typing.get_args(tp)
        if origin is typing.Union:
            kinds = [self.kind(a, validator) for a in args]
            return "any" if "any" in kinds else ["or", *kinds]
        if origin is typing.Literal:
            return ["enum", list(args)]
        if origin in (list, Sequence):
            return ["list", self.kind(args[0])]
        if isinstance(tp, type) and issubclass(tp, enum.Enum):
            return ["enum", [m.value for m in tp]]
        if isinstance(tp, type) and attrs.has(tp):
            self.define(tp)
            return ["ref", tp.__name__]
        raise TypeError(f"fastinit cannot check {tp!r}: teach gen_initialize this type or leave it to pygls")

    def define(self, cls: type) -> None:
        if cls.__name__ in self.types:
            return
        spec: dict[str, Any] = {"fields": {}, "required": []}
        self.types[cls.__name__] = spec
        for field in attrs.fields(attrs.resolve_types(cls, types.ALL_TYPES_MAP)):
            name = _json_name(field.name)
            spec["fields"][name] = self.kind(field.type, field.validator)
            if field.default is attrs.NOTHING:
                spec["required"].append(name)


def build() -> dict[str, Any]:
    """The content of initialize_result.json."""
    schema = _Schema()
    schema.define(types.InitializeParams)
    return {
        "generated by": "python -m packgate.lsp.gen_initialize (make initialize-result); do not edit",
        "versions": {"pygls": version("pygls"), "lsprotocol": version("lsprotocol")},
        "result": pygls_result({"capabilities": CLIENT}),
        "params": {"root": types.InitializeParams.__name__, "types": schema.types},
    }


def render(content: dict[str, Any]) -> str:
    """JSON with the answer indented and one line per class of the params description (diffable)."""
    head = {k: v for k, v in content.items() if k != "params"}
    text = json.dumps(head, indent=1, ensure_ascii=False)[:-2]
    params = content["params"]
    classes = ",\n".join(f"  {json.dumps(name)}: {json.dumps(spec, ensure_ascii=False)}"
                         for name, spec in params["types"].items())
    return f'{text},\n "params": {{"root": {json.dumps(params["root"])}, "types": {{\n{classes}\n }}}}\n}}\n'


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else RESULT_FILE
    target.write_text(render(build()), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
