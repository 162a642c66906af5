"""The launch-view comparison itself (oracle_harness/launchside.py): what it accepts, and that it
does flag a view that is wrong."""

from __future__ import annotations

from packgate.core.launch_view import EnvValue, From, LaunchView, PathView, Word, WordKind

from oracle_harness.bashside import Input, Observed, Run
from oracle_harness.launchside import ViewLaunch, argv_admits, compare_view, env_mismatch

K, D, U = WordKind.KNOWN, WordKind.DEFAULT, WordKind.UNKNOWN


def _words(*spec):
    """Words from (kind, text) or (kind, text, splits)."""
    return tuple(Word(w[1], w[0], splits=w[2] if len(w) > 2 else False) for w in spec)


def test_known_words_must_be_bashs_words():
    words = _words((K, "train.py"), (K, "--lr"), (K, "1"))
    assert argv_admits(words, ("train.py", "--lr", "1"), False)
    assert not argv_admits(words, ("train.py", "--lr", "2"), False)
    assert not argv_admits(words, ("train.py", "--lr"), False)
    assert not argv_admits(words, ("train.py", "--lr", "1", "x"), False)


def test_an_unquoted_unknown_stands_for_any_run_of_words_a_quoted_one_for_one():
    words = _words((K, "train.py"), (U, None, True), (K, "--end"))
    for seen in (("train.py", "--end"), ("train.py", "a", "--end"), ("train.py", "a", "b c", "--end")):
        assert argv_admits(words, seen, False), seen
    assert not argv_admits(words, ("train.py", "a"), False)
    quoted = _words((K, "train.py"), (U, None), (K, "--end"))
    assert argv_admits(quoted, ("train.py", "a b", "--end"), False)
    assert not argv_admits(quoted, ("train.py", "--end"), False)
    assert not argv_admits(quoted, ("train.py", "a", "b", "--end"), False)


def test_an_unquoted_empty_word_may_be_dropped_and_a_default_overridden():
    assert argv_admits(_words((K, "t.py"), (K, "", True)), ("t.py",), False)
    assert argv_admits(_words((K, "t.py"), (K, "", True)), ("t.py", ""), False)
    assert not argv_admits(_words((K, "t.py"), (K, "")), ("t.py",), False)  # "$E": one empty word
    default = _words((K, "--mbs"), (D, "1"))
    assert argv_admits(default, ("--mbs", "1"), False)
    assert not argv_admits(default, ("--mbs", "4"), False)
    assert argv_admits(default, ("--mbs", "4"), True)  # the input set a variable: the caller may override
    assert not argv_admits(default, ("--mbs", "4", "5"), True)
    assert argv_admits(_words((K, "--mbs"), (D, "1", True)), ("--mbs", "4", "5"), True)


def test_the_environment_is_checked_value_by_value():
    env = (("A", EnvValue("1", From.EXPORT, 1)), ("B", EnvValue(None, From.UNSET, 2)),
           ("C", EnvValue(None, From.CALLER, None)), ("M", EnvValue("2", From.DEFAULT, 3)))
    assert env_mismatch(env, {"A": "1", "C": "x", "M": "2"}, False) is None
    assert "A" in env_mismatch(env, {"A": "0", "M": "2"}, False)
    assert "B" in env_mismatch(env, {"A": "1", "B": "1", "M": "2"}, False)
    assert "M" in env_mismatch(env, {"A": "1"}, False)  # a default is always set
    assert env_mismatch(env, {"A": "1", "M": "9"}, True) is None


def _view(argv, env):
    record = LaunchView(3, 1, 0, 10, "torchrun", "train.py", (PathView("", argv, env),))
    return (ViewLaunch(3, 3, record),)


def _run(argv, env, line=3):
    obs = Observed("torchrun", ("torchrun", *argv), (None, None, None), None, False, False, line,
                   Input(), tuple(sorted(env.items())))
    return Run(Input(), [obs], 0, "")


def test_a_wrong_view_is_flagged():
    view = _view(_words((K, "train.py")), (("OFFLINE_PACKED_DATA", EnvValue("1", From.EXPORT, 2)),))
    assert compare_view([_run(("train.py",), {"OFFLINE_PACKED_DATA": "1"})], view) == []
    (argv,) = compare_view([_run(("other.py",), {"OFFLINE_PACKED_DATA": "1"})], view)
    (env,) = compare_view([_run(("train.py",), {})], view)
    (missed,) = compare_view([_run(("train.py",), {}, line=40)], view)
    assert (argv.kind, env.kind, missed.kind) == ("argv", "env", "missed-launch")
