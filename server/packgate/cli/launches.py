"""`packgate launches FILE`: what each launch sees, per distinct path (a dry run that runs
nothing): the argv the launched program receives and its environment, as text or json."""

from __future__ import annotations

import json
import shlex
import sys

from .. import __version__

HELP = "show what each launch sees, per path: its argv and environment (a dry run)"
FORMATS = ("text", "json")
EXIT_OK, EXIT_USAGE = 0, 2


def arguments() -> tuple:
    """The arguments of `launches` (cli.main's command table registers them)."""
    from ..core.settings import LANGS, PROFILES
    from .main import _arg
    return (
        _arg("file", metavar="FILE", help="the launcher script; - for standard input"),
        _arg("--stdin-filename", metavar="NAME",
             help="the name of standard input (where its configuration and training code are looked for)"),
        _arg("--format", choices=FORMATS, default="text", help="output format (default: text)"),
        _arg("--env", choices=("read", "all"), default="read",
             help="read: the gates and the variables the workspace's code reads (default); "
                  "all: also every variable the script exports"),
        _arg("--profile", choices=PROFILES,
             help="training code the script launches (default: from config, else auto)"),
        _arg("--lang", choices=LANGS, help="language of the path labels (default: from config, else en)"),
    )


def cmd_launches(args) -> int:
    """`packgate launches FILE`: 0, or 2 with one line on standard error for input it cannot read."""
    from ..core.launch_view import EnvScope
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
        view = view_of(text, display, settings, EnvScope(args.env))
    except (RecursionError, MemoryError, ValueError, OSError) as exc:
        print(f"packgate: {display}: internal error while analysing ({type(exc).__name__}: {exc}); "
              "please report it with this file", file=sys.stderr)
        return EXIT_USAGE
    if isinstance(view, str):
        print(f"packgate: {display}: {view}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(render(view, args.format))
    return EXIT_OK


def view_of(text: str, path: str | None, settings, scope):
    """The LaunchesView of a script's text (analysed with every launch word followed), or why
    it was not analysed (too large)."""
    from ..core.engine import analyze
    from ..core.launch_view import launch_view
    analysis = analyze(text, path=path, settings=settings, wide=True)
    if analysis.note:
        return analysis.note
    return launch_view(analysis, scope=scope, file=path or "-")


def render(view, fmt: str) -> str:
    """The view as the format asks (text or json), ending in a newline."""
    if fmt == "json":
        return json.dumps(as_json(view), ensure_ascii=False, indent=2) + "\n"
    return as_text(view)


def as_json(view) -> dict:
    """The view in the shape of CONTRACT.md's `packgate launches --format json`."""
    return {"version": __version__, "file": view.file, "launches": [
        {"line": l.line, "column": l.column, "command": l.command, "entry": l.entry,
         "paths": [{"label": p.label, "argv": [w.text for w in p.argv],
                    "env": {name: {"value": e.value, "from": str(e.source), "line": e.line}
                            for name, e in p.env}}
                   for p in l.paths]}
        for l in view.launches]}


def as_text(view) -> str:
    """The view for a person: a block per launch and path, the argv shell-quoted on one line,
    the environment in aligned columns."""
    lines = []
    if not view.launches:
        lines.append(f"{view.file}: no launch")
    if not view.read_names:
        lines.append("(no training code found for this script: the environment lists the packing "
                     "gates and, with --env all, what the script exports)")
    for launch in view.launches:
        entry = f" -> {launch.entry}" if launch.entry else ""
        lines.append(f"{view.file}:{launch.line}:{launch.column}: {launch.command}{entry}")
        for i, path in enumerate(launch.paths, 1):
            if len(launch.paths) > 1:
                lines.append(f"  path {i} of {len(launch.paths)}: {path.label}")
            lines.append(f"    argv: {_argv_text(path.argv)}" if path.argv else "    argv: (none)")
            lines.append("    env:")
            lines.extend(_env_rows(path.env))
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def _argv_text(argv) -> str:
    """The words shell-quoted on one line; a word packgate cannot know as <$NAME> or <?>, a
    default the caller may override as <$NAME:-value>."""
    from ..core.launch_view import WordKind
    out = []
    for w in argv:
        if w.kind == WordKind.UNKNOWN:
            out.append(f"<${w.name}>" if w.name else "<?>")
        elif w.kind == WordKind.DEFAULT and w.name:
            out.append(f"<${w.name}:-{w.text}>")
        else:
            out.append(shlex.quote(w.text))
    return " ".join(out)


def _env_rows(env) -> list:
    """name, value, from and line in aligned columns."""
    if not env:
        return ["      (none)"]
    rows = [(name, "-" if e.value is None else shlex.quote(e.value), str(e.source),
             f"line {e.line}" if e.line else "") for name, e in env]
    widths = [max(len(r[k]) for r in rows) for k in range(3)]
    return [f"      {n:<{widths[0]}}  {v:<{widths[1]}}  {f:<{widths[2]}}  {l}".rstrip() for n, v, f, l in rows]


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
