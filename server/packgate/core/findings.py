"""Findings and fixes as plain data, shared by every renderer (CLI formats, LSP)."""

from __future__ import annotations

from enum import Enum

from .records import factory, record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Any


@record(frozen=True)
class Edit:
    """Replace the byte range [start, end) of the document with text, or of another file.

    path: that other file, absolute (None: the document analysed); create: it did not exist
    when the fix was made, and the edit makes it (start and end 0); digest: the sha256 of the
    bytes the offsets count in, so a writer refuses a file that changed since (core.outside)."""

    start: int
    end: int
    text: str
    path: str | None = None
    create: bool = False
    digest: str = ""


class Applicability(Enum):
    """Whether a batch fix (`--fix`, `--diff`, the editor's fixAll) applies a fix, as ruff's."""

    SAFE = "safe"  # applied by --fix, --diff and fixAll
    UNSAFE = "unsafe"  # applied only with --unsafe-fixes (or `unsafe-fixes = true`); its Caveat says why
    DISPLAY_ONLY = "display-only"  # one choice among others: offered in the editor, never applied in batch


class Reason(Enum):
    """Why a fix cannot be trusted without a look (a Caveat's reason)."""

    # it follows the gate roles of the profile `auto` assumed, having found no training code:
    # on the real code base it may break a working launcher (remove its live gate)
    ASSUMED_PROFILE = "assumed-profile"


@record(frozen=True)
class Caveat:
    """Why a fix is not safe, typed (no renderer reads it out of a description), with the texts
    that say so already in the analysis's language, as the fix's description is."""

    reason: Reason
    profile: str = ""  # ASSUMED_PROFILE: the profile the fix follows
    title: str = ""  # the fix's title as the editor offers it: "... (unsafe: assumes profile ov2)"
    note: str = ""  # the command line's note under a finding whose fix it withheld


@record(frozen=True)
class Fix:
    """A named set of edits; its applicability says whether `--fix` and fixAll apply it."""

    description: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE
    preferred: bool = False
    kind: str = "fix"  # "fix" or "disable"
    caveat: Caveat | None = None  # why it is not safe (UNSAFE), or what its choice rests on

    @property
    def safe(self) -> bool:
        """True when --fix, --diff and fixAll apply it without --unsafe-fixes."""
        return self.applicability is Applicability.SAFE

    def applies(self, unsafe: bool = False) -> bool:
        """Whether a batch fix applies it: a rule's fix that is safe, or unsafe with unsafe on."""
        if self.kind != "fix":
            return False
        return self.applicability is Applicability.SAFE or (unsafe and self.applicability is Applicability.UNSAFE)


@record(frozen=True)
class Related:
    """Another place that explains a finding (the launch, the other gate)."""

    start: int
    end: int
    message: str
    path: str | None = None


@record(frozen=True)
class Finding:
    """One diagnostic: where, which rule, how bad, what to do."""

    code: str
    rule: str
    severity: str
    message: str
    start: int
    end: int
    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0
    fixes: tuple[Fix, ...] = ()
    related: tuple[Related, ...] = ()
    tags: tuple[str, ...] = ()
    doc_url: str = ""
    path: str | None = None
    data: dict[str, Any] = factory(dict, compare=False)

    @property
    def key(self) -> str:
        """A stable id of this finding within its analysis."""
        return f"{self.code}:{self.start}:{self.end}"


class NoticeKind(Enum):
    """What a Notice is about (its value is what an editor diagnostic's data carries)."""

    DIRECTIVE = "directive"  # a comment that looks like a directive, or a value a directive does not know
    CRLF = "crlf"  # CRLF line ends (the editor offers "convert to LF")


@record(frozen=True)
class Notice:
    """A warning about the file itself that no rule makes: a comment that looks like a
    directive but is not one, CRLF line ends (core.notices). No code: never selected, ignored
    or disabled; the command line reports it as a problem, the editor as a warning diagnostic."""

    start: int
    end: int
    message: str
    kind: NoticeKind = NoticeKind.DIRECTIVE
