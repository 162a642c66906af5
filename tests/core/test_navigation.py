"""Definition, references and completion data from the core."""

from pathlib import Path

from packgate import Settings, analyze
from packgate.core.navigation import assignments, completions, definition
from packgate.core.rules import RULES

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
EN = Settings(lang="en")


def test_definition_lands_on_the_reading_line_and_the_assignment():
    script = FIXTURES / "repo_ov2" / "scripts" / "env" / "packing.sh"
    text = script.read_text(encoding="utf-8")
    a = analyze(text, path=str(script), settings=EN)
    locs = definition(a, a.source.data.index(b"OFFLINE_PACKING_BMR") + 3)
    py = [l for l in locs if l.path and l.path.endswith("task_encoder.py")]
    assert [(l.line, l.column) for l in py] == [(8, 35)]
    line = Path(py[0].path).read_text().splitlines()[py[0].line]
    assert line[py[0].column:py[0].end_column] == "OFFLINE_PACKING_BMR"
    local = [l for l in locs if l.path is None]
    assert [a.source.slice(l.start, l.end) for l in local] == ["OFFLINE_PACKING_BMR"]


def test_definition_outside_a_gate_is_empty():
    a = analyze("echo hi\n", settings=EN)
    assert definition(a, 2) == []


def test_assignments_for_references():
    text = "export OFFLINE_PACKED_DATA=1\nOFFLINE_PACKED_DATA=0\nexport OFFLINE_PACKED_DATA\ntorchrun t.py\n"
    a = analyze(text, settings=EN)
    locs = assignments(a, "OFFLINE_PACKED_DATA")
    assert [a.source.line_of(l.start) for l in locs] == [0, 1, 2]


def test_completion_after_export_and_after_equals():
    text = "export OFF\nexport OFFLINE_PACKING_BMR='\n"
    a = analyze(text, settings=EN)
    names = [c.label for c in completions(a, len("export OFF"), "en")]
    assert names == ["OFFLINE_PACKING_BMR", "OFFLINE_PACKED_DATA", "OFFLINE_PACKING_VQA"]
    off = a.source.data.index(b"='") + 2
    values = completions(a, off, "en")
    assert [(c.label, c.insert) for c in values] == [("1", "1'"), ("0", "0'")]
    bare = analyze("X=1\nexport OFFLINE_PACKED_DATA=", settings=EN)
    assert [c.insert for c in completions(bare, len(bare.source.data), "en")] == ["'1'", "'0'"]


def test_completion_elsewhere_is_empty():
    a = analyze("torchrun --nproc 8 x", settings=EN)
    assert completions(a, len(a.source.data), "en") == []


def test_completion_inside_packgate_directives():
    def labels(text: str, lang: str = "en") -> list:
        return [c.label for c in completions(analyze(text), len(text.encode()), lang)]

    every = [r.code for r in RULES]
    assert labels("# packgate disable=") == every + ["all"]
    # what the list names already (by code or name) is not offered again
    assert labels("# 中文 😀\n\t# packgate disable=PG001,dead-var,PG") == every[2:] + ["all"]
    assert labels("# packgate profile=o") == ["ov2", "ov15", "three-gate", "auto"]
    assert labels("# packgate ") == ["disable=", "profile=", "source="]
    first = completions(analyze("# packgate disable="), len("# packgate disable="), "zh")[0]
    assert first.detail == "missing-companion (error)" and "开关" in first.documentation
    assert labels("# a comment that is not a directive ") == []
