"""text -> parse -> flow facts -> rules -> findings: the one analysis the CLI and the server share."""

from __future__ import annotations

import gc
import math
import re
from bisect import bisect_right

from . import gates as G
from .directives import file_directive, profile_of, suppressed
from .notices import notices
from .files import too_large  # the bounds every text read keeps (MAX_BYTES and the rest)
from .flow import EditorWalk, FlowResult, analyze_flow, analyze_flow_for_editor
from .findings import Applicability, Edit, Finding, Fix
from .parse import DIRECTIVE, Script, parse_bytes
from .records import record, replace
from .rules import CHECKS, RULES, rule_by_key
from .rules.base import Context
from .rules.packing import combo_text, path_verdict
from .rules.rule import DISABLE_TEXT, pick
from .settings import Settings
from .text import Source, apply_edits

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Optional


class _Inside(Exception):
    """An offset falls inside an edited range (Analysis.shifted)."""


@record(eq=True)
class LaunchSummary:
    """The verdict at one launch, for status bars and inlay hints."""

    start: int
    end: int
    verdict: G.Verdict
    label: str


class Analysis:
    """The result of analysing one document with one set of settings."""

    def __init__(self, source: Source, script: Optional[Script], flow: Optional[FlowResult],
                 profile: G.Profile, settings: Settings, findings: list, path: str | None,
                 note: str = ""):
        self.source = source
        self.script = script
        self.flow = flow
        self.profile = profile
        self.settings = settings
        self.findings = findings
        self.path = path
        self.note = note  # why the document was not analysed, if it was not
        self.notices: list = []  # warnings about the file itself, no rule's (core.notices)
        # an editor's document: the walk's checkpoints for the next version (None for the CLI)
        self.walk: Optional[EditorWalk] = None
        self._other: dict = {}
        self.slim = False  # True: the model and the flow facts were dropped (see slimmed())
        self._summaries: Optional[list] = None  # launch_summaries, kept when slimmed or moved
        self._dependencies = set(flow.dependencies) if flow is not None else set()
        self._foreign = flow.foreign if flow is not None else {}

    @property
    def dependencies(self) -> set:
        """Every other file this analysis read or tried to read (sourced scripts)."""
        return set(self._dependencies)

    def source_for(self, path: str | None) -> Source:
        """The Source of this document (path None) or of a sourced file it read."""
        if path is None or path not in self._foreign:
            return self.source
        if path not in self._other:
            self._other[path] = Source(self._foreign[path])
        return self._other[path]

    def shifted(self, edits: list, text: str, source: Optional[Source] = None) -> Optional["Analysis"]:
        """This analysis carried over edits that change no syntax (inside comments, see
        parse.comment_interior): the same findings at their new offsets, without parsing, as a
        slim analysis. edits: (start, end, inserted bytes), each on the text the one before it
        left; source: the text's Source when the caller has it. None when they do not lead to
        text or an offset falls inside one."""
        data = self.source.data
        for start, end, inserted in edits:
            data = data[:start] + inserted + data[end:]
        if source is None or source.text is not text:
            source = Source(text)
        if data != source.data or self.note or too_large(data):  # a refused document: analyse
            return None

        def move(p: int) -> int:
            for start, end, inserted in edits:
                if p >= end:
                    p += len(inserted) - (end - start)
                elif p > start:
                    raise _Inside
            return p

        try:
            findings = []
            for f in self.findings:
                # an edit of another file (Edit.path) counts in that file: it does not move
                fixes = tuple(replace(fix, edits=tuple(e if e.path is not None else replace(e, start=move(e.start),
                                                                                            end=move(e.end))
                                                       for e in fix.edits)) for fix in f.fixes)
                related = tuple(r if r.path is not None else replace(r, start=move(r.start), end=move(r.end))
                                for r in f.related)
                data_ = dict(f.data)
                if "launch" in data_:
                    data_["launch"] = [move(p) for p in data_["launch"]]
                start, end = move(f.start), move(f.end)
                line, col = source.user_position(start)
                end_line, end_col = source.user_position(end)
                findings.append(replace(f, start=start, end=end, line=line, column=col, end_line=end_line,
                                        end_column=end_col, fixes=fixes, related=related, data=data_))
            summaries = [replace(x, start=move(x.start), end=move(x.end)) for x in self.launch_summaries]
            moved = [replace(n, start=move(n.start), end=move(n.end)) for n in self.notices]
        except _Inside:
            return None
        out = Analysis(source, None, None, self.profile, self.settings, findings, self.path)
        out._summaries = summaries
        out.notices = moved
        out.slim = True
        out._dependencies, out._foreign, out._other = self._dependencies, self._foreign, self._other
        return out

    def slimmed(self) -> "Analysis":
        """This analysis without its model and flow facts: the findings (with their fixes), the
        launch summaries, the text and what was read, which is all diagnostics, code actions
        and inlay hints need, at about a tenth of the memory. Hover and navigation need a full
        analysis again."""
        out = Analysis(self.source, None, None, self.profile, self.settings, self.findings,
                       self.path, self.note)
        out.slim = self.script is not None
        out.notices = self.notices
        out._dependencies, out._foreign, out._other = self._dependencies, self._foreign, self._other
        out._summaries = self.launch_summaries
        return out

    # -- queries used by renderers
    def hover(self, offset: int, lang: str = "both", markdown: bool = True):
        """Hover text for the word at offset, with its byte range, or None."""
        from .hover import hover_at
        return hover_at(self, offset, lang, markdown)

    def fix_all_edits(self, unsafe: bool | None = None) -> list:
        """Every safe fix of every finding (and every unsafe one with unsafe; None: as the
        settings' unsafe_fixes say), non-overlapping, in document order."""
        return [e for e in self.all_fix_edits(unsafe) if e.path is None]

    def outside_fix_edits(self, unsafe: bool | None = None) -> dict:
        """What fix_all_edits() leaves out: the edits its fixes make to other files (Edit.path),
        path -> edits."""
        from .outside import outside_edits
        return outside_edits(self.all_fix_edits(unsafe))

    def all_fix_edits(self, unsafe: bool | None = None) -> list:
        """The edits of the fixes a batch fix applies, of the document and of other files (one
        fix per finding; a fix whose edits overlap those taken, in the same file, is skipped)."""
        unsafe = self.settings.unsafe_fixes if unsafe is None else unsafe
        edits: list[Edit] = []
        taken: dict = {}  # path (None: the document) -> (start, end) taken there
        for f in self.findings:
            for fix in f.fixes:
                if not fix.applies(unsafe):
                    continue
                if any(_overlaps(e, taken.get(e.path, ())) for e in fix.edits):
                    continue
                if any(e.start == e.end and (e.start, e.end) in taken.get(e.path, ()) for e in fix.edits):
                    continue
                edits.extend(fix.edits)
                for e in fix.edits:
                    taken.setdefault(e.path, []).append((e.start, e.end))
                break
        return sorted(edits, key=lambda e: (e.path or "", e.start, e.end))

    def fixed_text(self) -> str:
        """The document with every fix fix_all_edits() applies (one pass)."""
        return apply_edits(self.source.data, self.fix_all_edits()).decode("utf-8", "replace")


    @property
    def launch_summaries(self) -> list:
        """One verdict per launch (or for the end of a file without one)."""
        if self._summaries is None:
            self._summaries = self._summarize()
        return self._summaries

    def _summarize(self) -> list:
        out = []
        if self.flow is None:
            return out
        ctx = Context(self.source, self.script, self.flow, self.profile, self.settings.lang)
        for launch in self.flow.launches:
            kinds = {path_verdict(ctx, p)[0] for p in launch.paths}
            if len(kinds) == 1:
                verdict = kinds.pop()
            elif kinds <= {G.Verdict.OK, G.Verdict.ONLINE}:
                verdict = G.Verdict.OK
            else:
                verdict = G.Verdict.MIXED
            if verdict is G.Verdict.ONLINE:
                verdict = G.Verdict.OK
            combos = sorted({combo_text(ctx, p) for p in launch.paths})
            label = (combos[0] if len(combos) == 1 else " | ".join(combos[:3]))
            en, zh = G.VERDICT_LABEL.get(verdict, (verdict, verdict))
            label = f"{label} {pick(self.settings.lang, en, zh)}"
            out.append(LaunchSummary(launch.start, launch.end, verdict, label))
        return out


FIX_PASSES = 4


def fix_all(text: str, *, path: str | None = None, settings: Settings | None = None,
            passes: int = FIX_PASSES, outside: dict | None = None, **options) -> str:
    """The text with every safe fix applied (unsafe ones too under settings.unsafe_fixes),
    repeated while fixes reveal more (PG006, then PG003).

    outside: a dict that receives path -> the edits the fixes make to other files (PG006's
    `.deepspeed_env`), as the last pass computed them from those files on disk (nothing is
    written to them here: each pass sees them as they are)."""
    from .outside import outside_edits
    for _ in range(passes):
        current = analyze(text, path=path, settings=settings, **options)
        everything = current.all_fix_edits()
        edits = [e for e in everything if e.path is None]
        if outside is not None:
            outside.update(outside_edits(everything))
        if not edits:
            break
        text = apply_edits(current.source.data, edits).decode("utf-8", "replace")
    return text


def _overlaps(edit: Edit, taken) -> bool:
    for s, e in taken:
        if edit.start < e and s < edit.end:
            return True
    return False


def resolve_profile(settings: Settings, script: Optional[Script], path: str | None = None,
                    revalidate: bool = True) -> G.Profile:
    """The directive's profile, else the setting's; `auto` reads the project's Python code."""
    name = profile_of(script.directives) if script is not None else None
    name = name or settings.profile
    if name == "auto":
        from .project import auto_profile
        return auto_profile(path, revalidate=revalidate)
    return G.profile(name)


_DEFAULT = object()


@record
class Previous:
    """An editor's document: what the analysis of its last version leaves for this one.

    Passed to analyze() it also makes that analysis keep what the next version reuses (the
    model's top-level statements, the walk's checkpoints): Previous() for a document's first
    version (or, with source, only its Source)."""

    tree: object = None  # the last parse tree, edited in step with every change since (parse.edit.apply_edits)
    script: Optional[Script] = None  # the model that tree gave
    resume: object = None  # its flow walk's checkpoints (flow.incremental.Resume)
    edits: Optional[list] = None  # (start, old end, new end) byte offsets since, as parse_bytes takes them
    source: Optional[Source] = None  # the Source of this version's text, when the caller has it
    cuts: Optional[list] = None  # without a tree: read the text in these pieces from scratch (Script.cuts)


def analyze(text: str, *, path: str | None = None, settings: Settings | None = None,
            previous: Optional[Previous] = None, loader=_DEFAULT, revalidate: bool = True,
            wide: bool = False) -> Analysis:
    """Analyse one document and return its findings and facts.

    previous: an editor's document (see Previous): what its edits did not touch is not built or
    walked again. loader reads sourced files (`(path) -> (text, None) | (None, reason)`); by
    default a SourceLoader rooted at the script's project; None turns source-following off.
    revalidate: check the project's Python code again for `profile = auto`.
    wide: the walk follows every word a launch is given, not only those the checks read (what
    `packgate launches` shows; a little slower on long launchers).
    """
    settings = settings or Settings()
    source = previous.source if previous is not None else None
    if source is None or source.text is not text:
        source = Source(text)
    note = too_large(source.data)
    if note:
        return Analysis(source, None, None, G.profile(settings.profile), settings, [], path, note)
    # The model is many small objects in reference cycles; collecting them mid-analysis only
    # costs time (10-30% on a launcher, 40% with thousands of findings): the cycle collector
    # is paused for the whole analysis.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        if previous is None:
            script = parse_bytes(source.data)
        elif previous.tree is None and previous.cuts is not None:
            script = parse_bytes(source.data, keep=True, cuts=previous.cuts)
        else:
            from .parse.edit import ParseState, reparse  # an editor's document: the CLI never loads it
            state = None if previous.tree is None else \
                ParseState(previous.tree, len(source.data), previous.script, previous.edits)
            script = reparse(source.data, state)
        return _analyze(source, path, settings, script, loader, revalidate, previous, wide)
    finally:
        if gc_was_enabled:
            gc.enable()


def _analyze(source: Source, path, settings: Settings, script: Script, loader,
             revalidate: bool, previous: Optional[Previous], wide: bool = False) -> Analysis:
    if revalidate and path:
        from .project import root_of
        # the project root, looked up again here once: the source loader, the profile and the
        # contract index take this one (each looking again walked up the folders, stat'ing markers)
        root_of(path)
    if loader is _DEFAULT:
        from .sourced import default_loader
        loader = default_loader(path) if path else None
    walk = None
    if previous is None:
        flow = analyze_flow(script, source.data, path, loader, wide=wide)
    else:
        walk = analyze_flow_for_editor(script, source.data, path, loader, resume=previous.resume,
                                       edits=previous.edits, wide=wide)
        flow = walk.facts
    profile = resolve_profile(settings, script, path, revalidate)
    ctx = Context(source, script, flow, profile, settings.lang, path, revalidate=revalidate,
                  declared=settings.contract)
    wanted = _enabled_codes(settings, path)
    for code, check in CHECKS.items():
        if code in wanted:
            check(ctx)
    directives = list(script.directives)
    for child in flow.children:
        directives.extend(child.directives)
    findings = []
    for f in ctx.findings:
        if suppressed(f, directives):
            continue
        severity = _severity(settings, f)
        if severity == "off":
            continue
        line, col = source.user_position(f.start)
        end_line, end_col = source.user_position(f.end)
        fixes = f.fixes + _disable_fixes(source, script, f, settings.lang)
        findings.append(replace(f, severity=severity, line=line, column=col, end_line=end_line,
                                end_column=end_col, fixes=fixes))
    findings.sort(key=lambda f: (f.start, f.code, f.end))
    out = Analysis(source, script, flow, profile, settings, findings, path)
    out.walk = walk
    out.notices = notices(source, directives, settings.lang)
    return out


def _enabled_codes(settings: Settings, path: str | None = None) -> frozenset:
    """The rules that run on path: select, extend-select, ignore and per-file-ignores (core/selection.py)."""
    from .selection import enabled_codes
    return enabled_codes(settings, path)


def _severity(settings: Settings, f: Finding) -> str:
    for key, level in settings.severity.items():
        r = rule_by_key(key)
        if r is not None and r.code == f.code:
            return level
    return f.severity


def _disable_fixes(source: Source, script: Script, f: Finding, lang: str) -> tuple:
    """"Disable for this command" and "disable for this file" as edits."""
    out = []
    stmt_start = _innermost_statement(script, f.start)
    line = source.line_of(stmt_start)
    line_start = source.line_starts[line]
    indent = source.indentation(line_start)
    directive = f"# packgate disable={f.code}"
    if source.data[line_start:stmt_start].strip(b" \t"):
        # `a; b` with the finding in b: the directive must sit right before b, on its own line
        edit = Edit(stmt_start, stmt_start, f"{source.eol}{indent}{directive}{source.eol}{indent}")
    else:
        edit = Edit(line_start, line_start, f"{indent}{directive}{source.eol}")
    en, zh = DISABLE_TEXT["command"]
    out.append(Fix(pick(lang, en.format(code=f.code), zh.format(code=f.code)), (edit,),
                   applicability=Applicability.DISPLAY_ONLY, preferred=False, kind="disable"))
    existing = file_directive(script.directives)
    if existing is not None:
        text = source.slice(existing.start, existing.end)
        # the value ends where the directive's pattern says (any blank the parser splits at:
        # a vertical tab or an ideographic space as well as a space or a tab)
        m = re.search(DIRECTIVE, text)
        value_end = existing.start + len(text[: m.end(2)].encode()) if m is not None else existing.end
        edit = Edit(value_end, value_end, f",{f.code}")
    else:
        at = 0
        if source.data.startswith(b"#!"):
            # after the shebang as bash reads it: only a newline ends it (a lone CR, a line end to
            # an editor, is text of the comment, and a directive after it would end the comment early)
            newline = source.data.find(b"\n")
            at = newline + 1 if newline >= 0 else len(source.data)
            if at == len(source.data) and not source.data.endswith(b"\n"):
                # the shebang is the whole file: a newline of bash's ends it, whatever the editor's
                eol = source.eol if source.eol.endswith("\n") else "\n"
                edit = Edit(at, at, f"{eol}# packgate disable={f.code}{eol}")
                at = -1
        if at >= 0:
            edit = Edit(at, at, f"# packgate disable={f.code}{source.eol}")
    en, zh = DISABLE_TEXT["file"]
    out.append(Fix(pick(lang, en.format(code=f.code), zh.format(code=f.code)), (edit,),
                   applicability=Applicability.DISPLAY_ONLY, preferred=False, kind="disable"))
    return tuple(out)


def _innermost_statement(script: Script, offset: int) -> int:
    """Start of the innermost statement holding offset (the finding's own line otherwise).

    Statements nest, so of those holding offset the innermost starts last: scanning the
    statements in order of their starts down from offset, the first that holds it gives the
    answer (statements starting at the same byte give the same answer in either order, so the
    (start, end) tuples sort as they are, without a key).
    """
    spans = script._starts
    if spans is None or len(spans) != len(script.statements):
        spans = script._starts = sorted(script.statements)
    i = bisect_right(spans, (offset, math.inf)) - 1
    while i >= 0:
        start, end = spans[i]
        if start <= offset < end or start == offset == end:
            return start
        i -= 1
    return offset


def lint(text: str, *, path: str | None = None, profile: str | None = None,
         lang: str = "en") -> list:
    """Public API: the findings for a script, with the nearest config file applied when path is given."""
    from .settings import settings_for
    base = Settings(lang=lang)
    settings = settings_for(path, base) if path else base
    if profile is not None:
        settings = replace(settings, profile=profile)
    settings = replace(settings, lang=lang)
    return analyze(text, path=path, settings=settings).findings
