"""The ``stats`` command: what the guard kept out of the context, from the decisions guard-check recorded."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from boundread.cli.boundary import Command, boundary
from boundread.cli.options import JsonOpt
from boundread.errors import UsageError


def register(app: typer.Typer) -> None:
    """Add `stats` to the app."""
    app.command("stats", cls=Command, epilog="Examples: boundread stats\n\nboundread stats --session demo --json\n\n"
                                             "boundread stats --all --since 7d")(stats)


def stats(
    session: Annotated[str | None, typer.Option("--session", metavar="ID", help="Only this session.")] = None,
    project: Annotated[Path | None, typer.Option("--project", metavar="DIR", help="This project folder and the "
                                                 "folders below it (default: here).")] = None,
    everywhere: Annotated[bool, typer.Option("--all", help="Every session of every project.")] = False,
    since: Annotated[str | None, typer.Option("--since", metavar="WHEN", help="Only calls since then: a span back "
                                              "(30m, 12h, 7d, 2w) or a date (2026-12-01, UTC).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """What boundread kept out of the agent's context: the reads it refused, redirected and bounded after the call.

    Each call the guard decided counts with what the agent asked for (the file's size, the output's size) against
    what the model got instead (the refusal, the slice, the short answer); tokens are estimated (4 characters a
    token). Per session, per project (default: this folder) or all.
    """

    def work() -> int:
        from boundread.budget.ledger import open_decisions
        from boundread.budget.stats import since_of, summarize
        from boundread.render import stats as view

        if sum((session is not None, project is not None, everywhere)) > 1:
            raise UsageError("--session, --project and --all exclude each other", "pick one scope")
        try:
            start = None if since is None else since_of(since)
        except ValueError as exc:
            raise UsageError(str(exc), "pass a span such as 7d, 12h or 30m, or a date such as 2026-12-01") from None
        folder = None if session is not None or everywhere else os.path.realpath(project or Path.cwd())
        with open_decisions() as store:
            rows = store.decisions(session=session, project=folder, since=start)
        scope = "session" if session is not None else "all" if everywhere else "project"
        result = summarize(rows, scope, session or folder or "", start)
        if as_json:
            typer.echo(view.stats_json(result))
        else:
            view.print_stats(result)
        return 0

    boundary(as_json, work)
