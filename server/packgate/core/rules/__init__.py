"""The rules: one module per rule (its texts, examples and check), listed here explicitly.

Adding a rule is one module `pgNNN_name.py` (a `RULE` and a `check(ctx)`) and its name in
`_NAMES`; `tests/core/test_rules.py` runs its examples and checks its message keys.
"""

from __future__ import annotations

from importlib import import_module

from .rule import Rule

# in code order: the order of `packgate rules`, the docs and SARIF's rule list
_NAMES = (
    "pg001_missing_companion",
    "pg002_dead_var",
    "pg003_micro_batch_size",
    "pg004_not_exported",
    "pg005_invalid_value",
    "pg006_lost_export",
    "pg007_path_dependent",
    "pg008_overridden",
    "pg009_unfollowed_source",
    "pg010_unknown_option",
    "pg011_option_value",
    "pg012_unread_var",
    "pg013_misread_value",
    "pg014_contract",
)
_MODULES = tuple(import_module(f"{__name__}.{name}") for name in _NAMES)

RULES: tuple = tuple(m.RULE for m in _MODULES)
CHECKS: dict = {m.RULE.code: m.check for m in _MODULES}  # code -> check(ctx)
MODULES: dict = {m.RULE.code: m for m in _MODULES}  # code -> the module that holds the rule

_BY_KEY: dict = {}
for _rule in RULES:
    _BY_KEY[_rule.code.lower()] = _rule
    _BY_KEY[_rule.name.lower()] = _rule


def rule_by_key(key: str):
    """A rule by code or name (case-insensitive), or None."""
    return _BY_KEY.get(key.strip().lower())


def rule_list() -> str:
    """Every rule as `PG001 (missing-companion), ...`: what messages about an unknown rule offer."""
    return ", ".join(f"{r.code} ({r.name})" for r in RULES)


__all__ = ["CHECKS", "MODULES", "RULES", "Rule", "rule_by_key", "rule_list"]
