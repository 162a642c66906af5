"""Bugs the fuzzers found and that are not fixed yet: what the fuzzers tolerate meanwhile.

Each bug has a minimal reproducer marked xfail(strict=True) in test_known_bugs.py. When the
engine is fixed, that xfail passes, the suite fails, and the matching switch here is set to
False (or removed) so the fuzzers hold the property again everywhere.
"""

from __future__ import annotations

import re

# test_known_bugs.py::test_disable_for_this_command_second_on_its_line
# "Disable PGxxx for this command" goes above the line; for `a; b` it covers `a` only.
SAME_LINE_DISABLE = False  # fixed: the directive goes right before the second command

# test_known_bugs.py::test_disable_for_this_command_in_a_pipeline_or_list
# ... but not for a later stage of a pipeline or a later command of an `&&`/`||` list
# (`echo hi | export X=1`, PG006's own case): the directive lands inside the pipeline and
# covers nothing, and a one-line pipeline is split over three lines for it.
DISABLE_IN_PIPELINE_OR_LIST = False  # fixed: the directive covers the whole pipeline or list

# test_known_bugs.py::test_fix_never_empties_a_body
# PG002's safe fix removes the only command of an `if`/`then`, a loop or a function body; bash
# rejects what is left (`then fi`, `do done`, `{ }`): `--fix` turns a working launcher into one
# that does not start.
# Partly fixed: a body on lines of its own gets `:`; a one-line body (`do X; done`,
# `then X; fi`, `{ X; }`) is still emptied (test_fix_never_empties_a_one_line_body).
FIX_EMPTIES_BODY = False  # fixed for one-line bodies too (`do X; done` -> `do :; done`)

# test_known_bugs.py::test_fix_keeps_case_arms_whole
# PG002's safe fix on the last command of a case arm (`a) export OFFLINE_PACKING_VQA=1;;`) removes
# the command and one `;` of the `;;`: `a) ;` is a syntax error for bash and tree-sitter.
FIX_EATS_HALF_OF_DOUBLE_SEMICOLON = False  # fixed: `;;` is never split


def eats_half_of_double_semicolon(data: bytes, edits) -> bool:
    return FIX_EATS_HALF_OF_DOUBLE_SEMICOLON and any(
        e.end > e.start and data[e.end - 1:e.end + 1] == b";;" for e in edits)


# test_known_bugs.py::test_removal_keeps_the_neighbours_in_place
# PG002's safe fix removes the statement but not the operator that joins it to its neighbour:
# `[ -n "$L" ] && export OFFLINE_PACKING_VQA=1` becomes `[ -n "$L" ] &&` and the next line (the
# launch) now runs only when the test succeeds; `echo | export ...` pipes into the launch;
# `export ... &` leaves a lone `&`, a syntax error.
FIX_REMOVAL_LEAVES_OPERATOR = False  # fixed: an operand of &&, ||, |, ! or & becomes `:`


def removal_next_to_an_operator(data: bytes, edits) -> bool:
    if not FIX_REMOVAL_LEAVES_OPERATOR:
        return False
    for e in edits:
        if e.text or e.end <= e.start:
            continue
        line_start = data.rfind(b"\n", 0, e.start) + 1
        before = data[line_start:e.start].rstrip(b" \t")
        after = data[e.end:].lstrip(b" \t")
        if before.endswith((b"&&", b"||", b"|", b"&", b"!")) or after.startswith((b"&", b"|")):
            return True
    return False


# test_known_bugs.py::test_nul_in_a_sourced_path
# `. ./a<NUL>b` (a NUL byte in the path of `.`/`source`) makes analyze() raise ValueError
# ("embedded null byte", from os.path.realpath) whenever a path is given: the CLI prints a
# traceback, the server publishes nothing for that version.
NUL_IN_SOURCED_PATH = False  # fixed: refused as PG009
_SOURCE_WORD = re.compile(r"(?:^|[\s;&|(`{])(?:\.|source)[ \t]")


def later_in_pipeline_or_list(data: bytes, offset: int) -> bool:
    """Whether offset lies in a stage of a pipeline, or a command of an and/or list, after its first."""
    if not DISABLE_IN_PIPELINE_OR_LIST:
        return False
    import tree_sitter
    import tree_sitter_bash
    parser = tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))
    node = parser.parse(data).root_node
    while True:
        inner = next((c for c in node.children if c.start_byte <= offset < c.end_byte), None)
        if inner is None:
            return False
        if node.type in ("pipeline", "list") and node.named_children and \
                offset >= node.named_children[0].end_byte:
            return True
        node = inner


def nul_in_sourced_path(text: str) -> bool:
    """Whether the text may trigger the NUL bug (conservatively: a NUL and a `.`/`source`)."""
    return NUL_IN_SOURCED_PATH and "\0" in text and _SOURCE_WORD.search(text) is not None


# test_known_bugs.py::test_brace_then_astral_character_does_not_crash
# tree-sitter-bash 0.25.1's external scanner calls isdigit() on the code point after `{`
# (scanner.c:1158 and :1172); for code points far above 255 the ctype table read goes out of
# bounds and the process dies with SIGSEGV about two times in three (it depends on where ASLR
# put libc). `echo {<U+F0001>}` (a Nerd Font icon) is enough. In-process fuzzing must never
# generate it (it would kill pytest), so the generators stay below this code point meanwhile.
SCANNER_SAFE_MAX_CODEPOINT = 0x10FFFF  # fixed: the parser only ever sees ASCII (parse.py)
_SCANNER_TRAP = re.compile(r"(\{[0-9.]*)([\U00050000-\U0010FFFF])")


def defuse(text: str) -> str:
    """The text with every code point the scanner bug crashes on after `{` replaced by U+FFFD."""
    if SCANNER_SAFE_MAX_CODEPOINT >= 0x10FFFF:
        return text
    return _SCANNER_TRAP.sub("\\1\ufffd", text)
