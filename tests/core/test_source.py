"""Positions: byte <-> (line, character) in utf-8, utf-16 and utf-32, with CRLF, CR, tabs, CJK, emoji."""

import pytest

from packgate.core.text import Source, apply_edits
from packgate.core.findings import Edit

TEXT = "a\r\n# 中文 😀\tx=1\rlast\u2028still\x0cline\nend"


def test_lines_break_on_lf_crlf_and_lone_cr_only():
    src = Source(TEXT)
    assert src.line_count == 4
    assert src.line_bytes(0) == b"a"
    assert src.line_bytes(1) == "# 中文 😀\tx=1".encode()
    assert src.line_bytes(2) == "last\u2028still\x0cline".encode()  # U+2028 and form feed are not breaks
    assert src.line_bytes(3) == b"end"


@pytest.mark.parametrize("encoding,expected", [("utf-8", 14), ("utf-16", 8), ("utf-32", 7)])
def test_position_of_x_after_cjk_emoji_tab(encoding, expected):
    src = Source(TEXT)
    offset = src.data.index(b"x=1")
    assert src.position(offset, encoding) == (1, expected)
    assert src.offset(1, expected, encoding) == offset


def test_round_trip_every_character_boundary():
    src = Source(TEXT)
    for enc in ("utf-8", "utf-16", "utf-32"):
        for i, ch in enumerate(src.text):
            off = len(src.text[:i].encode())
            line, col = src.position(off, enc)
            if src.text[i - 1:i + 1] == "\r\n" and i > 0:
                continue  # between \r and \n is not a position
            assert src.offset(line, col, enc) == off, (enc, i, ch)


def test_offsets_clamp_like_lsp():
    src = Source("ab\ncd")
    assert src.offset(0, 99, "utf-16") == 2  # past the line end: the line end
    assert src.offset(9, 0, "utf-16") == len(src.data)  # past the end: the end
    assert src.offset(-1, 0, "utf-16") == 0
    assert src.position(10_000, "utf-16") == (1, 2)


def test_utf16_never_splits_a_surrogate_pair():
    src = Source("😀x")
    # character 1 is inside the pair: stays before the emoji's end
    assert src.offset(0, 1, "utf-16") == 0
    assert src.offset(0, 2, "utf-16") == 4


def test_utf8_never_lands_inside_a_character():
    src = Source("中x")
    assert src.offset(0, 1, "utf-8") == 0
    assert src.offset(0, 3, "utf-8") == 3


def test_user_position_is_one_based_code_points():
    src = Source("# 😀 中\nexport X=1")
    assert src.user_position(src.data.index(b"X")) == (2, 8)
    assert src.user_position(src.data.index("中".encode())) == (1, 5)


def test_eol_detection():
    assert Source("a\r\nb\r\n").eol == "\r\n"
    assert Source("a\nb\n").eol == "\n"


def test_apply_edits_skips_overlaps():
    data = b"0123456789"
    out = apply_edits(data, [Edit(2, 4, "ab"), Edit(3, 5, "zz"), Edit(8, 8, "!")])
    assert out == b"01ab4567!89"


def test_invalid_utf8_is_replaced():
    src = Source.from_bytes(b"export X=\xff1\n")
    assert "\ufffd" in src.text


@pytest.mark.parametrize("seed", range(40))
def test_an_edited_source_indexes_its_lines_as_a_fresh_one(seed):
    """Source.edited rescans only around the edit: its line starts (and line ending) must be
    a fresh Source's, whatever line ends the edit splits, joins or adds."""
    import random

    rng = random.Random(seed)
    pieces = ["a", "\n", "\r", "\r\n", "中文", "😀", "\t", "\f", "x = 1", "\u2028"]
    text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 60)))
    source = Source(text)
    for _ in range(30):
        data = source.data
        cuts = sorted(rng.randrange(len(data) + 1) for _ in range(2))
        # edits on character boundaries
        a = len(data[:cuts[0]].decode("utf-8", "ignore").encode())
        b = max(a, len(data[:cuts[1]].decode("utf-8", "ignore").encode()))
        if rng.random() < 0.3:
            b = min(len(data), a + rng.choice([0, 1]))
            b = len(data[:b].decode("utf-8", "ignore").encode()) if b > a else a
        inserted = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 3))).encode()
        source = source.edited(a, b, inserted)
        fresh = Source(source.text)
        assert source.data == fresh.data
        assert source.line_starts == fresh.line_starts, (source.text,)
        assert source.eol == fresh.eol and source._ascii == fresh._ascii


@pytest.mark.parametrize("seed", range(20))
def test_an_edited_ascii_source_slices_its_text_as_decoding_would(seed):
    """Source.edited of an ASCII text with ASCII inserted slices the old text instead of
    decoding the new bytes: the same text, line starts and line ending as a fresh Source, and
    the decoding again once a character past ASCII comes in."""
    import random

    rng = random.Random(seed)
    pieces = ["a", "\n", "\r", "\r\n", "\t", "x = 1", "#", " "]
    text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 60)))
    source = Source(text)
    for _ in range(30):
        data = source.data
        a = rng.randrange(len(data) + 1)
        b = min(len(data), a + rng.choice([0, 0, 1, 2, 5]))
        inserted = "".join(rng.choice(pieces + (["中"] if rng.random() < 0.1 else []))
                           for _ in range(rng.randint(0, 3))).encode()
        if not source.text.isascii():
            break
        source = source.edited(a, b, inserted)
        fresh = Source((data[:a] + inserted + data[b:]).decode())
        assert source.text == fresh.text and source.data == fresh.data
        assert source.line_starts == fresh.line_starts and source.eol == fresh.eol
        assert source._ascii == fresh._ascii


def _slow_position(src: Source, offset: int, encoding: str) -> tuple[int, int]:
    """The position by decoding the line's prefix every time (what the ASCII shortcut skips)."""
    from bisect import bisect_right
    offset = max(0, min(offset, len(src.data)))
    line = bisect_right(src.line_starts, offset) - 1
    start = src.line_starts[line]
    offset = min(offset, src.line_end(line))
    if encoding == "utf-8":
        return line, offset - start
    chunk = src.data[start:offset].decode("utf-8", "replace")
    if encoding == "utf-32":
        return line, len(chunk)
    return line, len(chunk.encode("utf-16-le", "surrogatepass")) // 2


@pytest.mark.parametrize("text", [
    TEXT, "plain\nascii\r\nonly\rhere", "x=1 # 中文\nabc 😀 def\r\nASCII line\n\t中\r\n", "中文" * 3 + "\n" + "a" * 10,
])
def test_every_offset_gets_the_position_of_decoding_its_line(text):
    for src in (Source(text), Source("x\n" + text).edited(0, 2, b"", text)):
        for enc in ("utf-8", "utf-16", "utf-32"):
            for off in range(-1, len(src.data) + 2):
                assert src.position(off, enc) == _slow_position(src, off, enc), (enc, off)


def test_line_starts_of_lf_only_text_are_those_a_scan_finds():
    """The LF-only shortcut (line lengths summed up) gives the starts a find loop gives."""
    import random

    from packgate.core.text import _line_starts
    rng = random.Random(19)
    for _ in range(300):
        data = "".join(rng.choice(["a", "中", "\n", "\n\n", " x=1"]) for _ in range(rng.randrange(0, 40))).encode()
        lo = rng.randrange(0, len(data) + 1)
        hi = rng.randrange(lo, len(data) + 1)
        scanned, pos = [], data.find(b"\n", lo, hi)
        while pos >= 0:
            scanned.append(pos + 1)
            pos = data.find(b"\n", pos + 1, hi)
        assert _line_starts(data, lo, hi) == scanned, (data, lo, hi)
