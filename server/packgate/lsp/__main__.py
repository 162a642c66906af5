"""`python -m packgate.lsp [--tcp --host H --port P]`: `packgate lsp` without the console script
(the CLI's own subcommand, so the options are defined once)."""

import sys

from packgate.cli.main import main

sys.exit(main(["lsp", *sys.argv[1:]]))
