"""How many worker processes a run over many files uses: `packgate check DIR` and the language
server's workspace pass size their pools here (`PACKGATE_JOBS` decides for both)."""

from __future__ import annotations

import os

# The analysis is CPU-bound Python: one worker per core, within bounds.
POOL_MIN_FILES = 16  # below this, starting workers costs more than it saves
POOL_MAX_WORKERS = 8


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def wanted_jobs() -> int:
    """`PACKGATE_JOBS` as a number (0: not set or not a number, so one worker per core)."""
    try:
        return int(os.environ.get("PACKGATE_JOBS", "0"))
    except ValueError:
        return 0


def pool_size(files: int) -> int:
    """Workers for a run over this many files: 1 (no pool) for few files or PACKGATE_JOBS=1."""
    if files < POOL_MIN_FILES:
        return 1
    return max(1, min(wanted_jobs() or cores(), POOL_MAX_WORKERS, files // 4))


def full_pool_at() -> int:
    """The fewest files for which a run gets its largest pool (pool_size stops growing there)."""
    return max(POOL_MIN_FILES, 4 * min(wanted_jobs() or cores(), POOL_MAX_WORKERS))
