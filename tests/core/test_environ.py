"""What wrappers do to the environment their child gets (core/flow/environ.py): the readers
return transforms as data, in the order the words give them; the table has a row per wrapper."""

from packgate.core import gates as G
from packgate.core.flow import commands as C
from packgate.core.flow import environ as E
from packgate.core.parse import parse_bytes


def _read(text: bytes, at: int = 1):
    cmd = parse_bytes(text).body.body[0]
    names = [w.text for w in cmd.words]
    return E.read(C.base_name(names[0]), names, cmd.words, at), names


def test_every_wrapper_has_a_row_and_a_handler():
    # a keeping wrapper's row comes from its syntax in gates.py; one that changes the environment
    # has a reader of its own (a new row needs no edit here)
    assert set(G.WRAPPER_SYNTAX) <= set(E.WRAPPERS)
    own = {n for n, row in E.WRAPPERS.items() if row.read is not E.keep}
    assert {"env", "docker", "sudo", "xargs"} <= own
    assert all(name in C.COMMANDS for name in E.WRAPPERS)


def test_a_keeping_wrapper_keeps_and_skips_its_options_and_operands():
    (transforms, at), names = _read(b"timeout -s INT 5 torchrun a.py\n")
    assert transforms == (E.KEEP,) and names[at] == "torchrun"
    (transforms, at), names = _read(b"setsid -w torchrun a.py\n")
    assert transforms == (E.KEEP,) and names[at] == "torchrun"


def test_env_sets_unsets_and_clears_in_order():
    (transforms, at), names = _read(b"env A=1 -u B -i C=2 torchrun a.py\n")
    assert [type(t) for t in transforms] == [E.SetVar, E.UnsetVar, E.Clear, E.SetVar]
    assert transforms[1].name == "B" and names[at] == "torchrun"
    (transforms, at), names = _read(b"env A=1 -S 'torchrun a.py'\n")
    assert [type(t) for t in transforms] == [E.SetVar] and names[at] == "-S"


def test_docker_run_clears_then_sets_passes_and_reads_env_files():
    (transforms, at), names = _read(b"docker run -e A=1 --env=B --env-file f -v a:b img cmd\n", 2)
    assert [type(t) for t in transforms] == [E.Clear, E.SetVar, E.PassHost, E.EnvFile]
    assert transforms[2].name == "B" and transforms[2].strip == len("--env=") and names[at] == "img"
