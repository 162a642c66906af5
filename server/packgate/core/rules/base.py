"""What every check gets: the facts, the profile, and helpers that build findings and fixes."""

from __future__ import annotations


from .. import gates as G
from ..fixes import quote_like
from ..model import Edit, Finding, Fix, Related
from ..parse import Assign
from ..records import factory, record
from ..source import Source
from .table import BY_KEY, pick


@record(eq=True)
class Context:
    """Inputs of the checks and the list they append findings to."""

    source: Source
    script: object
    flow: object
    profile: G.Profile
    lang: str
    path: str | None = None
    findings: list = factory(list)
    seen: set = factory(set)
    cache: dict = factory(dict)  # indexes the checks build once per analysis

    @property
    def live(self) -> tuple:
        """Gate variables the profile's code reads."""
        return tuple(self.profile.encoding) + (self.profile.batch,)

    def line(self, offset: int) -> int:
        """1-based line of a byte offset."""
        return self.source.line_of(offset) + 1

    def text(self, code: str, table: str, key: str, **fields) -> str:
        """A message or fix text of a rule in the context's language."""
        rule = BY_KEY[code.lower()]
        en, zh = getattr(rule, table)[key]
        # a field given as an (english, chinese) pair is picked per language
        en_fields = {k: v[0] if isinstance(v, tuple) else v for k, v in fields.items()}
        zh_fields = {k: v[1] if isinstance(v, tuple) else v for k, v in fields.items()}
        if self.lang == "both" and table == "messages":  # both languages: one line each, not " / " mid-sentence
            return f"{en.format(**en_fields)}\n{zh.format(**zh_fields)}"
        return pick(self.lang, en.format(**en_fields), zh.format(**zh_fields))

    def fix(self, code: str, key: str, edits, *, safe: bool = True, preferred: bool = False,
            **fields) -> Fix:
        """A fix whose description comes from the rule table."""
        return Fix(self.text(code, "fixes", key, **fields), tuple(edits), safe, preferred, "fix")

    def emit(self, code: str, message: str, start: int, end: int, *, fixes=(), related=(),
             dedupe=None, severity: str | None = None, data=None, site=None,
             keep_fixes: bool = False) -> None:
        """Record a finding once (dedupe key defaults to code and range).

        site: the assignment the finding is about; when it lives in a sourced file the finding
        moves to the `source` command of this script, points into the file, and keeps only the
        fixes built for this script (keep_fixes).
        """
        if site is not None and getattr(site, "file", None):
            via = self.flow.site_via.get(id(site))
            if via is None:
                return
            related = [Related(site.name_start, site.name_end,
                               pick(self.lang, f"{site.name} is set here", f"{site.name} 在此设置"),
                               site.file)] + list(related)
            start, end = via
            if not keep_fixes:
                fixes = ()
        key = (code, dedupe if dedupe is not None else (start, end))
        if key in self.seen:
            return
        self.seen.add(key)
        rule = BY_KEY[code.lower()]
        self.findings.append(Finding(
            code=rule.code, rule=rule.name, severity=severity or rule.severity, message=message,
            start=start, end=end, fixes=tuple(fixes), related=tuple(related),
            tags=rule.tags, doc_url=rule.doc_url, path=self.path, data=data or {}))

    def related(self, start: int, end: int, en: str, zh: str) -> Related:
        """Related information in the context's language."""
        return Related(start, end, pick(self.lang, en, zh))

    def site_related(self, site, en: str, zh: str) -> Related:
        """Related information at an assignment's name, in the sourced file it may live in."""
        return Related(site.name_start, site.name_end, pick(self.lang, en, zh), getattr(site, "file", None))

    def launch_related(self, launch) -> Related:
        """A related-information entry pointing at a launch."""
        if launch.implicit:
            return self.related(launch.start, launch.end, "end of the file (no launch command)",
                                "文件末尾（没有启动命令）")
        return self.related(launch.name_start, launch.name_end,
                            f"the launch: {launch.label}", f"启动命令：{launch.label}")

    def launch_name(self, launch) -> tuple:
        """How messages name a launch, in English and Chinese."""
        if launch.implicit:
            return ("the end of the file", "文件末尾")
        line = self.line(launch.name_start)
        return (f"{launch.label} (line {line})", f"{launch.label}（第 {line} 行）")


def gate_state(seen, profile: G.Profile | None = None, name: str = "") -> str:
    """on / off / invalid / unknown for what a launch sees of a gate."""
    val = seen.val
    if val.kind == "unset":
        return "off"
    if val.kind == "unknown":
        return "unknown"
    if profile is not None and name:
        return profile.judge(name, val.text)
    return G.int_gate(val.text)


def shown(val) -> str:
    """A value as a message shows it."""
    if val.kind == "unset":
        return "unset"
    if val.kind == "unknown":
        return f"<{val.via}>"
    text = val.text
    if "'" in text and '"' not in text:
        return f'"{text}"'  # literal quotes stay visible: '1' would read as the value 1
    return repr(text) if text.strip() != text or text == "" or '"' in text else text


def value_edit(a: Assign, new: str, source: Source) -> Edit:
    """Replace an assignment's value with new, keeping the quoting of the old value."""
    if a.value is None:
        return Edit(a.eq_end, a.eq_end, new)
    word = a.value
    if word.quote in ("'", '"'):
        return Edit(word.start, word.end, quote_like(word.quote, new))
    return Edit(word.start, word.end, new)
