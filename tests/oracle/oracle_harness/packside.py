"""The packgate side: what the analysis says each launch sees, path by path.

The one module that reads packgate's results: `engine.analyze` and, on its Analysis, the flow's
launches (each with its paths: per gate the value seen, the micro-batch size, online packing)
and the findings. When the core moves these, only this file follows.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from packgate.core.engine import analyze
from packgate.core.settings import Settings

from .bashside import GATES, short_name


@dataclass(frozen=True)
class Value:
    """A value as packgate states it: kind known / default / unknown / unset, and its text."""

    kind: str
    text: str = ""

    def admits(self, seen: Optional[str]) -> bool:
        """Whether bash's value (None: unset) is one this statement allows."""
        if self.kind == "unknown":
            return True
        if self.kind == "unset":
            return seen is None
        if self.kind == "default":  # the caller may override it with anything
            return seen is not None
        return seen == self.text

    def describe(self) -> str:
        """The value as messages show it."""
        return {"unset": "unset", "unknown": "?"}.get(self.kind, repr(self.text)) + \
            ("(default)" if self.kind == "default" else "")


@dataclass(frozen=True)
class PathView:
    """One path packgate says reaches a launch."""

    labels: tuple
    gates: tuple  # Value per GATES
    mbs: Optional[Value]  # None: no --micro-batch-size
    sft: bool
    pretrain: bool

    def known(self) -> bool:
        """Every gate value is stated exactly (no caller default, nothing unknown)."""
        return all(v.kind in ("known", "unset") for v in self.gates)

    def describe(self) -> str:
        """BMR=1 PACKED_DATA=unset ... mbs=1 [labels]."""
        bits = [f"{short_name(g)}={v.describe()}" for g, v in zip(GATES, self.gates)]
        bits.append(f"mbs={'absent' if self.mbs is None else self.mbs.describe()}")
        if self.sft or self.pretrain:
            bits.append("online packing")
        labels = ",".join(label.key for label in self.labels)
        return " ".join(bits) + (f" [{labels}]" if labels else "")


@dataclass(frozen=True)
class LaunchView:
    """A launch packgate found: where it is (1-based lines) and its paths."""

    start: int
    end: int
    name_start: int
    first_line: int
    last_line: int
    implicit: bool
    text: str
    paths: tuple


@dataclass(frozen=True)
class FindingView:
    """A finding: its code, where it starts, the launch it names (when it does)."""

    code: str
    start: int
    launch: Optional[tuple]
    message: str


@dataclass(frozen=True)
class PackView:
    """The whole analysis of one script, as the comparison needs it."""

    profile: object
    launches: tuple
    findings: tuple
    note: str


def pack_view(path: Path) -> PackView:
    """Analyse the script at path (its folder holds the files it sources) with default settings."""
    text = path.read_text(encoding="utf-8", errors="replace")
    analysis = analyze(text, path=str(path), settings=Settings())
    data = analysis.source.data
    launches = []
    for launch in (analysis.flow.launches if analysis.flow is not None else ()):
        paths = tuple(
            PathView(tuple(p.labels), tuple(_value(p.gates[g].val) for g in GATES),
                     None if p.mbs is None else _value(p.mbs), bool(p.sft), bool(p.pretrain))
            for p in launch.paths)
        launches.append(LaunchView(launch.start, launch.end, launch.name_start,
                                   data.count(b"\n", 0, launch.start) + 1,
                                   data.count(b"\n", 0, launch.end) + 1, bool(launch.implicit),
                                   data[launch.name_start:launch.end].decode("utf-8", "replace"),
                                   paths))
    findings = tuple(FindingView(f.code, f.start, tuple(f.data["launch"]) if "launch" in f.data else None,
                                 f.message) for f in analysis.findings)
    return PackView(analysis.profile, tuple(launches), findings, analysis.note)


def _value(val) -> Value:
    return Value(val.kind, val.text)
