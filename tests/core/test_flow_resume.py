"""The flow walk of an edited document starts at a checkpoint of the last walk (flow.Resume):
whichever checkpoint it starts from, the findings and launch verdicts must be those of a walk
from the top. Checked on every example and golden case and on generated launchers, starting
from each checkpoint in turn; plus the cases where a checkpoint must not be used."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from packgate.core import flow
from packgate.core.engine import Previous, analyze
from packgate.core.flow import Resume
from packgate.core.records import replace

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
    monkeypatch.setattr(flow.incremental, "CHECKPOINTS", 64)  # small scripts get checkpoints too
    first = analyze(text, previous=Previous())
    want = facts(first)
    resume = first.walk.resume
    script = first.script
    if script is None or script.has_error:
        pytest.skip("nothing is taken over from a parse with errors")
    for point in resume.points:
        # the same model (no edit): its statements are the same objects up to the checkpoint
        partial = replace(resume, body=resume.body[:point.index])
        again = analyze(text, previous=Previous(script.tree, script, partial, []))
        assert again.walk.resumed_at == point.index
        assert facts(again) == want, (name, point.index)
    if len(script.body.body) >= 8:
        assert resume.points, name


def test_a_checkpoint_is_not_used_when_it_does_not_apply():
    text = FEATURES
    first = analyze(text, previous=Previous())
    resume, script = first.walk.resume, first.script
    assert resume.points
    def same(resume):
        return Previous(script.tree, script, resume, [])
    assert analyze(text, previous=same(resume)).walk.resumed_at > 0
    # other relevant names (the set is compared, not the text)
    other = replace(resume, relevant=frozenset({"X"}))
    assert analyze(text, previous=same(other)).walk.resumed_at == 0
    # another file
    moved = replace(resume, path="/elsewhere.sh")
    assert analyze(text, previous=same(moved)).walk.resumed_at == 0
    # statements built again (a fresh model) are other objects: nothing is taken over
    assert analyze(text, previous=Previous(resume=resume)).walk.resumed_at == 0


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
    result = analyze(text, path=str(script_path), previous=Previous())
    source_index = next(i for i, st in enumerate(result.script.body.body)
                        if getattr(st, "words", None) and st.words[0].text == "source")
    assert result.flow.dependencies
    assert result.walk.resume.points
    assert all(p.index <= source_index for p in result.walk.resume.points)


# ---------------------------------------------------------------- taking the rest over
# Past the edit, the walk compares its paths with the last walk's checkpoints; where they are
# the same (and nothing else the rest of the walk reads differs), it takes the rest of the last
# walk, moved by the edit (Flow.resync). Whatever the edit, the result must be a fresh walk's.

EDIT_LINES = [": noop", "export OFFLINE_PACKED_DATA=0", "unset OFFLINE_PACKING_BMR", "MBS=4",
              "f() { export OFFLINE_PACKING_BMR=1; }", "( export OFFLINE_PACKED_DATA=1 )",
              "torchrun aiak_training_llm/train.py --micro-batch-size 2", "# packgate disable=PG001"]


LONG = os.environ.get("PACKGATE_FUZZ_LONG") == "1"  # `make fuzz`: every line of every text


def _edits(text: str, rng, every: bool = False):
    """Line edits across the text (12 lines, or every line): a line inserted, deleted, or a
    digit typed into it."""
    lines = text.split("\n")
    rows = list(range(len(lines)))
    rng.shuffle(rows)
    for row in sorted(rows if every or LONG else rows[:12]):
        start = len("\n".join(lines[:row]).encode()) + (1 if row else 0)
        line = lines[row].encode()
        yield start, start, (rng.choice(EDIT_LINES) + "\n").encode()
        yield start, start + len(line) + 1, b""
        digits = [i for i, c in enumerate(line) if 48 <= c <= 57]
        if digits:
            at = start + rng.choice(digits)
            yield at, at, b"7"


# Facts far past an edit whose offsets must move with it (values the fixes rewrite, launches,
# paths split by branches, assignments the walk makes up for `env` and `${X:=d}`, a function
# never called), and functions called both before and after an edited line.
LATE = """#!/bin/bash
setup() { export OFFLINE_PACKING_VQA=1; }
helper() { torchrun aiak_training_llm/train.py --micro-batch-size 4; }
setup
unset OFFLINE_PACKING_VQA
helper
""" + "".join(f"echo step{i}\nA_{i}=({i} 2 3)\n" for i in range(20)) + """
if [ -n "$X" ]; then
    export OFFLINE_PACKED_DATA=true
else
    export OFFLINE_PACKED_DATA=1
fi
export OFFLINE_PACKING_BMR=yes
setup
helper
env OFFLINE_PACKING_VQA=1 torchrun aiak_training_llm/train.py --micro-batch-size 2
: "${OFFLINE_PACKING_BMR:=1}"
torchrun aiak_training_llm/train.py
late() { export OFFLINE_PACKING_VQA=on; }
"""


# The same without what the walk makes up (which stops any take-over before it)
CALLS = LATE.replace("env OFFLINE_PACKING_VQA=1 ", "").replace(': "${OFFLINE_PACKING_BMR:=1}"\n', "")


def resync_texts():
    yield from texts()
    yield "late", LATE
    yield "calls", CALLS


@pytest.mark.parametrize("name,text", list(resync_texts()), ids=[n for n, _ in resync_texts()])
def test_taking_the_rest_over_gives_the_walk_from_the_top(name, text, monkeypatch):
    import random

    from packgate.core.text import Source
    from packgate.lsp.session import Session

    monkeypatch.setattr(flow.incremental, "CHECKPOINTS", 64)
    rng = random.Random(name)
    session, uri = Session(), "untitled:resync"
    taken = 0
    for version, (a, b, inserted) in enumerate(_edits(text, rng, every=name in ("late", "calls")), start=1):
        session.analysis(uri, 2 * version, text)  # the walk to take over from
        edited = session.splice(uri, Source(text), a, b, inserted.decode())
        entry, _ = session.analysis(uri, 2 * version + 1, edited)
        if entry.analysis.flow is None:
            continue  # only a comment changed: the findings moved, nothing was walked
        cuts = entry.analysis.script.cuts  # an edit that broke a statement: the text read in pieces
        fresh = analyze(edited) if cuts is None else analyze(edited, previous=Previous(cuts=cuts))
        assert facts(entry.analysis) == facts(fresh), (name, a, b, inserted)
        taken += entry.analysis.walk.resynced_at > 0
        session.splice(uri, Source(edited), None, None, text)  # back to the original (a full change)
    if name.startswith("generated") or name in ("late", "calls"):
        assert taken, name  # long launchers: the paths meet again after most edits


def test_the_rest_is_taken_over_after_an_edit_in_an_early_stage():
    """The editor's case: a number typed into the first stage's arguments. The walk starts
    before it, and takes the rest over at the next checkpoint whose paths are the same."""
    from packgate.core.text import Source
    from packgate.lsp.session import Session

    text = generate(2000, 7)
    session, uri = Session(), "untitled:stage"
    session.analysis(uri, 1, text)
    at = text.encode().index(b"--num-workers ") + len(b"--num-workers ")  # byte offsets
    edited = session.splice(uri, Source(text), at, at, "1")
    entry, _ = session.analysis(uri, 2, edited)
    result = entry.analysis.walk
    body = entry.analysis.script.body.body
    assert 0 < result.resynced_at < len(body) // 4
    assert facts(entry.analysis) == facts(analyze(edited))
    # and back: the checkpoints carried over from the first walk serve the next edit
    again = session.splice(uri, Source(edited), at, at + 1, "")
    entry, _ = session.analysis(uri, 3, again)
    assert 0 < entry.analysis.walk.resynced_at < len(body) // 4
    assert facts(entry.analysis) == facts(analyze(again))


def test_a_changed_gate_is_never_taken_over():
    """An edit that changes what a later launch sees: the paths never meet again, the walk
    goes to the end (and the verdicts change)."""
    from packgate.core.text import Source
    from packgate.lsp.session import Session

    text = generate(2000, 7)
    session, uri = Session(), "untitled:gate"
    session.analysis(uri, 1, text)
    at = text.encode().index(b"\n# ======== stage block 0") + 1
    line = "export OFFLINE_PACKED_DATA=0\n"
    edited = session.splice(uri, Source(text), at, at, line)
    entry, _ = session.analysis(uri, 2, edited)
    assert entry.analysis.walk.resynced_at == 0
    assert facts(entry.analysis) == facts(analyze(edited))


@pytest.mark.parametrize("seed", range(20))
def test_moves_follow_every_byte_outside_the_edits(seed):
    """moves_of / compose: after any run of edits, every byte that no edit replaced maps to the
    same byte of the new text, and the ones an edit replaced do not map."""
    import random

    rng = random.Random(seed)
    old = bytes(range(256)) * 2  # every byte value at a known offset (identity below 256 each)
    marks = list(range(len(old)))  # what sits at each offset: the old offset it came from
    text = list(old)
    edits = []
    for _ in range(rng.randint(1, 5)):
        a = rng.randrange(len(marks) + 1)
        b = min(len(marks), a + rng.choice([0, 0, 1, 3, 20]))
        n = rng.choice([0, 1, 2, 9])
        marks[a:b] = [-1] * n
        text[a:b] = [0] * n
        edits.append((a, b, a + n))
    mapper = flow.incremental.Mapper(flow.moves_of(edits), None)
    where = {m: i for i, m in enumerate(marks) if m >= 0}
    for x in range(len(old)):
        try:
            got = mapper.start(x)
        except flow.incremental.Unmapped:
            got = None
        assert got == where.get(x), (x, mapper.steps, edits)


def test_two_edits_far_apart_leave_what_lies_between_mappable():
    # typing at two places of a long script: a checkpoint between them (carried over from an
    # earlier walk) must still map, or the next keystroke there walks from the top
    typed_early = flow.moves_of([(100, 100, 101), (100, 101, 100)])  # an `x` typed and deleted
    typed_late = flow.moves_of([(9000, 9000, 9001)])
    mapper = flow.incremental.Mapper(flow.compose(typed_early, typed_late), None)
    assert mapper.start(5000) == 5000 and mapper.end(5000) == 5000
    assert mapper.span((4000, 5000)) == (4000, 5000)
    assert mapper.start(9500) == 9501
    with pytest.raises(flow.incremental.Unmapped):
        mapper.span((8990, 9010))
    # an `x` typed and deleted at twenty places moves nothing: no step is left to fill the chain
    # (a chain longer than MAX_STEPS is folded into one range over all of them)
    chain = None
    for at in range(100, 2100, 100):
        chain = flow.compose(chain, flow.moves_of([(at, at, at + 1), (at, at + 1, at)]))
    assert chain is None
    for at in range(100, 2100, 100):  # twenty real insertions far apart: folded, still sound
        chain = flow.compose(chain, flow.moves_of([(at, at, at + 1)]))
    assert len(chain) <= flow.incremental.MAX_STEPS
    assert flow.incremental.Mapper(chain, None).start(50) == 50


# ---------------------------------------------------------------- a function defined otherwise
# A function whose definition the edit changed may still let the rest be taken over, when the
# rest of the last walk never used it (called it, looked into it for inertness, defined it again).

_STEPS = "".join(f"echo step{i}\n" for i in range(40))


def _edit_and_compare(text: str, old: str, new: str):
    from packgate.core.text import Source
    from packgate.lsp.session import Session

    session, uri = Session(), "untitled:fn"
    session.analysis(uri, 1, text)
    at = text.encode().index(old.encode())
    edited = session.splice(uri, Source(text), at, at + len(old.encode()), new)
    entry, _ = session.analysis(uri, 2, edited)
    assert facts(entry.analysis) == facts(analyze(edited))
    return entry.analysis.walk


def test_a_function_edited_where_it_is_called_once_lets_the_rest_be_taken_over():
    text = ("#!/bin/bash\nsetup() {\n    echo setting up\n}\nsetup\n" + _STEPS +
            "export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\ntorchrun aiak_training_llm/train.py\n")
    result = _edit_and_compare(text, "echo setting up", "echo setting up now")
    assert result.resynced_at > 0


# MODE is a case subject in both versions (relevant: the walk knows its value, and the relevant
# names stay the same); setup is used before the edit's checkpoint while MODE is off, where
# both of its versions do nothing
_USED = """#!/bin/bash
MODE=off
case "$MODE" in on) echo on ;; esac
setup() { echo setting up; }
wrap() { setup; }
( wrap )
setup
""" + _STEPS + "MODE=on\n{later}" + _STEPS + "torchrun aiak_training_llm/train.py\n"


@pytest.mark.parametrize("later", ["setup\n", "wrap\n", "( wrap )\n"],
                         ids=["called", "through-another", "inertness-remembered"])
def test_a_function_edited_and_used_later_is_walked_again_there(later):
    """Once MODE is on, the edited setup exports a gate: called directly, through wrap, or in a
    subshell that was stepped over while wrap (through setup) was inert; the last is decided by
    inert()'s memory of wrap, which has to say that it read setup."""
    text = _USED.replace("{later}", later)
    result = _edit_and_compare(text, "echo setting up", '[ "$MODE" = on ] && export OFFLINE_PACKED_DATA=1')
    later_index = 7 + 40 + 1
    assert result.resynced_at == 0 or result.resynced_at > later_index


def test_a_checkpoint_whose_reads_differ_is_refused_before_its_paths_are_moved(monkeypatch):
    """setup, edited, is called again later: every checkpoint before that call fails same_reads,
    whose look is cheap, so the paths there (the same, MODE being off) are never moved to be
    compared, which on a long launcher costs most (13 paths before the 243-line one's launch)."""
    compared = []
    real = flow.incremental.Incremental.same_paths

    def same_paths(self, p, states):
        compared.append(p.index)
        return real(self, p, states)
    monkeypatch.setattr(flow.incremental.Incremental, "same_paths", same_paths)
    text = _USED.replace("{later}", "setup\n")
    result = _edit_and_compare(text, "echo setting up", '[ "$MODE" = on ] && export OFFLINE_PACKED_DATA=1')
    later_index = 7 + 40 + 1
    assert result.resynced_at == 0 or result.resynced_at > later_index
    assert not [i for i in compared if i <= later_index]


def test_the_first_look_at_a_checkpoint_answers_as_comparing_every_pair_in_order(monkeypatch):
    """Incremental.may_be_same compares first the variable where its last try found the paths
    apart: whatever it compares first, its answer at every checkpoint tried is may_be_same_path's
    over every pair, and the edited launcher's facts are a fresh walk's."""
    inc = flow.incremental
    real, tried = inc.Incremental.may_be_same, []

    def may_be_same(self, p, states):
        answer = real(self, p, states)
        assert answer == (len(states) == len(p.states) and all(
            inc.may_be_same_path(a, b, self.inp.relevant) for a, b in zip(states, p.states)))
        tried.append((self.apart, answer))
        return answer
    monkeypatch.setattr(inc.Incremental, "may_be_same", may_be_same)
    text = (ROOT / "benchmarks" / "inputs" / "ov2_stage2_launcher.sh").read_text()
    for old, new in (("export OFFLINE_PACKING_BMR='1'", "export OFFLINE_PACKING_BMR='0'"),
                     ("export OFFLINE_PACKING_BMR='1'", "export OFFLINE_PACKING_BMR='1x'"),
                     ("${OFFLINE_PACKED_DATA:-1}", "${OFFLINE_PACKED_DATA:-0}")):
        _edit_and_compare(text, old, new)
    assert any(apart for apart, _ in tried) and len(tried) > 3  # the hint was used


# ---------------------------------------------------------------- library functions
# A function never called is judged where it was defined; the next walk takes its walk over
# when its body, its definition paths and what its walk reads are the same.

_LIBRARY = ("#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nMBS=2\n" + _STEPS +
            'lib() {\n    export OFFLINE_PACKED_DATA="$OFFLINE_PACKING_BMR"\n'
            '    torchrun aiak_training_llm/train.py --micro-batch-size "$MBS"\n}\n' + _STEPS.replace("step", "late"))


def _library_walks(monkeypatch) -> list:
    """The functions walked by the editor's analyses (those that record checkpoints)."""
    walked = []
    real = flow.walk.Walker.call

    def call(self, fdef, states, args=None):
        if self.inp.record:
            walked.append(fdef.name)
        return real(self, fdef, states, args)
    monkeypatch.setattr(flow.walk.Walker, "call", call)
    return walked


@pytest.mark.parametrize("old,new", [("echo step3\n", "echo step3 x\n"), ("echo late20\n", ": late20\n")],
                         ids=["before-the-definition", "after-it"])
def test_a_library_function_is_taken_over_when_nothing_it_reads_changed(old, new, monkeypatch):
    walked = _library_walks(monkeypatch)
    _edit_and_compare(_LIBRARY, old, new)
    assert walked == ["lib"]  # the first walk's only


@pytest.mark.parametrize("old,new", [("echo step0\n", "MBS=4\necho step0\n"), ("OFFLINE_PACKING_BMR=1", "OFFLINE_PACKING_BMR=0"),
                                     ('"$MBS"\n}', '"$MBS" --sft\n}')],
                         ids=["definition-paths", "a-gate-it-reads", "body"])
def test_a_library_function_is_walked_again_when_what_it_reads_changed(old, new, monkeypatch):
    walked = _library_walks(monkeypatch)
    _edit_and_compare(_LIBRARY, old, new)
    assert walked == ["lib", "lib"]


def test_a_library_function_is_walked_again_without_comparing_its_paths_when_a_function_changed(monkeypatch):
    """An edit in another function's body changes the functions table lib's walk reads: lib is
    walked again, told by the cheap looks, before its definition paths are moved to be compared."""
    import sys
    walked = _library_walks(monkeypatch)
    compared = []
    real = flow.incremental.Incremental.same_states

    def same_states(self, *args):
        compared.append(sys._getframe(1).f_code.co_name)
        return real(self, *args)
    monkeypatch.setattr(flow.incremental.Incremental, "same_states", same_states)
    text = _LIBRARY.replace("lib() {", "other() { echo other; }\nlib() {")
    _edit_and_compare(text, "echo other;", "echo other x;")
    assert walked.count("lib") == 2
    assert "take_library_run" not in compared


def test_a_library_function_is_walked_again_when_a_table_it_tests_differs(monkeypatch):
    """The edit overwrites the gate after lib's definition: the top-level launch no longer reads
    the first assignment, lib's launch does (so it is not an unread overwrite). The last walk's
    lib added nothing to `read` (the top-level launch had read it first): taking its entries
    over would leave the assignment unread."""
    walked = _library_walks(monkeypatch)
    text = ("#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\nlib() { torchrun aiak_training_llm/train.py; }\n" + _STEPS +
            "echo marker\ntorchrun aiak_training_llm/train.py\n")
    _edit_and_compare(text, "echo marker\n", "export OFFLINE_PACKING_BMR=2\n")
    assert walked == ["lib", "lib"]


def test_typing_at_two_places_keeps_the_checkpoints_after_them():
    # an `x` typed and deleted in the middle, then near the top, then near the end: the
    # checkpoints near the end were carried over twice, and their paths hold values assigned
    # between the first two places. One range over both edits left those unmapped, and the
    # third keystroke walked from the top.
    from packgate.core.text import Source
    from packgate.lsp.session import Session

    text = generate(2000, 7)
    lines = text.split("\n")
    session, uri, version = Session(), "untitled:two-places", 1
    session.analysis(uri, version, text)
    for line in (1040, 19, 1859):
        at = len("\n".join(lines[:line + 1]).encode())  # the end of that line
        for start, end, new in ((at, at, "x"), (at, at + 1, "")):
            text = session.splice(uri, Source(text), start, end, new)
            version += 1
            entry, _ = session.analysis(uri, version, text)
            assert facts(entry.analysis) == facts(analyze(text))
            if line == 1859 and new == "x":
                flow, top_level = entry.analysis.walk, len(entry.analysis.script.body.body)
                assert flow.resumed_at > top_level * 3 // 4, (flow.resumed_at, top_level)


def test_a_character_typed_and_deleted_before_the_next_analysis_leaves_its_statement_to_take_over():
    # an `x` typed into a comment inside an array and deleted again needs no analysis (the
    # findings just move); the next keystroke, further down, still finds that statement as the
    # last parse left it, so the walk starts at the checkpoint before the new edit
    from packgate.core.text import Source
    from packgate.lsp.session import Session

    text = generate(2000, 7)
    lines = text.split("\n")
    comment = next(i for i, line in enumerate(lines) if line.startswith("    --") and "#" in line and i > 300)
    session, uri = Session(), "untitled:typed-and-deleted"
    session.analysis(uri, 1, text)
    at = len("\n".join(lines[:comment + 1]).encode())
    for start, end, new in ((at, at, "x"), (at, at + 1, "")):
        text = session.splice(uri, Source(text), start, end, new)
    assert session.trees[uri].edits == []
    late = len("\n".join(lines[:1597]).encode())
    text = session.splice(uri, Source(text), late, late, "x")
    entry, _ = session.analysis(uri, 2, text)
    body = entry.analysis.script.body.body
    edited = next(i for i, s in enumerate(body) if s.start <= late <= s.end)
    assert entry.analysis.walk.resumed_at >= edited - len(body) // 16, (entry.analysis.walk.resumed_at, edited)
    assert facts(entry.analysis) == facts(analyze(text))


@pytest.mark.parametrize("unset", ["unset OFFLINE_PACKING_BMR", "command unset OFFLINE_PACKING_BMR"])
def test_an_unset_taken_over_from_the_last_walk_points_where_it_is_now(unset):
    """The rest of the walk taken over past an edit: PG008's unset is the statement (the parser
    moved it), not a span copied when it ran."""
    text = ("#!/bin/bash\nexport OFFLINE_PACKING_BMR=1\n" + _STEPS + unset + "\n" +
            "export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\ntorchrun aiak_training_llm/train.py\n")
    assert [f.code for f in analyze(text).findings] == ["PG008"]
    walk = _edit_and_compare(text, "echo step1\n", "echo step1\necho inserted\n")
    assert walk.resynced_at > 0
