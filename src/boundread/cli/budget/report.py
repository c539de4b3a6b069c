"""``budget status``, ``check`` and ``prices``: what the ledger and the price table report."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated, Any

import typer

from boundread.cli import complete
from boundread.cli.boundary import Command, boundary
from boundread.cli.budget.common import OneSessionOpt, budget_app, emit, here, stdin_payload, views_of
from boundread.cli.options import JsonOpt
from boundread.errors import ExitCode, UsageError

if TYPE_CHECKING:
    from boundread.budget.ledger import Ledger
    from boundread.budget.model import Scope


def _status_scopes(ledger: Ledger, session: str | None, project: bool) -> list[Scope]:
    """What ``status`` shows: one session, this project, or everything; the global scope when it has limits.

    ``--session`` and ``--project`` show that one scope, as guard-check counts it (a project: all its sessions).
    """
    from boundread.budget.model import Scope

    glob = Scope("global")
    tail = [glob] if (session is None and not project) or not ledger.limits(glob).empty else []
    if session is not None:
        return [Scope("session", session), *tail]
    if project:
        return [Scope("project", here()), *tail]
    return [*(Scope("session", s) for s in ledger.sessions()), *(Scope("project", p) for p in ledger.projects()),
            *tail]


@budget_app.command("status", cls=Command, epilog="Examples: boundread budget status\n\n"
                    "boundread budget status --project\n\nboundread budget status --session demo --json")
def status(
    session: OneSessionOpt = None,
    project: Annotated[bool, typer.Option(
        "--project", help="This folder's project: all its sessions together, as guard-check counts them.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Tokens, USD, calls and depth, each against its limit: per session, per project and over all sessions.

    A session also shows its spend curve (tokens and USD over its requests, the cap as a line) and what each
    agent (the main one, each sub-agent) spent.
    """

    def work() -> int:
        from boundread.budget.history import BUCKETS, session_history
        from boundread.budget.ledger import open_ledger
        from boundread.render import budget as view

        if session is not None and project:
            raise UsageError("--session and --project exclude each other", "pick one scope")
        buckets = BUCKETS if as_json else view.curve_columns()
        with open_ledger() as ledger:
            views = views_of(ledger, _status_scopes(ledger, session, project))
            curves = {v.scope.name: session_history(ledger, v.scope.name, buckets) for v in views
                      if v.scope.kind == "session"}
        if as_json:
            typer.echo(view.status_json(views, curves))
        else:
            view.print_status(views, curves)
        return 0

    boundary(as_json, work)


def _dialects() -> Any:
    """The agents registry (agent detection, each client's payload and deny answer), when it is installed."""
    import importlib

    try:
        return importlib.import_module("boundread.agents")
    except ImportError:
        return None


def _deny(payload: dict[str, Any] | None, reason: str) -> int:
    """Answer a deny in the agent's dialect (guard-check's); standalone: exit 2 and the reason on stderr."""
    dialects = _dialects()
    if payload is not None and dialects is not None:
        from boundread.guard.decide import Decision

        try:
            agent = dialects.detect(payload)
        except ValueError:
            agent = "generic"
        event = str(payload.get("hook_event_name") or payload.get("hookEventName") or "")
        answer = dialects.reply(agent, Decision("deny", reason, rule="budget"), event)
        sys.stdout.write(answer.stdout)
        sys.stderr.write(answer.stderr)
        return int(answer.code)
    sys.stderr.write(reason + "\n")
    return int(ExitCode.USAGE)


def _tool_call(payload: dict[str, Any]) -> tuple[str, Any] | None:
    dialects = _dialects()
    if dialects is not None:
        try:
            call = dialects.parse(payload, dialects.detect(payload))
        except ValueError:
            return None
        return str(call.tool), dict(call.tool_input)
    tool = payload.get("tool_name")
    return (tool, payload.get("tool_input")) if isinstance(tool, str) else None


@budget_app.command("check", cls=Command, epilog="Examples: boundread budget check --session demo\n\n"
                    "boundread budget check < pre-tool-payload.json")
def check(
    session: Annotated[str | None, typer.Option(
        "--session", autocompletion=complete.session_ids,
        help="Session id (default: the hook payload's session_id, else 'default').")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Exit 0 within every limit; over one, deny (as a hook, in the agent's dialect; else exit 2 + stderr)."""

    def work() -> int:
        from boundread.budget import enforce

        payload = stdin_payload()
        sid = session or (enforce.session_of(payload) if payload else None) or "default"
        call = _tool_call(payload) if payload else None
        if payload and call:
            reason = enforce.check_tool_call({**payload, "session_id": sid}, *call)
        else:  # no tool call: would guard-check let the next one through in this session and project?
            reason = _next_call_denied(sid, (enforce.project_of(payload) if payload else None) or here(),
                                       enforce.depth_of(payload or {}))
        if as_json:
            emit("budget check", {"session": sid, "allowed": reason is None, "reason": reason}, "", True)
            return 0 if reason is None else int(ExitCode.USAGE)
        return 0 if reason is None else _deny(payload, reason)

    boundary(as_json, work)


def _next_call_denied(session: str, project: str, depth: int) -> str | None:
    """The reason guard-check would deny any next call here (depth, spend, call limit), or None.

    The rules that need the call itself (a forbidden tool, a repeat) are left out: there is no call.
    """
    from dataclasses import replace

    from boundread.budget.ledger import open_ledger
    from boundread.budget.model import Scope
    from boundread.budget.policy import check_depth, check_sequence, check_spend

    scopes = [Scope("session", session), Scope("global"), Scope("project", project)]  # guard-check's order
    with open_ledger() as ledger:
        views = views_of(ledger, scopes, limited_only=True)
    for view in views:
        where = f"session {session}" if view.scope.kind == "session" else view.scope.label
        calls_only = replace(view.limits, max_repeat=None, deny_tools=())
        error = (check_depth(depth, view.limits, where) or check_spend(view.totals, view.limits, where)
                 or check_sequence("", "", (), view.totals.calls, calls_only, where))
        if error is not None:
            return str(error)
    return None


@budget_app.command("prices", cls=Command, epilog="Example: boundread budget prices claude-sonnet-4-5")
def prices(
    model: Annotated[str, typer.Argument(metavar="MODEL", help="Model name, e.g. claude-sonnet-4-5.")],
    as_json: JsonOpt = False,
) -> None:
    """The per-million-token prices used for MODEL, and where they come from."""

    def work() -> int:
        from boundread.budget.prices import Pricer

        p = Pricer.load().price(model)
        data = {
            "model": model,
            "input": str(p.input),
            "output": str(p.output),
            "cache_read": str(p.cache_read),
            "cache_write": str(p.cache_write),
            "source": p.source,
            "known": p.known,
        }
        human = (
            f"{model}: ${p.input} input, ${p.output} output, ${p.cache_read} cache read, "
            f"${p.cache_write} cache write per million tokens\nsource: {p.source}"
        )
        emit("budget prices", data, human, as_json)
        return 0

    boundary(as_json, work)
