"""What the training code makes of one value of a variable it reads, judged from the read's
Parse (envreads.py): fine, a parse that raises (int("true")), a value read the other way from
how it is spelled (`true` where the code compares with "1": off), or one that matches none of a
fixed set of choices. Python's own int() and float() decide what raises."""

from __future__ import annotations

import os

from ..records import TextEnum, record
from .readkinds import EnvRead, Parse


class Kind(TextEnum):
    """The verdict on a value."""

    FINE = "fine"  # read as written, or nothing can be said
    RAISES = "raises"  # the parse raises ValueError (Outcome.call names it: int or float)
    OFF = "off"  # spelled as on (`true`, `yes`), read as off
    ON = "on"  # spelled as off (`0`, `false`), read as on
    NO_CHOICE = "no-choice"  # matches none of the fixed values the code compares it with


@record(frozen=True)
class Outcome:
    """A verdict and what the message needs to explain it."""

    kind: Kind
    read: EnvRead | None = None
    call: str = ""  # RAISES: "int" or "float"
    accepted: tuple = ()  # OFF / ON / NO_CHOICE: the code's values (after its case change)
    fold: str = ""  # "lower" / "upper": the code changes the case before comparing


FINE = Outcome(Kind.FINE)

# spellings people use for a switch (compared in lower case)
_ON = frozenset({"1", "true", "yes", "on", "y", "t", "enable", "enabled"})
_OFF = frozenset({"0", "false", "no", "off", "n", "f", "disable", "disabled"})
_INTS = (Parse.INT_EQ, Parse.BOOL_INT, Parse.INT)
_COMPARES = {Parse.STR_EQ: "", Parse.STR_NE: "", Parse.IN_SET: "", Parse.LOWER_EQ: "lower",
             Parse.LOWER_IN: "lower", Parse.UPPER_EQ: "upper", Parse.UPPER_IN: "upper"}
_SETS = (Parse.IN_SET, Parse.LOWER_IN, Parse.UPPER_IN)


def spelled(text: str):
    """True when text spells "on", False when it spells "off", None when it spells neither."""
    low = text.strip().lower()
    if low in _ON:
        return True
    if low in _OFF:
        return False
    return None


def judge(read: EnvRead, text: str) -> Outcome:
    """What the code of one read makes of the value text."""
    parse = read.parse
    if parse in _INTS or parse is Parse.FLOAT:
        call = "float" if parse is Parse.FLOAT else "int"
        try:
            (float if call == "float" else int)(text)
        except (ValueError, OverflowError):
            return Outcome(Kind.RAISES, read, call)
        return FINE
    if parse is Parse.TRUTHY:
        # `if v:` takes any text but the empty one as on
        return Outcome(Kind.ON, read) if text and spelled(text) is False else FINE
    fold = _COMPARES.get(parse)
    if fold is None or not read.values or not all(isinstance(v, str) for v in read.values):
        return FINE
    seen = text.lower() if fold == "lower" else text.upper() if fold == "upper" else text
    values = read.values
    polarity = {spelled(v) for v in values}
    if len(polarity) == 1 and None not in polarity:  # a switch: the values all spell on, or all off
        on_values = polarity == {True}
        on = (seen in values) == on_values
        meant = spelled(text)
        if meant is None or meant == on:
            return FINE
        # the values that read as meant: the compared ones when they spell it, else none to offer
        accepted = values if meant == on_values else ()
        return Outcome(Kind.OFF if meant else Kind.ON, read, accepted=accepted, fold=fold)
    if parse in _SETS and seen not in values:
        return Outcome(Kind.NO_CHOICE, read, accepted=values, fold=fold)
    return FINE


def worst(reads, text: str) -> Outcome:
    """The verdict of the read that objects most to text (a raise before a misreading)."""
    found = FINE
    for read in reads:
        got = judge(read, text)
        if got.kind is Kind.RAISES:
            return got
        if found.kind is Kind.FINE:
            found = got
    return found


def reads_by_name(ctx) -> dict:
    """name -> the reads of it in the workspace's code (ctx: a rule's Context with a contract
    index), built once per analysis: the rules ask for every name a launch is given."""
    table = ctx.cache.get("reads_by_name")
    if table is None:
        table = ctx.cache["reads_by_name"] = {}
        for facts in ctx.contract().files.values():
            for read in facts.reads:
                table.setdefault(read.name, []).append(read)
    return table


def place(read: EnvRead, root: str) -> str:
    """Where a read is, as `file:line` relative to the workspace's root."""
    return f"{os.path.relpath(read.file, root)}:{read.line}".replace(os.sep, "/")


def in_data_module(rel: str) -> bool:
    """Whether a file (relative to the root) is data-loading code, which runs in data-loader workers."""
    parts = rel.split("/")
    stem = parts[-1].rsplit(".", 1)[0]
    return any(p in _DATA_FOLDERS for p in parts[:-1]) or stem.startswith(("data", "dataset"))


_DATA_FOLDERS = frozenset({"data", "dataset", "datasets", "dataloader", "dataloaders"})
