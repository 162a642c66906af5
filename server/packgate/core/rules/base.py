"""What every check gets: the facts, the profile, and helpers that build findings and fixes."""

from __future__ import annotations

from .. import gates as G
from ..fixes import quote_like, remove_statement, remove_word
from ..flow import NAMED, UNREAD, UNSET, FlowResult, ValKind
from ..findings import Applicability, Caveat, Edit, Finding, Fix, Reason, Related
from ..parse import Assign, AssignMode, Script
from ..parse.words import SUBSTITUTION
from ..records import factory, record
from ..text import Source
from .rule import UNSAFE_TEXT, Rule, pick


@record(eq=True)
class Context:
    """Inputs of the checks and the list they append findings to."""

    source: Source
    script: Script
    flow: FlowResult
    profile: G.Profile
    lang: str
    path: str | None = None
    findings: list = factory(list)
    seen: set = factory(set)
    cache: dict = factory(dict)  # indexes the checks build once per analysis
    revalidate: bool = True  # look again whether the workspace's Python code changed (CLI: yes)
    declared: tuple = ()  # the team's relations (settings' `contract`: core/code/relations.py)

    def contract(self):
        """The contract index of the training code of this script's project (core.code.index),
        or None: no path, no project root, or no Python code below it."""
        if "contract" not in self.cache:
            index = None
            if self.path:
                from ..project import root_of
                root = root_of(self.path, refresh=False)  # the analysis looked it up again if it revalidates
                if root is not None:  # only then: the index's modules cost a cold check
                    from ..code.index import contract_index
                    index = contract_index(root, revalidate=self.revalidate)
                    if not index.files:
                        index = None
            self.cache["contract"] = index
        return self.cache["contract"]

    @property
    def live(self) -> tuple:
        """Gate variables the profile's code reads."""
        return tuple(self.profile.encoding) + (self.profile.batch,)

    def line(self, offset: int) -> int:
        """1-based line of a byte offset."""
        return self.source.line_of(offset) + 1

    def message(self, rule: Rule, key: str, **fields) -> str:
        """A message of a rule in the context's language (both: one line each, not " / " mid-sentence)."""
        text = rule.message(key)
        if self.lang == "both":
            return f"{text.render('en', **fields)}\n{text.render('zh', **fields)}"
        return text.render(self.lang, **fields)

    def fix(self, rule: Rule, key: str, edits, *, preferred: bool = False,
            profile_bound: bool | None = None, **fields) -> Fix:
        """A fix of a rule: its description and applicability come from the rule's fix table.

        A fix that follows the profile's gate roles (the table's profile_bound, or the caller's
        for this one fix) rests on a guess when `auto` assumed the profile: it is then unsafe
        (applied by --unsafe-fixes only) and carries the reason, which the editor shows in its
        title (and then never marks it preferred: preferred stays the rule's first choice)."""
        text = rule.fixes[key]
        applicability, caveat = text.applicability, None
        bound = text.profile_bound if profile_bound is None else profile_bound
        if bound and self.profile.assumed_en:
            name = self.profile.name
            label_en, label_zh = (t.format(profile=name) for t in UNSAFE_TEXT["label"])
            note_en, note_zh = (t.format(profile=name) for t in UNSAFE_TEXT["note"])
            title = pick(self.lang, f"{text.render('en', **fields)} {label_en}",
                         f"{text.render('zh', **fields)}{label_zh}")
            # the note goes under a finding: one line per language, as the messages
            note = f"{note_en}\n{note_zh}" if self.lang == "both" else pick(self.lang, note_en, note_zh)
            caveat = Caveat(Reason.ASSUMED_PROFILE, name, title, note)
            if applicability is Applicability.SAFE:
                applicability = Applicability.UNSAFE
        return Fix(text.render(self.lang, **fields), tuple(edits), applicability, preferred, "fix", caveat)

    def emit(self, rule: Rule, message: str, start: int, end: int, *, fixes=(), related=(),
             dedupe=None, severity: str | None = None, data=None, site=None,
             keep_fixes: bool = False, launch=None) -> None:
        """Record a finding once (dedupe key defaults to code and range).

        site: the assignment the finding is about; when it lives in a sourced file the finding
        moves to the `source` command of this script, points into the file, and keeps only the
        fixes built for this script (keep_fixes).
        launch: the launch that causes the finding (what it sees is wrong), as data["launch"]
        (its byte span): a disable directive on that launch silences the finding too.
        """
        if site is not None and getattr(site, "file", None):
            via = self.flow.sourced_at.get(site)
            if via is None:
                return
            related = [Related(site.name_start, site.name_end,
                               pick(self.lang, f"{site.name} is set here", f"{site.name} 在此设置"),
                               site.file)] + list(related)
            start, end = via
            if not keep_fixes:
                fixes = ()
        key = (rule.code, dedupe if dedupe is not None else (start, end))
        if key in self.seen:
            return
        self.seen.add(key)
        self.findings.append(Finding(
            code=rule.code, rule=rule.name, severity=severity or rule.severity, message=message,
            start=start, end=end, fixes=tuple(fixes), related=tuple(related),
            tags=rule.tags, doc_url=rule.doc_url, path=self.path,
            data={**(data or {}), "launch": [launch.start, launch.end]} if launch is not None else data or {}))

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


# (an enum's member read off its class is slow: flow/values.py says why)
_UNSET, _UNKNOWN = ValKind.UNSET, ValKind.UNKNOWN
_OFF, _UNKNOWN_STATE = G.GateState.OFF, G.GateState.UNKNOWN


def gate_state(seen, profile: G.Profile | None = None, name: str = "") -> G.GateState:
    """ON / OFF / INVALID / UNKNOWN for what a launch sees of a gate."""
    val = seen.val
    if val.kind == _UNSET:
        return _OFF
    if val.kind == _UNKNOWN:
        return _UNKNOWN_STATE
    if profile is not None and name:
        return profile.judge(name, val.text)
    return G.int_gate(val.text)


def one_line(text: str) -> str:
    """text with newlines and other unprintable characters escaped (\\n, \\t, \\x1b)."""
    return text if text.isprintable() else repr(text)[1:-1]


# what the flow says a value the script cannot know comes from (Val.via), where it is a phrase
# rather than the script's own words: in Chinese too
_VIA_ZH = {
    SUBSTITUTION: "命令的输出",
    "read": "read 读入的内容",
    "printf -v": "printf -v 的结果",
    "eval": "eval 的结果",
    "xargs": "xargs 的输入",
    NAMED.via: "运行时才确定名字的变量",
    UNREAD.via: "packgate 无法读取的文件",
    "the caller's arguments": "调用方传入的参数",
    "too deeply nested": "嵌套过深的表达式",
}


def via_words(via: str):
    """A value's origin (Val.via) as a message field: an (english, chinese) pair where the flow
    wrote a phrase, the script's own words (`$1`, `${#A[@]}`) as they are."""
    text = one_line(via or "?")
    zh = _VIA_ZH.get(via)
    return (text, zh) if zh is not None else text


def shown(val) -> str:
    """A value as a message shows it, always on one line."""
    if val.kind == ValKind.UNSET:
        return "unset"
    if val.kind == ValKind.UNKNOWN:
        return f"<{one_line(val.via)}>"
    text = val.text
    if not text.isprintable():  # a newline or a control character would break `file:line:col:` lines
        return repr(text)
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


def removal(ctx: Context, a: Assign) -> Edit:
    """The edit that removes one assignment: its word in a prefix, `env` or `docker run -e`
    list or a multi-name declaration, else the whole statement."""
    if a.mode in (AssignMode.PREFIX, AssignMode.ENV):
        return remove_word(ctx.source, a.start, a.end)
    if a.mode == AssignMode.DOCKER:
        # `-e NAME=1` (two words) or `-eNAME=1` / `--env=NAME=1`
        data = ctx.source.data
        begin = a.start
        j = begin - 1
        while j > 0 and data[j] in b" \t":
            j -= 1
        flag_end = j + 1
        k = flag_end
        while k > 0 and data[k - 1] not in b" \t\n":
            k -= 1
        if data[k:flag_end] in (b"-e", b"--env"):
            return remove_word(ctx.source, k, a.end)
        return remove_word(ctx.source, begin, a.end)
    if a.decl_items > 1:
        return remove_word(ctx.source, a.start, a.end)
    return remove_statement(ctx.source, a.decl_start, a.decl_end)


def site_value(ctx: Context, a: Assign):
    """The value an assignment of a gate gave (UNSET when the flow has none for it)."""
    vals = ctx.cache.get("site_vals")
    if vals is None:  # once per analysis: a lookup per finding would make many findings quadratic
        vals = ctx.cache["site_vals"] = {site: val for site, val in ctx.flow.gate_sites}
    return vals.get(a, UNSET)
