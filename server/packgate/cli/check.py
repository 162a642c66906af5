"""`packgate check`: find the scripts, analyse them (in worker processes when there are many),
apply fixes, and write the report in the format asked for."""

from __future__ import annotations

import gc
import os
import stat
import sys

from ..core.records import record, replace
from ..core.workers import POOL_MIN_FILES, pool_size  # noqa: F401  (POOL_MIN_FILES: tests size their trees by it)

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2

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


# path -> (its settings, the problems of the configuration they come from): the exclusion pass
# and the analysis both ask for a file's settings, and each look walked up the folders (cmd_check
# empties it, so a run in the same process reads the configuration again)
_SETTINGS: dict = {}


def _settings_for(path: str | None, args, problems: list):
    """The settings of one file: --config's (args.config_raw, read once) or the nearest
    configuration's, then the command-line options."""
    got = _SETTINGS.get(path)
    if got is None:
        got = _SETTINGS[path] = _settings_of(path, args)
    problems.extend(got[1])
    return got[0]


def _settings_of(path: str | None, args) -> tuple:
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
    problems = [_config_problem(p, config, "error") for p in local]
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
    return (replace(settings, **overrides) if overrides else settings), problems


# The project roots whose Python code this run has looked at (cmd_check empties it; workers
# start from the empty set they were forked with).
_LOOKED: set = set()


def _revalidate(path: str) -> bool:
    """Whether the analysis of path checks its project's Python code for changes (every file
    stat'ed, by the gate scan and by the contract index): for the run's first script of each
    project only. That look costs milliseconds a script on a big project, and a run reads the
    code once."""
    from ..core.project import root_of
    root = root_of(path)
    first = root not in _LOOKED
    _LOOKED.add(root)
    return first


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
    revalidate = display == "-" or _revalidate(display)
    try:
        analysis = analyze(text, path=display, settings=settings, revalidate=revalidate)
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


def shown_path(path: str) -> str:
    """An absolute path as the report shows it: relative to the working folder when below it."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative


def _outside_changes(outside: dict, problems: list) -> list:
    """The Changes the fixes make to other files (core.outside), those no longer what the
    fixes were computed on left out with a problem each."""
    from ..core.outside import Stale, change_of
    from .formats import Problem
    out = []
    for other, edits in sorted(outside.items()):
        try:
            out.append(change_of(other, edits))
        except Stale:
            problems.append(Problem("not fixed: the file changed on disk since packgate read it; "
                                    "run packgate again", path=shown_path(other), level="error"))
    return out


def _outside_diffs(outside: dict, problems: list) -> list:
    """--diff's lines for the other files the fixes edit (a new file's from /dev/null)."""
    import difflib
    lines: list = []
    for change in _outside_changes(outside, problems):
        shown = shown_path(change.path)
        before = (change.before or b"").decode("utf-8", "replace").splitlines(keepends=True)
        lines.extend(difflib.unified_diff(
            before, change.after.decode("utf-8", "replace").splitlines(keepends=True),
            fromfile="/dev/null" if change.before is None else f"a/{shown}", tofile=f"b/{shown}"))
    return lines


def _fix_outside(outside: dict, problems: list) -> int:
    """Write the fixes' edits of other files (a new file made, an existing one replaced, both
    atomically); the number written."""
    from .formats import Problem
    from .writing import ChangedOnDisk, create_file, replace_file
    written = 0
    for change in _outside_changes(outside, problems):
        shown = shown_path(change.path)
        try:
            if change.before is None:
                create_file(change.path, change.after)
            else:
                replace_file(change.path, change.after, expected=change.before)
        except ChangedOnDisk:
            problems.append(Problem("not fixed: the file changed on disk since packgate read it; "
                                    "run packgate again", path=shown, level="error"))
            continue
        except OSError as exc:
            problems.append(Problem(f"cannot write the fixes: {exc.strerror or exc}; the file is unchanged",
                                    path=shown, level="error"))
            continue
        written += 1
    return written


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
    _LOOKED.clear()  # a run in the same process (the tests') looks at the code again
    _SETTINGS.clear()
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
        outside: dict = {}
        # the fixes change shell scripts and env files, never the project's Python code
        new_text = fix_all(text, path=display, settings=got.settings, outside=outside, revalidate=False)
        if path == "-":
            outside = {}  # standard input's fixed text is printed: no file beside it is written
        changed = new_text != text
        if args.diff:
            import difflib
            if changed:
                diff_out.extend(difflib.unified_diff(
                    text.splitlines(keepends=True), new_text.splitlines(keepends=True),
                    fromfile=f"a/{display}", tofile=f"b/{display}"))
            diff_out.extend(_outside_diffs(outside, problems))
        else:
            written = changed and (path == "-" or _fix_file(path, got, new_text, problems))
            # another file's edits follow the script's: not written when the script was refused
            others = _fix_outside(outside, problems) if written or not changed else 0
            if written or others:
                # what is left decides the exit status, as for a file written back (standard
                # input's fixed text is printed instead of the report)
                before = len(analysis.findings)
                analysis = analyze(new_text, path=display, settings=got.settings, revalidate=False)
                report.fixed += max(0, before - len(analysis.findings))
                report.fixed_files += int(written) + others
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
