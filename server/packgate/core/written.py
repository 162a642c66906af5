"""How a configuration value is quoted in messages: as TOML (and JSON) write it."""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Any


def as_written(value: Any) -> str:
    """A value as TOML (and JSON) write it: "fr", 3, ["a", 1], true."""
    import json  # only for a problem to report: a plain `check` never loads it
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)
