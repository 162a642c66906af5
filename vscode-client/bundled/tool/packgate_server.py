"""Start the packgate that ships inside the VS Code extension, on the interpreter running this.

The extension runs it as `python -I packgate_server.py lsp`: -I keeps the user's site-packages
and PYTHONPATH out, so the bundled libraries are the ones imported.
"""

import os
import sys

LIBS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs")


def main() -> int:
    """Put the bundled libraries first on sys.path and run packgate's command line."""
    compiled = os.path.join(LIBS, "cp%d%d" % sys.version_info[:2])
    if sys.implementation.name != "cpython" or not os.path.isdir(compiled):
        sys.stderr.write(
            "packgate: the bundled server has no build for %s %d.%d; "
            "set packgate.interpreter to a CPython this extension supports\n"
            % (sys.implementation.name, sys.version_info[0], sys.version_info[1])
        )
        return 3
    sys.path[:0] = [compiled, LIBS]
    from packgate.cli.main import main as packgate_main

    return packgate_main(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
