"""The floors `make bench` prints beside the model's cost, and its --only groups."""

import argparse
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "server"), str(ROOT / "benchmarks")]

import run  # noqa: E402
from generate import generate  # noqa: E402

from packgate.core.parse import parse_bytes  # noqa: E402
from packgate.core.parse.grammar import PARSER  # noqa: E402


def every_node(tree) -> tuple[list, list]:
    """All nodes and the named ones, by a plain walk over children."""
    nodes, stack = [], [tree.root_node]
    while stack:
        node = stack.pop()
        nodes.append(node)
        stack.extend(node.children)
    return nodes, [n for n in nodes if n.is_named]


def test_the_node_floors_reach_every_node_they_say():
    tree = PARSER.parse(generate(300, seed=5).encode("utf-8"))
    nodes, named = every_node(tree)
    assert run.named_recursion(tree.root_node) == len(named)
    assert run.cursor_walk(tree) == len(nodes) > len(named)


def test_the_record_floor_makes_each_record_of_the_model_again():
    script = parse_bytes(generate(300, seed=5).encode("utf-8"))
    records = run.model_records(script)
    assert len({id(r) for r in records}) == len(records)  # each once
    assert all(r is not script for r in records)
    kinds = {type(r).__name__ for r in records}
    assert {"Word", "Lit", "Command", "Assign", "Occurrence"} <= kinds
    made = {id(r) for r in records}
    assert id(script.body) in made and all(id(s) in made for s in script.body.body)
    assert all(id(o) in made for o in script.occurrences)
    prepared = run.record_arguments(records)
    assert run.make_records(prepared) == len(records)
    cls, values = prepared[0]
    again = cls(*values)
    assert all(getattr(again, f) is getattr(records[0], f) for f in cls.__record_fields__)


def test_only_takes_known_groups():
    assert run.groups("cold, lint") == ("cold", "lint")
    for bad in ("cold,nope", "", ","):
        with pytest.raises(argparse.ArgumentTypeError):
            run.groups(bad)


def test_floor_ops_has_every_operation_and_refuses_others():
    import floor_ops
    done = floor_ops.operations(generate(300, seed=5))
    assert tuple(done) == floor_ops.OPS
    assert done["recursion"]() > 0 and done["cursor"]() > done["recursion"]() and done["records"]() > 0
    assert done["model"]().body is not None
    assert floor_ops.main(["parse", "1"]) == 0
    assert floor_ops.main(["nope", "1"]) == 2 and floor_ops.main(["parse"]) == 2
