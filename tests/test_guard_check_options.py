"""guard-check is parsed twice: by argparse on the hook path (guard/main.py, no Typer at start-up) and by Typer for
`boundread guard-check --help`, the man page and completion (cli/guard.py). The two lists drifted once: `--mode`,
which every hook `init` writes uses, was missing from the help and the man page, and `guard-check --mode redirect
--help` failed (issue 20). Here they are compared option by option."""

from __future__ import annotations

import argparse
from typing import Any

import pytest
from typer.testing import CliRunner

from boundread.cli import docs
from boundread.cli.app import app
from boundread.guard import main


def _argparse_options() -> dict[str, str | None]:
    parser = main._parser()
    return {action.option_strings[0]: action.metavar for action in parser._actions
            if action.option_strings and not isinstance(action, argparse._HelpAction)}


def _typer_options() -> dict[str, str | None]:
    command: Any = dict(docs.walk(docs.cli()))[("guard-check",)]
    return {param.opts[0]: param.metavar for param in command.params if param.opts[0] != "--help"}


def test_the_hook_path_and_the_help_declare_the_same_options() -> None:
    assert sorted(_typer_options()) == sorted(_argparse_options())


def test_the_value_names_agree() -> None:
    hook, helped = _argparse_options(), _typer_options()
    for flag, metavar in hook.items():
        if metavar is not None:  # argparse names a choice list by its choices; Typer needs a word
            assert helped[flag] == metavar, flag


@pytest.mark.parametrize("argv", [["guard-check", "--help"], ["guard-check", "--mode", "redirect", "--help"]])
def test_the_help_names_mode(argv: list[str]) -> None:
    done = CliRunner().invoke(app, argv)
    assert done.exit_code == 0 and "--mode" in done.output and "redirect" in done.output
