"""`packgate`'s argument parser (the source of `--help`), built from the table of every
subcommand's arguments (cli/arguments.py)."""

from __future__ import annotations

import argparse
import os
import sys
from functools import cache

from .. import __version__
from .arguments import command_table

EXIT_USAGE = 2

_EPILOG = """exit codes:
  0  no finding at or above the fail level (--fail-level, default warning: information
     never fails a run), or --exit-zero
  1  findings at or above the fail level
  2  usage error, invalid configuration (a configuration file that cannot be read or parsed
     included), or a file that could not be read (the other files are still checked); a
     file skipped on purpose (binary or too large) is reported but changes nothing
"""


@cache  # argparse makes a formatter for every argument it adds: the terminal is asked once
def _help_width() -> int:
    """The width argparse would give help text (the terminal's, less 2), found without shutil."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns if columns > 0 else 80) - 2


class _Width:
    # argparse makes a formatter for every add_argument; left to itself each one asks shutil
    # for the terminal size, and importing shutil (with zlib, bz2 and lzma) is a tenth of a
    # cold `check`.
    def __init__(self, prog: str, *args, **kwargs) -> None:
        kwargs.setdefault("width", _help_width())
        super().__init__(prog, *args, **kwargs)


class _Help(_Width, argparse.HelpFormatter):
    pass


class _RawHelp(_Width, argparse.RawDescriptionHelpFormatter):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors exit 2 with one line, like the contract says
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser (also the source of `--help`); with only, a subcommand's name, the
    top level holds that subcommand alone."""
    parser = _Parser(prog="packgate",
                     description="Lint the sample-packing gates of LLaVA-OneVision training launchers.",
                     epilog=_EPILOG, formatter_class=_RawHelp)
    parser.add_argument("--version", action="version", version=f"packgate {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    table = command_table()
    for name, (help_text, arguments) in table.items():
        # A run of one subcommand never reads the others' parsers, and each one argparse makes
        # (three gettext look-ups, its help action, its arguments) costs; an unknown name gets
        # them all, so that its error lists every choice.
        if only in table and name != only:
            continue
        extra = {"epilog": _EPILOG, "formatter_class": _RawHelp} if name == "check" else {"formatter_class": _Help}
        command = sub.add_parser(name, help=help_text, description=help_text, **extra)
        command.set_defaults(subparser=command)
        for a in arguments:
            command.add_argument(*a.flags, **a.options)
    return parser
