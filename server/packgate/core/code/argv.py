"""A launch's words read the way the trainer's argparse reads them.

The words before the entry point are the launcher's (`torchrun --nproc_per_node 8`,
`deepspeed --hostfile h`, `python -u`, `python -m pkg.mod`); the words after it are the
trainer's, and each of those is read against the options its parser defines (an
EntryOptions of core/code/index.py) as argparse's `_parse_optional` and its consumption of
values do: an option string, `--opt=value`, an abbreviation (only a unique prefix, only when
every chosen parser allows abbreviations), `--` ending the options, a negative number as a
value, the values an option takes (`nargs`; `store_true` and the like take none), and words
that are neither an option nor an option's value (positional arguments, Hydra-style
`train.micro_batch_size=1` overrides).

A word packgate cannot know (a Val of kind UNKNOWN: a caller's variable, an array of unknown
length) ends certainty: it gets no role, and the words after it that could be its values get
none either; where the parser has something that could swallow option words too (a positional
argument, `nargs=REMAINDER` or an `nargs` it cannot read), nothing after it is claimed.
"""

from __future__ import annotations

import os
import re
from bisect import bisect_left

from ..flow.facts import Val, ValKind
from ..gates import LAUNCHER_SWITCHES, is_python
from ..records import TextEnum, record
from .entry import EntryAt, entry_at
from .options import UNKNOWN_TYPE, OptionDef

_TEXT = (ValKind.KNOWN, ValKind.DEFAULT)  # the script gives the text (a default the caller may override)
# argparse's own test for a word that is a negative number, not an option (Python 3.8-3.13 agree)
_NEGATIVE = re.compile(r"^-\d+$|^-\d*\.\d+$")
# a word that reads as a number but not by that test (`-1e-3`): Python versions differ on it
_NUMBERISH = re.compile(r"^-\.?\d")
_NO_VALUES = frozenset({"store_true", "store_false", "store_const", "append_const", "count", "help",
                        "version", "BooleanOptionalAction"})
_VALUES = frozenset({None, "store", "append", "extend"})
_SWALLOWING_NARGS = ("...", "A...")  # argparse.REMAINDER, argparse.PARSER: every word after


class Role(TextEnum):
    """What one launch word is to the program that receives it."""

    LAUNCHER = "launcher"  # the launcher's own (before the entry point)
    ENTRY = "entry"  # the script or module the launch runs
    OPTION = "option"  # an option the parser defines: exactly, `--opt=value`, or an accepted abbreviation
    UNDEFINED = "undefined"  # looks like an option; the parser defines nothing it could be
    REFUSED = "refused-abbreviation"  # a prefix of an option, and the parser refuses abbreviations
    AMBIGUOUS = "ambiguous"  # a prefix of several options: argparse stops
    VALUE = "value"  # a value of the option before it
    END = "end-of-options"  # `--`: every word after it is positional
    OPERAND = "operand"  # neither an option nor an option's value (positional, Hydra override, extra)
    UNCERTAIN = "uncertain"  # packgate cannot tell


class Abbrev(TextEnum):
    """Whether the chosen parsers take an unambiguous prefix of an option for the option."""

    ALLOWED = "allowed"  # every chosen parser allows abbreviations (argparse's default)
    REFUSED = "refused"  # every chosen parser is built with allow_abbrev=False
    UNSURE = "unsure"  # they differ, one is not a literal, or no parser was chosen (a union)


@record(frozen=True)
class ArgWord:
    """One word of a launch and its role."""

    index: int  # in LaunchPath.args
    val: Val
    role: Role
    option: object = None  # OPTION: the OptionDef it names; VALUE: the one it is a value of
    spelled: str = ""  # an option-like word as written, before `=` or an attached value
    resolved: str = ""  # OPTION: the option string argparse takes it for (an abbreviation's full form)
    value: object = None  # OPTION: the text after `=` (or attached to `-x`), else None; VALUE: the word
    candidates: tuple = ()  # REFUSED, AMBIGUOUS: the option strings it is a prefix of


@record(frozen=True)
class Argv:
    """A launch's words, each with its role."""

    at: EntryAt
    words: tuple  # ArgWord for every word of LaunchPath.args
    abbrev: Abbrev

    def trainer(self) -> tuple:
        """The trainer's words (after the entry point)."""
        return self.words[self.at.first:]


@record(frozen=True)
class Grammar:
    """What the classification needs of an EntryOptions, computed once."""

    by_string: dict  # option string -> OptionDef
    strings: tuple  # every option string, in definition order
    abbrev: Abbrev
    complete: bool  # no gap: every option the parser accepts is listed
    negative_like: bool  # an option string looks like a negative number (argparse then reads -1 as an option)
    swallows: bool  # something could take option words as values (after an unknown word nothing is sure)
    # option strings two definitions give different type=, choices=, nargs= or action= (two
    # parsers chosen, or a union): what a value of theirs must be is not known
    conflicting: frozenset = frozenset()
    ordered: tuple = ()  # the option strings sorted: the ones a prefix starts are neighbours

    def starting(self, prefix: str) -> list:
        """The option strings that start with prefix, in definition order."""
        ordered = self.ordered
        k = bisect_left(ordered, prefix)
        found = []
        while k < len(ordered) and ordered[k].startswith(prefix):
            found.append(ordered[k])
            k += 1
        if len(found) > 1:
            order = {s: i for i, s in enumerate(self.strings) if s.startswith(prefix)}
            found.sort(key=order.__getitem__)
        return found

    def agreed(self, option: OptionDef) -> bool:
        """Whether every definition of the option's strings reads its values the same way."""
        return not any(s in self.conflicting for s in option.strings)


# EntryOptions -> its Grammar, by identity: the index keeps one EntryOptions per entry for as long
# as it lives, so an editor's next analysis (a keystroke) finds the grammar built (it takes
# milliseconds for Megatron's two thousand options)
_GRAMMARS: dict = {}
_MAX_GRAMMARS = 64


def grammar_of(options) -> Grammar:
    """The Grammar of an EntryOptions (index.py), built once."""
    got = _GRAMMARS.get(id(options))
    if got is not None and got[0] is options:
        return got[1]
    if len(_GRAMMARS) >= _MAX_GRAMMARS:
        _GRAMMARS.clear()
    grammar = _grammar(options)
    _GRAMMARS[id(options)] = (options, grammar)
    return grammar


def _grammar(options) -> Grammar:
    by_string: dict = {}
    swallows = negative_like = False
    conflicting: set = set()
    for o in options.options:
        strings = o.strings
        if o.nargs in _SWALLOWING_NARGS or o.nargs == UNKNOWN_TYPE:
            swallows = True
        if not any(s[:1] == "-" for s in strings):  # a positional argument
            swallows = True
            continue
        for s in strings:
            first = by_string.get(s)
            if first is None:
                by_string[s] = o
                if s[1:2].isdigit() or s[1:2] == ".":
                    negative_like = negative_like or bool(_NEGATIVE.match(s))
            elif first is not o and _reading(first) != _reading(o):
                conflicting.add(s)
    values = {p.allow_abbrev for p in options.parsers}
    abbrev = (Abbrev.ALLOWED if values == {True} else Abbrev.REFUSED if values == {False} else Abbrev.UNSURE)
    return Grammar(by_string, tuple(by_string), abbrev, not options.gaps, negative_like, swallows,
                   frozenset(conflicting), tuple(sorted(by_string)))


def _reading(option: OptionDef) -> tuple:
    return option.type, option.choices, option.nargs, option.action


def supported(command: str) -> bool:
    """Whether packgate knows the launcher's syntax well enough to tell its words from the
    trainer's (torchrun, deepspeed, python; not srun, mpirun or accelerate, whose options vary)."""
    base = os.path.basename(command)
    return base in LAUNCHER_SWITCHES or is_python(base)


def split(command: str, args) -> EntryAt | None:
    """Where the entry point is among a launch's words (LaunchPath.args), or None when the
    launcher is not one whose syntax is known or a word before the entry cannot be known."""
    if not supported(command):
        return None
    return entry_at(command, [v.text if v.kind in _TEXT else None for v in args])


def read_argv(at: EntryAt, args, grammar: Grammar) -> Argv:
    """Every word of a launch with its role, the trainer's read against grammar."""
    words = [ArgWord(i, args[i], Role.ENTRY if i == at.index else Role.LAUNCHER) for i in range(at.first)]
    words.extend(_Reader(grammar).read(args, at.first))
    return Argv(at, tuple(words), grammar.abbrev)


class _Reader:
    """argparse's walk over the trainer's words: which are options, which their values."""

    def __init__(self, grammar: Grammar):
        self.g = grammar
        self.pending = None  # the option taking values now: [OptionDef, taken, most]
        self.blind = False  # after a word of unknown role: the operands that follow may be its values
        self.lost = False  # nothing after this is sure
        self.ended = False  # after `--`

    def read(self, args, start: int) -> list:
        out = []
        for i in range(start, len(args)):
            out.append(self.word(i, args[i]))
        return out

    def word(self, i: int, v: Val) -> ArgWord:
        if self.lost:
            return ArgWord(i, v, Role.UNCERTAIN)
        if v.kind not in _TEXT:
            named = self.named(v)
            self.unknown()  # (unquoted, the rest of `--opt=$X` may be more words)
            return ArgWord(i, v, *named) if named is not None else ArgWord(i, v, Role.UNCERTAIN)
        text = v.text
        if self.ended:
            return ArgWord(i, v, Role.OPERAND)
        if text == "--":
            self.ended, self.pending, self.blind = True, None, False
            return ArgWord(i, v, Role.END)
        hit = _optional(text, self.g)
        if hit is None:
            return self.operand(i, v)
        role, option, spelled, resolved, value, candidates = hit
        self.pending, self.blind = None, False
        if role is Role.UNCERTAIN:
            self.unknown()
        elif role is Role.OPTION:
            self.takes(option, value)
        return ArgWord(i, v, role, option, spelled, resolved, value, candidates)

    def named(self, v: Val):
        """`--opt=$X`: what argparse makes of an option name that a word packgate cannot know
        spells by its literal start (Val.prefix), when the parser has no such option (undefined,
        a refused or ambiguous abbreviation): (role, option, spelled, resolved, None,
        candidates); None otherwise, a defined option included (its value is unknown: the word
        stays uncertain). An undefined name is claimed only where the parser has nothing that
        takes a word as a positional (a space in the value would make argparse read the word as one)."""
        head = v.prefix
        if self.ended or v.kind is not ValKind.UNKNOWN or head[:2] != "--" or "=" not in head:
            return None
        hit = _optional(head.partition("=")[0] + "=", self.g)
        if hit is None:
            return None
        role, option, spelled, resolved, _, candidates = hit
        if role not in (Role.UNDEFINED, Role.REFUSED, Role.AMBIGUOUS) \
                or role is Role.UNDEFINED and self.g.swallows:
            return None
        return role, option, spelled, resolved, None, candidates

    def operand(self, i: int, v: Val) -> ArgWord:
        pending = self.pending
        if pending is not None:
            pending[1] += 1
            if pending[1] >= pending[2]:
                self.pending = None
            return ArgWord(i, v, Role.VALUE, pending[0], value=v.text)
        return ArgWord(i, v, Role.UNCERTAIN if self.blind else Role.OPERAND)

    def unknown(self) -> None:
        """A word whose role cannot be told: it may be an option that takes what follows."""
        self.pending, self.blind = None, True
        if self.g.swallows:
            self.lost = True

    def takes(self, option: OptionDef, inline) -> None:
        """Start taking the values of an option just read."""
        most = _most(option)
        if most is None:
            self.unknown()
        elif most == -1:
            self.lost = True  # REMAINDER: every word after is its value, whatever it looks like
        elif inline is None and most > 0:
            self.pending = [option, 0, most]


def _most(option: OptionDef):
    """How many value words an option takes at most (a large number for `*`, -1 for every
    word after it), or None when packgate cannot tell."""
    action, nargs = option.action, option.nargs
    if action in _NO_VALUES:
        return 0
    if action not in _VALUES and nargs is None:
        return None  # a class of the code's own may default nargs as it likes; or `**kwargs`
    if nargs is None:
        return 1
    if isinstance(nargs, int) and not isinstance(nargs, bool):
        return nargs
    if nargs == "?":
        return 1
    if nargs in ("*", "+"):
        return 1 << 30
    if nargs in _SWALLOWING_NARGS:
        return -1
    return None


def _optional(text: str, g: Grammar):
    """argparse's reading of a word that may be an option, as (role, option, spelled, resolved,
    inline value, candidates), or None for a word it takes as a positional value."""
    if not text or text[0] != "-":
        return None
    option = g.by_string.get(text)
    if option is not None:
        return Role.OPTION, option, text, text, None, ()
    if len(text) == 1:
        return None
    if "=" in text:
        name, _, inline = text.partition("=")
        option = g.by_string.get(name)
        if option is not None:
            return Role.OPTION, option, name, name, inline, ()
    found = _prefixes(text, g)
    if found is not None:
        return found
    negative = _NEGATIVE.match(text)
    if negative and not g.negative_like:
        return None
    if not negative and _NUMBERISH.match(text):
        return Role.UNCERTAIN, None, text, "", None, ()  # `-1e-3`: an option or a value, by Python version
    if " " in text:
        return None
    spelled = text.partition("=")[0]
    if not g.complete:
        return Role.UNCERTAIN, None, spelled, "", None, ()
    return Role.UNDEFINED, None, spelled, "", None, ()


def _prefixes(text: str, g: Grammar):
    """What argparse makes of an option-like word that is not an option string: the options it
    is a prefix of (`_get_option_tuples`), or None when there is none."""
    if text[1] == "-":
        name, eq, inline = text.partition("=")
        matches = g.starting(name)
        if not matches:
            return None
        options = list(dict.fromkeys(g.by_string[s] for s in matches))
        if g.abbrev is Abbrev.UNSURE or not g.complete:
            return Role.UNCERTAIN, None, name, "", None, tuple(matches)
        if g.abbrev is Abbrev.REFUSED:
            if " " in text:
                return None  # argparse takes it for a positional value, not an option
            return Role.REFUSED, None, name, "", None, tuple(matches)
        if len(options) > 1:
            return Role.AMBIGUOUS, None, name, "", None, tuple(matches)
        return Role.OPTION, options[0], name, matches[0], inline if eq else None, ()
    # one dash: `-j4` is `-j` with 4 attached; `-mic` a prefix of `-micro` (whatever allow_abbrev says)
    short, attached = text[:2], text[2:]
    matches = [(short, attached)] if short in g.by_string else []
    matches += [(s, None) for s in g.starting(text) if s != short]
    if not matches:
        return None
    options = list(dict.fromkeys(g.by_string[s] for s, _ in matches))
    if not g.complete:
        return Role.UNCERTAIN, None, text, "", None, tuple(s for s, _ in matches)
    if len(options) > 1:
        return Role.AMBIGUOUS, None, text, "", None, tuple(s for s, _ in matches)
    string, inline = matches[0]
    option = options[0]
    if inline is not None and _most(option) == 0:
        return Role.UNCERTAIN, None, text, "", None, ()  # `-vq`: flags run together, argparse reads on
    return Role.OPTION, option, string, string, inline, ()


@record(frozen=True)
class Shortfall:
    """An option argparse stops at for its values: too few follow it, or one is given to an
    option that takes none (`--bf16=1`)."""

    word: ArgWord  # the option
    given: int  # how many value words follow it (the `=` value for an option that takes none)
    expected: str  # argparse's words: "expected one argument", "ignored explicit argument '1'"


def shortfalls(argv: Argv) -> list:
    """The trainer's options whose values argparse refuses to count: every Python from 3.8 on
    stops there. A word of unknown role after the option makes no claim."""
    out = []
    words = argv.words
    for k in range(argv.at.first, len(words)):
        w = words[k]
        if w.role is not Role.OPTION:
            continue
        option = w.option
        if w.value is not None:
            if _most(option) == 0:
                out.append(Shortfall(w, 1, f"ignored explicit argument {w.value!r}"))
            continue
        least = _least(option)
        if not least:
            continue
        j = k + 1
        while j < len(words) and words[j].role is Role.VALUE and words[j].option is option:
            j += 1
        given = j - k - 1
        ends = j >= len(words) or words[j].role in (Role.OPTION, Role.UNDEFINED, Role.REFUSED, Role.AMBIGUOUS)
        if given < least and ends:
            out.append(Shortfall(w, given, _EXPECTED.get(option.nargs, f"expected {least} arguments")))
    return out


_EXPECTED = {None: "expected one argument", 1: "expected one argument", "+": "expected at least one argument"}


def _least(option: OptionDef) -> int:
    """How many value words an option needs at least (0 when it needs none or packgate cannot tell)."""
    if option.action not in _VALUES:
        return 0
    nargs = option.nargs
    if nargs is None or nargs == "+":
        return 1
    if isinstance(nargs, int) and not isinstance(nargs, bool):
        return nargs
    return 0


@record(frozen=True)
class LaunchArgv:
    """One path to a launch, its words read, and the options its entry point accepts."""

    launch: object  # flow.facts.Launch
    path: object  # flow.facts.LaunchPath
    argv: Argv
    options: object  # index.EntryOptions
    grammar: Grammar


def launch_argvs(index, launches) -> tuple:
    """Every path of every launch whose launcher and entry point packgate can tell, read
    against the options of its entry (index: a ContractIndex)."""
    grammars: dict = {}
    out = []
    for launch in launches:
        if launch.implicit:
            continue
        for path in launch.paths:
            at = split(launch.command, path.args)
            if at is None:
                continue
            options = index.options_for(at.entry)
            grammar = grammars.get(at.entry)
            if grammar is None:
                grammar = grammars[at.entry] = grammar_of(options)
            out.append(LaunchArgv(launch, path, read_argv(at, path.args, grammar), options, grammar))
    return tuple(out)
