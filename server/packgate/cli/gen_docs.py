"""Write docs/rules/ from the rule modules: `python -m packgate.cli.gen_docs docs/rules`."""

from __future__ import annotations

import sys
from pathlib import Path

from ..core.docs import all_pages


def main(argv: list[str]) -> int:
    """Write every page into the folder given (default docs/rules)."""
    target = Path(argv[0] if argv else "docs/rules")
    target.mkdir(parents=True, exist_ok=True)
    for name, text in all_pages().items():
        (target / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(all_pages())} pages to {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
