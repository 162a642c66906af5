"""`python -m packgate` is the `packgate` command."""

import sys

from .cli import main

sys.exit(main())
