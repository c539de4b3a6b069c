"""The ``budget`` Typer app, the option types its commands share, and their common helpers.

The commands live in record.py (set, add, ingest), report.py (status, check, prices) and upkeep.py (reset,
recover, exec); the package imports them in that order, which is the order help lists them in.
"""

from __future__ import annotations

import json
import os
import sys
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from boundread.cli import complete
from boundread.errors import UsageError

if TYPE_CHECKING:  # the ledger (sqlite3) and the policy load only in the command that runs
    from boundread.budget.ledger import Ledger
    from boundread.budget.model import Scope, ScopeView

budget_app = typer.Typer(
    help="Runaway guards: depth, tokens, cost and policy, in a ledger that hooks update and enforce.",
    epilog="Example: boundread budget set --session demo --max-usd 0.50 && boundread budget status",
    no_args_is_help=True,
)

SessionOpt = Annotated[
    str | None, typer.Option("--session", metavar="ID", autocompletion=complete.session_ids,
                             help="Session id (default: the hook payload's session_id).")
]
OneSessionOpt = Annotated[str | None, typer.Option("--session", metavar="ID", autocompletion=complete.session_ids,
                                                   help="Only this session (default: every session).")]
LIMIT_MAX = 2**62  # SQLite stores 64-bit integers
COUNT_MAX = 10**12  # what ingest takes as a possible count (transcript.IMPOSSIBLE)


def bounded(most: int, **values: int | None) -> None:
    """A number too large for the ledger is a usage error, not an OverflowError from SQLite."""
    for name, value in values.items():
        if value is not None and value > most:
            flag = "--" + name.replace("_", "-")
            raise UsageError(f"{flag} {value} is too large", f"pass at most {most:,}")


def emit(command: str, payload: dict[str, Any], human: str, as_json: bool) -> None:
    from boundread import render

    if as_json:
        render.print_json(command, payload)
    else:
        typer.echo(human)


def stdin_payload() -> dict[str, Any] | None:
    """The hook payload on stdin, when stdin is not a terminal and holds a JSON object."""
    if sys.stdin is None or sys.stdin.isatty():
        return None
    text = sys.stdin.read()
    if not text.strip():
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"stdin is not a JSON hook payload ({exc.msg})", "pipe the agent's hook JSON") from exc
    return data if isinstance(data, dict) else None


def scope_of(session: str | None, project: bool, everywhere: bool) -> Scope:
    from boundread.budget.model import Scope

    if sum((session is not None, project, everywhere)) > 1:
        raise UsageError("--session, --project and --global exclude each other", "pick one scope")
    if project:
        return Scope("project", str(Path.cwd().resolve()))
    if everywhere:
        return Scope("global")
    if session is None:
        raise UsageError("no scope given", "pass --session S, --project or --global")
    return Scope("session", session)


def usd(text: str | None) -> Decimal | None:
    if text is None:
        return None
    try:
        value = Decimal(text.lstrip("$"))
    except InvalidOperation:
        raise UsageError(f"--max-usd {text!r} is not an amount", "write it like 0.50") from None
    if not value.is_finite() or value < 0:
        raise UsageError(f"--max-usd {text!r} must be zero or more", "write it like 0.50")
    return value


def here() -> str:
    """This folder as guard-check names its project (the payload's ``cwd``, resolved)."""
    return os.path.realpath(Path.cwd())


def views_of(ledger: Ledger, scopes: list[Scope], *, limited_only: bool = False) -> list[ScopeView]:
    from boundread.budget.model import ScopeView

    views = [ScopeView(s, ledger.limits(s), ledger.totals(s)) for s in scopes]
    return [v for v in views if not v.limits.empty] if limited_only else views
