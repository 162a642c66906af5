"""What the training code in the workspace reads: environment reads with their parse and default, and argparse options (docs/architecture.md, `core/code/`)."""
