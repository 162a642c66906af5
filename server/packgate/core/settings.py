"""One typed settings contract shared by the CLI, the language server and the editor clients."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Mapping

from .records import factory, record, replace

PROFILES = ("ov2", "ov15", "three-gate", "auto")
LANGS = ("en", "zh", "both")
LEVELS = ("error", "warning", "information", "hint")
# Per-rule severity overrides also accept "off" to disable the rule.
RULE_LEVELS = LEVELS + ("off",)
LEVEL_RANK = {"hint": 0, "information": 1, "warning": 2, "error": 3}

# The settings schema: the single source for the server, the CLI and the editor clients
# (`packgate settings-schema` prints it; a test compares it with vscode-client/package.json).
SCHEMA: dict[str, dict[str, Any]] = {
    "profile": {
        "type": "string",
        "enum": list(PROFILES),
        "default": "auto",
        "description": "Which training code the scripts launch: ov2 (LLaVA-OneVision-2 main), "
        "ov15 (LLaVA-OneVision-1.5), three-gate (a branch reading both encoding gates), "
        "or auto (derived from the Python code in the project, else ov2).",
        "description_zh": "脚本启动的是哪套训练代码：ov2（LLaVA-OneVision-2 main）、ov15（LLaVA-OneVision-1.5）、"
        "three-gate（同时读取两个编码开关的分支），或 auto（从项目中的 Python 代码推断，推断不出时用 ov2）。",
    },
    "lang": {
        "type": "string",
        "enum": list(LANGS),
        "default": "both",
        "description": "Language of messages and hover text: en, zh or both.",
        "description_zh": "诊断信息与悬停文档的语言：en、zh 或 both（中英双语）。",
    },
    "select": {
        "type": "array",
        "items": {"type": "string"},
        "default": [],
        "description": "Only report these rules (codes or names). Empty means every rule.",
        "description_zh": "只报告这些规则（编号或名称）。为空表示全部规则。",
    },
    "ignore": {
        "type": "array",
        "items": {"type": "string"},
        "default": [],
        "description": "Never report these rules (codes or names).",
        "description_zh": "永不报告这些规则（编号或名称）。",
    },
    "severity": {
        "type": "object",
        "additionalProperties": {"type": "string", "enum": list(RULE_LEVELS)},
        "default": {},
        "description": "Per-rule severity overrides, e.g. {\"PG008\": \"hint\", \"dead-var\": \"error\"}; "
        "\"off\" disables the rule.",
        "description_zh": "按规则覆盖严重级别，例如 {\"PG008\": \"hint\", \"dead-var\": \"error\"}；\"off\" 表示关闭该规则。",
    },
}


@record(frozen=True)
class Settings:
    """Resolved settings; every field has a default, so a partial source is fine."""

    profile: str = "auto"
    lang: str = "both"
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, str] = factory(dict)

    def merged(self, raw: Mapping[str, Any] | None, problems: list[str] | None = None) -> "Settings":
        """Return a copy updated from a raw mapping; invalid values are skipped and reported."""
        if not raw:
            return self
        problems = problems if problems is not None else []
        updates: dict[str, Any] = {}
        for key, value in raw.items():
            if key not in SCHEMA:
                continue
            checked = _check(key, value)
            if checked is _INVALID:
                problems.append(f"invalid packgate.{key} {value!r}; using {getattr(self, key)!r}")
                continue
            updates[key] = checked
        return replace(self, **updates)


_INVALID = object()


def _check(key: str, value: Any) -> Any:
    if key == "profile":
        return value if value in PROFILES else _INVALID
    if key == "lang":
        return value if value in LANGS else _INVALID
    if key in ("select", "ignore"):
        if isinstance(value, str):
            value = [v for v in value.replace(" ", "").split(",") if v]
        if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
            return tuple(value)
        return _INVALID
    if key == "severity":
        if isinstance(value, Mapping) and all(
            isinstance(k, str) and v in RULE_LEVELS for k, v in value.items()
        ):
            return dict(value)
        return _INVALID
    return _INVALID


def schema_for_clients() -> dict[str, dict[str, Any]]:
    """The schema keyed by the client-side setting name (`packgate.profile`, ...)."""
    return {f"packgate.{k}": dict(v) for k, v in SCHEMA.items()}


CONFIG_NAMES = (".packgate.toml", "pyproject.toml")


def find_config(start: Path) -> tuple[Path | None, dict[str, Any]]:
    """Find the nearest `.packgate.toml` or `pyproject.toml` with `[tool.packgate]` upward from start."""
    try:
        here = start if start.is_dir() else start.parent
        here = here.resolve()
    except OSError:
        return None, {}
    for folder in (here, *here.parents):
        for name in CONFIG_NAMES:
            candidate = folder / name
            if not candidate.is_file():
                continue
            data = _read_toml(candidate)
            if data is None:
                continue
            if name == "pyproject.toml":
                section = data.get("tool", {}).get("packgate")
                if section is None:
                    continue
                return candidate, section if isinstance(section, dict) else {}
            section = data.get("tool", {}).get("packgate", data)
            return candidate, section if isinstance(section, dict) else {}
    return None, {}


def _read_toml(path: Path) -> dict[str, Any] | None:
    try:
        import tomllib  # type: ignore[import-not-found]
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except (OSError, ValueError):
        return None


def settings_for(path: str | os.PathLike[str] | None, base: Settings | None = None,
                 problems: list[str] | None = None) -> Settings:
    """Settings for a file: the base updated by the nearest config file."""
    base = base or Settings()
    if path is None:
        return base
    found, raw = find_config(Path(path))
    if found is None:
        return base
    local: list[str] = []
    result = base.merged(raw, local)
    if problems is not None:
        problems.extend(f"{found}: {p}" for p in local)
    return result
