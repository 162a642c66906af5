"""The `packgate` command line: arguments (main), output formats, completion, fixed files."""
