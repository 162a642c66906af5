"""`python -m packgate` is the `packgate` command."""

from .cli.main import run

if __name__ == "__main__":  # not when multiprocessing's workers import it
    run()
