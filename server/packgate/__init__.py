"""packgate: lint the sample-packing gates of LLaVA-OneVision training launchers."""

from __future__ import annotations

__version__ = "0.1.0"

from .core.engine import Analysis, analyze, lint  # noqa: E402
from .core.model import Edit, Finding, Fix, Related  # noqa: E402
from .core.settings import Settings  # noqa: E402

__all__ = ["Analysis", "Edit", "Finding", "Fix", "Related", "Settings", "__version__", "analyze", "lint"]
