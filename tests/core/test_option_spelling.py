"""PG010's "did you mean": the letter-pair prefilter never drops a spelling the full comparison
would find, and an answer is remembered per word and option table."""

import random

from packgate.core.rules import pg010_unknown_option as pg010


def _brute(spelled: str, strings) -> list:
    """_nearest without the prefilter: every string of a near length through _distance."""
    if len(spelled.lstrip("-")) < 3:
        return []
    limit = 2 if len(spelled.lstrip("-")) >= 12 else 1
    near = [(pg010._distance(spelled, s, limit), s) for s in strings
            if abs(len(s) - len(spelled)) <= limit and s.startswith("--") == spelled.startswith("--")]
    return [s for _, s in sorted(x for x in near if x[0] <= limit)[:3]]


def _typo(rng: random.Random, word: str) -> str:
    i = rng.randrange(3, len(word))
    kind = rng.choice("replace delete insert swap".split())
    if kind == "replace":
        return word[:i] + rng.choice("abcz") + word[i + 1:]
    if kind == "delete":
        return word[:i] + word[i + 1:]
    if kind == "insert":
        return word[:i] + "q" + word[i:]
    return word[:i - 1] + word[i] + word[i - 1] + word[i + 1:] if i + 1 < len(word) else word


def test_the_prefilter_keeps_every_near_spelling():
    rng = random.Random(5)
    # repeated letters and pairs (`--aa-aa`) are where a pair count could mislead
    words = ["--" + "-".join("".join(rng.choice("abdeilmnorst") for _ in range(rng.randint(2, 7)))
                             for _ in range(rng.randint(1, 4))) for _ in range(1500)]
    strings = tuple(dict.fromkeys(words + ["--aa-aa", "--aaa-aab", "--lr", "--lr-decay", "-m"]))
    for _ in range(500):
        typo = _typo(rng, rng.choice([s for s in strings if len(s) > 4]))
        assert pg010._nearest(typo, strings) == _brute(typo, strings), typo


def test_an_answer_is_remembered_per_option_table():
    strings = ("--micro-batch-size", "--global-batch-size")
    first = pg010._closest("--micro-bacth-size", strings)
    assert first == ["--micro-batch-size"]
    assert pg010._closest("--micro-bacth-size", strings) is first
    other = ("--seq-length",)
    assert pg010._closest("--micro-bacth-size", other) == []
