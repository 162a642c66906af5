"""State.fork() fills a bare instance slot by slot: the copy must be what State(...) makes from
the same fields, with its dicts (and the frames' dicts) copied, not shared."""

from __future__ import annotations

from packgate.core.flow.facts import Label, LabelKind, Lost, Val, ValKind, Var
from packgate.core.flow.state import COPIED, State


def test_a_fork_is_the_state_made_from_the_same_fields_with_fresh_dicts():
    var = Var(Val(ValKind.KNOWN, "1"), True, None)
    s = State({"A": var, "B": var}, relevant=frozenset({"A"}), status=0, errexit=True, readonly=frozenset({"B"}),
              labels=(Label(3, LabelKind.THEN),), lost={"A": Lost(None, None)}, removed={"B": (1, 2)},
              frames=({"A": None},), docker_at=7, container=True)
    copy = s.fork()
    made = State(**{n: getattr(s, n) for n in State.__record_fields__})
    for name in State.__record_fields__:
        assert getattr(copy, name) == getattr(made, name), name
    for name in COPIED:
        assert getattr(copy, name) is not getattr(s, name), name
    assert copy.frames[0] is not s.frames[0]
    labelled = s.fork(Label(9, LabelKind.ELSE))
    assert labelled.labels == s.labels + (Label(9, LabelKind.ELSE),) and labelled.mark == s.mark
