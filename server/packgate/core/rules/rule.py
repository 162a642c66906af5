"""What a rule is made of: its code, name and severity, its texts in English and Chinese, its
examples. Every rule module holds one `Rule` and its check; `rules/__init__.py` lists them."""

from __future__ import annotations

import re

from ..findings import Applicability
from ..records import record


def pick(lang: str, en: str, zh: str) -> str:
    """One text in the requested language; `both` joins English and Chinese."""
    if lang == "zh":
        return zh
    if lang == "both":
        return f"{en} / {zh}"
    return en


# `{{` and `}}` are literal braces; a field's name ends at `!` or `:` (str.format's syntax).
# Not string.Formatter: importing `string` is a cost every cold start would pay.
_FIELD = re.compile(r"\{\{|\}\}|\{([^{}!:]*)")


def placeholders(template: str) -> frozenset:
    """The `{field}` names a template fills in."""
    return frozenset(name for name in _FIELD.findall(template) if name)


@record(frozen=True)
class Text:
    """A message template in English and Chinese; both must name the same `{fields}`."""

    en: str
    zh: str

    # Checked by the tests (tests/core/test_rules.py), not on every import: the rules' texts are
    # constants, and checking them all was a seventieth of a cold `packgate check`.
    def validate(self) -> None:
        """ValueError unless the English and Chinese texts fill the same fields."""
        if placeholders(self.en) != placeholders(self.zh):
            raise ValueError(f"the English and Chinese texts fill different fields: {self.en!r} / {self.zh!r}")

    def render(self, lang: str, **fields) -> str:
        """The text in a language; a field given as an (english, chinese) pair is picked per language."""
        en = {k: v[0] if isinstance(v, tuple) else v for k, v in fields.items()}
        zh = {k: v[1] if isinstance(v, tuple) else v for k, v in fields.items()}
        return pick(lang, self.en.format(**en), self.zh.format(**zh))


@record(frozen=True)
class FixText(Text):
    """A fix: its description template, what the rule page says of it, whether `--fix` (and
    fixAll on save) applies it, and whether it follows the profile's gate roles (profile_bound:
    where `auto` only assumed the profile, such a fix is unsafe, Context.fix)."""

    doc_en: str = ""
    doc_zh: str = ""
    applicability: Applicability = Applicability.SAFE
    profile_bound: bool = False

    def validate(self) -> None:
        """ValueError unless both texts fill the same fields and both descriptions are concrete."""
        Text.validate(self)
        fields = placeholders(self.en)
        if not self.doc_en or not self.doc_zh or any(f"{{{f}}}" in self.doc_en + self.doc_zh for f in fields):
            raise ValueError(f"fix {self.en!r} needs a concrete description for the rule page in both languages")


@record(frozen=True)
class Rule:
    """One rule: stable code, kebab-case name, default severity, its texts and its check."""

    code: str
    name: str
    severity: str
    summary_en: str
    summary_zh: str
    problem_en: str
    problem_zh: str
    rationale_en: str
    rationale_zh: str
    exceptions_en: str
    exceptions_zh: str
    bad: str
    good: str
    messages: dict  # message key -> Text
    fixes: dict  # fix key -> FixText
    tags: tuple = ()
    # the training code the examples are checked against, as (path, text) pairs below a project
    # root (the rule reads the workspace's Python code); empty: the examples need none
    workspace: tuple = ()
    # lang -> a Markdown table the page shows after the exceptions: made only for the docs, so
    # that a check does not load the data behind it
    exceptions_table: object = None

    def validate(self) -> None:
        """TypeError or ValueError unless every message is a Text and every fix a FixText, each valid."""
        for table, kind in ((self.messages, Text), (self.fixes, FixText)):
            for key, text in table.items():
                if not isinstance(text, kind):
                    raise TypeError(f"{self.code}: {key!r} must be a {kind.__name__}")
                text.validate()

    def summary(self, lang: str) -> str:
        """The one-line summary in a language (en, zh or both)."""
        return pick(lang, self.summary_en, self.summary_zh)

    def message(self, key: str) -> Text:
        """The message template named key (tests check that every key a check uses exists)."""
        return self.messages[key]

    @property
    def doc_url(self) -> str:
        """The web address of the rule's page (never a file of the installed package)."""
        from ..links import rule_url  # SARIF and the editor ask; a plain check never does
        return rule_url(self.code)


# what the examples launch: one torchrun line with packing's buffer, after the gates
EXAMPLE_LAUNCH = ("torchrun --nproc_per_node 8 aiak_training_llm/train.py \\\n"
                  "    --micro-batch-size 1 --packing-buffer-size 100\n")

# a fix that follows the gate roles of a profile `auto` assumed (Reason.ASSUMED_PROFILE): the
# editor's title suffix, and the command line's note under a finding whose fix --fix withheld
UNSAFE_TEXT = {
    "label": ("(unsafe: assumes profile {profile})", "（不安全：假定配置为 {profile}）"),
    "note": ("(fix withheld: it rests on the assumed profile {profile}; --unsafe-fixes applies it, "
             "or set profile)",
             "（未自动修复：它依据的是假定的配置 {profile}；--unsafe-fixes 会应用它，或设置 profile）"),
}

# the two "disable" code actions every finding offers
DISABLE_TEXT = {
    "command": ("Disable {code} for this command", "对此命令禁用 {code}"),
    "file": ("Disable {code} for this file", "对整个文件禁用 {code}"),
}
