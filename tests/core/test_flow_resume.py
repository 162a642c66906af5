"""The flow walk of an edited document starts at a checkpoint of the last walk (flow.Resume):
whichever checkpoint it starts from, the findings and launch verdicts must be those of a walk
from the top. Checked on every example and golden case and on generated launchers, starting
from each checkpoint in turn; plus the cases where a checkpoint must not be used."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from packgate.core import flow
from packgate.core.engine import analyze
from packgate.core.flow import Resume

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import generate  # noqa: E402

FILES = sorted((ROOT / "examples").glob("*.sh")) + sorted((ROOT / "tests" / "golden" / "cases").glob("*.sh"))

# Walk features a checkpoint has to carry: a function defined early and called late, paths
# split by if/case/&&, a background export, `set -a`, a `bash -c` child, a container, a loop,
# an exit on one path, a gate overwritten before the launch.
FEATURES = """#!/bin/bash
set -e
setup() { export OFFLINE_PACKING_BMR=1; }
MBS=${4:-2}
if [ "$STAGE" = 2 ]; then
    export OFFLINE_PACKED_DATA=1
fi
case "$MODE" in
    a) OFFLINE_PACKING_VQA=1 ;;
    *) ;;
esac
( export OFFLINE_PACKED_DATA=0 ) &
[ -n "$DEBUG" ] && export OFFLINE_PACKING_BMR=0
set -a
OFFLINE_PACKING_BMR=1
set +a
bash -c 'export OFFLINE_PACKED_DATA=1; torchrun aiak_training_llm/train.py --micro-batch-size 1'
docker run -e OFFLINE_PACKED_DATA=1 img torchrun aiak_training_llm/train.py
for i in 1 2; do
    echo "$i"
done
[ -d /data ] || exit 1
export OFFLINE_PACKED_DATA=1
setup
torchrun aiak_training_llm/train.py --micro-batch-size "$MBS"
export OFFLINE_PACKED_DATA=0
torchrun aiak_training_llm/train.py --micro-batch-size 1
"""


def facts(analysis) -> tuple:
    return ([(f.code, f.start, f.end, f.message, tuple((x.description, x.edits) for x in f.fixes), f.related,
              dict(f.data)) for f in analysis.findings], analysis.launch_summaries)


def texts():
    for path in FILES:
        yield path.name, path.read_text(encoding="utf-8")
    yield "features", FEATURES
    yield "features-crlf", FEATURES.replace("\n", "\r\n")
    for seed in (0, 3):
        yield f"generated-{seed}", generate(400, seed)


@pytest.mark.parametrize("name,text", list(texts()), ids=[n for n, _ in texts()])
def test_every_checkpoint_gives_the_walk_from_the_top(name, text, monkeypatch):
    monkeypatch.setattr(flow, "CHECKPOINTS", 64)  # small scripts get checkpoints too
    first = analyze(text, keep=True)
    want = facts(first)
    resume = first.flow.resume
    script = first.script
    if script is None or script.has_error:
        pytest.skip("nothing is taken over from a parse with errors")
    for point in resume.points:
        # the same model (no edit): its statements are the same objects up to the checkpoint
        partial = Resume(resume.body[:point.index], resume.starts, resume.relevant, resume.path, resume.points)
        again = analyze(text, old_tree=script.tree, previous=script, edits=[], keep=True, resume=partial)
        assert again.flow.resumed_at == point.index
        assert facts(again) == want, (name, point.index)
    if len(script.body.body) >= 8:
        assert resume.points, name


def test_a_checkpoint_is_not_used_when_it_does_not_apply():
    text = FEATURES
    first = analyze(text, keep=True)
    resume, script = first.flow.resume, first.script
    assert resume.points
    same = dict(old_tree=script.tree, previous=script, edits=[], keep=True)
    assert analyze(text, resume=resume, **same).flow.resumed_at > 0
    # other relevant names (the set is compared, not the text)
    other = Resume(resume.body, resume.starts, frozenset({"X"}), resume.path, resume.points)
    assert analyze(text, resume=other, **same).flow.resumed_at == 0
    # another file
    moved = Resume(resume.body, resume.starts, resume.relevant, "/elsewhere.sh", resume.points)
    assert analyze(text, resume=moved, **same).flow.resumed_at == 0
    # statements built again (a fresh model) are other objects: nothing is taken over
    assert analyze(text, keep=True, resume=resume).flow.resumed_at == 0


def test_no_checkpoint_after_a_sourced_file_is_read(tmp_path):
    """A sourced file may change on disk while the script does not: the walk past a `source`
    that was followed is never taken from a checkpoint."""
    (tmp_path / "packing.env").write_text("export OFFLINE_PACKED_DATA=1\n")
    lines = ["#!/bin/bash"] + [f"echo step{i}" for i in range(40)] + ["source ./packing.env"]
    lines += [f"echo after{i}" for i in range(40)] + ["export OFFLINE_PACKING_BMR=1",
                                                       "torchrun aiak_training_llm/train.py"]
    script_path = tmp_path / "train.sh"
    text = "\n".join(lines) + "\n"
    script_path.write_text(text)
    result = analyze(text, path=str(script_path), keep=True)
    source_index = next(i for i, st in enumerate(result.script.body.body)
                        if getattr(st, "words", None) and st.words[0].text == "source")
    assert result.flow.dependencies
    assert result.flow.resume.points
    assert all(p.index <= source_index for p in result.flow.resume.points)
