"""One `packgate lsp` session per position encoding, driven by a seeded random client.

The client keeps its own copy of every open document and applies each didChange to it with
its own position arithmetic (clamped like LSP says). It sends hundreds (short run) or thousands
(PACKGATE_FUZZ_LONG=1) of random incremental edits and random requests at valid, past-the-end
and absurd positions, several in flight at once. Properties:

- every request gets an answer: a result, or a JSON-RPC error with an integer code (methods the
  server does not offer answer -32601);
- the server never dies and logs no internal error;
- every position it returns (diagnostics pushed or pulled, related information, hover ranges,
  code action edits) lies inside the document version it refers to, on a character boundary of
  the negotiated encoding;
- at checkpoints, the diagnostics equal an in-process analysis of the client's copy: the
  incremental edits were applied exactly as the client meant them.
"""

from __future__ import annotations

import os
import random
import re

import pytest

import known
from fuzz_corpus import CORPUS, LONG, TOKENS
from fuzz_props import width as units
from rawlsp import RawServer, capabilities

from packgate.core.engine import analyze
from packgate.core.settings import Settings

STEPS = 8000 if LONG else 300
SEED = os.environ.get("PACKGATE_FUZZ_SEED", "20260822")
_BREAK = re.compile(r"\r\n|\r|\n")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
# Methods the server must answer with a result when it advertises them (initialize's capabilities);
# the others must answer -32601.
PROVIDERS = {
    "textDocument/hover": "hoverProvider", "textDocument/codeAction": "codeActionProvider",
    "textDocument/diagnostic": "diagnosticProvider", "textDocument/definition": "definitionProvider",
    "textDocument/references": "referencesProvider", "textDocument/completion": "completionProvider",
    "textDocument/inlayHint": "inlayHintProvider", "textDocument/documentSymbol": "documentSymbolProvider",
    "textDocument/formatting": "documentFormattingProvider",
}
CUSTOM = {"packgate/launchSummaries"}  # packgate's own request (the VS Code status bar)


def offered(capabilities: dict) -> set:
    return {m for m, key in PROVIDERS.items() if capabilities.get(key)} | CUSTOM
NOT_OFFERED_OK = -32601
CLIENT_MISTAKE = re.compile(r"JsonRpcMethodNotFound|JsonRpcInvalidParams")


# -- the client's own position arithmetic -------------------------------------------------

def rows(text: str) -> list[str]:
    out = [m.group() for m in _LINE.finditer(text)]
    if out and out[-1] == "":
        out.pop()
    if not out or out[-1].endswith(("\n", "\r")):
        out.append("")
    return out


def index_of(text: str, line: int, character: int, enc: str) -> int:
    """(line, character) -> str index; past the end of a line is its end, past the last line the
    end of the text; a character inside a multi-unit character means its start."""
    rs = rows(text)
    if line >= len(rs):
        return len(text)
    base = sum(len(r) for r in rs[:line])
    row = rs[line].rstrip("\r\n")
    used = 0
    for i, ch in enumerate(row):
        w = units(ch, enc)
        if used + w > character:
            return base + i
        used += w
    return base + len(row)


def position_of(text: str, index: int, enc: str) -> dict:
    rs = rows(text)
    start = 0
    for line, row in enumerate(rs):
        if index < start + len(row) or line == len(rs) - 1:
            prefix = text[start:min(index, start + len(row.rstrip("\r\n")))]
            return {"line": line, "character": sum(units(c, enc) for c in prefix)}
        start += len(row)
    raise AssertionError("unreachable")


def check_position(text: str, pos: dict, enc: str, what: str) -> None:
    """A position the server sent: inside the text, on a character boundary."""
    line, character = pos["line"], pos["character"]
    assert isinstance(line, int) and isinstance(character, int), (what, pos)
    rs = rows(text)
    assert 0 <= line < len(rs), (what, "line outside the document", pos, len(rs))
    row = rs[line].rstrip("\r\n")
    stops = [0]
    for ch in row:
        stops.append(stops[-1] + units(ch, enc))
    assert character in stops, (what, "not on a character boundary / past the line end", pos, row)


def check_range(text: str, rng: dict, enc: str, what: str) -> None:
    check_position(text, rng["start"], enc, what)
    check_position(text, rng["end"], enc, what)
    s, e = rng["start"], rng["end"]
    assert (s["line"], s["character"]) <= (e["line"], e["character"]), (what, "range ends before it starts", rng)


def check_diagnostics(text: str, diags: list, enc: str, uri: str, what: str) -> None:
    for d in diags:
        check_range(text, d["range"], enc, what)
        for rel in d.get("relatedInformation") or []:
            if rel["location"]["uri"] == uri:
                check_range(text, rel["location"]["range"], enc, what + " related")
        data = d.get("data") or {}
        for fix in data.get("fixes", []) if isinstance(data, dict) else []:
            for edit in fix.get("edits", []):
                check_range(text, edit["range"], enc, what + " fix data")


def _negative(value) -> bool:
    if isinstance(value, dict):
        return any(_negative(v) for v in value.values())
    if isinstance(value, list):
        return any(_negative(v) for v in value)
    return isinstance(value, int) and value < 0


def action_edits(action: dict, uri: str) -> list:
    edit = action.get("edit") or {}
    out = []
    for change in edit.get("documentChanges") or []:
        if change["textDocument"]["uri"] == uri:
            out += change["edits"]
    out += (edit.get("changes") or {}).get(uri, [])
    return out


# -- the fuzzing client -------------------------------------------------------------------

class Fuzzer:
    def __init__(self, server: RawServer, enc: str, pull: bool, rnd: random.Random, offered: set):
        self.s, self.enc, self.pull, self.r, self.offered = server, enc, pull, rnd, offered
        self.docs: dict[str, str] = {}          # uri -> current text (open documents)
        self.versions: dict[str, int] = {}
        self.history: dict[tuple[str, int], str] = {}
        self.pending: list[tuple[int, str, str, str | None]] = []  # (id, method, uri, text then)
        self.seen_notes = 0
        self.last_diags: dict[str, list] = {}
        self.counts: dict[str, int] = {}
        self.edits = 0

    # positions
    def position(self, text: str, valid_only: bool = False) -> dict:
        r = self.r
        rs = rows(text)
        roll = r.random()
        if roll < 0.75 or valid_only and roll < 0.9:
            line = r.randrange(len(rs))
            width = sum(units(c, self.enc) for c in rs[line].rstrip("\r\n"))
            return {"line": line, "character": r.randint(0, width)}
        if roll < 0.95 or valid_only:
            return {"line": r.choice([len(rs) - 1, len(rs), len(rs) + 3, 10**6, 2**31 - 1]),
                    "character": r.choice([0, 5, 10**6, 2**31 - 1])}
        return {"line": r.choice([-1, 0]), "character": r.choice([-1, -(2**31)])}

    def range(self, text: str, valid_only: bool = False) -> dict:
        a, b = self.position(text, valid_only), self.position(text, valid_only)
        if (a["line"], a["character"]) > (b["line"], b["character"]) and self.r.random() < 0.9:
            a, b = b, a
        return {"start": a, "end": b}

    def snippet(self) -> str:
        r = self.r
        roll = r.random()
        if roll < 0.6:
            return r.choice(TOKENS).decode("utf-8")
        if roll < 0.8:
            src = r.choice(CORPUS).decode("utf-8", "replace")
            i = r.randrange(len(src) + 1)
            return src[i:i + r.randint(0, 120)]
        if roll < 0.9:
            return ""
        top = known.SCANNER_SAFE_MAX_CODEPOINT  # known bug: a SIGSEGV in tree-sitter-bash above it
        return "".join(chr(r.choice([r.randint(0x20, 0x7E), r.randint(0xA0, 0xD7FF), r.randint(0xE000, top)]))
                       for _ in range(r.randint(1, 6)))

    # documents
    def open(self, uri: str, text: str) -> None:
        self.docs[uri] = text
        self.versions[uri] = self.versions.get(uri, 0) + 1
        self.history[(uri, self.versions[uri])] = text
        self.s.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "shellscript", "version": self.versions[uri], "text": text}})

    def change(self, uri: str, changes: list[dict]) -> None:
        text = self.docs[uri]
        for c in changes:
            if "range" in c:
                start = index_of(text, c["range"]["start"]["line"], c["range"]["start"]["character"], self.enc)
                end = max(start, index_of(text, c["range"]["end"]["line"], c["range"]["end"]["character"], self.enc))
                text = text[:start] + c["text"] + text[end:]
            else:
                text = c["text"]
        self.docs[uri] = text
        self.edits += len(changes)
        self.versions[uri] += 1
        self.history[(uri, self.versions[uri])] = text
        self.s.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": self.versions[uri]}, "contentChanges": changes})

    def random_change(self, uri: str) -> None:
        text = self.docs[uri]
        changes = []
        for _ in range(self.r.choice([1, 1, 1, 2, 3])):
            if self.r.random() < 0.04:
                changes.append({"text": self.r.choice(CORPUS).decode("utf-8", "replace")})
            else:
                changes.append({"range": self.range(text, valid_only=True), "text": self.snippet()})
            # later changes in the same notification refer to the text after the earlier ones
            probe = text
            c = changes[-1]
            if "range" in c:
                s = index_of(probe, c["range"]["start"]["line"], c["range"]["start"]["character"], self.enc)
                e = max(s, index_of(probe, c["range"]["end"]["line"], c["range"]["end"]["character"], self.enc))
                text = probe[:s] + c["text"] + probe[e:]
            else:
                text = c["text"]
        self.change(uri, changes)

    # requests
    def ask(self, method: str, params: dict, uri: str) -> None:
        msg_id = self.s.start_request(method, params)
        self.pending.append((msg_id, method, uri, self.docs.get(uri), _negative(params)))
        self.counts[method] = self.counts.get(method, 0) + 1

    def random_request(self, uri: str) -> None:
        r = self.r
        text = self.docs.get(uri, "")
        ident = {"uri": uri}
        method = r.choice(["textDocument/hover"] * 4 + ["textDocument/codeAction"] * 4 +
                          ["textDocument/diagnostic"] * 2 + ["textDocument/definition",
                          "textDocument/completion", "textDocument/inlayHint", "textDocument/documentSymbol",
                          "textDocument/references", "textDocument/formatting", "packgate/launchSummaries"])
        if method in ("textDocument/hover", "textDocument/definition", "textDocument/completion"):
            params = {"textDocument": ident, "position": self.position(text)}
        elif method == "textDocument/references":
            params = {"textDocument": ident, "position": self.position(text), "context": {"includeDeclaration": True}}
        elif method == "textDocument/codeAction":
            diags = list(self.last_diags.get(uri, []))
            if diags and r.random() < 0.5:
                diags = r.sample(diags, r.randint(1, len(diags)))
            elif r.random() < 0.2:
                diags = []
            only = r.choice([None, None, ["quickfix"], ["source.fixAll.packgate"], ["source"], [""], ["refactor"]])
            ctx = {"diagnostics": diags}
            if only is not None:
                ctx["only"] = only
            params = {"textDocument": ident, "range": self.range(text), "context": ctx}
        elif method == "textDocument/diagnostic":
            params = {"textDocument": ident, "identifier": "packgate"}
            if r.random() < 0.3:
                params["previousResultId"] = r.choice(["0-0", "x", "1-1"])
        elif method == "textDocument/inlayHint":
            params = {"textDocument": ident, "range": self.range(text)}
        elif method == "textDocument/formatting":
            params = {"textDocument": ident, "options": {"tabSize": 4, "insertSpaces": True}}
        else:
            params = {"textDocument": ident}
        self.ask(method, params, uri)

    # answers
    def settle(self) -> None:
        """Wait for every request in flight and check every answer and notification."""
        for msg_id, method, uri, text, invalid in self.pending:
            answer = self.s.wait_answer(msg_id, timeout=60)
            if "error" in answer:
                err = answer["error"]
                assert isinstance(err.get("code"), int) and isinstance(err.get("message"), str), answer
                if invalid:  # a negative position violates the protocol's uinteger
                    assert err["code"] in (-32602, NOT_OFFERED_OK), (method, answer)
                elif method not in self.offered:
                    assert err["code"] == NOT_OFFERED_OK, answer
                else:
                    raise AssertionError(("an offered method failed on valid params", method, answer))
                continue
            assert "result" in answer, answer
            self.check_result(method, uri, text, answer["result"])
        self.pending.clear()
        for note in self.s.notes[self.seen_notes:]:
            if note["method"] == "textDocument/publishDiagnostics":
                p = note["params"]
                if p.get("version") is None:
                    assert p["diagnostics"] == [], note
                    continue
                text = self.history[(p["uri"], p["version"])]
                check_diagnostics(text, p["diagnostics"], self.enc, p["uri"], "published")
                if self.docs.get(p["uri"]) == text:
                    self.last_diags[p["uri"]] = p["diagnostics"]
        self.seen_notes = len(self.s.notes)
        assert self.s.proc.poll() is None, "the server died"

    def check_result(self, method: str, uri: str, text: str | None, result) -> None:
        enc = self.enc
        if text is None:  # a closed or never opened document
            assert result in (None, [], {"kind": "full", "items": []}) or \
                (isinstance(result, dict) and result.get("items") == []), (method, result)
            return
        if method == "textDocument/hover" and result is not None:
            assert result["contents"]["value"]
            if result.get("range"):
                check_range(text, result["range"], enc, "hover")
        elif method == "textDocument/codeAction":
            assert isinstance(result, list), result
            for action in result:
                assert action["title"]
                for edit in action_edits(action, uri):
                    check_range(text, edit["range"], enc, "code action " + action["title"])
                for d in action.get("diagnostics") or []:
                    assert "range" in d
            if result and self.r.random() < 0.15 and self.docs.get(uri) == text:
                self.apply_action(uri, self.r.choice(result))
        elif method == "textDocument/diagnostic":
            assert result["kind"] in ("full", "unchanged"), result
            if result["kind"] == "full":
                check_diagnostics(text, result["items"], enc, uri, "pulled")
                self.last_diags[uri] = result["items"]
        elif method in ("textDocument/definition", "textDocument/references") and result is not None:
            for loc in result if isinstance(result, list) else [result]:
                target = loc.get("uri", loc.get("targetUri"))
                if target == uri:
                    for key in ("range", "targetRange", "targetSelectionRange"):
                        if key in loc:
                            check_range(text, loc[key], enc, method)
        elif method == "textDocument/completion" and result is not None:
            items = result["items"] if isinstance(result, dict) else result
            for item in items:
                assert item["label"]
                edit = item.get("textEdit")
                if edit:
                    for key in ("range", "insert", "replace"):
                        if key in edit:
                            check_range(text, edit[key], enc, "completion " + item["label"])
                for extra in item.get("additionalTextEdits") or []:
                    check_range(text, extra["range"], enc, "completion additional edit")
        elif method == "textDocument/inlayHint" and result is not None:
            for hint in result:
                check_position(text, hint["position"], enc, "inlay hint")
                for edit in hint.get("textEdits") or []:
                    check_range(text, edit["range"], enc, "inlay hint edit")
        elif method == "packgate/launchSummaries" and result is not None:
            for summary in result:
                check_range(text, summary["range"], enc, "launch summary")

    def apply_action(self, uri: str, action: dict) -> None:
        """The editor applies a code action: its edits become one didChange, last edit first."""
        text = self.docs[uri]
        edits = action_edits(action, uri)
        if not edits:
            return
        spans = sorted(((index_of(text, e["range"]["start"]["line"], e["range"]["start"]["character"], self.enc),
                         index_of(text, e["range"]["end"]["line"], e["range"]["end"]["character"], self.enc), e)
                        for e in edits), key=lambda t: (t[0], t[1]), reverse=True)
        for (s1, e1, _), (s2, e2, _) in zip(spans[1:], spans):
            assert e1 <= s2, ("overlapping edits in one code action", action["title"])
        self.change(uri, [{"range": e["range"], "text": e["newText"]} for _, _, e in spans])

    def checkpoint(self, uri: str) -> None:
        """The server's diagnostics equal an in-process analysis of the client's copy."""
        text = self.docs[uri]
        if known.nul_in_sourced_path(text):  # known bug: the server publishes nothing for it
            return
        path = "/" + uri.split("///", 1)[1]
        want = analyze(text, path=path, settings=Settings())
        if want.script is not None and want.script.has_error:
            # a broken text's reading depends on the document's history (tree-sitter recovers
            # from the last tree; a break is kept where it was typed: core/parse/contain.py,
            # checked against that history in tests/fuzz/test_model_reuse.py): the whole text
            # again, after which the server reads it as a fresh analysis does
            self.change(uri, [{"text": text}])
        if self.pull:
            answer = self.s.request("textDocument/diagnostic", {"textDocument": {"uri": uri}}, timeout=60)
            got = answer["result"]["items"]
        else:
            version = self.versions[uri]
            note = self.s.wait_note(lambda n: n["method"] == "textDocument/publishDiagnostics"
                                    and n["params"]["uri"] == uri and n["params"].get("version") == version, 60)
            got = note["params"]["diagnostics"]
        check_diagnostics(text, got, self.enc, uri, "checkpoint")
        src = want.source
        expect = []
        # the findings, and the notices about the file itself (CRLF, a directive look-alike: no code)
        for f in list(want.findings) + list(want.notices):
            (l1, c1), (l2, c2) = src.position(f.start, self.enc), src.position(f.end, self.enc)
            expect.append((getattr(f, "code", ""), l1, c1, l2, c2))
        have = [(d.get("code", ""), d["range"]["start"]["line"], d["range"]["start"]["character"],
                 d["range"]["end"]["line"], d["range"]["end"]["character"]) for d in got]
        assert sorted(have) == sorted(expect), ("the server's document differs from the client's", text)
        # and the client's arithmetic agrees with the core's on those ranges
        for f in want.findings:
            assert position_of(text, len(src.data[:f.start].decode("utf-8", "surrogatepass")), self.enc) == \
                dict(zip(("line", "character"), src.position(f.start, self.enc)))


@pytest.mark.parametrize("enc,pull", [("utf-16", False), ("utf-8", True), ("utf-32", False)],
                         ids=["utf-16-push", "utf-8-pull", "utf-32-push"])
def test_lsp_session_fuzz(enc, pull):
    rnd = random.Random(f"{SEED}-{enc}")
    with RawServer() as server:
        result = server.initialize(capabilities(enc, pull))
        assert result["capabilities"].get("positionEncoding", "utf-16") == enc
        assert ("diagnosticProvider" in result["capabilities"]) == pull  # pull offered, or push
        fz = Fuzzer(server, enc, pull, rnd, offered(result["capabilities"]))
        uris = [f"file:///packgate-fuzz-lsp/doc{i}.sh" for i in range(3)]
        for uri in uris[:2]:
            fz.open(uri, rnd.choice(CORPUS).decode("utf-8", "replace"))
        ghost = "file:///packgate-fuzz-lsp/never-opened.sh"
        for step in range(STEPS):
            uri = rnd.choice(list(fz.docs) or uris)
            roll = rnd.random()
            if uri not in fz.docs or roll < 0.01:
                if uri in fz.docs:
                    server.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
                    del fz.docs[uri]
                else:
                    fz.open(uri, rnd.choice(CORPUS).decode("utf-8", "replace"))
            elif roll < 0.45:
                fz.random_change(uri)
            elif roll < 0.47:
                server.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
            elif roll < 0.48:
                fz.random_request(ghost)
            else:
                fz.random_request(uri)
            if len(fz.pending) >= 12 or step % 25 == 24:
                fz.settle()
            if step % 100 == 99 and fz.docs:
                fz.settle()
                fz.checkpoint(rnd.choice(list(fz.docs)))
        fz.settle()
        for uri in list(fz.docs):
            fz.checkpoint(uri)
        # Known bugs: the client's own mistakes are logged as internal errors
        # (test_protocol_abuse.py::test_client_mistakes_are_not_logged_as_internal_errors), and a
        # NUL in a sourced path raises (known.NUL_IN_SOURCED_PATH); anything else is a real one.
        assert [e for e in server.errors_logged() if not CLIENT_MISTAKE.search(e)
                and not (known.NUL_IN_SOURCED_PATH and "embedded null byte" in e)] == []
        assert server.shutdown_and_exit() == 0
    print(f"{enc}: {STEPS} steps, {fz.edits} content changes, requests {sum(fz.counts.values())}: {fz.counts}")
