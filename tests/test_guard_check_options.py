"""guard-check is parsed twice: by argparse on the hook path (hook/main.py, no Typer at start-up) and by Typer for
`boundread guard-check --help`, the man page and completion (cli/guard.py). The two lists drifted once: `--mode`,
which every hook `init` writes uses, was missing from the help and the man page, and `guard-check --mode redirect
--help` failed (issue 20). Both are now built from one declaration (hook/options.py); here each generated form is
compared with it option by option, and the flags are checked to be spelt nowhere else in the source."""

from __future__ import annotations

import argparse
import inspect
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boundread.cli import docs
from boundread.cli import guard as cli_guard
from boundread.cli.app import app
from boundread.hook import main, options

SRC = Path(__file__).resolve().parents[1] / "src" / "boundread"
DECLARED = {option.flag: option for option in options.OPTIONS}


def _argparse_actions() -> dict[str, Any]:
    parser = main._parser()
    return {action.option_strings[0]: action for action in parser._actions
            if action.option_strings and not isinstance(action, argparse._HelpAction)}


def _typer_params() -> dict[str, Any]:
    command: Any = dict(docs.walk(docs.cli()))[("guard-check",)]
    return {param.opts[0]: param for param in command.params if param.opts[0] != "--help"}


def test_the_hook_path_and_the_help_declare_the_same_options() -> None:
    assert sorted(_typer_params()) == sorted(_argparse_actions()) == sorted(DECLARED)


def test_the_value_names_agree() -> None:
    hook, helped = _argparse_actions(), _typer_params()
    for flag, option in DECLARED.items():
        assert hook[flag].metavar == helped[flag].metavar == option.metavar, flag
        assert hook[flag].dest == helped[flag].name == option.dest, flag


def test_the_help_texts_and_choices_agree() -> None:
    hook, helped = _argparse_actions(), _typer_params()
    for flag, option in DECLARED.items():
        assert hook[flag].help == helped[flag].help == option.help, flag
        assert hook[flag].choices == (option.choices() if option.choices else None), flag
        assert helped[flag].is_flag == option.switch == (hook[flag].nargs == 0), flag


def test_completion_offers_the_declared_choices() -> None:
    helped = _typer_params()
    for flag, option in DECLARED.items():
        if option.choices:
            words = [item.value for item in helped[flag].shell_complete(None, "")]
            assert words == list(option.choices()), flag


def test_no_second_declaration_of_the_options() -> None:
    """A flag of guard-check spelt as a string in either parser's module is a second list in the making. The fast
    argv reader in hook/main.py reads the two words `init` writes, `--mode` and `--agent`, and nothing else; the
    Typer side spells none (cli/guard.py's own `--agent` belongs to init and doctor, outside guard_check)."""
    hook = (SRC / "hook" / "main.py").read_text(encoding="utf-8")
    assert {flag for flag in DECLARED if f'"{flag}"' in hook} <= {"--mode", "--agent"}
    assert "add_argument(\"" not in hook and "add_argument('" not in hook
    helped = inspect.getsource(cli_guard.guard_check) + inspect.getsource(cli_guard._typer_option)
    assert [flag for flag in DECLARED if f'"{flag}"' in helped] == []


@pytest.mark.parametrize("argv", [["guard-check", "--help"], ["guard-check", "--mode", "redirect", "--help"]])
def test_the_help_names_mode(argv: list[str]) -> None:
    done = CliRunner().invoke(app, argv)
    assert done.exit_code == 0 and "--mode" in done.output and "redirect" in done.output


def test_the_typer_command_passes_the_options_to_the_hook(tmp_path: Path) -> None:
    """`boundread guard-check --path F --json` through Typer reaches the hook's parser with the same words."""
    small = tmp_path / "small.txt"
    small.write_text("hello\n", encoding="utf-8")
    done = CliRunner().invoke(app, ["guard-check", "--path", str(small), "--json", "--mode", "redirect"])
    assert done.exit_code == 0 and '"decision": "allow"' in done.output
