"""What a command does is data (core/flow/effects.py): handlers return effects and change
nothing; apply.py has a method for every effect; the static passes' sets come from the table."""

from packgate.core.engine import analyze
from packgate.core.flow import commands as C
from packgate.core.flow import effects as E
from packgate.core.flow.apply import EFFECTS
from packgate.core.flow.commands import Call
from packgate.core.flow.state import OK, State
from packgate.core.parse import parse_bytes
from packgate.core.parse.model import Command
from packgate.core.parse.visit import children
from packgate.core.records import is_record
from packgate.core.settings import Settings


def _records(module) -> set:
    return {v for v in vars(module).values() if isinstance(v, type) and hasattr(v, "__record_fields__")
            and v.__module__ == module.__name__}


def test_every_effect_has_its_applier():
    control = {E.Next, E.AsCommand}  # what runs next: apply() reads them itself
    parts = set()  # none: the environment transforms are environ.py's
    assert set(EFFECTS) == _records(E) - control - parts


def test_the_passes_sets_come_from_the_table():
    assert C.STOPS == {"exit", "return", "break", "continue"}
    assert C.OPAQUE == {"source", ".", "eval"}
    assert C.READS_ALL_ARGS == {"source", ".", "eval", "shift", "set"}
    assert C.CHILD_SHELLS == {"bash", "sh", "zsh"}
    assert {"declare", "typeset", "local", "shopt", "eval"} <= C.ACTIVE
    assert not {"true", ":", "false", "shift", "shopt"} & C.REACHING
    assert {"declare", "export", "unset", "let", "(("} <= C.REACHING  # names made at run time reach a check
    assert C.quiet_status(parse_bytes(b"true\n").body.body[0]) == OK


class _Flow:
    """Word evaluation only: a handler that reached for the walk would fail here."""

    def value(self, word, s):
        from packgate.core.flow.facts import Val, ValKind
        return Val(ValKind.KNOWN, word.text or "")

    def values(self, word, s):
        """A literal word's text; an expansion's is not known here."""
        from packgate.core.flow.facts import Origin, Val, ValKind
        if word.text is None:
            return [Val(ValKind.UNKNOWN, via=word.raw or "", origin=Origin.UNKNOWN)]
        return [Val(ValKind.KNOWN, word.text)]


def _commands(text: bytes) -> list:
    out, stack = [], list(parse_bytes(text).body.body)
    while stack:
        st = stack.pop()
        stack.extend(children(st))
        if type(st) is Command and st.words:
            out.append(st)
    return out


SCRIPT = b"""set -eu -o nounset -- a; env -i X=1 -u Y -S 'torchrun a.py'; exec nohup torchrun a.py
command export -n A B=1; command export "$K=1"; command unset -f f; read A; eval 'export X=1'; eval "$X"; shift; return 3; exit
source ./x.sh; bash -c 'echo'; docker run -e A=1 --env=B -v a:b img bash -c 'x'; docker run img cmd
true; :; false
"""


def test_handlers_return_effects_and_change_nothing():
    from packgate.core.flow.values import LazyValues
    seen = set()
    for cmd in _commands(SCRIPT):
        s = State({})
        before = {n: getattr(s, n) for n in State.__record_fields__}
        c = Call(cmd, LazyValues(_Flow(), cmd.words, s), s)
        at = c.i = 1 if c.names[0] == "command" else 0  # `command export`: a command, not a declaration
        c.base = C.base_name(c.names[at])
        effects = C.COMMANDS[c.base].effects(c)
        assert effects is not None, cmd
        assert all(is_record(e) for e in effects), effects
        seen.update(type(e) for e in effects)
        assert {n: getattr(s, n) for n in State.__record_fields__} == before, cmd
        assert c.i == at and c.prefix == list(cmd.prefix) and not c.replaces and not c.clears
    assert seen >= set(EFFECTS) | {E.Next, E.AsCommand}  # the script gives each effect


def test_an_effect_applies_on_every_path():
    # `read` after an if that forks: both paths get the unknown value
    text = ("if [ -n \"$1\" ]; then export OFFLINE_PACKING_BMR=1; fi\nread OFFLINE_PACKED_DATA\n"
            "export OFFLINE_PACKED_DATA\ntorchrun train.py\n")
    launch = analyze(text, settings=Settings(lang="en"), loader=None).flow.launches[0]
    assert len(launch.paths) == 2
    assert {str(p.gates["OFFLINE_PACKED_DATA"].val.kind) for p in launch.paths} == {"unknown"}
