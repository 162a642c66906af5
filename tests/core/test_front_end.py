"""The builder's kind_id dispatch reads what Node.type and Node.is_named would, and its bookkeeping
of directives holds in nested blocks (issue 30's front end)."""

import sys
from pathlib import Path

from packgate.core import parse as P
from packgate.core.parse.grammar import KIND_NAMES, NAMED, PARSER, kind

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

from generate import generate  # noqa: E402


def _nodes(data: bytes):
    stack = [PARSER.parse(data).root_node]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(node.children)


def test_a_kind_id_names_the_type_and_says_whether_the_node_is_named():
    broken = b'x=( "a" ${b:-c}\nif [ -n "$x" ; then\n  f() { echo "$(date)" ; }\ncase $a in *) ;; esac &\n'
    inputs = [generate(300, 3).encode(), broken] + [p.read_bytes() for p in sorted((ROOT / "examples").glob("*.sh"))]
    seen = 0
    for data in inputs:
        for node in _nodes(data):
            assert KIND_NAMES[node.kind_id] == node.type
            assert (node.kind_id in NAMED) == node.is_named
            seen += 1
    assert seen > 1000
    assert kind("word") != kind("number") and KIND_NAMES[kind("ERROR")] == "ERROR"


def test_a_directive_in_a_block_covers_the_command_after_it_not_the_block():
    data = b'f() {\n  # packgate source=./a.env\n  . ./a.env\n}\nf\n'
    script = P.parse_bytes(data)
    (directive,) = script.directives
    inner = data.index(b". ./a.env")
    assert (directive.scope_start, directive.scope_end) == (inner, inner + len(b". ./a.env"))
