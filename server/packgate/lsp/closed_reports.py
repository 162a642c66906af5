"""The reports of the workspace pass' closed scripts, made where each script is analysed (a
worker process of the pool, or the server's own process) in their final shape: diagnostics as
the JSON the client receives, positions from the analysis' own line index in the client's
position encoding. The server stores them and forwards them as they are (diagnostic_json.ReadyJSON).

A worker imports this module, the core and pygls.uris, not lsprotocol or the rest of pygls.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from pygls.uris import from_fs_path

from packgate.core.closed_scripts import Batch, ScriptJob, analyse_batch, analyse_script
from packgate.lsp.diagnostic_json import diagnostics_json


@dataclass(frozen=True)
class Rendering:
    """What of the client's capabilities a report depends on."""

    encoding: str  # the negotiated position encoding (utf-8, utf-16, utf-32)
    related_information: bool


@dataclass(frozen=True)
class ReportBatch:
    """A batch of scripts for a worker, with how their reports are written."""

    batch: Batch
    rendering: Rendering


@dataclass(frozen=True)
class ClosedReport:
    """What the server stores and sends of one closed script's analysis."""

    path: str
    diagnostics: list[dict[str, Any]] | None  # the report's items; None: the file could not be read
    dependencies: frozenset[str]  # every file the analysis read or tried to read


def report_batch(work: ReportBatch) -> list[ClosedReport]:
    """Every script of a batch analysed and reported (the function a worker runs)."""
    return [report(job, analysis, work.rendering) for job, analysis in analyse_batch(work.batch)]


def report_script(job: ScriptJob, overlay: Mapping[str, str], rendering: Rendering) -> ClosedReport:
    """One script analysed and reported in this process (a small pass, or a worker died)."""
    return report(job, analyse_script(job, overlay), rendering)


def report(job: ScriptJob, analysis: Any, rendering: Rendering) -> ClosedReport:
    """An analysis (None: unreadable) as its report."""
    if analysis is None:
        return ClosedReport(job.path, None, frozenset())
    items = []
    if analysis.findings or analysis.notices:
        items = diagnostics_json(analysis.findings, analysis.notices, analysis.source,
                                 from_fs_path(job.path) or job.path, rendering.encoding,
                                 rendering.related_information, analysis.source_for)
    return ClosedReport(job.path, items, frozenset(analysis.dependencies))
