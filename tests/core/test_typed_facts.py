"""The facts between the flow and the rules are typed: labels carry their details as fields,
sourced sites are looked up by the statement object, Context names its real types."""

import typing

from packgate import Settings, analyze
from packgate.core.flow import FlowResult, Label, LabelKind
from packgate.core.parse import Assign, Script
from packgate.core.rules.base import Context
from packgate.core.sourced import SourceLoader

EN = Settings(lang="en")
LAUNCH = "torchrun train.py --micro-batch-size 1\n"


def labels_of(text: str) -> list:
    """Every label on every path of every launch of text."""
    a = analyze(text, settings=EN)
    return [label for launch in a.flow.launches for path in launch.paths for label in path.labels]


def test_a_case_label_carries_its_pattern_and_subject_as_fields():
    labels = labels_of('case "$MODE" in\n  pack|p) export OFFLINE_PACKING_BMR=1 ;;\nesac\n' + LAUNCH)
    arms = [label for label in labels if label.kind == LabelKind.CASE]
    assert arms and {(label.pattern, label.subject) for label in arms} == {("pack|p", '"$MODE"')}
    assert LabelKind.CASE_NONE in {label.kind for label in labels}


def test_a_decided_test_label_says_what_the_test_said_of_which_variable():
    text = '[ "$PACK" = yes ] && export OFFLINE_PACKING_BMR=1\n' + LAUNCH
    labels = labels_of(text)
    tests = {(label.name, label.said, label.against) for label in labels if label.kind == LabelKind.TEST}
    assert tests == {("PACK", "eq", "yes"), ("PACK", "ne", "yes")}
    [pg007] = [f for f in analyze(text, settings=EN).findings if f.code == "PG007"]
    assert "when `$PACK` is `yes` (line 1)" in pg007.message
    assert "when `$PACK` is not `yes` (line 1)" in pg007.message


def test_labels_hash_order_and_move_like_values():
    a = Label(10, LabelKind.CASE, pattern="x", subject="$M")
    assert a == Label(10, LabelKind.CASE, pattern="x", subject="$M")
    assert len({a, Label(10, LabelKind.CASE, pattern="y", subject="$M"), a._replace(at=11)}) == 3
    assert sorted([Label(5, LabelKind.THEN), a, Label(5, LabelKind.ELSE)])[0] == Label(5, LabelKind.ELSE)


def test_the_text_of_a_label_is_built_from_its_fields():
    assert Label(1, LabelKind.THEN).key == "then"
    assert Label(1, LabelKind.TEST, name="P", said="empty").key == "test:empty:P:"
    assert Label(1, LabelKind.CASE, pattern="*", subject="$M").key == "case:* ($M)"


def test_statement_records_hash_by_identity_so_equal_ones_stay_apart():
    a, b = Assign(0, 5, name="X"), Assign(0, 5, name="X")
    assert a != b and len({a: 1, b: 2}) == 2


def test_each_sourced_site_is_keyed_to_its_own_source_command(tmp_path):
    for name in ("one.sh", "two.sh"):  # the same text: equal assignments at the same offsets
        (tmp_path / name).write_text("export OFFLINE_PACKING_BMR=1\n")
    text = "source ./one.sh\nsource ./two.sh\n" + LAUNCH
    main = tmp_path / "main.sh"
    main.write_text(text)
    a = analyze(text, settings=EN, path=str(main), loader=SourceLoader(str(tmp_path)).load)
    sites = [site for site, _ in a.flow.gate_sites if site.file]
    assert len(sites) == 2 and sites[0].start == sites[1].start
    assert [a.flow.sourced_at[site] for site in sites] == [(0, 15), (16, 31)]
    assert not hasattr(a.flow, "site_via") and not hasattr(a.flow, "overwrite_sites")


def test_context_names_the_script_and_the_flow_result():
    hints = typing.get_type_hints(Context)
    assert hints["script"] is Script and hints["flow"] is FlowResult


def test_the_walks_own_val_makers_give_the_vals_the_class_gives():
    from packgate.core.flow.facts import Origin, Val, ValKind, literal_val, spanned
    made = literal_val("--seq-length", (3, 15), (3, 15), True)
    assert type(made) is Val and made == Val(ValKind.KNOWN, "--seq-length", lit=(3, 15), span=(3, 15), foreign=True)
    given = Val(ValKind.DEFAULT, "8", via="GPUS", lit=(1, 2), span=(0, 9), origin=Origin.DEFAULT, name="GPUS",
                required=True, prefix="p")
    assert spanned(given, (20, 30), False) == given._replace(span=(20, 30), foreign=False)
    assert type(spanned(given, (20, 30), False)) is Val
