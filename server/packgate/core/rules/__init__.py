"""The rule registry: the table of rules and the check that implements each one."""

from __future__ import annotations

from .exports import check_pg002, check_pg004, check_pg006, check_pg008
from .packing import check_pg001, check_pg007
from .sourcing import check_pg009
from .table import RULES, Rule, rule_by_key, rule_list
from .values import check_pg003, check_pg005

# code -> check; explicit, in rule order, so adding a rule is one line here and one row in table.py
CHECKS = {
    "PG001": check_pg001,
    "PG002": check_pg002,
    "PG003": check_pg003,
    "PG004": check_pg004,
    "PG005": check_pg005,
    "PG006": check_pg006,
    "PG007": check_pg007,
    "PG008": check_pg008,
    "PG009": check_pg009,
}

__all__ = ["CHECKS", "RULES", "Rule", "rule_by_key", "rule_list"]
