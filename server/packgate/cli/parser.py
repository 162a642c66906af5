"""`packgate`'s argument parser, built from one table of every subcommand's arguments (the
source of `--help` and of the shell completions)."""

from __future__ import annotations

import argparse
import os
import sys
from functools import cache

from .. import __version__
from .arguments import _arg

EXIT_USAGE = 2
TCP_HOST, TCP_PORT = "127.0.0.1", 2087

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


def command_table() -> dict:
    """name -> (help, arguments) of every subcommand: what build_parser and completion read."""
    from ..core.settings import FAIL_LEVELS, LANGS, LEVELS, PROFILES
    from .formats import FORMATS
    check = (
        _arg("paths", nargs="*", metavar="PATH",
             help="files or folders (folders: *.sh, *.bash and files with a bash/sh shebang below "
                  "them, except what .gitignore / .ignore ignore and Python environments); - for "
                  "standard input"),
        _arg("--stdin-filename", metavar="NAME", help="the name to report for standard input"),
        _arg("--format", choices=FORMATS, default="text", help="output format (default: text)"),
        _arg("--profile", choices=PROFILES,
             help="training code the scripts launch (default: from config, else auto)"),
        _arg("--lang", choices=LANGS, help="language of messages (default: from config, else en)"),
        _arg("--select", metavar="RULE,...",
             help="only these rules (codes, names, code prefixes such as PG00, or ALL)"),
        _arg("--extend-select", metavar="RULE,...", help="these rules as well as the selected ones"),
        _arg("--ignore", metavar="RULE,...", help="never these rules (codes, names, code prefixes, or ALL)"),
        _arg("--severity", choices=LEVELS, default="hint",
             help="minimum severity reported (default: hint)"),
        _arg("--fail-level", choices=FAIL_LEVELS,
             help="exit 1 only for findings at or above this severity (default: from config "
                  "fail-level, else warning)"),
        _arg("--fix", action="store_true", help="apply every safe fix in place, then report what is left"),
        _arg("--diff", action="store_true", help="print the safe fixes as a unified diff, change nothing"),
        _arg("--unsafe-fixes", action="store_true",
             help="with --fix or --diff, also apply the unsafe fixes: those that rest on a profile "
                  "auto assumed (default: from config unsafe-fixes, else off)"),
        _arg("--exit-zero", action="store_true", help="exit 0 even when there are findings"),
        _arg("--exclude", metavar="GLOB,...",
             help="skip files and folders matching these path globs (replaces the configuration's "
                  "exclude; rules are --ignore's)"),
        _arg("--extend-exclude", metavar="GLOB,...", help="skip these patterns as well"),
        _arg("--show-source", action="store_true", help="show the line of each finding with a caret under it"),
        _arg("--show-settings", metavar="FILE",
             help="print the settings that apply to FILE (and why auto picks its profile), then exit"),
        _arg("--statistics", action="store_true", help="print the number of findings per rule instead of each finding"),
        _arg("--quiet", "-q", action="store_true", help="print the findings only, no summary"),
        _arg("--output-file", "-o", metavar="FILE", help="write the report to FILE instead of standard output"),
        _arg("--color", choices=("auto", "always", "never"), default="auto",
             help="colour in text output (default: auto, on a terminal without NO_COLOR)"),
        _arg("--config", metavar="FILE",
             help="use this .packgate.toml / pyproject.toml instead of searching upward"),
    )
    lsp = (
        _arg("--stdio", action="store_true", help="talk over standard input and output (the default)"),
        _arg("--tcp", action="store_true", help="listen on TCP instead of stdio"),
        _arg("--host", help=f"TCP host, with --tcp (default: {TCP_HOST})"),
        _arg("--port", help=f"TCP port 1-65535, with --tcp (default: {TCP_PORT})"),
    )
    rules = (_arg("--lang", choices=LANGS, default="en", help="language of the summaries (default: en)"),
             _arg("--format", choices=("text", "json"), default="text", help="output format (default: text)"))
    explain = (_arg("rule", metavar="RULE", help="code (PG001) or name (missing-companion)"),
               _arg("--lang", choices=LANGS, default="both", help="language of the page (default: both)"))
    completion = (_arg("shell", choices=SHELLS, help="the shell to complete in"),)
    from . import launches
    return {
        "check": ("lint files and folders (- reads standard input)", check),
        "lsp": ("run the language server (stdio by default)", lsp),
        "rules": ("list every rule: code, name, default severity, summary", rules),
        "explain": ("print a rule's documentation page", explain),
        "launches": (launches.HELP, launches.arguments()),
        "settings-schema": ("print the settings schema (JSON) shared with the editor clients", ()),
        "completion": ("print a shell completion script (bash, zsh or fish), generated from this parser",
                       completion),
    }


SHELLS = ("bash", "zsh", "fish")


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
