"""The `packgate` command: check, lsp, rules, explain, launches, settings-schema.

`check` never imports pygls or lsprotocol, so it starts fast in CI.
"""

from __future__ import annotations

import argparse
import gc
import os
import stat
import sys

from .. import __version__
from ..core.workers import POOL_MIN_FILES, pool_size  # noqa: F401  (POOL_MIN_FILES: tests size their trees by it)
from ..core.records import record, replace

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

_EPILOG = """exit codes:
  0  no finding at or above the fail level (--fail-level, default warning: information
     never fails a run), or --exit-zero
  1  findings at or above the fail level
  2  usage error, invalid configuration (a configuration file that cannot be read or parsed
     included), or a file that could not be read (the other files are still checked); a
     file skipped on purpose (binary or too large) is reported but changes nothing
"""


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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (also the source of `--help`)."""
    parser = _Parser(prog="packgate",
                     description="Lint the sample-packing gates of LLaVA-OneVision training launchers.",
                     epilog=_EPILOG, formatter_class=_RawHelp)
    parser.add_argument("--version", action="version", version=f"packgate {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (help_text, arguments) in command_table().items():
        extra = {"epilog": _EPILOG, "formatter_class": _RawHelp} if name == "check" else {"formatter_class": _Help}
        command = sub.add_parser(name, help=help_text, description=help_text, **extra)
        command.set_defaults(subparser=command)
        for a in arguments:
            command.add_argument(*a.flags, **a.options)
    return parser


def run() -> None:
    """The `packgate` console script (and `python -m packgate`): main(), then exit at once."""
    # While packgate's modules load, a collection only walks their classes and functions, which
    # live as long as the process: a twenty-fifth of `packgate check one.sh`. One file is
    # checked with the collector off; check turns it on again for more (and for its workers).
    gc.disable()
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):  # a reader that went away (`| head`), a closed stream
        pass
    # Everything is written and closed; the interpreter's teardown would only free memory the
    # system frees anyway, and it is a fourteenth of a cold `packgate check one.sh`.
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    """The `packgate` command: its exit code (callable in process, as the tests do)."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:  # the subcommand's usage, not the top level's, says what it accepts
        getattr(args, "subparser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        if args.command == "check":
            return cmd_check(args, args.subparser)
        if args.command == "rules":
            return cmd_rules(args)
        if args.command == "explain":
            return cmd_explain(args)
        if args.command == "launches":
            from .launches import cmd_launches
            return cmd_launches(args)
        if args.command == "completion":
            from .completion import script_for
            sys.stdout.write(script_for(args.shell, command_table()))
            return EXIT_OK
        if args.command == "settings-schema":
            from ..core.settings import schema_for_clients
            import json
            print(json.dumps(schema_for_clients(), ensure_ascii=False, indent=2))
            return EXIT_OK
        if args.command == "lsp":
            if args.tcp and args.stdio:
                args.subparser.error("--stdio and --tcp cannot be combined")
            # Importing pygls and lsprotocol makes tens of thousands of objects that live as long
            # as the server; a full collection among them (25 ms) landed in every start. The
            # server runs the collector itself once the client is quiet (lsp/memory.py).
            endpoint = _tcp_endpoint(args)
            if isinstance(endpoint, str):  # a usage error, in one line
                print(f"packgate lsp: error: {endpoint}", file=sys.stderr)
                return EXIT_USAGE
            gc.disable()
            if endpoint is not None:
                from ..lsp.server import start_tcp
                return start_tcp(*endpoint)  # 2, with one line, when it cannot listen
            from ..lsp import serve_stdio
            return serve_stdio()  # LSP: 0 after shutdown + exit, 1 for exit without shutdown
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    parser.print_help()
    return EXIT_USAGE


TCP_HOST, TCP_PORT = "127.0.0.1", 2087


def _tcp_endpoint(args) -> "tuple[str, int] | str | None":
    """(host, port) for `lsp --tcp`, None for stdio, or what is wrong with the options."""
    if not args.tcp:
        given = [o for o, v in (("--host", args.host), ("--port", args.port)) if v is not None]
        return f"{' and '.join(given)} need{'s' if len(given) == 1 else ''} --tcp" if given else None
    port = TCP_PORT
    if args.port is not None:
        try:
            port = int(args.port)
        except ValueError:
            port = -1
        if not 1 <= port <= 65535:
            return f"argument --port: {args.port!r} is not a TCP port (1-65535)"
    host = TCP_HOST if args.host is None else args.host
    if not host:
        return "argument --host: empty host name"
    return host, port


# ---------------------------------------------------------------- rules / explain

def cmd_rules(args) -> int:
    """`packgate rules`."""
    from ..core.rules import RULES
    if args.format == "json":
        import json
        print(json.dumps([{"code": r.code, "name": r.name, "severity": r.severity,
                           "summary": r.summary(args.lang)} for r in RULES], ensure_ascii=False, indent=2))
        return EXIT_OK
    width = max(len(r.name) for r in RULES)
    for r in RULES:
        print(f"{r.code}  {r.name:<{width}}  {r.severity:<11}  {r.summary(args.lang)}")
    return EXIT_OK


def cmd_explain(args) -> int:
    """`packgate explain RULE`."""
    from ..core.docs import rule_page
    from ..core.rules import rule_by_key, rule_list
    rule = rule_by_key(args.rule)
    if rule is None:
        print(f"packgate: unknown rule {args.rule!r}; known rules: {rule_list()}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(rule_page(rule, args.lang))
    return EXIT_OK


# ---------------------------------------------------------------- check

def _split_list(value: str | None) -> tuple:
    return tuple(v.strip() for v in value.split(",") if v.strip()) if value else ()


def discover(paths: list[str], problems: list[str]) -> list[str]:
    """Expand folders into the shell scripts below them, in a stable order."""
    from ..core.files import display_path, is_shell_script, walk
    out: list[str] = []
    for raw in paths:
        if raw == "-":
            out.append(raw)
            continue
        try:
            st = os.stat(raw)
        except OSError as exc:
            problems.append(f"{raw}: cannot read: {exc.strerror or exc}")
            continue
        if stat.S_ISDIR(st.st_mode):
            out.extend(path for path in walk(display_path(raw), on_error=lambda e: problems.append(
                f"{e.filename}: cannot read: {e.strerror}")) if is_shell_script(path))
        else:
            out.append(raw)
    return out


def _config_problem(message: str, config: str | None, level: str | None = None) -> "Problem":
    """A configuration problem: an error (exit 2) when none of the file applies, or when level
    says so (an invalid value: what is left of the file still applies)."""
    from ..core.settings import NOT_APPLIED
    from .formats import Problem
    return Problem(message, path=config,
                   level=level or ("error" if message.endswith(NOT_APPLIED) else "warning"))


def _read_explicit_config(config_path: str) -> tuple[dict, list]:
    """The packgate settings of a --config FILE (read once per run) and its problems."""
    from ..core.settings import NOT_APPLIED, config_section, read_config
    problems: list[str] = []
    data, error = read_config(config_path)
    if data is None:
        problems.append(f"{error}; {NOT_APPLIED}")
        raw: dict | None = {}
    else:
        raw = config_section(data, os.path.basename(config_path) == "pyproject.toml", problems)
        if raw is None:
            problems.append("no [tool.packgate] table; the defaults apply")
            raw = {}
    return raw, [_config_problem(p, config_path) for p in problems]


def _settings_for(path: str | None, args, problems: list):
    """The settings of one file: --config's (args.config_raw, read once) or the nearest
    configuration's, then the command-line options."""
    from ..core.settings import Settings, find_config, merge_config
    base = Settings(lang="en")
    local: list[str] = []
    if args.config:
        settings = merge_config(base, args.config, args.config_raw, local)
        config = args.config
    elif path is not None:
        found, raw = find_config(path, local)
        config = str(found) if found is not None else None
        settings = merge_config(base, config, raw, local) if found is not None else base
    else:
        settings, config = base, None
    # every problem of a configuration used is an error: the run exits 2, what is valid applies
    problems.extend(_config_problem(p, config, "error") for p in local)
    overrides = {}
    if args.profile:
        overrides["profile"] = args.profile
    if args.lang:
        overrides["lang"] = args.lang
    if args.unsafe_fixes:
        overrides["unsafe_fixes"] = True
    if args.select or args.ignore or args.extend_select:  # one more layer of selection, as ruff's
        from ..core.selection import layered
        settings = layered(settings, _split_list(args.select), _split_list(args.extend_select),
                           _split_list(args.ignore))
    if args.fail_level:
        overrides["fail_level"] = args.fail_level
    if args.exclude is not None:
        overrides["exclude"] = _split_list(args.exclude)
    if args.extend_exclude:
        overrides["extend_exclude"] = tuple(settings.extend_exclude) + _split_list(args.extend_exclude)
    return replace(settings, **overrides) if overrides else settings


@record
class FileResult:
    """One file read and analysed: what --fix, the report and --show-settings need."""

    display: str
    data: bytes
    text: str
    valid_utf8: bool
    settings: object
    analysis: object


def _analyze_file(path: str, args, problems: list) -> "FileResult | None":
    """Read, decode and analyse one file (- is standard input); None when it cannot be
    analysed (the reason is in problems, as an error)."""
    from ..core.engine import analyze
    from ..core.files import is_binary, read_file
    from .formats import Problem
    display = args.stdin_filename or "-" if path == "-" else path
    if path == "-":
        data = sys.stdin.buffer.read()
        reason = "binary input (NUL bytes), not a shell script" if is_binary(data) else None
        cfg_path = args.stdin_filename
    else:
        data, reason = read_file(path)
        cfg_path = path
    if reason is not None:
        problems.append(_unread(reason, display))
        return None
    text = data.decode("utf-8", "replace")
    valid_utf8 = True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        valid_utf8 = False
        problems.append(Problem("invalid UTF-8; undecodable bytes were replaced for the analysis", path=display))
    settings = _settings_for(cfg_path if cfg_path else None, args, problems)
    try:
        analysis = analyze(text, path=display, settings=settings)
    except (RecursionError, MemoryError, ValueError, OSError) as exc:
        # a bug of ours must cost one file a clear line, never the run a traceback
        problems.append(Problem(f"internal error while analysing ({type(exc).__name__}: {exc}); "
                                "please report it with this file", path=display, level="error"))
        return None
    if analysis.note:
        problems.append(_unread(analysis.note, display))
        return None
    for notice in analysis.notices:  # a directive that is not one, CRLF line ends (core.notices)
        line, column = analysis.source.user_position(notice.start)
        problems.append(Problem(notice.message, path=display, line=line, column=column))
    return FileResult(display, data, text, valid_utf8, settings, analysis)


def _unread(reason: str, display: str) -> "Problem":
    """Why a file was not analysed: skipped on purpose (binary, too large: reported, the exit
    status does not change), else an error (exit 2: it could not be read)."""
    from ..core.files import BINARY
    from .formats import Problem
    if reason == BINARY or reason.startswith("binary"):
        return Problem(reason, path=display, skipped="binary")
    if reason.startswith("too large"):
        return Problem(reason, path=display, skipped="too large")
    return Problem(reason, path=display, level="error")


# Many files are checked in worker processes, one per core (packgate.core.workers sizes the pool).
def _pool_size(files: list[str], args) -> int:
    """Workers for this run: 1 (no pool) for few files, stdin, --fix/--diff or PACKGATE_JOBS=1."""
    if args.fix or args.diff or "-" in files:
        return 1
    return pool_size(len(files))


class _Checked:
    """What the renderers read from an analysis made in a worker: findings, profile and sources."""

    def __init__(self, text: str, findings: list, foreign: dict, profile, path: str):
        self.findings = findings
        self.profile = profile
        self.path = path
        self._text = text
        self._foreign = foreign
        self._sources: dict = {}

    @property
    def source(self):
        return self.source_for(None)

    def source_for(self, path: str | None):
        """The Source of this document (path None) or of a sourced file it read."""
        from ..core.text import Source
        key = path if path in self._foreign else None
        if key not in self._sources:
            self._sources[key] = Source(self._foreign[key] if key is not None else self._text)
        return self._sources[key]


def _check_worker(job):
    from .formats import at_least
    path, args = job
    problems: list = []
    got = _analyze_file(path, args, problems)
    if got is None:
        return path, problems, None
    analysis = got.analysis
    findings = [f for f in analysis.findings if at_least(f.severity, args.severity)]
    foreign = dict(analysis.flow.foreign) if analysis.flow is not None else {}
    checked = _Checked(got.text, findings, foreign, analysis.profile, got.display)
    checked.fail_level = got.settings.fail_level
    return got.display, problems, checked


def _check_in_pool(files: list[str], args) -> list:
    """_check_worker over files in worker processes, results in file order."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    workers = _pool_size(files, args)
    # fork: workers start in milliseconds with packgate already imported (Linux only; elsewhere spawn)
    context = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
    chunk = max(1, len(files) // (workers * 4))
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return list(pool.map(_check_worker, [(p, args) for p in files], chunksize=chunk))


def _check_arguments(args, parser) -> None:
    """Usage errors that argparse cannot see (they exit 2 with check's usage)."""
    if not args.paths and not args.show_settings:
        args.paths = ["."]  # as ruff: the working folder
    if args.fix and args.diff:
        parser.error("--fix and --diff cannot be combined")
    if args.statistics and args.format not in ("text", "json"):
        parser.error(f"argument --statistics: --format {args.format} has no statistics "
                     "(use --format text or json)")
    from ..core.selection import unknown_selectors
    for option, value in (("--select", args.select), ("--extend-select", args.extend_select),
                          ("--ignore", args.ignore)):
        unknown = unknown_selectors(_split_list(value))
        if unknown:
            from ..core.rules import rule_list
            parser.error(f"argument {option}: unknown rule {', '.join(map(repr, unknown))} "
                         f"(known: ALL, a code prefix such as PG00, {rule_list()})")


def _existing(paths: list[str], problems: list) -> list[str]:
    """The paths given that exist (- included); each missing one is a problem of its own."""
    from .formats import Problem
    out = []
    for raw in paths:
        if raw != "-" and not os.path.lexists(raw):
            problems.append(Problem("cannot read: No such file or directory", path=raw, level="error"))
        else:
            out.append(raw)
    return out


def _fix_file(path: str, got: FileResult, new_text: str, problems: list) -> bool:
    """Write the fixed text over path (atomically); False, with a problem, when it was not."""
    from .formats import Problem
    from .writing import ChangedOnDisk, replace_file
    if not got.valid_utf8:
        problems.append(Problem("not fixed: the file is not valid UTF-8", path=got.display))
        return False
    try:
        replace_file(path, new_text.encode("utf-8"), expected=got.data)
    except ChangedOnDisk:
        problems.append(Problem("not fixed: the file changed on disk since packgate read it; "
                                "run packgate again", path=got.display, level="error"))
        return False
    except OSError as exc:
        problems.append(Problem(f"cannot write the fixes: {exc.strerror or exc}; the file is unchanged",
                                path=got.display, level="error"))
        return False
    return True


def _not_excluded(found: list[str], args, problems: list) -> list[str]:
    """The files found that no exclude pattern skips. A --exclude / --extend-exclude pattern
    that looks like a rule (`PG009`, `dead-var`: ShellCheck's `-e` habit) or that skipped none
    of the files found gets a warning: a pattern that silently matches nothing is a mistake."""
    from ..core.exclusion import looks_like_rule, matching
    from .formats import Problem
    given = [(option, p) for option, value in (("--exclude", args.exclude), ("--extend-exclude", args.extend_exclude))
             for p in _split_list(value)]
    for option, pattern in given:
        if looks_like_rule(pattern):
            problems.append(Problem(f"{option} {pattern}: exclude patterns name files and folders, not rules; "
                                    f"did you mean --ignore {pattern}?"))
    unmatched = [p for _, p in given if not looks_like_rule(p)]
    files = []
    config_dir = _config_dirs()
    for f in found:
        if f == "-":
            files.append(f)
            continue
        if unmatched:
            hit = matching(f, unmatched)
            while hit is not None:  # every pattern that skips this file has matched
                unmatched.remove(hit)
                hit = matching(f, unmatched)
        if not _skipped(f, _settings_for(f, args, []), {p for _, p in given}, config_dir):
            files.append(f)
    for option, pattern in given:
        if pattern in unmatched:
            problems.append(Problem(f"{option} {pattern}: the pattern matched none of the files found"))
    return files


def _skipped(path: str, settings, given: set, config_dir) -> bool:
    """Whether the exclude patterns in force skip path: those given on the command line match
    the path as given (relative to the working folder), those of a configuration file the path
    relative to that file's folder, as ruff reads them and as the server's workspace pass does."""
    from ..core.exclusion import matching, patterns_of
    patterns = patterns_of(settings)
    if not patterns:
        return False
    typed = [p for p in patterns if p in given]
    configured = [p for p in patterns if p not in given]
    return (bool(typed) and matching(path, typed) is not None) or \
        (bool(configured) and matching(path, configured, config_dir(path)) is not None)


def _config_dirs():
    """folder of a file -> the folder of the configuration file that applies there (None: no
    configuration file), looked up once per folder."""
    from ..core.settings import find_config
    seen: dict = {}

    def of(path: str):
        folder = os.path.dirname(os.path.abspath(path))
        if folder not in seen:
            found, _raw = find_config(folder)
            seen[folder] = os.path.dirname(found) if found is not None else None
        return seen[folder]
    return of


def cmd_check(args, parser) -> int:
    """`packgate check`: exit 0 clean, 1 findings, 2 usage or unreadable input."""
    from .formats import Problem, Report

    vars(args).pop("subparser", None)  # the pool pickles args; a parser is not data
    _check_arguments(args, parser)
    args.config_raw = {}
    problems: list = []
    if args.config:  # read once here; every file (and worker) merges it
        args.config_raw, read_problems = _read_explicit_config(args.config)
        problems.extend(read_problems)
    if args.show_settings:
        from .show_settings import describe
        return describe(args.show_settings, args, _settings_for, problems)
    walk_problems: list[str] = []
    found = discover(_existing(args.paths, problems), walk_problems)
    problems.extend(Problem(p, level="error") for p in walk_problems)
    files = _not_excluded(found, args, problems)
    if len(files) > 1 and not gc.isenabled():
        gc.freeze()  # what is loaded by now lives until exit: later collections skip it
        gc.enable()
    report = Report()
    report.fixing = bool(args.fix)
    diff_out: list[str] = []
    fixed_stdin = None
    pooled = _check_in_pool(files, args) if _pool_size(files, args) > 1 else None
    for i, path in enumerate(files):
        if pooled is not None:  # analysed in a worker: same order, same problems, same counts
            display, file_problems, checked = pooled[i]
            problems.extend(file_problems)
            if checked is not None:
                report.add(display, checked)
            continue
        fixed = _check_file(path, args, problems, report, diff_out)
        fixed_stdin = fixed if fixed is not None else fixed_stdin

    report.problems = list(dict.fromkeys(problems))  # a configuration's problems once, not per file
    for p in report.problems:
        print(f"packgate: {p}", file=sys.stderr)
    if args.diff or fixed_stdin is not None:  # the output is text or a diff: say there what was withheld
        from .formats import withheld_line
        held = withheld_line(report.withheld())
        if held:
            print(f"packgate: {held}", file=sys.stderr)
    if args.diff:
        output = "".join(diff_out)
    elif fixed_stdin is not None:
        output = fixed_stdin
    else:
        output = _rendered(report, args)
    if not _write_output(output, args.output_file):
        return EXIT_USAGE
    if any(p.level == "error" for p in report.problems):
        return EXIT_USAGE
    if args.exit_zero:
        return EXIT_OK
    return EXIT_FINDINGS if _failing(report, args) else EXIT_OK


def _failing(report, args) -> bool:
    """Whether a finding is at or above the fail level: --fail-level, else the file's
    configuration's fail-level (default warning: information never fails a run)."""
    from .formats import at_least
    for _, analysis, f in report.findings():
        settings = getattr(analysis, "settings", None)
        level = args.fail_level or getattr(analysis, "fail_level", None) or \
            getattr(settings, "fail_level", None) or "warning"
        if at_least(f.severity, level):
            return True
    return False


def _check_file(path: str, args, problems: list, report, diff_out: list) -> "str | None":
    """Analyse one file in this process into report (with --fix / --diff applied); the fixed
    text when it is standard input under --fix, else None."""
    from ..core.engine import analyze, fix_all
    from .formats import at_least
    got = _analyze_file(path, args, problems)
    if got is None:
        return None
    display, text, analysis = got.display, got.text, got.analysis
    fixed_stdin = None
    if args.fix or args.diff:
        new_text = fix_all(text, path=display, settings=got.settings)
        if new_text != text:
            if args.diff:
                import difflib
                diff_out.extend(difflib.unified_diff(
                    text.splitlines(keepends=True), new_text.splitlines(keepends=True),
                    fromfile=f"a/{display}", tofile=f"b/{display}"))
            elif path == "-" or _fix_file(path, got, new_text, problems):
                # what is left decides the exit status, as for a file written back (standard
                # input's fixed text is printed instead of the report)
                before = len(analysis.findings)
                analysis = analyze(new_text, path=display, settings=got.settings)
                report.fixed += max(0, before - len(analysis.findings))
                report.fixed_files += 1
        if path == "-" and args.fix:
            fixed_stdin = new_text
    analysis.findings = [f for f in analysis.findings if at_least(f.severity, args.severity)]
    report.add(display, analysis)
    return fixed_stdin


def _rendered(report, args) -> str:
    """The report in the chosen format (colour only on a terminal, unless NO_COLOR)."""
    from .formats import TextOptions, render
    to_terminal = args.output_file is None and sys.stdout.isatty()
    color = args.color == "always" or (args.color == "auto" and to_terminal and "NO_COLOR" not in os.environ)
    return render(report, args.format, TextOptions(color=color, show_source=args.show_source,
                                                   statistics=args.statistics, quiet=args.quiet))


def _write_output(output: str, output_file: "str | None") -> bool:
    """Write to --output-file or standard output; False, with a message, when the file cannot be written."""
    if output_file is None:
        sys.stdout.write(output)
        return True
    try:
        with open(output_file, "w", encoding="utf-8", newline="") as handle:
            handle.write(output)
    except OSError as exc:
        print(f"packgate: {output_file}: cannot write the report: {exc.strerror or exc}", file=sys.stderr)
        return False
    return True

if __name__ == "__main__":
    sys.exit(main())
