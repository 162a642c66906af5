"""`packgate launches FILE`: what each launch sees, per distinct path (a dry run that runs
nothing): the argv the launched program receives and its environment, as text or json
(core/launch_view.py builds it, core/launch_render.py prints it)."""

from __future__ import annotations

import sys

EXIT_OK, EXIT_USAGE = 0, 2


def cmd_launches(args) -> int:
    """`packgate launches FILE`: 0, or 2 with one line on standard error for input it cannot read."""
    from ..core.launch_render import render
    from ..core.launch_view import EnvScope, launches_of
    text, display, problem = _read(args.file, args.stdin_filename)
    if problem:
        print(f"packgate: {problem}", file=sys.stderr)
        return EXIT_USAGE
    problems: list = []
    settings = _settings(None if args.file == "-" and not args.stdin_filename else display, args, problems)
    for p in problems:
        print(f"packgate: {p}", file=sys.stderr)
    if problems:
        return EXIT_USAGE
    try:
        view = launches_of(text, path=display, settings=settings, scope=EnvScope(args.env))
    except (RecursionError, MemoryError, ValueError, OSError) as exc:
        print(f"packgate: {display}: internal error while analysing ({type(exc).__name__}: {exc}); "
              "please report it with this file", file=sys.stderr)
        return EXIT_USAGE
    if isinstance(view, str):
        print(f"packgate: {display}: {view}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(render(view, args.format))
    return EXIT_OK


def _read(file: str, stdin_name: str | None) -> tuple:
    """(text, name shown, None) or (None, None, what is wrong)."""
    from ..core.files import decode, is_binary, read_file
    if file == "-":
        data = sys.stdin.buffer.read()
        display = stdin_name or "-"
        if is_binary(data):
            return None, None, f"{display}: binary input (NUL bytes), not a shell script"
    else:
        display = file
        data, reason = read_file(file)
        if reason is not None:
            return None, None, f"{file}: {reason}"
    text, valid = decode(data)
    if not valid:
        print(f"packgate: {display}: invalid UTF-8; undecodable bytes were replaced for the analysis",
              file=sys.stderr)
    return text, display, None


def _settings(path: str | None, args, problems: list):
    """The nearest configuration's settings for path, then --profile and --lang."""
    from ..core.records import replace
    from ..core.settings import Settings, find_config, merge_config
    settings = Settings(lang="en")
    if path is not None:
        local: list = []
        found, raw = find_config(path, local)
        if found is not None:
            settings = merge_config(settings, found, raw, local)
        problems.extend(f"{found}: {p}" for p in local)
    overrides = {k: v for k, v in (("profile", args.profile), ("lang", args.lang)) if v}
    return replace(settings, **overrides) if overrides else settings
