"""The flow walk merges paths that differ only in names no check can see (flow.relevant_names).

That pruning is an optimisation and must never change a finding: every script here is analysed
twice, with the pruning and with every name treated as relevant, and the findings must agree.
Targeted cases pin the narrowing itself: a quoted `--data-path "$X"` does not make X relevant,
while a flag held in a variable, an array, an unquoted expansion, the word after
--micro-batch-size and the arguments of a helper that exports do.
"""

from pathlib import Path

import pytest

from packgate import Settings, analyze
from packgate.core import flow as F
from packgate.core.parse import parse_bytes

ROOT = Path(__file__).resolve().parents[2]
EN = Settings(lang="en", profile="ov2")


def _findings(text: str):
    return [(f.code, f.start, f.end, f.message) for f in analyze(text, settings=EN, loader=None).findings]


def _both(text: str, monkeypatch):
    pruned = _findings(text)
    with monkeypatch.context() as m:
        m.setattr(F, "relevant_names", lambda script, memo=None: None)
        full = _findings(text)
    return pruned, full


def _scripts():
    out = sorted((ROOT / "tests" / "golden" / "cases").glob("*.sh")) + sorted((ROOT / "examples").glob("*.sh"))
    return out


@pytest.mark.parametrize("path", _scripts(), ids=lambda p: p.name)
def test_pruning_never_changes_a_finding(path, monkeypatch):
    text = path.read_bytes().decode("utf-8", "surrogateescape")
    pruned, full = _both(text, monkeypatch)
    assert pruned == full


def test_generated_launchers_agree(monkeypatch):
    import sys
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import generate
    finally:
        sys.path.pop(0)
    for seed in range(6):
        text = generate.generate(600, seed=seed)
        pruned, full = _both(text, monkeypatch)
        assert pruned == full, seed


CASES = {
    # a flag in a variable, its value after it
    "flag_in_var": ('export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\nF=--micro-batch-size\n'
                    'if [ "$X" ]; then M=4; else M=1; fi\ntorchrun train.py "$F" "$M"\n', {"PG003"}),
    # the value right after the flag, set on one branch only
    "after_flag": ('export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\n'
                   'if [ "$X" ]; then M=4; else M=1; fi\ntorchrun train.py --data-path "$D" --micro-batch-size "$M"\n',
                   {"PG003"}),
    # an array carrying the flag, its element set on one branch
    "array": ('export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\n'
              'case "$S" in a) M=4 ;; *) M=1 ;; esac\nA=(--data-path "$D" --micro-batch-size "$M")\n'
              'torchrun train.py "${A[@]}"\n', {"PG003"}),
    # an unquoted expansion can hold several words
    "unquoted": ('export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\n'
                 'if [ "$X" ]; then E="--micro-batch-size 4"; else E=""; fi\ntorchrun train.py $E\n', {"PG003"}),
    # a helper that exports its argument: the call's words matter
    "exporting_helper": ('on() { export OFFLINE_PACKED_DATA="$1"; }\nif [ "$X" ]; then G=1; else G=0; fi\n'
                         'export OFFLINE_PACKING_BMR=1\non "$G"\ntorchrun train.py\n', {"PG007"}),
    # a quoted data path set per branch does not split the launch into paths
    "quoted_path": ('export OFFLINE_PACKING_BMR=1 OFFLINE_PACKED_DATA=1\n'
                    'case "$S" in a) D=/a ;; b) D=/b ;; *) D=/c ;; esac\n'
                    'need() { [[ -d "$1" ]] || { echo "no $1" >&2; exit 1; }; }\nneed "$D"\n'
                    'torchrun train.py --data-path "$D" --micro-batch-size 1\n', set()),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_targeted_cases_agree(name, monkeypatch):
    text, expected = CASES[name]
    pruned, full = _both(text, monkeypatch)
    assert pruned == full
    if expected is not None:
        assert {c for c, *_ in pruned} == expected


def test_a_quoted_data_path_is_not_relevant():
    text = CASES["quoted_path"][0]
    names = F.relevant_names(parse_bytes(text.encode()))
    assert "D" not in names and "OFFLINE_PACKED_DATA" in names
    result = F.analyze_flow(parse_bytes(text.encode()), text.encode())
    assert [len(launch.paths) for launch in result.launches] == [1]


def test_what_can_carry_the_flag_is_relevant():
    for name in ("flag_in_var", "after_flag", "array", "unquoted"):
        names = F.relevant_names(parse_bytes(CASES[name][0].encode()))
        assert {"M"} <= names or {"E"} <= names, name
    names = F.relevant_names(parse_bytes(CASES["exporting_helper"][0].encode()))
    assert "G" in names


# An editor's next version: relevant_names gives the last answer again when the statements it
# summarised anew say what those they replaced said (RelevanceMemo); each edit here changes one
# thing the answer reads, and the answer must be a fresh one's.
_EDITED = """#!/bin/bash
A=(--lr 1 --seed 2)
A2=(pythox "$F")
B="$X"
D=/data
echo "$B" $E
torchrun train.py "${A[@]}" "${A2[@]}" --data-path "$D" "$B" --micro-batch-size=1 "$G" "--micro-batch-sizx=$H"
python -X "$J"
run() { torchrun "${A[@]}" "$1"; }
run "$Q"
"""


@pytest.mark.parametrize("old,new", [
    ('B="$X"', 'B="--x$X"'),  # a flag-like value: "$B" at the launch may be a flag
    ('--data-path "$D"', "--data-path $D"),  # unquoted: may split into flags
    ("--micro-batch-size=1", "--micro-batch-size"),  # the word after the flag is read
    ("--micro-batch-sizx=", "--micro-batch-size="),  # a word that starts with the flag
    ("python -X", "python X"),  # python's options end: the script is not "$J"
    ("pythox", "python"),  # an array whose first element names python: its words are read so
    ("echo", "torchrun"),  # another command name
    ('"${A[@]}"', '"${C[@]}"'),  # another array at the launch
    ("D=/data", "source ./env.sh"),  # names flow where the walk cannot see
    ("--seed 2", "--seed 3"),  # nothing: the last answer stands
    ('run() { torchrun "${A[@]}"', 'run() { export K=1; torchrun "${A[@]}"'),  # the helper now exports: its arguments matter
    ('run() { torchrun "${A[@]}"', 'run() { torchrun "${A[@]}x"'),  # nothing it reads: the last answer stands
    ("run \"$Q\"", "run \"$Q\" \"$R\""),  # another argument to a helper that launches
])
def test_the_remembered_answer_is_a_fresh_one(old, new):
    from packgate.core.text import Source
    from packgate.lsp.session import Session

    session, uri = Session(), "untitled:relevance"
    session.analysis(uri, 1, _EDITED)
    at = _EDITED.index(old)
    edited = session.splice(uri, Source(_EDITED), at, at + len(old), new)
    entry, _ = session.analysis(uri, 2, edited)
    assert entry.analysis.walk.resume.relevant == F.relevant_names(parse_bytes(edited.encode()))


@pytest.mark.parametrize("old,new", [
    ('B="$X"', 'B="--x$X"'),
    ("--micro-batch-size=1", "--micro-batch-size"),
    ("pythox", "python"),
    ("D=/data", "source ./env.sh"),
    ('run() { torchrun "${A[@]}"', 'run() { export K=1; torchrun "${A[@]}"'),
])
def test_the_remembered_answer_is_a_fresh_one_after_typing_there_before(old, new):
    """The statement an edit replaces was itself made by the edit before (a character typed
    and deleted there): its summary's sig, kept from that version, must still be what it says."""
    from packgate.core.text import Source
    from packgate.lsp.session import Session

    session, uri = Session(), "untitled:relevance"
    session.analysis(uri, 1, _EDITED)
    at = _EDITED.index(old) + 1
    typed = session.splice(uri, Source(_EDITED), at, at, "x")
    session.analysis(uri, 2, typed)
    back = session.splice(uri, session.source(uri, typed), at, at + 1, "")
    assert back == _EDITED
    session.analysis(uri, 3, back)
    at = back.index(old)
    edited = session.splice(uri, session.source(uri, back), at, at + len(old), new)
    entry, _ = session.analysis(uri, 4, edited)
    assert entry.analysis.walk.resume.relevant == F.relevant_names(parse_bytes(edited.encode()))


def test_an_edit_that_changes_nothing_it_reads_keeps_the_last_answer(monkeypatch):
    from packgate.core.flow import relevance
    from packgate.core.text import Source
    from packgate.lsp.session import Session

    worked = []
    real = relevance._relevant
    monkeypatch.setattr(relevance, "_relevant", lambda summaries, wide=False: worked.append(1) or real(summaries, wide))
    session, uri = Session(), "untitled:relevance"
    session.analysis(uri, 1, _EDITED)
    at = _EDITED.index("--seed 2") + len("--seed ")
    edited = session.splice(uri, Source(_EDITED), at, at + 1, "3")
    session.analysis(uri, 2, edited)
    assert worked == [1]  # the first version's only
    # an edit inside a function's body that changes nothing it reads: the same
    at = edited.index('"${A[@]}" "$1"') + len('"${A[@]}"')
    session.analysis(uri, 3, session.splice(uri, Source(edited), at, at, "x"))
    assert worked == [1]


def test_the_names_a_shaped_word_is_built_with_are_those_relevance_works_out():
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from generate import generate
    from packgate.core.flow.relevance import _refs_of
    from packgate.core.parse import parse_bytes
    from packgate.core.parse.model import Word
    from packgate.core.parse.visit import children

    script = parse_bytes(generate(600, 3).encode())
    words, stack = [], list(script.body.body)
    while stack:
        st = stack.pop()
        stack.extend(children(st))
        for field in ("words", "array", "items"):
            words.extend(w for w in getattr(st, field, None) or () if isinstance(w, Word))
        words.extend(w for w in (getattr(st, "value", None), getattr(st, "subject", None)) if isinstance(w, Word))
    built = [w for w in words if w.refs is not None]
    assert len(built) > 100
    assert all(w.refs == _refs_of(w) for w in built)
