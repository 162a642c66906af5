"""Warnings about a file itself that no rule makes (core.findings.Notice): a comment that looks
like a directive but is not one, a directive value packgate does not know, CRLF line ends.

They have no rule code, so no setting selects or ignores them; the command line reports them
as problems (with their line and column), the editor as warning diagnostics without a code.
"""

from __future__ import annotations

from .directives import problems
from .findings import Edit, Notice, NoticeKind
from .rules.rule import pick


def notices(source, directives, lang: str = "en") -> list:
    """The warnings about the file itself, which no rule makes (core.findings.Notice), in
    document order: each directive problem, and CRLF line ends (crlf_notice)."""
    data = source.data
    # a comment of a CRLF line ends after its \r (tree-sitter's): the range stops before it
    out = [Notice(start, end - 1 if data[end - 1:end] == b"\r" else end, pick(lang, en, zh), NoticeKind.DIRECTIVE)
           for start, end, en, zh in problems(directives)]
    crlf = crlf_notice(source, lang)
    if crlf is not None:
        out.append(crlf)
    out.sort(key=lambda n: (n.start, n.end))
    return out


CRLF_TEXT = ("this file has CRLF (Windows) line ends: bash keeps the \\r, so a `\\` at the end of a "
             "line escapes the \\r instead of the line break, and the next line runs as a separate "
             "command (the options on it never reach the launch); convert the file to LF line ends",
             "此文件使用 CRLF（Windows）换行：bash 会保留 \\r，行尾的 `\\` 转义的是 \\r 而不是换行，"
             "下一行会作为单独的命令执行（其中的选项到不了启动命令）；请把文件转换为 LF 换行")


def crlf_notice(source, lang: str = "en"):
    """One warning for a file with CRLF line ends (ShellCheck's SC1017), on the first line
    that ends in one: from its start up to the \\r."""
    data = source.data
    at = data.find(b"\r\n") if b"\r" in data else -1  # (a two-byte find scans slowly; memchr does not)
    if at < 0:
        return None
    line_start = source.line_starts[source.line_of(at)]
    return Notice(line_start, at, pick(lang, *CRLF_TEXT), NoticeKind.CRLF)


def crlf_edits(source) -> list:
    """The edits that convert the file to LF line ends: each CRLF replaced by LF (byte ranges
    of the text as it is, so they apply together; the whole CRLF, since an editor's position
    cannot fall between its \\r and \\n)."""
    data, out, at = source.data, [], source.data.find(b"\r\n")
    while at >= 0:
        out.append(Edit(at, at + 2, "\n"))
        at = data.find(b"\r\n", at + 2)
    return out
