"""How far apart two spellings are: what the "did you mean" suggestions rank by (a directive's
rule, PG012's variable name)."""

from __future__ import annotations


def edit_distance(a: str, b: str) -> int:
    """Single-letter edits (insert, delete, replace) that turn a into b."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, start=1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]
