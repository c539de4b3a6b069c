"""The one place where errors become exit codes: a BoundreadError is one stderr line (or a JSON
error in ``--json`` mode) and its documented code; Ctrl-C is 130. Anything else is a bug and
keeps its traceback."""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

import typer

from boundread.errors import BoundreadError


def boundary(as_json: bool, work: Callable[[], int]) -> NoReturn:
    from boundread import render

    try:
        code = work()
    except BoundreadError as exc:
        render.print_error(exc, as_json=as_json)
        raise typer.Exit(int(exc.exit_code)) from None
    except KeyboardInterrupt:
        raise typer.Exit(130) from None
    raise typer.Exit(code)
