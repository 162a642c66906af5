"""`python -m packgate.lsp`: the language server without going through the CLI."""

import sys

from packgate.lsp import main

sys.exit(main(sys.argv[1:]))
