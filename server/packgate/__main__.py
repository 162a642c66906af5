"""`python -m packgate` is the `packgate` command."""

from .cli import run

run()
