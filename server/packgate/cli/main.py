"""The `packgate` command: check, lsp, rules, explain, launches, settings-schema.

`check` never imports pygls or lsprotocol, so it starts fast in CI.
"""

from __future__ import annotations

import gc
import os
import sys

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def run() -> None:
    """The `packgate` console script (and `python -m packgate`): main(), then exit at once."""
    # While packgate's modules load, a collection only walks their classes and functions, which
    # live as long as the process: a twenty-fifth of `packgate check one.sh`. So this module
    # imports next to nothing at its top: the parser (argparse with gettext, re and enum) and
    # check's modules load in main(), after this. One file is checked with the collector off;
    # check turns it on again for more (and for its workers).
    gc.disable()
    code = main()
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):  # a reader that went away (`| head`), a closed stream
        pass
    # Everything is written and closed; the interpreter's teardown would only free memory the
    # system frees anyway, and it is a fourteenth of a cold `packgate check one.sh`.
    os._exit(code)


def cmd_check(args, parser) -> int:
    """`packgate check` (cli/check.py), imported on the first call; main() looks it up here
    (tests watch it)."""
    from .check import cmd_check as check
    return check(args, parser)


def _plain_check(given: list[str]):
    """The arguments of `check PATH...` without an option (CI's usual call) as argparse gives
    them, or None for any other command line. Importing argparse (with gettext and locale) and
    building the parser was a fifteenth of a cold check; without an option there is nothing for it
    to refuse or convert (a test holds both ways to the same arguments)."""
    if not given or given[0] != "check" or any(a.startswith("-") for a in given[1:]):
        return None
    from types import SimpleNamespace
    from .arguments import check_arguments
    values = {a.dest: a.default for a in check_arguments()}
    values["paths"] = list(given[1:])
    # no parser: with no option given, none of check's usage errors can arise
    return SimpleNamespace(command="check", subparser=None, **values)


def main(argv: list[str] | None = None) -> int:
    """The `packgate` command: its exit code (callable in process, as the tests do)."""
    given = sys.argv[1:] if argv is None else argv
    args, parser = _plain_check(given), None
    if args is None:
        from .parser import build_parser
        parser = build_parser(given[0] if given else None)  # the top level takes only --help and --version first
        args, extra = parser.parse_known_args(argv)
        if extra:  # the subcommand's usage, not the top level's, says what it accepts
            getattr(args, "subparser", parser).error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        if args.command == "check":
            return cmd_check(args, args.subparser)
        if args.command == "rules":
            return cmd_rules(args)
        if args.command == "explain":
            return cmd_explain(args)
        if args.command == "launches":
            from .launches import cmd_launches
            return cmd_launches(args)
        if args.command == "completion":
            from .completion import script_for
            from .arguments import command_table
            sys.stdout.write(script_for(args.shell, command_table()))
            return EXIT_OK
        if args.command == "settings-schema":
            from ..core.settings import schema_for_clients
            import json
            print(json.dumps(schema_for_clients(), ensure_ascii=False, indent=2))
            return EXIT_OK
        if args.command == "lsp":
            if args.tcp and args.stdio:
                args.subparser.error("--stdio and --tcp cannot be combined")
            # Importing pygls and lsprotocol makes tens of thousands of objects that live as long
            # as the server; a full collection among them (25 ms) landed in every start. The
            # server runs the collector itself once the client is quiet (lsp/memory.py).
            endpoint = _tcp_endpoint(args)
            if isinstance(endpoint, str):  # a usage error, in one line
                print(f"packgate lsp: error: {endpoint}", file=sys.stderr)
                return EXIT_USAGE
            gc.disable()
            if endpoint is not None:
                from ..lsp.server import start_tcp
                return start_tcp(*endpoint)  # 2, with one line, when it cannot listen
            from ..lsp import serve_stdio
            return serve_stdio()  # LSP: 0 after shutdown + exit, 1 for exit without shutdown
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
    parser.print_help()
    return EXIT_USAGE


def _tcp_endpoint(args) -> "tuple[str, int] | str | None":
    """(host, port) for `lsp --tcp`, None for stdio, or what is wrong with the options."""
    from .arguments import TCP_HOST, TCP_PORT
    if not args.tcp:
        given = [o for o, v in (("--host", args.host), ("--port", args.port)) if v is not None]
        return f"{' and '.join(given)} need{'s' if len(given) == 1 else ''} --tcp" if given else None
    port = TCP_PORT
    if args.port is not None:
        try:
            port = int(args.port)
        except ValueError:
            port = -1
        if not 1 <= port <= 65535:
            return f"argument --port: {args.port!r} is not a TCP port (1-65535)"
    host = TCP_HOST if args.host is None else args.host
    if not host:
        return "argument --host: empty host name"
    return host, port


# ---------------------------------------------------------------- rules / explain

def cmd_rules(args) -> int:
    """`packgate rules`."""
    from ..core.rules import RULES
    if args.format == "json":
        import json
        print(json.dumps([{"code": r.code, "name": r.name, "severity": r.severity,
                           "summary": r.summary(args.lang)} for r in RULES], ensure_ascii=False, indent=2))
        return EXIT_OK
    width = max(len(r.name) for r in RULES)
    for r in RULES:
        print(f"{r.code}  {r.name:<{width}}  {r.severity:<11}  {r.summary(args.lang)}")
    return EXIT_OK


def cmd_explain(args) -> int:
    """`packgate explain RULE`."""
    from ..core.docs import rule_page
    from ..core.rules import rule_by_key, rule_list
    rule = rule_by_key(args.rule)
    if rule is None:
        print(f"packgate: unknown rule {args.rule!r}; known rules: {rule_list()}", file=sys.stderr)
        return EXIT_USAGE
    sys.stdout.write(rule_page(rule, args.lang))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
