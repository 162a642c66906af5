"""The builder gives the model it gave when MODEL_DIGESTS.json was written, for every shell input
of the repository (model_snapshot.py lists them): a change to the front end that is meant to be
a pure speed-up cannot change one record or field.

When a change to the model is intended, write the digests again (`python
tests/core/model_snapshot.py --write`) in the same commit, and say why.
"""

from __future__ import annotations

import json

import model_snapshot as snap


def test_every_input_gives_the_recorded_model():
    recorded = json.loads(snap.DIGESTS.read_text(encoding="utf-8"))
    now = snap.digests()
    assert sorted(now) == sorted(recorded), "the inputs changed: write the digests again"
    changed = [name for name in now if now[name] != recorded[name]]
    assert changed == [], f"{len(changed)} models differ, e.g. {changed[:5]}"


def test_the_text_of_a_model_tells_records_fields_and_types_apart():
    one, other = snap.text_of(snap.parse_bytes(b"export A=1\n")), snap.text_of(snap.parse_bytes(b"export A=2\n"))
    assert one != other and "Assign(" in one and "AssignMode.EXPORT" in one and "int:" in one
