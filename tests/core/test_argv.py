"""core/code/argv.py: a launch's words read as the trainer's argparse reads them, checked against
argparse itself (the same parser code, run by Python) and against the launchers' syntax."""

import contextlib
import io

import pytest

from packgate.core.code import index as ci
from packgate.core.code.argv import Abbrev, Role, grammar_of, read_argv, split
from packgate.core.code.entry import Entry, EntryAt, EntryKind, entry_at, entry_of
from packgate.core.code.options import UNKNOWN_TYPE
from packgate.core.flow.facts import Val, ValKind

PARSER = """import argparse
parser = argparse.ArgumentParser(allow_abbrev={abbrev})
parser.add_argument("--micro-batch-size")
parser.add_argument("--micro-steps")
parser.add_argument("--seq-length")
parser.add_argument("--data-path", nargs="*")
parser.add_argument("--pair", nargs=2)
parser.add_argument("--maybe", nargs="?")
parser.add_argument("--bf16", action="store_true")
parser.add_argument("--fp8", action="store_const", const="e4m3")
parser.add_argument("--overlap", action=argparse.BooleanOptionalAction)
parser.add_argument("-j", "--jobs")
parser.add_argument("--lr")
"""
# argv -> what the words are; each case runs under allow_abbrev=True and =False
CASES = [
    ["--micro-batch-size", "1", "--seq-length", "8"],
    ["--micro-batch-size=1", "--lr=3e-4"],
    ["--micro", "1"],
    ["--micro-b", "1", "--seq", "8"],
    ["--seq-length=8", "--micro-b=2"],
    ["--image-resolution", "1000", "--bf16"],
    ["--image-resolution=1000"],
    ["--data-path", "a", "b", "--bf16", "c"],
    ["--data-path", "--bf16"],
    ["--pair", "a", "b", "x"],
    ["--maybe", "--bf16"],
    ["--maybe", "v", "w"],
    ["--lr", "-1", "--seq-length", "-.5"],
    ["--no-overlap", "--overlap"],
    ["-j4", "--bf16"],
    ["-j", "4"],
    ["--", "--image-resolution", "5"],
    ["train.micro_batch_size=1", "--bf16"],
    ["--fp8", "x"],
    ["--micro-batch-size", "1 2"],
    ["--image-resolution 1000"],
    ["-x"],
    ["-"],
    [""],
]


def workspace(tmp_path, abbrev: bool, extra: str = ""):
    root = tmp_path / f"ws{abbrev}"
    root.mkdir()
    (root / "pyproject.toml").write_text("")
    (root / "train.py").write_text(PARSER.format(abbrev=abbrev) + extra + "args = parser.parse_args()\n")
    index = ci.contract_index(str(root))
    return index.options_for(Entry(EntryKind.SCRIPT, "train.py"))


def real_parser(abbrev: bool):
    scope: dict = {}
    exec(PARSER.format(abbrev=abbrev), scope)
    return scope["parser"]


def known(*words):
    return tuple(Val(ValKind.KNOWN, w) for w in words)


def roles(argv, options):
    at = EntryAt(Entry(EntryKind.SCRIPT, "train.py"), 0, 1)
    read = read_argv(at, known("train.py", *argv), grammar_of(options))
    return read.trainer()


def argparse_reading(parser, argv):
    """(namespace, extras) of parse_known_args, or the error text when argparse stops."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err):
            return parser.parse_known_args(argv)
    except SystemExit:
        return err.getvalue()


@pytest.mark.parametrize("abbrev", [True, False])
@pytest.mark.parametrize("argv", CASES, ids=lambda a: " ".join(a) or "empty")
def test_roles_agree_with_argparse(tmp_path, abbrev, argv):
    options = workspace(tmp_path, abbrev)
    words = roles(argv, options)
    got = argparse_reading(real_parser(abbrev), argv)
    by_role = {r: [w for w in words if w.role is r] for r in Role}
    assert not by_role[Role.UNCERTAIN], words  # every word of these cases is one packgate can tell
    if isinstance(got, str):  # argparse stopped before reading on: an ambiguous prefix or a missing value
        if "ambiguous option" in got:
            assert [w.val.text.partition("=")[0] for w in by_role[Role.AMBIGUOUS]] == [argv[0]]
        else:
            assert "expected" in got and not by_role[Role.AMBIGUOUS], got
        return
    namespace, extras = got
    assert not by_role[Role.AMBIGUOUS]
    refused = [w.val.text for w in by_role[Role.UNDEFINED] + by_role[Role.REFUSED]]
    operands = [w.val.text for w in by_role[Role.OPERAND]]
    # Python keeps an unconsumed `--` among the extras (3.11) or drops it (3.12+): not a claim
    assert sorted(refused + operands) == sorted(e for e in extras if e != "--"), (words, extras)
    assert all(t.startswith("-") for t in refused)
    # each option packgate read takes exactly the values argparse gave it
    for w in by_role[Role.OPTION]:
        dest = w.option.dest
        values = [v.value for v in words if v.role is Role.VALUE and v.option is w.option]
        if w.value is not None:
            values = [w.value]
        actual = getattr(namespace, dest)
        if w.option.action in ("store_true", "store_const", "BooleanOptionalAction"):
            assert values == [] and actual is not None
        elif isinstance(actual, list):
            assert values == actual, (dest, values, actual)
        else:
            assert values == ([actual] if actual is not None else []), (dest, values, actual)


def test_abbreviations_follow_allow_abbrev(tmp_path):
    loose, strict = workspace(tmp_path, True), workspace(tmp_path, False)
    assert grammar_of(loose).abbrev is Abbrev.ALLOWED and grammar_of(strict).abbrev is Abbrev.REFUSED
    [w, _] = roles(["--micro-b", "1"], loose)
    assert (w.role, w.resolved, w.spelled) == (Role.OPTION, "--micro-batch-size", "--micro-b")
    [w, v] = roles(["--micro-b", "1"], strict)
    assert (w.role, w.candidates, v.role) == (Role.REFUSED, ("--micro-batch-size",), Role.OPERAND)
    [w, _] = roles(["--micro", "1"], loose)
    assert (w.role, w.candidates) == (Role.AMBIGUOUS, ("--micro-batch-size", "--micro-steps"))


def test_an_unknown_word_ends_certainty_about_what_it_may_take(tmp_path):
    options = workspace(tmp_path, False)
    at = EntryAt(Entry(EntryKind.SCRIPT, "train.py"), 0, 1)
    args = known("train.py", "--micro-batch-size", "1") + (Val(ValKind.UNKNOWN, via="EXTRA"),) + \
        known("1000", "--image-resolution", "5", "--seq-length", "8")
    words = read_argv(at, args, grammar_of(options)).trainer()
    assert [w.role for w in words] == [Role.OPTION, Role.VALUE, Role.UNCERTAIN, Role.UNCERTAIN,
                                       Role.UNDEFINED, Role.OPERAND, Role.OPTION, Role.VALUE]
    # the value of an option may be the unknown word itself; what follows it is not the option's
    args = known("train.py", "--pair") + (Val(ValKind.UNKNOWN, via="A"),) + known("x", "--bf16")
    words = read_argv(at, args, grammar_of(options)).trainer()
    assert [w.role for w in words] == [Role.OPTION, Role.UNCERTAIN, Role.UNCERTAIN, Role.OPTION]


def test_after_an_unknown_word_nothing_is_claimed_where_a_positional_could_take_it(tmp_path):
    options = workspace(tmp_path, False, 'parser.add_argument("config", nargs="*")\n')
    at = EntryAt(Entry(EntryKind.SCRIPT, "train.py"), 0, 1)
    args = known("train.py", "--bf16") + (Val(ValKind.UNKNOWN, via="X"),) + known("--image-resolution", "5")
    words = read_argv(at, args, grammar_of(options)).trainer()
    assert [w.role for w in words] == [Role.OPTION] + [Role.UNCERTAIN] * 3


def test_a_parser_that_may_have_options_packgate_cannot_list_claims_only_exact_ones(tmp_path):
    root = tmp_path / "gap"
    root.mkdir()
    (root / "pyproject.toml").write_text("")
    (root / "train.py").write_text("import argparse\nimport deepspeed\n"
                                   "p = argparse.ArgumentParser(allow_abbrev=False)\n"
                                   "p.add_argument('--seq-length', type=int)\n"
                                   "p = deepspeed.add_config_arguments(p)\np.parse_args()\n")
    options = ci.contract_index(str(root)).options_for("train.py")
    assert options.gaps and "deepspeed.add_config_arguments" in options.gaps[0]
    words = roles(["--deepspeed", "ds.json", "--seq-length", "8", "--seq", "1"], options)
    assert [w.role for w in words] == [Role.UNCERTAIN, Role.UNCERTAIN, Role.OPTION, Role.VALUE,
                                       Role.UNCERTAIN, Role.UNCERTAIN]


def test_options_added_in_ways_packgate_cannot_read_are_gaps(tmp_path):
    root = tmp_path / "opaque"
    root.mkdir()
    (root / "pyproject.toml").write_text("")
    (root / "train.py").write_text(
        "import argparse\nNAMES = ['--a']\n"
        "def add(parser):\n    parser.add_argument(*NAMES)\n    parser.add_argument('--b', **{'type': int})\n\n"
        "p = argparse.ArgumentParser(parents=[], prefix_chars='-+')\nadd(p)\nsub = p.add_subparsers()\nprint(p)\n"
        "p.parse_args()\n")
    options = ci.contract_index(str(root)).options_for("train.py")
    text = " | ".join(options.gaps)
    assert "parents=" in text and "not literals" in text and "add_subparsers" in text and "prefix_chars='-+'" in text
    assert "print" not in text  # a builtin adds no option
    b = next(o for o in options.options if o.dest == "b")
    assert b.type == b.action == b.nargs == UNKNOWN_TYPE


@pytest.mark.parametrize("command, words, launcher, entry", [
    ("torchrun", ["--nproc_per_node", "8", "--nnodes=1", "--standalone", "t.py", "--x"], 4, Entry(EntryKind.SCRIPT, "t.py")),
    ("deepspeed", ["--hostfile", "h", "t.py", "--deepspeed", "ds.json"], 2, Entry(EntryKind.SCRIPT, "t.py")),
    ("python", ["-u", "t.py", "--x"], 1, Entry(EntryKind.SCRIPT, "t.py")),
    ("python3", ["-u", "-m", "pkg.mod", "--x"], 2, Entry(EntryKind.MODULE, "pkg.mod")),
    ("python", ["-mpkg.mod", "--x"], 0, Entry(EntryKind.MODULE, "pkg.mod")),
    ("/usr/bin/python3", ["-m", "torch.distributed.run", "--nproc_per_node", "2", "t.py", "--x"], 4,
     Entry(EntryKind.SCRIPT, "t.py")),
    ("torchrun", ["--nnodes=2", "-m", "--nproc_per_node", "8", "pkg.train", "--x"], 4,
     Entry(EntryKind.MODULE, "pkg.train")),
])
def test_the_launchers_words_end_at_the_entry_point(command, words, launcher, entry):
    at = split(command, known(*words))
    assert (at.index, at.entry) == (launcher, entry)
    assert at.first == launcher + 1 and words[at.first:] in (["--x"], ["--deepspeed", "ds.json"])
    assert entry_of(command, words) == entry


def test_no_split_where_the_launcher_or_a_word_before_the_entry_is_not_known():
    assert split("srun", known("-N", "2", "python", "t.py")) is None
    assert split("accelerate", known("launch", "t.py")) is None
    assert split("torchrun", known("--standalone") + (Val(ValKind.UNKNOWN),) + known("t.py")) is None
    assert entry_at("python", ["-c", "print(1)"]) is None


def test_a_parser_given_a_list_of_its_own_is_not_known_to_refuse_the_launch_words(tmp_path):
    parser = "import argparse, sys\np = argparse.ArgumentParser()\np.add_argument('--a')\n"
    for name, call, tolerant in (("own.py", "p.parse_args(words)", None), ("none.py", "p.parse_args(None)", False),
                                 ("argv.py", "p.parse_args(sys.argv[1:])", False), ("kw.py", "p.parse_args(args=w)", None)):
        root = tmp_path / name[:-3]
        root.mkdir()
        (root / "pyproject.toml").write_text("")
        (root / name).write_text(parser + call + "\n")
        got = ci.contract_index(str(root)).options_for(name)
        assert got.tolerance.tolerant is tolerant, (name, got.tolerance)


def test_the_union_knows_its_gaps(tmp_path):
    root = tmp_path / "ug"
    root.mkdir()
    (root / "pyproject.toml").write_text("")
    (root / "args.py").write_text("import argparse\nimport lib\np = argparse.ArgumentParser()\nlib.add(p)\n"
                                  "print(p)\np.parse_args()\n")
    (root / "train.py").write_text("print('no parser')\n")
    got = ci.contract_index(str(root)).options_for("train.py")
    assert got.how is ci.How.UNION and got.gaps == ("args.py:4: lib.add is not a function of the workspace",)


def test_a_number_python_versions_read_differently_is_not_claimed(tmp_path):
    words = roles(["--lr", "-1e-3", "--image-resolution", "1"], workspace(tmp_path, False))
    assert [w.role for w in words] == [Role.OPTION, Role.UNCERTAIN, Role.UNDEFINED, Role.OPERAND]


SHORT = [
    (["--micro-batch-size"], "expected one argument"),
    (["--micro-batch-size", "--bf16"], "expected one argument"),
    (["--micro-batch-size", "--image-resolution", "1"], "expected one argument"),
    (["--pair", "a", "--bf16"], "expected 2 arguments"),
    (["--pair", "a", "b", "--bf16"], None),
    (["--bf16=1"], "ignored explicit argument '1'"),
    (["--no-overlap=yes"], "ignored explicit argument 'yes'"),
    (["--maybe", "--bf16", "--data-path"], None),
    (["--micro-batch-size", "-1"], None),
    (["--lr", "--", "x"], None),  # Python versions read `--` here differently: no claim
]


@pytest.mark.parametrize("abbrev", [True, False])
@pytest.mark.parametrize("argv, expected", SHORT, ids=lambda a: " ".join(a) if isinstance(a, list) else str(a))
def test_shortfalls_are_where_argparse_stops(tmp_path, abbrev, argv, expected):
    from packgate.core.code.argv import shortfalls
    options = workspace(tmp_path, abbrev)
    at = EntryAt(Entry(EntryKind.SCRIPT, "train.py"), 0, 1)
    found = shortfalls(read_argv(at, known("train.py", *argv), grammar_of(options)))
    got = argparse_reading(real_parser(abbrev), argv)
    if expected is None:
        assert found == []
        if argv[1:2] != ["--"]:
            assert not isinstance(got, str), got
        return
    [short] = found
    assert short.expected == expected and isinstance(got, str) and expected in got, got


def test_two_definitions_of_one_string_that_differ_are_not_judged(tmp_path):
    root = tmp_path / "two"
    root.mkdir()
    (root / "pyproject.toml").write_text("")
    (root / "a.py").write_text("import argparse\np = argparse.ArgumentParser()\np.add_argument('--n', type=int)\n"
                               "p.add_argument('--m', type=int)\np.parse_args()\n")
    (root / "b.py").write_text("import argparse\nq = argparse.ArgumentParser()\nq.add_argument('--n', type=str)\n"
                               "q.add_argument('--m', type=int)\nq.parse_args()\n")
    (root / "train.py").write_text("print('no parser')\n")
    grammar = grammar_of(ci.contract_index(str(root)).options_for("train.py"))
    assert grammar.conflicting == {"--n"}
    assert not grammar.agreed(grammar.by_string["--n"]) and grammar.agreed(grammar.by_string["--m"])


def test_an_option_that_looks_like_a_negative_number_makes_negative_numbers_options(tmp_path):
    options = workspace(tmp_path, False, 'parser.add_argument("-1", dest="one", action="store_true")\n')
    words = roles(["--lr", "-2", "-1"], options)
    assert [w.role for w in words] == [Role.OPTION, Role.UNDEFINED, Role.OPTION]
    scope: dict = {}
    exec(PARSER.format(abbrev=False) + 'parser.add_argument("-1", dest="one", action="store_true")\n', scope)
    assert "expected one argument" in argparse_reading(scope["parser"], ["--lr", "-2", "-1"])


def test_an_action_of_the_codes_own_takes_what_its_nargs_says(tmp_path):
    extra = ("class Pair(argparse.Action):\n    def __call__(self, *a, **k):\n        pass\n"
             "parser.add_argument('--two', action=Pair, nargs=2)\nparser.add_argument('--some', action=Pair)\n")
    words = roles(["--two", "a", "b", "c", "--some", "x", "--image-resolution", "1"], workspace(tmp_path, False, extra))
    assert [w.role for w in words] == [Role.OPTION, Role.VALUE, Role.VALUE, Role.OPERAND, Role.OPTION,
                                       Role.UNCERTAIN, Role.UNDEFINED, Role.OPERAND]
