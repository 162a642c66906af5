"""The front-end floor `make bench` reports beside the lint: its query covers what the builder reads."""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import run  # noqa: E402
from generate import generate  # noqa: E402

from packgate.core.parse.grammar import PARSER  # noqa: E402


def named_kinds_in(source: str) -> set[str]:
    """The quoted words of a module that name a node kind of the bash grammar."""
    language = PARSER.language
    return {w for w in re.findall(r'"([a-z_]+)"', source) if language.id_for_node_kind(w, True) is not None}


def test_every_node_kind_the_builder_names_is_captured():
    parse = ROOT / "server" / "packgate" / "core" / "parse"
    named = set().union(*(named_kinds_in(f.read_text(encoding="utf-8")) for f in parse.glob("*.py")))
    assert named, "no node kinds found: the scan is broken"
    assert named <= set(run.MODEL_NODE_KINDS), sorted(named - set(run.MODEL_NODE_KINDS))


def test_the_floor_keeps_one_record_per_node_of_those_kinds_with_its_text():
    data = generate(300, seed=5).encode("utf-8")
    tree = PARSER.parse(data)
    records = run.capture_records(run.model_query(PARSER.language), tree, data)
    wanted, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        if node.is_named and node.type in run.MODEL_NODE_KINDS:
            wanted.append((node.type, node.start_byte, node.end_byte))
        stack.extend(node.children)
    assert sorted((r.kind, r.start, r.end) for r in records) == sorted(wanted)
    assert all(r.text == data[r.start:r.end] for r in records)
    assert {"command", "variable_assignment", "word"} <= {r.kind for r in records}
