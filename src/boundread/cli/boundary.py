"""The one place where errors become exit codes: a BoundreadError is one stderr line (or a JSON
error in ``--json`` mode) and its documented code; a usage error that the parser finds (a missing
argument, an unknown option) is one too, exit 2; Ctrl-C is 130; a reader that closes the pipe
early (``boundread info x | head -1``) is not an error. Anything else is a bug and keeps its
traceback."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

import typer

# Typer 0.26-0.28 vendor click as the private ``typer._click`` (real click's classes are others: catching
# ``click.ClickException`` catches nothing Typer raises). The parser's errors are caught by their public base,
# ``typer.TyperException``; ``boundread`` alone is told by its class name, as Typer's own rich_utils does. Only
# ``ParamType`` has no public name: ``click_type=`` takes an instance of it, and AtLeast is one. Typer 0.29 drops
# ``click_type`` and ``typer._click.types`` (hence the pin in pyproject.toml); tests/test_cli_typer_boundary.py
# fails when an upgrade moves what is used here.
from typer._click.types import ParamType
from typer.core import TyperCommand, TyperGroup

from boundread.errors import ExitCode, UsageError

if TYPE_CHECKING:
    from typer._click.core import Context, Parameter  # types only: typer.Context and typer.CallbackParam's bases


def boundary(as_json: bool, work: Callable[[], int]) -> NoReturn:
    """Run a command's work (:func:`boundread.cli.run.guarded`, which the Typer-free fast path shares) and exit
    with its code."""
    from boundread.cli.run import guarded  # the reading modules, only once a command runs

    raise typer.Exit(guarded(as_json, work))


class Group(TyperGroup):
    """The app's group: the parser's own errors (usage) cross the same boundary as ours."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, windows_expand_args: bool = True,
             **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, windows_expand_args, **extra)
        argv = list(sys.argv[1:] if args is None else args)
        options = argv[: argv.index("--")] if "--" in argv else argv
        try:
            code = super().main(argv, prog_name, complete_var, False, windows_expand_args, **extra)
        except typer.TyperException as exc:  # click's ClickException and its usage errors, by their public base
            if type(exc).__name__ == "NoArgsIsHelpError":  # `boundread` alone: the help, as before
                exc.show()  # type: ignore[attr-defined]
                code = exc.exit_code
            else:
                code = usage_error(exc, as_json="--json" in options)
        except typer.Abort:
            code = int(ExitCode.INTERRUPTED)
        except BrokenPipeError:
            from boundread.cli.run import silence_stdout

            silence_stdout()
            code = 0
        sys.exit(code if isinstance(code, int) else 0)


class Command(TyperCommand):
    """Every command's class: its usage line reads ``boundread pages [OPTIONS] FILE RANGE``, not ``{FILE} {RANGE}``."""

    def collect_usage_pieces(self, ctx: Context) -> list[str]:
        return [piece.replace("{", "").replace("}", "") for piece in super().collect_usage_pieces(ctx)]


class AtLeast(ParamType):
    """A number with a floor (``--max-chars N``): help shows the option's metavar alone, not ``<int range> [x>=1]``;
    a value below the floor is a usage error that names the floor."""

    def __init__(self, low: int | float, kind: type[int] | type[float] = int) -> None:
        self.low, self.kind = low, kind
        self.name = "integer" if kind is int else "number"

    def get_metavar(self, param: Parameter, ctx: Context) -> str | None:
        return None

    def convert(self, value: Any, param: Parameter | None, ctx: Context | None) -> int | float:
        if isinstance(value, self.kind) and not isinstance(value, bool):
            number = value
        else:
            try:
                number = self.kind(value)
            except (TypeError, ValueError):
                self.fail(f"{value!r} is not {'a whole number' if self.kind is int else 'a number'}", param, ctx)
        if number < self.low:
            self.fail(f"{value} is below {self.low}", param, ctx)
        return number


def offer(*words: str) -> Callable[[str], list[str]]:
    """Shell completion of an option's values (``--engine <TAB>``): the words that start as typed."""

    def complete(incomplete: str) -> list[str]:
        return [word for word in words if word.startswith(incomplete)]

    return complete


def usage_error(exc: typer.TyperException, *, as_json: bool) -> int:
    """A parser error as one line (``boundread: error: <what> - <fix>``) or a JSON error; its exit code."""
    from boundread import render

    _keep_close_options(exc)
    message = exc.format_message().strip().rstrip(".")
    what = message[:1].lower() + message[1:] if message[1:2].islower() else message
    ctx = getattr(exc, "ctx", None)
    where = ctx.command_path if ctx is not None else "boundread"
    render.print_error(UsageError(what, f"see `{where} --help`"), as_json=as_json)
    return int(exc.exit_code) if exc.exit_code else 2


#: how alike a mistyped option and a real one must be to be suggested (difflib's ratio): click's own
#: cut-off (0.6) offered ``--rows`` for ``--bogus`` (0.62); ``--max-char`` -> ``--max-chars`` is 0.95
CLOSE = 0.75


def _keep_close_options(exc: typer.TyperException) -> None:
    """Drop click's suggestions for an unknown option that are not close to what was typed; with none left,
    the message drops its ``(Possible options: ...)``."""
    given, possible = getattr(exc, "option_name", None), getattr(exc, "possibilities", None)
    if not isinstance(given, str) or not possible:
        return
    from difflib import SequenceMatcher

    exc.possibilities = [option for option in possible  # type: ignore[attr-defined]
                         if SequenceMatcher(None, given, option).ratio() >= CLOSE]
