"""The `packgate` command: check, lsp, rules, explain, settings-schema.

`check` never imports pygls or lsprotocol, so it starts fast in CI.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
from pathlib import Path

from . import __version__
from .core.records import replace

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

_EPILOG = """exit codes:
  0  nothing at or above the minimum severity
  1  findings
  2  usage error (a configuration file that cannot be read or parsed included), or a file
     that could not be read (the other files are still checked)
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # usage errors exit 2 with one line, like the contract says
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"packgate: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (also the source of `--help`)."""
    from .core.settings import LANGS, LEVELS, PROFILES
    from .formats import FORMATS

    parser = _Parser(prog="packgate",
                     description="Lint the sample-packing gates of LLaVA-OneVision training launchers.",
                     epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"packgate {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    check = sub.add_parser("check", help="lint files and folders (- reads standard input)",
                           epilog=_EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    check.add_argument("paths", nargs="*", metavar="PATH",
                       help="files or folders (folders: *.sh, *.bash and files with a bash/sh "
                            "shebang below them); - for standard input")
    check.add_argument("--stdin-filename", metavar="NAME", help="the name to report for standard input")
    check.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    check.add_argument("--profile", choices=PROFILES,
                       help="training code the scripts launch (default: from config, else ov2)")
    check.add_argument("--lang", choices=LANGS, help="language of messages (default: from config, else en)")
    check.add_argument("--select", metavar="RULE,...", help="only these rules (codes or names)")
    check.add_argument("--ignore", metavar="RULE,...", help="never these rules (codes or names)")
    check.add_argument("--severity", choices=LEVELS, default="hint",
                       help="minimum severity reported and counted for the exit code (default: hint)")
    check.add_argument("--fix", action="store_true", help="apply every safe fix in place, then report what is left")
    check.add_argument("--diff", action="store_true", help="print the safe fixes as a unified diff, change nothing")
    check.add_argument("--color", choices=("auto", "always", "never"), default="auto",
                       help="colour in text output (default: auto, on a terminal)")
    check.add_argument("--config", metavar="FILE", help="use this .packgate.toml / pyproject.toml "
                                                         "instead of searching upward")

    lsp = sub.add_parser("lsp", help="run the language server (stdio by default)")
    lsp.add_argument("--tcp", action="store_true", help="listen on TCP instead of stdio")
    lsp.add_argument("--host", default="127.0.0.1", help="TCP host (default: 127.0.0.1)")
    lsp.add_argument("--port", type=int, default=2087, help="TCP port (default: 2087)")

    rules = sub.add_parser("rules", help="list every rule: code, name, default severity, summary")
    rules.add_argument("--lang", choices=LANGS, default="en")
    rules.add_argument("--format", choices=("text", "json"), default="text")

    explain = sub.add_parser("explain", help="print a rule's documentation page")
    explain.add_argument("rule", metavar="RULE", help="code (PG001) or name (missing-companion)")
    explain.add_argument("--lang", choices=LANGS, default="both")

    sub.add_parser("settings-schema", help="print the settings schema (JSON) shared with the editor clients")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the `packgate` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "check":
            return cmd_check(args, parser)
        if args.command == "rules":
            return cmd_rules(args)
        if args.command == "explain":
            return cmd_explain(args)
        if args.command == "settings-schema":
            from .core.settings import schema_for_clients
            import json
            print(json.dumps(schema_for_clients(), ensure_ascii=False, indent=2))
            return EXIT_OK
        if args.command == "lsp":
            if args.tcp:
                from .lsp.server import start_tcp
                start_tcp(args.host, args.port)
                return EXIT_OK
            from .lsp import serve_stdio
            return serve_stdio()  # LSP: 0 after shutdown + exit, 1 for exit without shutdown
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    parser.print_help()
    return EXIT_USAGE


# ---------------------------------------------------------------- rules / explain

def cmd_rules(args) -> int:
    """`packgate rules`."""
    from .core.rules import RULES
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
    from .core.docs import rule_page
    from .core.rules import rule_by_key, rule_list
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
    from .core.files import is_shell_script, walk
    out: list[str] = []
    for raw in paths:
        if raw == "-":
            out.append(raw)
            continue
        p = Path(raw)
        try:
            st = p.stat()
        except OSError as exc:
            problems.append(f"{raw}: cannot read: {exc.strerror or exc}")
            continue
        if stat.S_ISDIR(st.st_mode):
            out.extend(path for path in walk(str(p), on_error=lambda e: problems.append(
                f"{e.filename}: cannot read: {e.strerror}")) if is_shell_script(path))
        else:
            out.append(raw)
    return out


def _read_explicit_config(config_path: str) -> tuple[dict, list[str]]:
    """The packgate settings of a --config FILE (read once per run) and its problems."""
    from .core.settings import NOT_APPLIED, config_section, read_config
    problems: list[str] = []
    data, error = read_config(Path(config_path))
    if data is None:
        problems.append(f"{error}; {NOT_APPLIED}")
        raw: dict | None = {}
    else:
        raw = config_section(data, Path(config_path).name == "pyproject.toml", problems)
        if raw is None:
            problems.append("no [tool.packgate] table; the defaults apply")
            raw = {}
    return raw, [f"{config_path}: {p}" for p in problems]


def _settings_for(path: str | None, args, problems: list[str]):
    """The settings of one file: --config's (args.config_raw, read once) or the nearest
    configuration's, then the command-line options."""
    from .core.settings import Settings, settings_for
    base = Settings(lang="en")
    if args.config:
        local: list[str] = []
        settings = base.merged(args.config_raw, local, strict=True)
        problems.extend(f"{args.config}: {p}" for p in local)
    else:
        settings = settings_for(path, base, problems)
    overrides = {}
    if args.profile:
        overrides["profile"] = args.profile
    if args.lang:
        overrides["lang"] = args.lang
    if args.select:
        overrides["select"] = _split_list(args.select)
    if args.ignore:
        overrides["ignore"] = _split_list(args.ignore)
    return replace(settings, **overrides) if overrides else settings


def _analyze_file(path: str, args, problems: list[str]):
    """Read, decode and analyse one file (- is standard input).

    Returns (display, text, valid_utf8, settings, analysis), or None when the file cannot be
    analysed (the reason is in problems and counts as unreadable).
    """
    from .core.engine import analyze
    from .core.files import is_binary, read_file
    display = args.stdin_filename or "-" if path == "-" else path
    if path == "-":
        data = sys.stdin.buffer.read()
        reason = "binary input (NUL bytes), not a shell script" if is_binary(data) else None
        cfg_path = args.stdin_filename
    else:
        data, reason = read_file(path)
        cfg_path = path
    if reason is not None:
        problems.append(f"{display}: {reason}")
        return None
    text = data.decode("utf-8", "replace")
    valid_utf8 = True
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        valid_utf8 = False
        problems.append(f"{display}: invalid UTF-8; undecodable bytes were replaced for the analysis")
    settings = _settings_for(cfg_path if cfg_path else None, args, problems)
    try:
        analysis = analyze(text, path=display, settings=settings)
    except (RecursionError, MemoryError, ValueError, OSError) as exc:
        # a bug of ours must cost one file a clear line, never the run a traceback
        problems.append(f"{display}: internal error while analysing ({type(exc).__name__}: {exc}); "
                        "please report it with this file")
        return None
    if analysis.note:
        problems.append(f"{display}: {analysis.note}")
        return None
    if analysis.script is not None and analysis.script.directives:
        from .core.directives import directive_problems
        for offset, message in directive_problems(analysis.script.directives):
            line, column = analysis.source.user_position(offset)
            problems.append(f"{display}:{line}:{column}: {message}")
    return display, text, valid_utf8, settings, analysis


# Many files are checked in worker processes, one per core (the analysis is CPU-bound Python).
POOL_MIN_FILES = 16  # below this, starting workers costs more than it saves
POOL_MAX_WORKERS = 8


def _pool_size(files: list[str], args) -> int:
    """Workers for this run: 1 (no pool) for few files, stdin, --fix/--diff or PACKGATE_JOBS=1."""
    if args.fix or args.diff or "-" in files or len(files) < POOL_MIN_FILES:
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    try:
        wanted = int(os.environ.get("PACKGATE_JOBS", "0"))
    except ValueError:
        wanted = 0
    return max(1, min(wanted or cores, POOL_MAX_WORKERS, len(files) // 4))


class _Checked:
    """What the renderers read from an analysis made in a worker: findings and sources."""

    def __init__(self, text: str, findings: list, foreign: dict):
        self.findings = findings
        self._text = text
        self._foreign = foreign
        self._sources: dict = {}

    @property
    def source(self):
        return self.source_for(None)

    def source_for(self, path: str | None):
        """The Source of this document (path None) or of a sourced file it read."""
        from .core.source import Source
        key = path if path in self._foreign else None
        if key not in self._sources:
            self._sources[key] = Source(self._foreign[key] if key is not None else self._text)
        return self._sources[key]


def _check_worker(job):
    from .formats import at_least
    path, args = job
    problems: list[str] = []
    got = _analyze_file(path, args, problems)
    if got is None:
        return path, problems, 1, None
    display, text, _, _, analysis = got
    findings = [f for f in analysis.findings if at_least(f.severity, args.severity)]
    foreign = dict(analysis.flow.foreign) if analysis.flow is not None else {}
    return display, problems, 0, _Checked(text, findings, foreign)


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


def cmd_check(args, parser) -> int:
    """`packgate check`: exit 0 clean, 1 findings, 2 usage or unreadable input."""
    from .core.engine import analyze, fix_all
    from .formats import Report, at_least, render

    if not args.paths:
        parser.error("check needs at least one PATH (or - for standard input)")
    if args.fix and args.diff:
        parser.error("--fix and --diff cannot be combined")
    from .core.settings import unknown_rules
    for option, value in (("--select", args.select), ("--ignore", args.ignore)):
        unknown = unknown_rules(_split_list(value))
        if unknown:
            from .core.rules import rule_list
            parser.error(f"argument {option}: unknown rule {', '.join(map(repr, unknown))} "
                         f"(known: {rule_list()})")
    problems: list[str] = []
    files = discover(args.paths, problems)
    args.config_raw = {}
    if args.config and files:  # read once here; every file (and worker) merges it
        args.config_raw, read_problems = _read_explicit_config(args.config)
        problems.extend(read_problems)
    report = Report()
    unreadable = len(problems)
    diff_out: list[str] = []
    fixed_stdin = None
    pooled = _check_in_pool(files, args) if _pool_size(files, args) > 1 else None
    for i, path in enumerate(files):
        if pooled is not None:  # analysed in a worker: same order, same problems, same counts
            display, file_problems, bad, checked = pooled[i]
            problems.extend(file_problems)
            unreadable += bad
            if checked is not None:
                report.add(display, checked)
            continue
        got = _analyze_file(path, args, problems)
        if got is None:
            unreadable += 1
            continue
        display, text, valid_utf8, settings, analysis = got
        if args.fix or args.diff:
            new_text = fix_all(text, path=display, settings=settings)
            if new_text != text:
                if args.diff:
                    import difflib
                    diff_out.extend(difflib.unified_diff(
                        text.splitlines(keepends=True), new_text.splitlines(keepends=True),
                        fromfile=f"a/{display}", tofile=f"b/{display}"))
                elif path == "-":
                    fixed_stdin = new_text
                elif not valid_utf8:
                    problems.append(f"{display}: not fixed: the file is not valid UTF-8")
                else:
                    try:
                        with open(path, "w", encoding="utf-8", newline="") as handle:
                            handle.write(new_text)
                    except OSError as exc:
                        problems.append(f"{display}: cannot write the fixes: {exc.strerror or exc}")
                        unreadable += 1
                    else:
                        before = len(analysis.findings)
                        analysis = analyze(new_text, path=display, settings=settings)
                        report.fixed += max(0, before - len(analysis.findings))
                        report.fixed_files += 1
            if path == "-" and args.fix:
                fixed_stdin = new_text
        analysis.findings = [f for f in analysis.findings if at_least(f.severity, args.severity)]
        report.add(display, analysis)

    for p in dict.fromkeys(problems):  # a configuration's problems once, not once per file
        print(f"packgate: {p}", file=sys.stderr)
    if args.diff:
        sys.stdout.write("".join(diff_out))
    elif fixed_stdin is not None:
        sys.stdout.write(fixed_stdin)
    else:
        color = args.color == "always" or (args.color == "auto" and sys.stdout.isatty()
                                           and "NO_COLOR" not in os.environ)
        sys.stdout.write(render(report, args.format, color))
    from .core.settings import NOT_APPLIED
    if unreadable or any(p.endswith(NOT_APPLIED) for p in problems):
        return EXIT_USAGE
    return EXIT_FINDINGS if any(True for _ in report.findings()) else EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
