"""`packgate check --show-settings FILE`: the settings that apply to one file, and where each
comes from; for `auto`, which profile it picked and why."""

from __future__ import annotations

import os
import sys


def describe(path: str, args, settings_for, problems: list) -> int:
    """Print the resolved settings of path; 0, or 2 when a configuration problem stops them or
    path does not exist."""
    from ..core.directives import profile_of
    from ..core.project import auto_profile, find_root_marker, root_of
    from ..core.settings import find_config
    from ..core.exclusion import excluded, patterns_of
    from ..core.selection import enabled_codes

    if path != "-" and not os.path.lexists(path):  # settings of a file that is not there would mislead
        for p in dict.fromkeys(problems):
            print(f"packgate: {p}", file=sys.stderr)
        print(f"packgate: {path}: cannot read: No such file or directory", file=sys.stderr)
        return 2
    settings = settings_for(path, args, problems)
    if args.config:
        config, raw = args.config, args.config_raw
    else:
        config, raw = find_config(path)
    in_config = "profile" in raw and settings.profile == raw["profile"]
    directive = None
    if os.path.isfile(path):
        from ..core.files import read_file
        data, _ = read_file(path)
        if data is not None:
            from ..core.parse import parse_bytes
            directive = profile_of(parse_bytes(data).directives)
    if directive:
        chosen, why = directive, "set by a `# packgate profile=` comment in the file"
    elif args.profile:
        chosen, why = args.profile, "set by --profile"
    else:
        chosen, why = settings.profile, f"set in {config}" if in_config else "the default"
    lines = [f"file: {path}",
             f"configuration: {config if config is not None else 'none found (the defaults apply)'}",
             f"profile: {chosen} ({why})"]
    from ..core import gates as G
    profile = G.profile(chosen)
    if chosen == "auto":
        root_of(path)  # looked up again, as an analysis does before its profile reads the code
        profile = auto_profile(path)
        root, marker = find_root_marker(path)
        if root is None:
            lines.append("project root: none found")
        else:
            lines.append(f"project root: {root} (it holds {marker}; the training code is looked for below it)")
            held = os.path.dirname(os.path.realpath(config)) if config is not None else None
            if held is not None and held != root:
                lines.append(f"  {config} says how to check; a configuration file never moves where "
                             "the training code is looked for")
        if profile.assumed_en:
            lines.append(f"auto: assumed ov2, because {profile.assumed_en}")
        else:
            lines.append(f"auto: encoding gates {', '.join(profile.encoding)}; batch gate {profile.batch}; "
                         f"dead {', '.join(profile.dead) or '-'} ({profile.title_en})")
    lines += [f"lang: {settings.lang}",
              f"select: {', '.join(settings.select) or '(every rule)'}",
              f"extend-select: {', '.join(settings.extend_select) or '-'}",
              f"ignore: {', '.join(settings.ignore) or '-'}",
              "per-file-ignores: " + (", ".join(f"{glob} = {', '.join(keys)}"
                                                 for glob, _, keys in settings.per_file_ignores) or "-"),
              f"rules here: {', '.join(sorted(enabled_codes(settings, path))) or 'none'}",
              f"fail-level: {args.fail_level or settings.fail_level}",
              "severity: " + (", ".join(f"{k}={v}" for k, v in settings.severity.items()) or "-"),
              f"exclude: {', '.join(patterns_of(settings)) or '-'}"
              + (" (this file is excluded)" if excluded(path, settings) else ""),
              f"unsafe-fixes: {'true' if settings.unsafe_fixes else 'false'}"]
    lines += relation_lines(profile, settings.contract)
    for p in dict.fromkeys(problems):
        print(f"packgate: {p}", file=sys.stderr)
    sys.stdout.write("\n".join(lines) + "\n")
    return 2 if any(p.level == "error" for p in problems) else 0


def relation_lines(profile, declared) -> list:
    """The relations in force: the profile's (with the rule that reports each) and the team's."""
    lines = [f"contract: {len(profile.relations)} relations of profile {profile.name}, "
             f"{len(declared)} declared in the configuration"]
    for relation in (*profile.relations, *declared):
        where = relation.at or relation.declared
        source = f"; {relation.declared}" if relation.declared and relation.at else ""
        lines.append(f"  {relation.owner} {relation.name}: {relation.describe()} ({where}{source})")
    return lines
