"""Bash against packgate: every way the two disagree about what a launch sees."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from .bashside import GATES, Observed
from .packside import LaunchView, PackView, PathView, Value

WRONG = frozenset({"leak", "corrupt"})
COMBOS = {(False, False): "off", (True, False): "leak", (False, True): "corrupt", (True, True): "ok"}
# a bash launch farther than this from every launch packgate found is one packgate missed
# (docker's inner launch sits a few lines below the `docker run` line bash reports)
MAX_LINE_DISTANCE = 8
_DISABLE = re.compile(r"#\s*packgate\s+disable=([\w,-]+)")
_CODE_NAMES = {"PG001": "missing-companion", "PG007": "path-dependent"}


@dataclass(frozen=True)
class Disagreement:
    """One difference: what kind, at which launch line, and both sides in words."""

    kind: str  # unsound / untaken / missed-launch / finding / run
    line: int
    detail: str

    def __str__(self) -> str:
        return f"[{self.kind}] line {self.line}: {self.detail}"


def verdict(obs: Observed, profile) -> str:
    """ok / off / leak / corrupt / invalid / online for what bash handed one launch."""
    if obs.sft or obs.pretrain:
        return "online"
    values = dict(zip(GATES, obs.gates))

    def state(name: str) -> str:
        v = values.get(name)
        return "off" if v is None else profile.judge(name, v)

    enc = [state(n) for n in profile.encoding]
    batch = state(profile.batch)
    e = "on" if "on" in enc else "invalid" if "invalid" in enc else "off"
    if "invalid" in (e, batch):
        return "invalid"
    return COMBOS[(e == "on", batch == "on")]


def admits(path: PathView, obs: Observed) -> bool:
    """Whether one packgate path allows exactly what bash handed the launch."""
    if path.sft != obs.sft or path.pretrain != obs.pretrain:
        return False
    if not all(v.admits(seen) for v, seen in zip(path.gates, obs.gates)):
        return False
    return _mbs_admits(path.mbs, obs.mbs)


def _mbs_admits(stated: Optional[Value], seen: Optional[str]) -> bool:
    if stated is None:
        return seen is None
    if stated.kind == "unknown":
        return True
    if stated.kind == "unset":  # `--micro-batch-size "$MBS"` with MBS never set
        return seen in ("", None)
    return stated.admits(seen)


def suppressed_codes(text: str) -> set:
    """Codes (and names) a `# packgate disable=` comment anywhere in the script turns off."""
    out: set = set()
    for m in _DISABLE.finditer(text):
        out.update(k.strip() for k in m.group(1).split(","))
    return out


def _suppressed(code: str, codes: set) -> bool:
    return bool({code, _CODE_NAMES.get(code, code), "all"} & codes)


def match_launch(obs: Observed, view: PackView) -> Optional[LaunchView]:
    """The launch packgate found that this bash launch is (by line; None: packgate has none)."""
    if obs.launcher == "<end>":
        return next((l for l in view.launches if l.implicit), None)
    explicit = [l for l in view.launches if not l.implicit]
    if not explicit:
        return None
    if obs.line is None:
        return explicit[0]

    def distance(l: LaunchView) -> tuple:
        if l.first_line <= obs.line <= l.last_line:
            d = 0
        else:
            d = min(abs(obs.line - l.first_line), abs(obs.line - l.last_line))
        named = l.text.split(None, 1)[0].strip("\"'${}").rsplit("/", 1)[-1] in (obs.launcher, obs.launcher.upper())
        return (d, not named, l.first_line < obs.line)

    best = min(explicit, key=distance)
    return best if distance(best)[0] <= MAX_LINE_DISTANCE else None


def compare(runs: list, view: PackView, text: str, complete: bool) -> list:
    """Every disagreement between the bash runs of one script and packgate's analysis of it.

    complete: the inputs take every path bash can take, so a packgate path no run took is a
    path bash cannot take.
    """
    out: list[Disagreement] = []
    by_launch: dict = {}
    for run in runs:
        if run.timed_out:
            out.append(Disagreement("run", 0, f"input {run.input.describe()}: bash did not finish"))
        for obs in run.launches:
            launch = match_launch(obs, view)
            if launch is None:
                if obs.launcher != "<end>":
                    out.append(Disagreement(
                        "missed-launch", obs.line or 0,
                        f"input {run.input.describe()}: bash ran {' '.join(obs.argv)[:80]!r} "
                        f"({obs.describe()}); packgate has no launch there"))
                continue
            by_launch.setdefault(launch, []).append(obs)
            if not any(admits(p, obs) for p in launch.paths):
                stated = "; ".join(p.describe() for p in launch.paths) or "no path"
                out.append(Disagreement(
                    "unsound", launch.first_line,
                    f"input {run.input.describe()}: bash gave {obs.describe()}; "
                    f"packgate's paths: {stated}"))
    if not complete:
        return out
    inputs = ", ".join(r.input.describe() for r in runs)
    codes = suppressed_codes(text)
    for launch in view.launches:
        seen = by_launch.get(launch, [])
        if launch.implicit and any(not l.implicit for l in view.launches):
            continue
        for path in launch.paths:
            if not any(admits(path, obs) for obs in seen):
                out.append(Disagreement(
                    "untaken", launch.first_line,
                    f"packgate's path {path.describe()} reaches {_name(launch)}; "
                    f"no input ({inputs}) made bash take it"))
        if not seen or not all(p.known() for p in launch.paths):
            continue
        out.extend(_finding_disagreements(launch, seen, view, codes))
    return out


def _name(launch: LaunchView) -> str:
    """The launch's command word, or "the end of the file" for a file packgate judges at its end."""
    words = launch.text.split()
    return "the end of the file" if launch.implicit or not words else words[0]


def _finding_disagreements(launch: LaunchView, seen: list, view: PackView, codes: set) -> list:
    """PG001 and PG007 at a launch, against the gate combinations bash produced there."""
    out = []
    kinds = {verdict(o, view.profile) for o in seen}
    shown = ", ".join(sorted(kinds))
    mixed = len(kinds - {"invalid"}) >= 2 and bool(kinds & WRONG)
    single_wrong = len(kinds) == 1 and kinds <= WRONG
    has_pg007 = any(f.code == "PG007" and f.start == launch.name_start for f in view.findings)
    has_pg001 = any(f.code == "PG001" and f.launch == (launch.start, launch.end) for f in view.findings)
    # PG001 is reported once per assignment, naming the first launch it reaches; PG004/PG006
    # report the cause instead when the other gate was set and lost
    explained = any(f.code in ("PG001", "PG004", "PG006") for f in view.findings)
    if has_pg007 and not mixed:
        out.append(Disagreement("finding", launch.first_line,
                                f"packgate reports PG007; bash's combinations there: {shown}"))
    if mixed and not has_pg007 and not _suppressed("PG007", codes):
        out.append(Disagreement("finding", launch.first_line,
                                f"bash's combinations differ by path ({shown}); packgate reports no PG007"))
    if has_pg001 and not single_wrong:
        out.append(Disagreement("finding", launch.first_line,
                                f"packgate reports PG001; bash's combinations there: {shown}"))
    if single_wrong and not explained and not _suppressed("PG001", codes):
        out.append(Disagreement("finding", launch.first_line,
                                f"bash always gives {shown}; packgate reports no PG001 (nor PG004/PG006) in the file"))
    return out
