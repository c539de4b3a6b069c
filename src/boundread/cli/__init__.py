"""The command-line interface (Typer). Not imported by ``guard-check``, which is standard library only."""

from __future__ import annotations

import os

TYPE_CHECKING = False  # not typing's: the fast path (cli/fast.py) imports this package before anything needs typing
if TYPE_CHECKING:
    import typer

COMPLETE_VAR = "_BOUNDREAD_COMPLETE"  # set by the shell completion scripts: they need every command


def only(name: str | None) -> typer.Typer:
    """The app with just the command (or group) ``name``, when ``name`` is one: Typer then converts one function's
    signature, not all of them. Anything else (no command, an option, a typo, shell completion) gets the whole
    app, so the main help, "no such command" and the completions read as always."""
    import copy

    from boundread.cli.app import app

    if name is None or COMPLETE_VAR in os.environ:
        return app
    commands = [info for info in app.registered_commands if _name(info) == name]
    groups = [info for info in app.registered_groups if info.name == name]
    if not commands and not groups:
        return app
    view = copy.copy(app)  # the app itself stays whole (tests, docs and the API build it as it is)
    view.registered_commands, view.registered_groups = commands, groups
    return view


def _name(info: object) -> str | None:
    """A registered command's name as the command line spells it (Typer: the function name, ``_`` -> ``-``)."""
    explicit = getattr(info, "name", None)
    if explicit:
        return str(explicit)
    callback = getattr(info, "callback", None)
    return callback.__name__.lower().replace("_", "-") if callback is not None else None
