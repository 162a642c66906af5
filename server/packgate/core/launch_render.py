"""`packgate launches` as a person or a program reads it: text (a block per launch and path,
the argv shell-quoted on one line, the environment in aligned columns) or the json of
CONTRACT.md. The CLI prints it, the server's `packgate.showLaunches` returns it."""

from __future__ import annotations

import json
import os
import shlex

from .. import __version__
from .launch_view import LaunchesView, WordKind


def render(view: LaunchesView, fmt: str) -> str:
    """The view as the format asks (text or json), ending in a newline."""
    if fmt == "json":
        return json.dumps(as_json(view), ensure_ascii=False, indent=2) + "\n"
    return as_text(view)


def as_json(view: LaunchesView) -> dict:
    """The view in the shape of CONTRACT.md's `packgate launches --format json`."""
    return {"version": __version__, "file": view.file, "launches": [
        {"line": l.line, "column": l.column, "command": l.command, "entry": l.entry,
         "paths": [{"label": p.label, "argv": [w.text for w in p.argv],
                    "env": {name: {"value": e.value, "from": str(e.source), "line": e.line}
                            for name, e in p.env}}
                   for p in l.paths]}
        for l in view.launches]}


def as_text(view: LaunchesView) -> str:
    """The view for a person: a block per launch and path, the argv shell-quoted on one line,
    the environment in aligned columns."""
    lines = []
    if not view.launches:
        lines.append(f"{view.file}: no launch")
    elif not view.read_names:
        lines.append("(no training code found for this script: the environment lists the profile's "
                     "packing gates and, with --env all, what the script exports)")
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
    """The words shell-quoted on one line; a word packgate cannot know as <$NAME> or <?> (with
    `...` when bash may split it into several words, or none), a default the caller may override
    as <$NAME:-value>."""
    out = []
    for w in argv:
        if w.kind == WordKind.UNKNOWN:
            more = "..." if w.splits else ""
            out.append(f"<${w.name}{more}>" if w.name else f"<?{more}>")
        elif w.kind == WordKind.DEFAULT and w.name:
            out.append(f"<${w.name}:-{w.text}>")
        else:
            out.append(_quoted(w.text))
    return " ".join(out)


def _quoted(text: str) -> str:
    """A word as bash would read it back, always on one line (a newline or a control character
    as bash's $'...' escape)."""
    if text.isprintable():
        return shlex.quote(text)
    return "$'" + text.encode("unicode_escape").decode("ascii").replace("'", "\\'") + "'"


def _env_rows(env) -> list:
    """name, value, from and line in aligned columns."""
    if not env:
        return ["      (none)"]
    rows = [(name, "-" if e.value is None else _quoted(e.value), str(e.source), _where(e)) for name, e in env]
    widths = [max(len(r[k]) for r in rows) for k in range(3)]
    return [f"      {n:<{widths[0]}}  {v:<{widths[1]}}  {f:<{widths[2]}}  {l}".rstrip() for n, v, f, l in rows]


def _where(e) -> str:
    """`line 3`, and for an assignment in a sourced file `line 3 (env.sh:1)`: the `source` command
    here and the line there."""
    here = f"line {e.line}" if e.line else ""
    if e.file is None:
        return here
    there = f"{os.path.basename(e.file)}:{e.file_line}" if e.file_line else os.path.basename(e.file)
    return f"{here} ({there})" if here else there
