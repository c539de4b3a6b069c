"""What cli/boundary.py takes from Typer holds in the installed Typer (issue 20 part 5).

Typer 0.28 vendors click as the private ``typer._click``. The boundary catches the parser's errors by their public
base (``typer.TyperException``), tells ``boundread`` alone by the error's class name (as Typer's own rich_utils
does), and subclasses the one class with no public name, ``ParamType``, for ``click_type=``. An upgrade that moves
any of that fails here, by name, instead of turning a usage error into a traceback.
"""

from __future__ import annotations

import typer
from typer._click.types import ParamType
from typer.testing import CliRunner

from boundread.cli.app import app
from boundread.cli.boundary import AtLeast


def test_the_parsers_errors_have_the_public_base() -> None:
    import typer._click.exceptions as vendored

    for name in ("ClickException", "UsageError", "BadParameter", "NoSuchOption", "NoArgsIsHelpError"):
        assert issubclass(getattr(vendored, name), typer.TyperException), name
    assert vendored.NoArgsIsHelpError.__name__ == "NoArgsIsHelpError"  # the name the boundary looks for
    assert callable(vendored.NoArgsIsHelpError.show) and callable(typer.TyperException.format_message)


def test_click_type_still_takes_a_param_type() -> None:
    """``typer.Option(click_type=...)`` (gone in Typer 0.29) is how every number option gets its floor."""
    floor = AtLeast(1)
    assert isinstance(floor, ParamType)

    small = typer.Typer()

    @small.command()
    def count(n: int = typer.Option(1, "--n", click_type=floor)) -> None:
        typer.echo(str(n))

    command = typer.main.get_command(small)
    assert next(p for p in command.params if p.name == "n").type is floor
    assert CliRunner().invoke(small, ["--n", "3"]).output == "3\n"
    refused = CliRunner().invoke(small, ["--n", "0"])
    assert refused.exit_code == 2 and "0 is below 1" in refused.output


def test_the_context_and_parameter_types_are_the_public_classes_bases() -> None:
    """boundary.py names ``Context`` and ``Parameter`` in its signatures (for mypy only): the public classes."""
    from typer._click.core import Context, Parameter

    assert issubclass(typer.Context, Context) and issubclass(typer.CallbackParam, Parameter)


def test_boundread_alone_prints_the_help() -> None:
    done = CliRunner().invoke(app, [])
    assert "Usage: boundread" in done.output and "Traceback" not in done.output


def test_an_unknown_option_is_one_line() -> None:
    done = CliRunner().invoke(app, ["info", "--bogus", "x"])
    assert done.exit_code == 2 and done.stderr.startswith("boundread: error: ") and done.stderr.count("\n") == 1
