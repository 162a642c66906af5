"""Every subcommand's arguments as data (command_table): the one table `packgate`'s parser
(cli/parser.py), its shell completions and main()'s plain `check PATH...` are built from."""

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
    def dest(self) -> str:
        """The attribute argparse stores the value in: a positional's name, else the first long
        flag with `-` as `_` (`--stdin-filename`: stdin_filename)."""
        if "dest" in self.options:
            return self.options["dest"]
        if self.positional:
            return self.flags[0]
        flag = next((f for f in self.flags if f.startswith("--")), self.flags[0])
        return flag.lstrip("-").replace("-", "_")

    @property
    def default(self):
        """What argparse gives when the argument is not on the command line (a positional of
        any number of values: no value, [])."""
        if "default" in self.options:
            return self.options["default"]
        if self.options.get("action") in ("store_true", "store_false"):
            return self.options["action"] == "store_false"
        return [] if self.positional and self.options.get("nargs") == "*" else None

    @property
    def wants_path(self) -> bool:
        """True when the value is a file or folder name (completed from the file system)."""
        return self.options.get("metavar") in ("PATH", "FILE")


def _arg(*flags: str, **options) -> Arg:
    return Arg(flags, options)


TCP_HOST, TCP_PORT = "127.0.0.1", 2087


def check_arguments() -> tuple:
    """The arguments of `check` (main() reads a plain `check PATH...` with these alone)."""
    from ..core.settings import FAIL_LEVELS, LANGS, LEVELS, PROFILES
    from .formats import FORMATS
    return (
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


def command_table() -> dict:
    """name -> (help, arguments) of every subcommand: what build_parser and completion read."""
    from ..core.settings import LANGS
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
    return {
        "check": ("lint files and folders (- reads standard input)", check_arguments()),
        "lsp": ("run the language server (stdio by default)", lsp),
        "rules": ("list every rule: code, name, default severity, summary", rules),
        "explain": ("print a rule's documentation page", explain),
        "launches": ("show what each launch sees, per path: its argv and environment (a dry run)",
                     launches_arguments()),
        "settings-schema": ("print the settings schema (JSON) shared with the editor clients", ()),
        "completion": ("print a shell completion script (bash, zsh or fish), generated from this parser",
                       completion),
    }


def launches_arguments() -> tuple:
    """The arguments of `packgate launches FILE` (cli/launches.py runs it)."""
    from ..core.settings import LANGS, PROFILES
    return (
        _arg("file", metavar="FILE", help="the launcher script; - for standard input"),
        _arg("--stdin-filename", metavar="NAME",
             help="the name of standard input (where its configuration and training code are looked for)"),
        _arg("--format", choices=("text", "json"), default="text", help="output format (default: text)"),
        _arg("--env", choices=("read", "all"), default="read",
             help="read: the profile's gates and the variables the workspace's code reads (default); "
                  "all: also every variable the script exports"),
        _arg("--profile", choices=PROFILES,
             help="training code the script launches, which decides the gates listed (default: from "
                  "config, else auto)"),
        _arg("--lang", choices=LANGS, help="language of the path labels (default: from config, else en)"),
    )


SHELLS = ("bash", "zsh", "fish")
