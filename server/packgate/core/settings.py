"""One typed settings contract shared by the CLI, the language server and the editor clients."""

from __future__ import annotations

import os
from typing import Any, Mapping

from .files import upward
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


# Keys read from configuration files only (the editor's workspace has no folders to walk the
# way `packgate check` does, so the client schema does not carry them).
FILE_ONLY_KEYS: dict[str, dict[str, Any]] = {
    "exclude": {
        "type": "array", "items": {"type": "string"}, "default": [],
        "description": "Glob patterns of files and folders `packgate check` skips; replaces the "
        "patterns of the command line's --exclude when given there.",
    },
    "extend-exclude": {
        "type": "array", "items": {"type": "string"}, "default": [],
        "description": "Glob patterns skipped in addition to `exclude`.",
    },
}


# Keys only the editor sends, for the language server as a whole rather than for one file (a
# configuration file does not carry them). The client schema carries them with SCHEMA's.
EDITOR_ONLY_KEYS: dict[str, dict[str, Any]] = {
    "workspace.maxScripts": {
        "type": "integer",
        "minimum": 0,
        "default": 10000,
        "description": "Workspace diagnostics and references read at most this many shell scripts of the "
        "workspace folders (0: no limit); you are told once when a workspace has more.",
        "description_zh": "工作区诊断与引用查找最多读取工作区文件夹中的这么多个 shell 脚本（0 表示不限）；"
        "工作区超出时会提示一次。",
    },
    "workspace.maxFiles": {
        "type": "integer",
        "minimum": 0,
        "default": 200000,
        "description": "The search for shell scripts in the workspace folders stops after looking at this "
        "many files (0: no limit), so that a dataset folder cannot keep it busy; you are told once when it "
        "stops early.",
        "description_zh": "在工作区文件夹中查找 shell 脚本时，查看这么多个文件后即停止（0 表示不限），"
        "以免数据集文件夹拖住查找；提前停止时会提示一次。",
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
    exclude: tuple[str, ...] = ()
    extend_exclude: tuple[str, ...] = ()

    def merged(self, raw: Mapping[str, Any] | None, problems: list[str] | None = None,
               strict: bool = False) -> "Settings":
        """Return a copy updated from a raw mapping; invalid values are skipped and reported.

        strict: the mapping is a configuration file's, so a key packgate does not know is
        reported too (an editor's section also carries the client's own keys, such as
        `trace.server`). A rule that does not exist is left out of select, ignore and severity
        and reported; a select naming no existing rule is refused (it would report nothing)."""
        if not raw:
            return self
        problems = problems if problems is not None else []
        updates: dict[str, Any] = {}
        for key, value in raw.items():
            if key in FILE_ONLY_KEYS and strict:
                checked = _patterns(value)
                if checked is _INVALID:
                    problems.append(f"invalid packgate.{key} {value!r}; it must be a list of glob patterns")
                else:
                    updates[key.replace("-", "_")] = checked
                continue
            if key not in SCHEMA:
                if strict and any(key in (k, k.partition(".")[0]) for k in EDITOR_ONLY_KEYS):
                    problems.append(f"packgate.{key} is an editor setting; configuration files do not set it")
                elif strict:
                    known = ", ".join([*SCHEMA, *FILE_ONLY_KEYS])
                    problems.append(f"unknown key {key!r} (packgate reads {known})")
                continue
            checked = _check(key, value)
            if checked is not _INVALID and key in ("select", "ignore", "severity"):
                checked = _known_rules(key, checked, problems)
                if checked is _REFUSED:  # reported already, with what happens instead
                    continue
            if checked is _INVALID:
                problems.append(f"invalid packgate.{key} {value!r}; using {getattr(self, key)!r}")
                continue
            updates[key] = checked
        return replace(self, **updates)


_INVALID = object()
_REFUSED = object()


def unknown_rules(keys) -> list[str]:
    """The keys that name no rule (by code or name)."""
    from .rules import rule_by_key
    return [k for k in keys if rule_by_key(k) is None]


def _known_rules(key: str, value: Any, problems: list[str]) -> Any:
    """value without the rules that do not exist (each reported); _INVALID for a select that
    named rules and kept none."""
    names = list(value) if key != "severity" else list(value.keys())
    unknown = unknown_rules(names)
    if not unknown:
        return value
    from .rules import rule_list
    known = rule_list()
    kept = tuple(v for v in value if v not in unknown) if key != "severity" else ()
    refused = key == "select" and not kept
    for k in unknown:
        then = "; it selects no rule, so every rule is reported" if refused else ""
        problems.append(f"unknown rule {k!r} in packgate.{key}{then}; known rules: {known}")
    if key == "severity":
        return {k: v for k, v in value.items() if k not in unknown}
    return _REFUSED if refused else kept


def _patterns(value: Any) -> Any:
    """A tuple of glob patterns from a list of strings (or one string), else _INVALID."""
    if isinstance(value, str):
        value = [value]
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) and v for v in value):
        return tuple(value)
    return _INVALID


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
    """The settings an editor sends, keyed by the client-side name (`packgate.profile`, ...)."""
    return {f"packgate.{k}": dict(v) for k, v in {**SCHEMA, **EDITOR_ONLY_KEYS}.items()}


def editor_only(sections: list[Mapping[str, Any]], problems: list[str]) -> dict[str, int]:
    """The EDITOR_ONLY_KEYS from editor sections (a later section wins), each a whole number at
    least its minimum, else its default (an invalid value is reported). A key is found dotted
    (`workspace.maxScripts`, as VS Code sends it) or nested (`{"workspace": {"maxScripts": ...}}`)."""
    found: dict[str, int] = {}
    for key, spec in EDITOR_ONLY_KEYS.items():
        value: Any = spec["default"]
        head, _, tail = key.partition(".")
        for section in sections:
            nested = section.get(head)
            raw = section.get(key, nested.get(tail, _INVALID) if isinstance(nested, Mapping) else _INVALID)
            if raw is _INVALID:
                continue
            if isinstance(raw, int) and not isinstance(raw, bool) and raw >= spec["minimum"]:
                value = raw
            else:
                problems.append(f"invalid packgate.{key} {raw!r}; it must be a whole number of at least "
                                f"{spec['minimum']}; using {value!r}")
        found[key] = value
    return found


CONFIG_NAMES = (".packgate.toml", "pyproject.toml")


# Ends every problem that means a configuration file applies not at all (the CLI exits 2).
NOT_APPLIED = "none of its settings apply"


def find_config(start: str | os.PathLike[str],
                problems: list[str] | None = None) -> tuple[str | None, dict[str, Any]]:
    """Find the nearest `.packgate.toml` or `pyproject.toml` with `[tool.packgate]` upward from start.

    A file there that cannot be read or is not valid TOML ends the search: it is reported in
    problems (without the file's name, which the caller gets back) and no settings come from it
    (nor from a file further up, which the user did not mean)."""
    try:
        here = start if os.path.isdir(start) else os.path.dirname(start) or "."
        here = os.path.realpath(here)
    except (OSError, ValueError):
        return None, {}
    for folder in upward(here):
        for name in CONFIG_NAMES:
            candidate = os.path.join(folder, name)
            if not os.path.isfile(candidate):
                continue
            data, error = read_config(candidate)
            if data is None:
                if problems is not None:
                    problems.append(f"{error}; {NOT_APPLIED}")
                return candidate, {}
            section = config_section(data, name == "pyproject.toml", problems)
            if section is None:
                continue
            return candidate, section
    return None, {}


def config_section(data: dict[str, Any], pyproject: bool,
                   problems: list[str] | None = None) -> dict[str, Any] | None:
    """The packgate settings of a parsed file: [tool.packgate], or the whole of a .packgate.toml
    without one; None for a pyproject.toml without the table."""
    tool = data.get("tool")
    section = tool.get("packgate") if isinstance(tool, dict) else None
    if section is None:
        return None if pyproject else data
    if not isinstance(section, dict):
        if problems is not None:
            problems.append(f"tool.packgate is not a table; {NOT_APPLIED}")
        return {}
    return section


def read_config(path: str | os.PathLike[str]) -> tuple[dict[str, Any] | None, str | None]:
    """(the parsed TOML, None), or (None, why it cannot be used)."""
    try:
        import tomllib  # type: ignore[import-not-found]
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        return None, f"cannot read the configuration: {exc.strerror or exc}"
    try:
        # utf-8-sig: a byte-order mark (what some Windows editors write first) is not an error
        return tomllib.loads(data.decode("utf-8-sig")), None
    except UnicodeDecodeError:
        return None, "the configuration is not valid UTF-8"
    except ValueError as exc:  # tomllib.TOMLDecodeError
        return None, f"not valid TOML: {exc}"


def settings_for(path: str | os.PathLike[str] | None, base: Settings | None = None,
                 problems: list[str] | None = None) -> Settings:
    """Settings for a file: the base updated by the nearest config file."""
    base = base or Settings()
    if path is None:
        return base
    local: list[str] = []
    found, raw = find_config(path, local)
    if found is None:
        return base
    result = base.merged(raw, local, strict=True)
    if problems is not None:
        problems.extend(f"{found}: {p}" for p in local)
    return result
