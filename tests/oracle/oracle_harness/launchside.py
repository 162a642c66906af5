"""`packgate launches` against bash: for every launch bash started, the argv and the environment
the stub recorded must be what one path of packgate's view allows.

packgate's side is `core/launch_view.py`'s records for the script (`launches_of`, the `--env
all` view: the gates, the names the code reads and every name the script exports or removes),
the records `packgate launches` prints; they are read rather than the json because the json
does not say which argv word is a default the caller may override. What is accepted, exactly:

- **argv** (the words after the launcher's name), word by word, where `splits` says the word
  was written as an unquoted expansion (`$EXTRA`, `--x=$Y`; also any word packgate could not
  find in the document, a sourced file's or a child shell's):
  - a known word is exactly bash's word; an empty one that splits stands for one empty word or
    none (bash drops an unquoted empty expansion, keeps `""$E`);
  - a default (`${MBS:-1}`) is its text, as one word (quoted) or the words it splits into; when
    the input sets a variable or passes arguments the caller may override it: any one word
    (quoted) or any run of words (unquoted);
  - a word packgate cannot know (`null` in the json) is any one word when quoted (`"$X"`) and
    any run of words, none included, when it splits: there the comparison cannot check the
    count, the one place it is blind.
- **env**: every variable the path prints with a value from the script (`export`, `prefix`,
  `env`, `docker`) must have exactly that value in the recorded environment; a `default` must
  be set, with that value unless the input sets a variable or passes arguments; `unset`,
  `cleared` and `array` must be absent; `caller`, `argument`, `unknown` and `unexported` allow
  anything. Names the view does not print are not compared.
- A bash launch is matched to packgate's launch by line, as the gate comparison does
  (compare.MAX_LINE_DISTANCE); one with no packgate launch near it is a missed launch.

Only what bash did is checked: a path no input took is not a disagreement here (the gate
comparison's `untaken` covers the paths).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from packgate.core.launch_view import ABSENT, EnvScope, From, WordKind, launches_of
from packgate.core.settings import Settings

from .bashside import Observed, copy_case
from .compare import MAX_LINE_DISTANCE, Disagreement

_FROM_SCRIPT = frozenset({From.EXPORT, From.PREFIX, From.ENV, From.DOCKER})


@dataclass(frozen=True)
class ViewLaunch:
    """One launch of packgate's view with the lines it spans (1-based)."""

    first_line: int
    last_line: int
    record: object  # core.launch_view.LaunchView


def view_of(script: Path) -> tuple:
    """packgate's launches for the script at script (its folder holds what it sources), each
    with its lines; () when it was not analysed."""
    text = script.read_text(encoding="utf-8", errors="replace")
    view = launches_of(text, path=str(script), settings=Settings(), scope=EnvScope.ALL)
    if isinstance(view, str):
        return ()
    data = text.encode("utf-8", "surrogateescape")
    return tuple(ViewLaunch(data.count(b"\n", 0, l.start) + 1, data.count(b"\n", 0, l.end) + 1, l)
                 for l in view.launches)


def argv_admits(words: tuple, seen: tuple, overridable: bool) -> bool:
    """Whether packgate's argv words allow bash's words (see the module docstring)."""
    memo: dict = {}

    def match(i: int, j: int) -> bool:
        key = (i, j)
        if key in memo:
            return memo[key]
        if i == len(words):
            ok = j == len(seen)
        else:
            w = words[i]
            one = j < len(seen) and match(i + 1, j + 1)  # this word is bash's next word
            if w.kind == WordKind.UNKNOWN or (w.kind == WordKind.DEFAULT and overridable):
                ok = any(match(i + 1, k) for k in range(j, len(seen) + 1)) if w.splits else one
            elif w.kind == WordKind.DEFAULT:
                parts = w.text.split() if w.splits else [w.text]
                ok = list(seen[j:j + len(parts)]) == parts and match(i + 1, j + len(parts))
            else:
                ok = (one and seen[j] == w.text) or (w.splits and w.text == "" and match(i + 1, j))
        memo[key] = ok
        return ok

    return match(0, 0)


def env_mismatch(env: tuple, seen: dict, overridable: bool) -> Optional[str]:
    """The first printed variable bash's environment contradicts (None: they agree)."""
    for name, e in env:
        got = seen.get(name)
        if e.source in _FROM_SCRIPT and got != e.value:
            return f"{name}: packgate {e.value!r} ({e.source}), bash {got!r}"
        if e.source == From.DEFAULT and (got is None or (not overridable and got != e.value)):
            return f"{name}: packgate {e.value!r} (default), bash {got!r}"
        if e.source in ABSENT and got is not None:
            return f"{name}: packgate absent ({e.source}), bash {got!r}"
    return None


def match_launch(obs: Observed, launches: tuple) -> Optional[ViewLaunch]:
    """The launch of the view that this bash launch is (by line; None: none near it)."""
    if not launches:
        return None
    if obs.line is None:
        return launches[0]

    def distance(l: ViewLaunch) -> tuple:
        d = 0 if l.first_line <= obs.line <= l.last_line else \
            min(abs(obs.line - l.first_line), abs(obs.line - l.last_line))
        named = l.record.command.strip("\"'${}").rsplit("/", 1)[-1] in (obs.launcher, obs.launcher.upper())
        return (d, not named, l.first_line < obs.line)

    best = min(launches, key=distance)
    return best if distance(best)[0] <= MAX_LINE_DISTANCE else None


def compare_view(runs: list, launches: tuple) -> list:
    """Every bash launch of the runs that no path of packgate's view allows."""
    out: list = []
    for run in runs:
        overridable = bool(run.input.env or run.input.args)
        for obs in run.launches:
            if obs.launcher == "<end>":
                continue
            launch = match_launch(obs, launches)
            where = f"input {run.input.describe()}"
            if launch is None:
                out.append(Disagreement("missed-launch", obs.line or 0,
                                        f"{where}: bash ran {' '.join(obs.argv)[:80]!r}; packgate launches shows none there"))
                continue
            seen_argv, seen_env = tuple(obs.argv[1:]), dict(obs.env)
            paths = launch.record.paths
            fitting = [p for p in paths if argv_admits(p.argv, seen_argv, overridable)]
            if not fitting:
                shown = " | ".join(repr([w.text for w in p.argv]) for p in paths) or "no path"
                out.append(Disagreement("argv", launch.first_line,
                                        f"{where}: bash gave {list(seen_argv)!r}; packgate's paths: {shown}"))
                continue
            why = [env_mismatch(p.env, seen_env, overridable) for p in fitting]
            if all(why):
                out.append(Disagreement("env", launch.first_line,
                                        f"{where}: no path whose argv fits agrees with bash's environment "
                                        f"({'; '.join(why)})"))
    return out


def check_view(case, runs: list, scratch: Path) -> list:
    """The disagreements of packgate's launch view of a case with its bash runs."""
    launches = view_of(copy_case(case.script, list(case.extra), scratch))
    return compare_view(runs, launches)
