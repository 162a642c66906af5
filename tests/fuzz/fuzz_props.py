"""The properties every analysis must have, checked on whatever text the fuzzers produce.

Position arithmetic here is written independently of packgate.core.text: the fuzzers check
the core's conversions against a second implementation, not against itself.
"""

from __future__ import annotations

import re
from typing import Iterable

import tree_sitter
import tree_sitter_bash

import known

from packgate.core.engine import analyze
from packgate.core.settings import Settings
from packgate.core.text import apply_edits

EN = Settings(lang="en")
ENCODINGS = ("utf-8", "utf-16", "utf-32")
_PARSER = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
_BREAK = re.compile(r"\r\n|\r|\n")


def encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def decode(data: bytes) -> str:
    return data.decode("utf-8", "surrogatepass")


def error_spans(data: bytes) -> list[tuple[int, int]]:
    """Byte spans of the outermost ERROR nodes and of the MISSING nodes of tree-sitter-bash's tree
    (iterative: trees can be deep).

    A line continuation at the very end of the text is closed first: tree-sitter-bash reports
    `export A=1 \\<newline><EOF>` as an error where bash (`bash -n`) accepts it.
    """
    if data.endswith((b"\\\n", b"\\\r\n", b"\\\r", b"\\")):
        data += b"\n\n"
    tree = _PARSER.parse(data)
    spans = []
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            spans.append((node.start_byte, node.end_byte))
        elif node.has_error:
            stack.extend(node.children)
    return sorted(spans)


_BODIES = {"compound_statement": "{", "do_group": "do", "subshell": "(", "if_statement": "then",
           "elif_clause": "then", "else_clause": "else"}
_BODY_ENDS = {"}", "done", ")", "fi", "elif_clause", "else_clause"}
_EMPTY_SUBSHELL = re.compile(rb"(?<![\w$<>)])\([ \t]*\)")


def empty_bodies(data: bytes) -> int:
    """Bodies without a command (`then fi`, `do done`, `{ }`, `( )`): tree-sitter accepts them,
    bash does not (`syntax error near unexpected token`)."""
    tree = _PARSER.parse(data + b"\n\n" if data.endswith((b"\\\n", b"\\")) else data)
    count = 0
    stack = [tree.root_node]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        opener = _BODIES.get(node.type)
        if opener is None or node.has_error:
            continue
        inside = False
        statements = 0
        for child in node.children:
            if not inside:
                inside = child.type == opener
                continue
            if child.type in _BODY_ENDS:
                break
            if child.is_named and child.type != "comment":
                statements += 1
        count += inside and statements == 0
    # an empty subshell `( )` is an ERROR node for tree-sitter: count it from the text
    return count + len(_EMPTY_SUBSHELL.findall(data))


# Plain assignments are left out: tree-sitter-bash sometimes reads `A=1 B=`⏎`cmd` as prefix
# assignments of cmd (bash does not; packgate's parser knows), and a fix next to them would
# look like it moved them.
_COMMANDS = {"command", "declaration_command", "unset_command", "test_command", "redirected_statement"}
_TRANSPARENT = {"variable_assignments"}  # `A=1 B=2` holds them; `B=2` alone does not: same place


def command_chains(data: bytes) -> dict:
    """(start, end) of every command -> the node types from the program down to it."""
    tree = _PARSER.parse(data)
    out = {}
    stack = [(tree.root_node, ())]
    while stack:
        node, chain = stack.pop()
        if node.type in _COMMANDS and (node.start_byte, node.end_byte) not in out:
            out[(node.start_byte, node.end_byte)] = chain
        inner = chain if node.type in _TRANSPARENT else chain + (node.type,)
        stack.extend((c, inner) for c in node.children if c.is_named)
    return out


def moved_commands(data: bytes, edits) -> list:
    """Commands outside the edited ranges whose place in the tree a fix changed: a launch that
    was a statement of its own and is now the right side of `&&`, a pipeline stage, ..."""
    kept = []
    pos = 0
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if e.start >= pos:
            kept.append(e)
            pos = e.end
    shift_at = []
    shift = 0
    for e in kept:
        shift_at.append((e.start, e.end, shift))
        shift += len(e.text.encode("utf-8", "surrogatepass")) - (e.end - e.start)

    def forward(p: int) -> int | None:
        moved = 0
        for start, end, before in shift_at:
            if p < start or (p == start and start == end):
                return p + moved
            if p < end or (p == end and start < end and False):
                return None
            moved = before + len(next(e for e in kept if e.start == start and e.end == end).text.encode(
                "utf-8", "surrogatepass")) - (end - start)
        return p + moved

    before = command_chains(data)
    after = command_chains(apply_edits(data, edits))
    changed = []
    for (start, end), chain in before.items():
        if any(start < e.end and e.start < end or e.start == e.end and start <= e.start <= end for e in kept):
            continue  # the fix edits this command (or writes right against it, as `export ` before it)
        new_start, new_end = forward(start), forward(end)
        if new_start is None or new_end is None:
            continue
        if after.get((new_start, new_end)) != chain:
            changed.append((data[start:end][:60], chain, after.get((new_start, new_end))))
    return changed


def bash_accepts(data: bytes) -> bool | None:
    """`bash -n` on the text (None when there is no bash)."""
    import shutil
    import subprocess
    bash = shutil.which("bash")
    if bash is None:
        return None
    return subprocess.run([bash, "-n"], input=data, capture_output=True, timeout=30).returncode == 0


def parse_worse(data: bytes, edits) -> list[tuple[int, int]]:
    """new_errors(), less the errors only tree-sitter sees: when bash -n accepts the text before
    and after the edits (`x=$()`, an empty command substitution, is one), there is no new error."""
    fresh = new_errors(data, edits)
    if fresh and bash_accepts(data) and bash_accepts(apply_edits(data, edits)):
        return []
    return fresh


def new_errors(data: bytes, edits) -> list[tuple[int, int]]:
    """The parse errors of the edited text that are not explained by an error the text already
    had: each error span of the result is mapped back through the edits (an inserted span maps
    to the range it replaced) and must touch an error span of the original. A text that parsed
    cleanly must still parse cleanly."""
    before = error_spans(data)
    after = error_spans(apply_edits(data, edits))
    if not after or not before:
        return after
    ordered = sorted(edits, key=lambda e: (e.start, e.end))
    kept, pos = [], 0
    for e in ordered:  # the edits apply_edits really applied
        if e.start >= pos:
            kept.append(e)
            pos = e.end

    def back(p: int, side: int) -> int:
        shift = 0
        for e in kept:
            new_start = e.start + shift
            new_end = new_start + len(e.text.encode("utf-8", "surrogatepass"))
            if p < new_start:
                return p - shift
            if p <= new_end:
                return e.start if side == 0 else e.end
            shift += len(e.text.encode("utf-8", "surrogatepass")) - (e.end - e.start)
        return p - shift

    fresh = []
    for s, e in after:
        s0, e0 = back(s, 0), back(e, 1)
        if not any(bs <= e0 and s0 <= be for bs, be in before):
            fresh.append((s, e))
    return fresh


def on_boundary(data: bytes, offset: int) -> bool:
    """Inside the document, not inside a UTF-8 sequence, not between the \\r and \\n of a CRLF."""
    if not 0 <= offset <= len(data):
        return False
    if offset < len(data) and (data[offset] & 0xC0) == 0x80:
        return False
    if 0 < offset < len(data) and data[offset - 1:offset + 1] == b"\r\n":
        return False
    return True


def width(ch: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(ch.encode("utf-8", "surrogatepass"))
    if encoding == "utf-16":
        return 2 if ord(ch) > 0xFFFF else 1
    return 1


def expected_position(data: bytes, offset: int, encoding: str) -> tuple[int, int]:
    """(line, character) of a byte offset, computed from the text alone."""
    prefix = decode(data[:offset])
    breaks = list(_BREAK.finditer(prefix))
    line = len(breaks)
    start = breaks[-1].end() if breaks else 0
    return line, sum(width(ch, encoding) for ch in prefix[start:])


def boundaries(text: str) -> Iterable[int]:
    """Every byte offset that is a character boundary (and not inside a CRLF)."""
    pos = 0
    prev = ""
    for ch in text:
        if not (prev == "\r" and ch == "\n"):
            yield pos
        pos += len(ch.encode("utf-8", "surrogatepass"))
        prev = ch
    yield pos


def check_positions(analysis, offsets: Iterable[int]) -> None:
    """Each offset converts to the position a client computes, and back, in every encoding."""
    source = analysis.source
    data = source.data
    for off in offsets:
        for enc in ENCODINGS:
            want = expected_position(data, off, enc)
            got = source.position(off, enc)
            assert tuple(got) == want, (off, enc, got, want)
            back = source.offset(got[0], got[1], enc)
            assert back == off, (off, enc, got, back)


def fingerprint(analysis) -> list:
    """Everything a renderer shows of an analysis, comparable across runs."""
    return [(f.code, f.rule, f.severity, f.message, f.start, f.end, f.line, f.column, f.end_line,
             f.end_column, f.tags, f.related,
             tuple((x.description, x.edits, x.safe, x.kind) for x in f.fixes)) for f in analysis.findings]


def check_ranges(analysis) -> list[int]:
    """Every finding, related location (in this document) and fix edit is inside the document and
    on character boundaries; returns the offsets seen."""
    data = analysis.source.data
    seen = []
    for f in analysis.findings:
        assert on_boundary(data, f.start) and on_boundary(data, f.end) and f.start <= f.end, \
            ("finding range", f.code, f.start, f.end, len(data))
        assert (f.line, f.column) == _user(data, f.start), ("finding line/column", f)
        assert (f.end_line, f.end_column) == _user(data, f.end), ("finding end line/column", f)
        seen += [f.start, f.end]
        for r in f.related:
            if r.path is None:
                assert on_boundary(data, r.start) and on_boundary(data, r.end) and r.start <= r.end, \
                    ("related range", f.code, r)
                seen += [r.start, r.end]
        for fix in f.fixes:
            assert fix.kind in ("fix", "disable") and isinstance(fix.description, str) and fix.description
            for e in fix.edits:
                assert on_boundary(data, e.start) and on_boundary(data, e.end) and e.start <= e.end, \
                    ("fix edit range", f.code, fix.description, e, len(data))
                assert isinstance(e.text, str)
                seen += [e.start, e.end]
            spans = sorted((e.start, e.end) for e in fix.edits)
            assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), ("overlapping edits", fix)
    return seen


def _user(data: bytes, offset: int) -> tuple[int, int]:
    line, col = expected_position(data, offset, "utf-32")
    return line + 1, col + 1


def count(analysis, code: str) -> int:
    return sum(1 for f in analysis.findings if f.code == code)


def check_fixes(analysis, settings: Settings = EN, disable_too: bool = True, path: str | None = None,
                bash: bool = False) -> int:
    """Apply every offered fix alone; a safe fix keeps the text parseable (no new ERROR nodes, no
    body left without a command; with bash=True, `bash -n` still accepts it if it did) and never
    adds a finding of the rule it fixes. Returns the number of fixes applied."""
    data = analysis.source.data
    clean = None
    bash_ok = bash_accepts(data) if bash else None
    empty = None
    applied = 0
    for f in analysis.findings:
        for fix in f.fixes:
            if fix.kind == "disable" and not disable_too:
                continue
            new = apply_edits(data, fix.edits)
            new_text = decode(new)  # edits on boundaries keep the text decodable
            applied += 1
            after = analyze(new_text, settings=settings, path=_path(new_text, path))
            what = (f.code, fix.description, fix.kind, fix.edits)
            if fix.applies(unsafe=True):  # a batch fix: safe, or unsafe (the profile `auto` assumed)
                assert count(after, f.code) <= count(analysis, f.code), ("safe fix adds a finding of its rule", what)
                if known.eats_half_of_double_semicolon(data, fix.edits):
                    continue  # known bug
                if empty is None:
                    empty = empty_bodies(data)
                if empty_bodies(new) > empty:
                    assert known.FIX_EMPTIES_BODY, ("safe fix leaves a body without a command", what)
                    continue  # known bug
                if known.removal_next_to_an_operator(data, fix.edits):
                    continue  # known bug
                assert not parse_worse(data, fix.edits), ("safe fix adds parse errors", what)
                if clean is None:
                    clean = not error_spans(data)
                if clean:
                    moved = moved_commands(data, fix.edits)
                    # (bash has the last word on what the text means: tree-sitter misreads some)
                    assert not moved or bash_accepts(data) is False, ("safe fix changes where other commands run",
                                                                      what, moved)
                if bash_ok:
                    assert bash_accepts(new), ("bash -n rejects the fixed script", what)
            elif fix.kind == "disable":
                if clean is None:
                    clean = not error_spans(data)
                # (on a text that does not parse, a comment moves tree-sitter's guesses around)
                assert not clean or not parse_worse(data, fix.edits), ("disable comment adds parse errors", what)
                # Where the script does not parse, "the next command" is tree-sitter's guess.
                if clean and not (known.SAME_LINE_DISABLE and _shares_line(analysis, f)) \
                        and not (fix is _disables(f)[0] and known.later_in_pipeline_or_list(data, f.start)):
                    assert count(after, f.code) < count(analysis, f.code), ("disable comment does not disable", what)
    return applied


def _disables(finding) -> list:
    """The finding's disable fixes: for this command, then for this file."""
    return [x for x in finding.fixes if x.kind == "disable"]


def _shares_line(analysis, finding) -> bool:
    """Whether the innermost statement holding the finding has another command before it on its line."""
    source = analysis.source
    inner = None
    for span in analysis.script.statements:
        start, end = span[0], span[1]
        if start <= finding.start < end or start == finding.start == end:
            if inner is None or end - start <= inner[1] - inner[0]:
                inner = (start, end)
    if inner is None:
        return False
    line_start = source.line_starts[source.line_of(inner[0])]
    return source.data[line_start:inner[0]].strip(b" \t") != b""


def check_fix_all(analysis, settings: Settings = EN, path: str | None = None, bash: bool = False) -> None:
    """fixAll: sorted, non-overlapping, batch fixes only (the unsafe ones too: the fuzzed texts
    mostly run under the profile `auto` assumes); the result parses no worse."""
    data = analysis.source.data
    edits = analysis.fix_all_edits(unsafe=True)
    for e in edits:
        assert on_boundary(data, e.start) and on_boundary(data, e.end) and e.start <= e.end
    spans = [(e.start, e.end) for e in edits]
    assert spans == sorted(spans)
    assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), ("fixAll overlapping edits", spans)
    if edits and not known.eats_half_of_double_semicolon(data, edits) \
            and not known.removal_next_to_an_operator(data, edits):
        new = apply_edits(data, edits)
        emptied = empty_bodies(new) > empty_bodies(data)
        assert not emptied or known.FIX_EMPTIES_BODY, ("fixAll leaves a body without a command", edits)
        assert emptied or not parse_worse(data, edits), ("fixAll adds parse errors", edits)
        if not emptied and not error_spans(data):
            moved = moved_commands(data, edits)
            assert not moved or bash_accepts(data) is False, ("fixAll changes where other commands run", edits, moved)
        if not emptied and bash and bash_accepts(data):
            assert bash_accepts(new), ("bash -n rejects the script after fixAll", edits)
        after = analyze(decode(new), settings=settings, path=_path(decode(new), path))
        fixed_codes = {f.code for f in analysis.findings
                       if any(x.applies(unsafe=True) for x in f.fixes)}
        for code in fixed_codes:
            assert count(after, code) <= count(analysis, code), ("fixAll adds a finding", code, edits)


def check_hover_everywhere(analysis, lang: str = "en") -> int:
    """Hover at every byte offset (and past the end): no exception; a range holding the offset."""
    data = analysis.source.data
    hits = 0
    for off in range(-1, len(data) + 2):
        found = analysis.hover(off, lang)
        if found is None:
            continue
        hits += 1
        text, start, end = found
        assert isinstance(text, str) and text
        assert on_boundary(data, start) and on_boundary(data, end) and start <= end, ("hover range", off, start, end)
        assert start <= max(0, min(off, len(data))) <= end or off < 0 or off > len(data), ("hover elsewhere", off, start, end)
    return hits


def _path(text: str, path: str | None) -> str | None:
    # Known bug (known.NUL_IN_SOURCED_PATH): with a path, a NUL in a sourced path raises.
    return None if path is not None and known.nul_in_sourced_path(text) else path


def check_all(text: str, settings: Settings = EN, *, hover: bool = True, fixes: bool = True,
              path: str | None = None, bash: bool = False) -> None:
    """Every property at once, for one text (with path: as the CLI analyses a file, following
    `source`)."""
    path = _path(text, path)
    analysis = analyze(text, settings=settings, path=path)
    assert analysis.source.text == text
    seen = check_ranges(analysis)
    check_positions(analysis, set(seen) | {0, len(analysis.source.data)})
    again = analyze(text, settings=settings, path=path)
    assert fingerprint(again) == fingerprint(analysis), "same input, different findings"
    if hover:
        check_hover_everywhere(analysis, settings.lang)
    if fixes:
        check_fixes(analysis, settings, path=path, bash=bash)
        check_fix_all(analysis, settings, path=path, bash=bash)
