"""``budget set``, ``add`` and ``ingest``: what goes into the ledger - limits, usage by hand, transcripts."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from boundread.cli import complete
from boundread.cli.boundary import AtLeast, Command, boundary
from boundread.cli.budget.common import (
    COUNT_MAX,
    LIMIT_MAX,
    SessionOpt,
    bounded,
    budget_app,
    emit,
    scope_of,
    usd,
)
from boundread.cli.options import JsonOpt
from boundread.errors import BoundreadError, UsageError


@budget_app.command("set", cls=Command,
                    epilog="Examples: boundread budget set --session demo --max-usd 0.50 --max-tokens 200000"
                    "\n\nboundread budget set --global --max-depth 2 --deny-tool WebFetch")
def set_limits(
    session: Annotated[str | None, typer.Option("--session", metavar="ID", autocompletion=complete.session_ids,
                                                help="Limits for this session id.")] = None,
    project: Annotated[bool, typer.Option("--project", help="Limits for every session in this folder.")] = False,
    everywhere: Annotated[bool, typer.Option("--global", help="Limits over all sessions together.")] = False,
    max_tokens: Annotated[int | None, typer.Option(metavar="N", click_type=AtLeast(0),
                                                   help="Tokens (in+out+cache) before denying.")] = None,
    max_usd: Annotated[str | None, typer.Option(metavar="USD", help="US dollars before denying, e.g. 0.50.")] = None,
    max_depth: Annotated[int | None, typer.Option(metavar="N", click_type=AtLeast(0),
                                                  help="Deepest sub-agent / budget exec level.")] = None,
    max_calls: Annotated[int | None, typer.Option(metavar="N", click_type=AtLeast(0),
                                                  help="Tool calls allowed in the session.")] = None,
    max_repeat: Annotated[
        int | None, typer.Option(metavar="K", click_type=AtLeast(1),
                                 help="Deny the call that makes K identical calls in a row.")
    ] = None,
    deny_tool: Annotated[list[str] | None, typer.Option(metavar="NAME", help="Forbid this tool (repeatable).")] = None,
    max_agents: Annotated[int | None, typer.Option(metavar="N", click_type=AtLeast(0),
                                                   help="Sub-agents that may be started.")] = None,
    max_agents_per_minute: Annotated[int | None, typer.Option(metavar="N", click_type=AtLeast(0),
                                                              help="Sub-agents that may start in any minute.")] = None,
    allow_overshoot: Annotated[
        bool | None, typer.Option("--allow-overshoot/--no-allow-overshoot",
                                  help="Let the request that would cross a token or USD cap go out (default: the"
                                       " session ends before it).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Set limits for a session, this project or globally (only the given ones change)."""

    def work() -> int:
        from boundread.budget.ledger import open_ledger
        from boundread.budget.model import BudgetLimits
        scope = scope_of(session, project, everywhere)
        bounded(LIMIT_MAX, max_tokens=max_tokens, max_depth=max_depth, max_calls=max_calls, max_repeat=max_repeat,
                max_agents=max_agents, max_agents_per_minute=max_agents_per_minute)
        wanted = BudgetLimits(max_tokens, usd(max_usd), max_depth, max_calls, max_repeat, tuple(deny_tool or ()),
                              max_agents, max_agents_per_minute, allow_overshoot)
        with open_ledger() as ledger:
            merged = ledger.set_limits(scope, wanted)  # the scope's ended sessions are judged again
        from boundread.render.budget import limits_dict

        data = limits_dict(merged)
        shown = ", ".join(f"{k}={v}" for k, v in data.items() if v not in (None, []))
        emit(
            "budget set",
            {"scope": scope.key, "limits": data},
            f"{scope.label}: {shown or 'no limits'}",
            as_json,
        )
        return 0

    boundary(as_json, work)


@budget_app.command("add", cls=Command, epilog="Example: boundread budget add --session demo --model claude-sonnet-4-5 "
                    "--input 120000 --output 9000 --id req_011CT7")
def add(
    session: Annotated[str, typer.Option("--session", metavar="ID", autocompletion=complete.session_ids,
                                         help="Session id to charge.")],
    model: Annotated[str, typer.Option("--model", metavar="NAME", help="Model name, e.g. claude-sonnet-4-5.")],
    input_tokens: Annotated[int, typer.Option("--input", metavar="N", click_type=AtLeast(0),
                                              help="Uncached input tokens.")] = 0,
    output_tokens: Annotated[int, typer.Option("--output", metavar="N", click_type=AtLeast(0),
                                               help="Output tokens.")] = 0,
    cache_read: Annotated[int, typer.Option("--cache-read", metavar="N", click_type=AtLeast(0),
                                            help="Cache-read input tokens.")] = 0,
    cache_write: Annotated[int, typer.Option("--cache-write", metavar="N", click_type=AtLeast(0),
                                             help="Cache-write input tokens.")] = 0,
    request_id: Annotated[str | None, typer.Option(
        "--id", metavar="ID", help="The request's id: the same id counts once, however often it is sent (default:"
                                   " a new one, named if the write fails).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Record one model call's usage by hand (priced now), once per request id."""

    def work() -> int:
        from boundread.budget.errors import LedgerError, fmt_usd
        from boundread.budget.ledger import open_ledger
        from boundread.budget.model import UsageRecord
        from boundread.budget.prices import Pricer

        bounded(COUNT_MAX, input=input_tokens, output=output_tokens, cache_read=cache_read, cache_write=cache_write)
        if request_id is not None and not request_id.strip():
            raise UsageError("--id is empty", "pass the request's id, or leave --id out")
        key = request_id or f"add-{os.urandom(12).hex()}"  # chosen before the write: a retry is the same request
        rec = Pricer.load().cost(UsageRecord(model, input_tokens, output_tokens, cache_read, cache_write, key=key))
        try:
            with open_ledger() as ledger:
                added = ledger.add_usage(session, [rec]) > 0
        except LedgerError as exc:
            retry = f"retry with `--id {key}`: it counts once"
            raise type(exc)(exc.what, f"{exc.fix}; {retry}" if exc.fix else retry) from None
        flag = " (unknown model: default price)" if rec.flagged else ""
        again = "" if added or request_id is None else f" (request {request_id} was recorded before: counted once)"
        emit(
            "budget add",
            {
                "session": session,
                "model": model,
                "tokens": rec.tokens,
                "usd": str(rec.cost),
                "flagged": rec.flagged,
                "price_source": rec.price_source,
                "id": key,
                "added": added or request_id is None,
            },
            f"session {session}: +{rec.tokens:,} tokens, +{fmt_usd(rec.cost)}{flag}{again}",
            as_json,
        )
        return 0

    boundary(as_json, work)


@budget_app.command("ingest", cls=Command, epilog="Examples: boundread budget ingest < stop-payload.json\n\n"
                    "boundread budget ingest --transcript session.jsonl --session demo")
def ingest_cmd(
    transcript: Annotated[
        Path | None,
        typer.Option("--transcript", metavar="PATH",
                     help="A Claude Code transcript, Codex rollout or Gemini CLI chat file (default: from stdin)."),
    ] = None,
    session: SessionOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Record the usage in a session's files, its sub-agents' included: Claude Code, Codex, Gemini CLI (a hook
    payload on stdin)."""

    def work() -> int:
        from boundread.hook import ingest as ingest_hook

        if transcript is None:
            text = sys.stdin.read() if sys.stdin and not sys.stdin.isatty() else ""
            result = ingest_hook.ingest_payload(text, session)
        else:
            from boundread.agents.sessionfiles import files_of, ingest_all
            from boundread.budget.ledger import open_ledger

            files = files_of(transcript)
            with open_ledger() as ledger:
                result = ingest_all(ledger, files.paths, session=session or files.session, readers=files.readers)
        for warning in result.warnings[:5]:
            typer.echo(f"boundread: warning: {warning}", err=True)
        from boundread.render.budget import ingest_dict

        emit("budget ingest", ingest_dict(result), ingest_hook.describe(result), as_json)
        return 0

    if transcript is None:  # run as a hook: Stop/SubagentStop read exit 2 as "do not stop", so never use it
        boundary(as_json, _as_hook(work))
    boundary(as_json, work)


def _as_hook(work: Callable[[], int]) -> Callable[[], int]:
    """``work`` with its errors reported as one stderr line and exit 1, which no hook event treats as a block."""

    def hook() -> int:
        try:
            return work()
        except BoundreadError as exc:
            typer.echo(f"boundread: error: {exc}", err=True)
            return 1

    return hook
