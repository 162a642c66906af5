"""The editor's `packgate.contract` (issue 28): the server reads it through the same Settings as a
configuration file, PG014 checks it, and a configuration file's `contract` takes its place."""

from __future__ import annotations

from packgate.core.engine import analyze
from packgate.lsp.session import Session

RELATION = {"kind": "both", "name": "loader-and-sampler", "vars": ["USE_PACKED_LOADER", "USE_PACKED_SAMPLER"],
            "absent": "unset"}
TEXT = "#!/bin/bash\nexport USE_PACKED_LOADER=1\ntorchrun train.py --micro-batch-size 1\n"


def test_the_editor_section_carries_the_teams_relations(tmp_path):
    session = Session()
    problems = session.set_editor_section({"packgate": {"contract": [RELATION, {"kind": "both"}]}})
    assert problems == ["packgate.contract[2]: vars is missing; expected a list of two or more variable names"]
    script = tmp_path / "run.sh"
    script.write_text(TEXT)
    found: list = []
    settings = session.settings_for(script.as_uri(), found)
    assert found == [] and [r.name for r in settings.contract] == ["loader-and-sampler"]
    [f] = [f for f in analyze(TEXT, path=str(script), settings=settings).findings if f.code == "PG014"]
    assert "loader-and-sampler" in f.message and "(packgate.contract[1])" in f.message
    # a configuration file's contract takes the editor's place
    (tmp_path / ".packgate.toml").write_text("contract = []\n")
    assert session.settings_for(script.as_uri(), []).contract == ()


def test_the_dotted_form_is_read_too():
    session = Session()
    assert session.set_editor_section({"packgate.contract": [RELATION]}) == []
    assert [r.name for r in session.editor.contract] == ["loader-and-sampler"]
