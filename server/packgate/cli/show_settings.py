"""`packgate check --show-settings FILE`: the settings that apply to one file, and where each
comes from; for `auto`, which profile it picked and why."""

from __future__ import annotations

import os
import sys


def describe(path: str, args, settings_for, problems: list) -> int:
    """Print the resolved settings of path; 0, or 2 when a configuration problem stops them."""
    from ..core.directives import profile_of
    from ..core.project import auto_profile, find_root
    from ..core.settings import find_config
    from ..core.exclusion import excluded, patterns_of

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
    if chosen == "auto":
        profile = auto_profile(path)
        root = find_root(path)
        lines.append(f"project root: {root if root is not None else 'none found'}")
        if profile.assumed_en:
            lines.append(f"auto: assumed ov2, because {profile.assumed_en}")
        else:
            lines.append(f"auto: encoding gates {', '.join(profile.encoding)}; batch gate {profile.batch}; "
                         f"dead {', '.join(profile.dead) or '-'} ({profile.title_en})")
    lines += [f"lang: {settings.lang}",
              f"select: {', '.join(settings.select) or '(every rule)'}",
              f"ignore: {', '.join(settings.ignore) or '-'}",
              "severity: " + (", ".join(f"{k}={v}" for k, v in settings.severity.items()) or "-"),
              f"exclude: {', '.join(patterns_of(settings)) or '-'}"
              + (" (this file is excluded)" if excluded(path, settings) else "")]
    for p in dict.fromkeys(problems):
        print(f"packgate: {p}", file=sys.stderr)
    sys.stdout.write("\n".join(lines) + "\n")
    return 2 if any(p.level == "error" for p in problems) else 0
