"""tests/fuzz: put this folder and the source tree on sys.path.

The shared pieces live in modules with names of their own (fuzz_corpus, fuzz_props, rawlsp,
known): `conftest` is a name every test folder has, so nothing imports from it.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (HERE.parents[1] / "server", HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
