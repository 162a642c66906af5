"""One typed settings contract shared by the CLI, the language server and the editor clients."""

from __future__ import annotations

import os
from collections.abc import Mapping

from .files import upward
from .records import factory, record, replace
from .written import as_written as _show

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: a cold `check` does not
if TYPE_CHECKING:
    from typing import Any

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
        "description": "Only report these rules (codes, names, code prefixes such as PG00, or ALL). Empty means "
        "every rule.",
        "description_zh": "只报告这些规则（编号、名称、编号前缀如 PG00，或 ALL）。为空表示全部规则。",
    },
    "extend-select": {
        "type": "array",
        "items": {"type": "string"},
        "default": [],
        "description": "Report these rules as well as the selected ones (codes, names, code prefixes such as "
        "PG00, or ALL).",
        "description_zh": "在已选规则之外也报告这些规则（编号、名称、编号前缀如 PG00，或 ALL）。",
    },
    "ignore": {
        "type": "array",
        "items": {"type": "string"},
        "default": [],
        "description": "Never report these rules (codes, names, code prefixes such as PG00, or ALL).",
        "description_zh": "永不报告这些规则（编号、名称、编号前缀如 PG00，或 ALL）。",
    },
    "severity": {
        "type": "object",
        "additionalProperties": {"type": "string", "enum": list(RULE_LEVELS)},
        "default": {},
        "description": "Per-rule severity overrides, e.g. {\"PG008\": \"hint\", \"dead-var\": \"error\"}; "
        "\"off\" disables the rule.",
        "description_zh": "按规则覆盖严重级别，例如 {\"PG008\": \"hint\", \"dead-var\": \"error\"}；\"off\" 表示关闭该规则。",
    },
    "per-file-ignores": {
        "type": "object",
        "additionalProperties": {"type": "array", "items": {"type": "string"}},
        "default": {},
        "description": "Rules not reported in the files a glob matches, e.g. {\"**/vendor/**\": [\"PG002\"]}; in a "
        "configuration file the globs are relative to its folder, here to the absolute path; a glob also "
        "matches a file's name.",
        "description_zh": "在 glob 匹配的文件中不报告这些规则，例如 {\"**/vendor/**\": [\"PG002\"]}；配置文件中的 glob "
        "相对于其所在文件夹，此处相对于绝对路径；glob 也匹配文件名。",
    },
    "contract": {
        "type": "array",
        "items": {"type": "object"},
        "default": [],
        "description": "The team's own relations between environment variables and trainer options, checked "
        "at every launch by PG014 next to the profile's, e.g. [{\"kind\": \"requires\", \"when\": "
        "{\"option\": \"--use-torch-fsdp2\"}, \"then\": {\"var\": \"CUDA_DEVICE_MAX_CONNECTIONS\", "
        "\"value\": \"1\", \"equal\": false}}]; the schema is in the README's configuration section.",
        "description_zh": "团队自己声明的环境变量与训练选项之间的关系，由 PG014 在每个启动命令处与配置自带的关系一起检查，"
        "例如 [{\"kind\": \"requires\", \"when\": {\"option\": \"--use-torch-fsdp2\"}, \"then\": "
        "{\"var\": \"CUDA_DEVICE_MAX_CONNECTIONS\", \"value\": \"1\", \"equal\": false}}]；"
        "格式见 README 的配置一节。",
    },
}

# The editor's names of the SCHEMA keys that are two words (`packgate.extendSelect`, as VS Code
# spells settings); a configuration file spells them `extend-select`.
CLIENT_NAMES = {"extend-select": "extendSelect", "per-file-ignores": "perFileIgnores"}
FROM_CLIENT = {v: k for k, v in CLIENT_NAMES.items()}
FAIL_LEVELS = ("error", "warning", "information")


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
    "unsafe-fixes": {
        "type": "boolean", "default": False,
        "description": "`packgate check --fix` / `--diff` (and the editor's fix-all) also apply the "
        "unsafe fixes: those that rest on a profile `auto` assumed; as --unsafe-fixes.",
    },
    "fail-level": {
        "type": "string", "enum": list(FAIL_LEVELS), "default": "warning",
        "description": "`packgate check` exits 1 only for findings at or above this severity "
        "(information never fails a run by default).",
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
    unsafe_fixes: bool = False  # --fix, --diff and fixAll also apply Applicability.UNSAFE fixes
    extend_select: tuple[str, ...] = ()
    # (glob, the folder it is relative to or None, selectors): core/selection.py
    per_file_ignores: tuple = ()
    fail_level: str = "warning"
    # the codes the settings layers below select/extend_select/ignore enabled (None: every rule)
    carried: tuple[str, ...] | None = None
    contract: tuple = ()  # the team's relations (core/code/relations.py Relation), checked by PG014


    def merged(self, raw: Mapping[str, Any] | None, problems: list[str] | None = None,
               strict: bool = False, *, where: str = "packgate.", base: str | None = None,
               source: str = "") -> "Settings":
        """Return a copy updated from a raw mapping; invalid values are skipped and reported.

        strict: the mapping is a configuration file's, so a key packgate does not know is
        reported too (an editor's section also carries the client's own keys, such as
        `trace.server`), and so are the keys only a file sets. Each problem names the key as
        `where` spells the table (`[tool.packgate] `, `packgate.`) and what is accepted. Only
        what is wrong is left out: the other entries of a list or table apply. A rule that does
        not exist is left out of select, ignore, extend-select, severity and per-file-ignores;
        a select naming no existing rule is no select (it would report nothing). base: the
        folder a file's per-file-ignores globs are relative to (its own). source: the file the
        mapping comes from, as a `contract` relation names where it was declared."""
        if not raw:
            return self
        problems = problems if problems is not None else []
        updates: dict[str, Any] = {}
        rules: dict[str, tuple] = {}
        for key, value in raw.items():
            if not strict:
                key = FROM_CLIENT.get(key, key)
            if key in FILE_ONLY_KEYS:
                if strict:
                    checked = _check(key, value, where, problems, self)
                    if checked is not _INVALID:
                        updates[key.replace("-", "_")] = checked
                continue
            if key not in SCHEMA:
                if strict and any(key in (k, k.partition(".")[0]) for k in EDITOR_ONLY_KEYS):
                    problems.append(f"packgate.{key} is an editor setting; configuration files do not set it")
                elif strict:
                    known = ", ".join([*SCHEMA, *FILE_ONLY_KEYS])
                    problems.append(f"unknown key {key!r} (packgate reads {known})")
                continue
            checked = _check(key, value, where, problems, self, strict, source)
            if checked is _INVALID:
                continue
            if key in RULE_KEYS:
                rules[key] = checked
            elif key == "per-file-ignores":
                updates["per_file_ignores"] = tuple((glob, base, keys) for glob, keys in checked)
            else:
                updates[key] = checked
        result = replace(self, **updates) if updates else self
        if rules:
            from .selection import layered
            result = layered(result, rules.get("select", ()), rules.get("extend-select", ()),
                             rules.get("ignore", ()))
        return result


_INVALID = object()
RULE_KEYS = ("select", "extend-select", "ignore")
SELECTORS = "ALL, a code prefix (PG00) or a rule"


def unknown_rules(keys) -> list[str]:
    """The keys that name no rule (by code or name)."""
    from .rules import rule_by_key
    return [k for k in keys if rule_by_key(k) is None]


def _invalid(where: str, key: str, value: Any, expected: str, problems: list[str], strict: bool,
             using: Any = _INVALID) -> object:
    """Report an invalid value (with the value used instead, for an editor's section)."""
    then = f"; using {_show(using)}" if not strict and using is not _INVALID else ""
    problems.append(f"{where}{key} = {_show(value)}: expected {expected}{then}")
    return _INVALID


def _selectors(where: str, key: str, value: Any, problems: list[str], strict: bool,
               refuse_empty: bool = False) -> Any:
    """A tuple of rule selectors from a list of strings (or one comma-separated string): the
    entries that are not strings or name no rule are reported and left out. _INVALID when
    the value is not a list at all, or (refuse_empty) when it named rules and kept none."""
    from .rules import rule_list
    from .selection import unknown_selectors
    if isinstance(value, str):
        value = [v for v in value.replace(" ", "").split(",") if v]
    if not isinstance(value, (list, tuple)):
        return _invalid(where, key, value, f"a list of rules ({SELECTORS})", problems, strict)
    kept = []
    for v in value:
        if not isinstance(v, str):
            problems.append(f"{where}{key}: {_show(v)} is not a rule; expected a string ({SELECTORS})")
        elif unknown_selectors([v]):
            problems.append(f"unknown rule {v!r} in {where}{key}; expected {SELECTORS}: {rule_list()}")
        else:
            kept.append(v)
    if refuse_empty and value and not kept:
        problems.append(f"{where}{key} selects no rule, so every rule is reported")
        return _INVALID
    return tuple(kept)


def _patterns(value: Any) -> Any:
    """A tuple of glob patterns from a list of strings (or one string), else _INVALID."""
    if isinstance(value, str):
        value = [value]
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) and v for v in value):
        return tuple(value)
    return _INVALID


def _check(key: str, value: Any, where: str, problems: list[str], current: "Settings",
           strict: bool = True, source: str = "") -> Any:
    """The value of key to apply, or _INVALID (each problem reported)."""
    def invalid(expected: str) -> object:
        using = getattr(current, key.replace("-", "_"), _INVALID)
        return _invalid(where, key, value, expected, problems, strict, using)

    if key in ("profile", "lang", "fail-level"):
        choices = {"profile": PROFILES, "lang": LANGS, "fail-level": FAIL_LEVELS}[key]
        return value if isinstance(value, str) and value in choices else invalid(f"one of {', '.join(choices)}")
    if key == "unsafe-fixes":
        return value if isinstance(value, bool) else invalid("true or false")
    if key in ("exclude", "extend-exclude"):
        checked = _patterns(value)
        return checked if checked is not _INVALID else invalid("a list of glob patterns")
    if key in RULE_KEYS:
        return _selectors(where, key, value, problems, strict, refuse_empty=key == "select")
    if key == "severity":
        if not isinstance(value, Mapping):
            return invalid(f"a table of rule = level ({', '.join(RULE_LEVELS)})")
        from .rules import rule_list
        kept = {}
        for rule, level in value.items():
            if not isinstance(rule, str) or unknown_rules([rule]):
                problems.append(f"unknown rule {rule!r} in {where}{key}; known rules: {rule_list()}")
            elif level not in RULE_LEVELS or not isinstance(level, str):
                problems.append(f"{where}{key}.{_show(rule)} = {_show(level)}: expected one of "
                                f"{', '.join(RULE_LEVELS)}")
            else:
                kept[rule] = level
        return kept
    if key == "contract":
        from .code.relations import relations_of
        found = relations_of(value, where, source, problems)
        if found is None:
            return invalid("an array of tables (one [[tool.packgate.contract]] per relation) with kind = "
                           "\"both\" or \"requires\"")
        return found
    if key == "per-file-ignores":
        if not isinstance(value, Mapping):
            return invalid(f"a table of glob = list of rules ({SELECTORS})")
        entries = []
        for glob, keys in value.items():
            if not isinstance(glob, str) or not glob:
                problems.append(f"{where}{key}: {_show(glob)} is not a glob")
                continue
            checked = _selectors(where, f"{key}.{_show(glob)}", keys, problems, strict)
            if checked is not _INVALID and checked:
                entries.append((glob, checked))
        return tuple(entries)
    return _INVALID


def schema_for_clients() -> dict[str, dict[str, Any]]:
    """The settings an editor sends, keyed by the client-side name (`packgate.profile`, ...)."""
    return {f"packgate.{CLIENT_NAMES.get(k, k)}": dict(v) for k, v in {**SCHEMA, **EDITOR_ONLY_KEYS}.items()}


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


def merge_config(settings: Settings, config: str | os.PathLike[str], raw: Mapping[str, Any] | None,
                 problems: list[str]) -> Settings:
    """settings updated from the packgate table of the configuration file at config: its
    problems name the table as the file spells it, and its per-file-ignores globs are
    relative to its folder."""
    config = os.fspath(config)
    where = "[tool.packgate] " if os.path.basename(config) == "pyproject.toml" else ""
    return settings.merged(raw, problems, strict=True, where=where,
                           base=os.path.dirname(os.path.realpath(config)), source=os.path.basename(config))


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
    result = merge_config(base, found, raw, local)
    if problems is not None:
        problems.extend(f"{found}: {p}" for p in local)
    return result
