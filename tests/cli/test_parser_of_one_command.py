"""A run builds the parser of its own subcommand only; what it parses, and the errors about an
unknown subcommand, are those of the whole parser."""

import re

import pytest

from packgate.cli.main import main
from packgate.cli.parser import build_parser, command_table


def _listed(parser) -> list:
    """The subcommands the parser's help lists (each starts a line, indented by four)."""
    return re.findall(r"^    (\S+)", parser.format_help(), re.MULTILINE)


def test_one_command_is_parsed_as_the_whole_parser_parses_it():
    assert _listed(build_parser("check")) == ["check"]
    assert _listed(build_parser()) == _listed(build_parser("nope")) == list(command_table())
    argv = ["check", "--format", "json", "--select", "PG001", "-q", "a.sh"]
    whole, alone = vars(build_parser().parse_args(argv)), vars(build_parser("check").parse_args(argv))
    assert whole.keys() == alone.keys() and all(whole[k] == alone[k] for k in whole if k != "subparser")


def test_an_unknown_command_lists_every_choice(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["chek", "a.sh"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert all(repr(name) in err for name in command_table())


@pytest.mark.parametrize("argv", [["check", "a.sh"], ["check"], ["check", "a.sh", "dir", "x=1", "lsp"],
                                  ["check", "-"], ["check", "-q", "a.sh"], ["check", "--", "a.sh"], ["rules"]])
def test_plain_check_gets_the_arguments_argparse_gives(argv):
    """main() reads `check PATH...` without argparse: the same arguments, or (any option, any
    other command) it leaves the command line to argparse."""
    from packgate.cli.main import _plain_check
    plain = _plain_check(argv)
    if any(a.startswith("-") for a in argv[1:]) or argv[0] != "check":
        assert plain is None
        return
    parsed = vars(build_parser("check").parse_args(argv))
    assert vars(plain).keys() == parsed.keys()
    assert all(vars(plain)[k] == parsed[k] for k in parsed if k != "subparser")
