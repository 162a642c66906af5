"""One subcommand argument as data: the table `packgate`'s parser and its shell completions
are both built from (cli/parser.py command_table, cli/launches.py)."""

from __future__ import annotations

from ..core.records import record


@record(frozen=True)
class Arg:
    """One argument of a subcommand: its flags (or positional name) and argparse's keywords.

    The table of these is the one source of the parser and of the shell completions."""

    flags: tuple
    options: dict

    @property
    def positional(self) -> bool:
        """True for an argument without a leading dash."""
        return not self.flags[0].startswith("-")

    @property
    def takes_value(self) -> bool:
        """False for a flag that stands alone (--fix)."""
        return self.options.get("action") not in ("store_true", "store_false", "version", "help")

    @property
    def wants_path(self) -> bool:
        """True when the value is a file or folder name (completed from the file system)."""
        return self.options.get("metavar") in ("PATH", "FILE")


def _arg(*flags: str, **options) -> Arg:
    return Arg(flags, options)
