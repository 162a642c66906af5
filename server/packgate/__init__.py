"""packgate: lint the sample-packing gates of LLaVA-OneVision training launchers.

The public names are loaded on first use, so `packgate lsp` and `packgate check` start without
importing more than they need. `__all__` is the whole API; everything else is internal.
"""

__version__ = "0.1.0"

_EXPORTS = {
    "Analysis": "packgate.core.engine",
    "analyze": "packgate.core.engine",
    "lint": "packgate.core.engine",
    "Edit": "packgate.core.findings",
    "Finding": "packgate.core.findings",
    "Fix": "packgate.core.findings",
    "Related": "packgate.core.findings",
    "Settings": "packgate.core.settings",
}

__all__ = sorted(_EXPORTS) + ["__version__"]

TYPE_CHECKING = False  # typing.TYPE_CHECKING without typing, which loads after run() pauses the collector
if TYPE_CHECKING:
    from .core.engine import Analysis, analyze, lint
    from .core.findings import Edit, Finding, Fix, Related
    from .core.settings import Settings
del TYPE_CHECKING  # not part of the API


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'packgate' has no attribute {name!r}")
    import importlib
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list:
    return list(__all__)
