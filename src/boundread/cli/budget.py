"""``boundread budget``: set limits, record usage, show and check the four runaway guards."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from boundread.cli.boundary import boundary

if TYPE_CHECKING:  # the ledger (sqlite3) and the policy load only in the command that runs
    from boundread.budget.ledger import SqliteLedger
    from boundread.budget.model import Scope, ScopeView

from boundread.budget.errors import BudgetError, DepthExceeded
from boundread.errors import BoundreadError, ExitCode, UsageError

budget_app = typer.Typer(
    help="Runaway guards: depth, tokens, cost and policy, in a ledger that hooks update and enforce.",
    epilog="Example: boundread budget set --session demo --max-usd 0.50 && boundread budget status",
    no_args_is_help=True,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object (schema 1) on stdout.")]
SessionOpt = Annotated[
    str | None, typer.Option("--session", help="Session id (default: the hook payload's session_id).")
]
LIMIT_MAX = 2**62  # SQLite stores 64-bit integers
COUNT_MAX = 10**12  # what ingest takes as a possible count (transcript.IMPOSSIBLE)


def _bounded(most: int, **values: int | None) -> None:
    """A number too large for the ledger is a usage error, not an OverflowError from SQLite."""
    for name, value in values.items():
        if value is not None and value > most:
            flag = "--" + name.replace("_", "-")
            raise UsageError(f"{flag} {value} is too large", f"pass at most {most:,}")
OneSessionOpt = Annotated[str | None, typer.Option("--session", help="Only this session (default: every session).")]


def _emit(command: str, payload: dict[str, Any], human: str, as_json: bool) -> None:
    from boundread import render

    if as_json:
        render.print_json(command, payload)
    else:
        typer.echo(human)


def _stdin_payload() -> dict[str, Any] | None:
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


def _scope(session: str | None, project: bool, everywhere: bool) -> Scope:
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


def _usd(text: str | None) -> Decimal | None:
    if text is None:
        return None
    try:
        value = Decimal(text.lstrip("$"))
    except InvalidOperation:
        raise UsageError(f"--max-usd {text!r} is not an amount", "write it like 0.50") from None
    if not value.is_finite() or value < 0:
        raise UsageError(f"--max-usd {text!r} must be zero or more", "write it like 0.50")
    return value


@budget_app.command("set", epilog="Examples: boundread budget set --session demo --max-usd 0.50 --max-tokens 200000"
                    "\n\nboundread budget set --global --max-depth 2 --deny-tool WebFetch")
def set_limits(
    session: Annotated[str | None, typer.Option("--session", help="Limits for this session id.")] = None,
    project: Annotated[bool, typer.Option("--project", help="Limits for every session in this folder.")] = False,
    everywhere: Annotated[bool, typer.Option("--global", help="Limits over all sessions together.")] = False,
    max_tokens: Annotated[int | None, typer.Option(min=0, help="Tokens (in+out+cache) before denying.")] = None,
    max_usd: Annotated[str | None, typer.Option(help="US dollars before denying, e.g. 0.50.")] = None,
    max_depth: Annotated[int | None, typer.Option(min=0, help="Deepest sub-agent / budget exec level.")] = None,
    max_calls: Annotated[int | None, typer.Option(min=0, help="Tool calls allowed in the session.")] = None,
    max_repeat: Annotated[
        int | None, typer.Option(min=1, help="Deny the call that makes K identical calls in a row.")
    ] = None,
    deny_tool: Annotated[list[str] | None, typer.Option(help="Forbid this tool (repeatable).")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Set limits for a session, this project or globally (only the given ones change)."""

    def work() -> int:
        from boundread.budget.ledger import SqliteLedger
        from boundread.budget.model import BudgetLimits
        scope = _scope(session, project, everywhere)
        _bounded(LIMIT_MAX, max_tokens=max_tokens, max_depth=max_depth, max_calls=max_calls, max_repeat=max_repeat)
        wanted = BudgetLimits(max_tokens, _usd(max_usd), max_depth, max_calls, max_repeat, tuple(deny_tool or ()))
        with SqliteLedger() as ledger:
            merged = ledger.set_limits(scope, wanted)
        from boundread.render.budget import limits_dict

        data = limits_dict(merged)
        shown = ", ".join(f"{k}={v}" for k, v in data.items() if v not in (None, []))
        _emit(
            "budget set",
            {"scope": scope.key, "limits": data},
            f"{scope.label}: {shown or 'no limits'}",
            as_json,
        )
        return 0

    boundary(as_json, work)


@budget_app.command("add", epilog="Example: boundread budget add --session demo --model claude-sonnet-4-5 "
                    "--input 120000 --output 9000")
def add(
    session: Annotated[str, typer.Option("--session", help="Session id to charge.")],
    model: Annotated[str, typer.Option("--model", help="Model name, e.g. claude-sonnet-4-5.")],
    input_tokens: Annotated[int, typer.Option("--input", min=0, help="Uncached input tokens.")] = 0,
    output_tokens: Annotated[int, typer.Option("--output", min=0, help="Output tokens.")] = 0,
    cache_read: Annotated[int, typer.Option("--cache-read", min=0, help="Cache-read input tokens.")] = 0,
    cache_write: Annotated[int, typer.Option("--cache-write", min=0, help="Cache-write input tokens.")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Record one model call's usage by hand (priced now)."""

    def work() -> int:
        from boundread.budget.errors import fmt_usd
        from boundread.budget.ledger import SqliteLedger
        from boundread.budget.model import UsageRecord
        from boundread.budget.prices import Pricer

        _bounded(COUNT_MAX, input=input_tokens, output=output_tokens, cache_read=cache_read, cache_write=cache_write)
        rec = Pricer.load().cost(UsageRecord(model, input_tokens, output_tokens, cache_read, cache_write))
        with SqliteLedger() as ledger:
            ledger.add_usage(session, [rec])
        flag = " (unknown model: default price)" if rec.flagged else ""
        _emit(
            "budget add",
            {
                "session": session,
                "model": model,
                "tokens": rec.tokens,
                "usd": str(rec.cost),
                "flagged": rec.flagged,
                "price_source": rec.price_source,
            },
            f"session {session}: +{rec.tokens:,} tokens, +{fmt_usd(rec.cost)}{flag}",
            as_json,
        )
        return 0

    boundary(as_json, work)


@budget_app.command("ingest", epilog="Examples: boundread budget ingest < stop-payload.json\n\n"
                    "boundread budget ingest --transcript session.jsonl --session demo")
def ingest_cmd(
    transcript: Annotated[
        Path | None,
        typer.Option("--transcript", help="Claude Code transcript JSONL (default: from stdin)."),
    ] = None,
    session: SessionOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Record the usage in a Claude Code session's transcripts, its sub-agents' included (a hook payload on stdin)."""

    def work() -> int:
        from boundread.budget import hookcli

        if transcript is None:
            result = hookcli.ingest_payload(sys.stdin.read() if sys.stdin and not sys.stdin.isatty() else "", session)
        else:
            from boundread.budget.ledger import SqliteLedger
            from boundread.budget.sessionfiles import transcripts
            from boundread.budget.transcript import ingest_all, session_of_path

            with SqliteLedger() as ledger:
                sid = session or session_of_path(transcript)
                result = ingest_all(ledger, transcripts(transcript), session=sid)
        for warning in result.warnings[:5]:
            typer.echo(f"boundread: warning: {warning}", err=True)
        from boundread.render.budget import ingest_dict

        _emit("budget ingest", ingest_dict(result), hookcli.describe(result), as_json)
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


def _here() -> str:
    """This folder as guard-check names its project (the payload's ``cwd``, resolved)."""
    return os.path.realpath(Path.cwd())


def _views(ledger: SqliteLedger, scopes: list[Scope], *, limited_only: bool = False) -> list[ScopeView]:
    from boundread.budget.model import ScopeView

    views = [ScopeView(s, ledger.limits(s), ledger.totals(s)) for s in scopes]
    return [v for v in views if not v.limits.empty] if limited_only else views


def _status_scopes(ledger: SqliteLedger, session: str | None, project: bool) -> list[Scope]:
    """What ``status`` shows: one session, this project, or everything; the global scope when it has limits.

    ``--session`` and ``--project`` show that one scope, as guard-check counts it (a project: all its sessions).
    """
    from boundread.budget.model import Scope

    glob = Scope("global")
    tail = [glob] if (session is None and not project) or not ledger.limits(glob).empty else []
    if session is not None:
        return [Scope("session", session), *tail]
    if project:
        return [Scope("project", _here()), *tail]
    return [*(Scope("session", s) for s in ledger.sessions()), *(Scope("project", p) for p in ledger.projects()),
            *tail]


@budget_app.command("status", epilog="Examples: boundread budget status\n\n"
                    "boundread budget status --project\n\nboundread budget status --session demo --json")
def status(
    session: OneSessionOpt = None,
    project: Annotated[bool, typer.Option(
        "--project", help="This folder's project: all its sessions together, as guard-check counts them.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Tokens, USD, calls and depth, each against its limit: per session, per project and over all sessions."""

    def work() -> int:
        from boundread.budget.ledger import SqliteLedger
        from boundread.render import budget as view

        if session is not None and project:
            raise UsageError("--session and --project exclude each other", "pick one scope")
        with SqliteLedger() as ledger:
            views = _views(ledger, _status_scopes(ledger, session, project))
        if as_json:
            typer.echo(view.status_json(views))
        else:
            view.print_status(views)
        return 0

    boundary(as_json, work)


def _dialects() -> Any:
    """guard-check's dialect module (agent detection and deny answers), when it is installed."""
    import importlib

    try:
        return importlib.import_module("boundread.guard.dialects")
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


@budget_app.command("check", epilog="Examples: boundread budget check --session demo\n\n"
                    "boundread budget check < pre-tool-payload.json")
def check(
    session: Annotated[str | None, typer.Option(
        "--session", help="Session id (default: the hook payload's session_id, else 'default').")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Exit 0 within every limit; over one, deny (as a hook, in the agent's dialect; else exit 2 + stderr)."""

    def work() -> int:
        from boundread.budget import enforce

        payload = _stdin_payload()
        sid = session or (enforce.session_of(payload) if payload else None) or "default"
        call = _tool_call(payload) if payload else None
        if payload and call:
            reason = enforce.check_tool_call({**payload, "session_id": sid}, *call)
        else:  # no tool call: would guard-check let the next one through in this session and project?
            reason = _next_call_denied(sid, (enforce.project_of(payload) if payload else None) or _here(),
                                       enforce.depth_of(payload or {}))
        if as_json:
            _emit("budget check", {"session": sid, "allowed": reason is None, "reason": reason}, "", True)
            return 0 if reason is None else int(ExitCode.USAGE)
        return 0 if reason is None else _deny(payload, reason)

    boundary(as_json, work)


def _next_call_denied(session: str, project: str, depth: int) -> str | None:
    """The reason guard-check would deny any next call here (depth, spend, call limit), or None.

    The rules that need the call itself (a forbidden tool, a repeat) are left out: there is no call.
    """
    from dataclasses import replace

    from boundread.budget.ledger import SqliteLedger
    from boundread.budget.model import Scope
    from boundread.budget.policy import check_depth, check_sequence, check_spend

    scopes = [Scope("session", session), Scope("global"), Scope("project", project)]  # guard-check's order
    with SqliteLedger() as ledger:
        views = _views(ledger, scopes, limited_only=True)
    for view in views:
        where = f"session {session}" if view.scope.kind == "session" else view.scope.label
        calls_only = replace(view.limits, max_repeat=None, deny_tools=())
        error = (check_depth(depth, view.limits, where) or check_spend(view.totals, view.limits, where)
                 or check_sequence("", "", (), view.totals.calls, calls_only, where))
        if error is not None:
            return str(error)
    return None


@budget_app.command("prices", epilog="Example: boundread budget prices claude-sonnet-4-5")
def prices(
    model: Annotated[str, typer.Argument(help="Model name, e.g. claude-sonnet-4-5.")],
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
        _emit("budget prices", data, human, as_json)
        return 0

    boundary(as_json, work)


@budget_app.command("reset", epilog="Examples: boundread budget reset --session demo\n\n"
                    "boundread budget reset --limits")
def reset(
    session: OneSessionOpt = None,
    limits: Annotated[bool, typer.Option("--limits", help="Also forget the scope's limits.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Forget what a session spent (every session without --session). Limits stay unless --limits."""

    def work() -> int:
        from boundread.budget.ledger import SqliteLedger
        from boundread.budget.model import Scope
        scope = Scope("session", session) if session else Scope("global")
        with SqliteLedger() as ledger:
            ledger.reset(scope, limits=limits)
        _emit("budget reset", {"scope": scope.key}, f"reset {scope.label}", as_json)
        return 0

    boundary(as_json, work)


@budget_app.command("recover", epilog="Example: boundread budget recover")
def recover_cmd(as_json: JsonOpt = False) -> None:
    """Repair a damaged, emptied or lost ledger: move it aside, salvage what reads, put every limit back."""

    def work() -> int:
        from boundread.budget.recover import recover
        from boundread.render.budget import recovery_dict, recovery_lines

        result = recover()
        _emit("budget recover", recovery_dict(result), "\n".join(recovery_lines(result)), as_json)
        return 0

    boundary(as_json, work)


@budget_app.command("exec", context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
                    epilog="Example: boundread budget exec --session demo -- claude -p 'summarise report.pdf'")
def exec_cmd(
    command: Annotated[list[str], typer.Argument(help="The sub-agent command, after --.")],
    session: Annotated[str | None, typer.Option(
        "--session", help="Session id (default: $BOUNDREAD_SESSION, else 'default').")] = None,
) -> None:
    """Run a sub-agent command one level deeper (BOUNDREAD_DEPTH + 1); refuse beyond the depth limit."""

    def work() -> int:
        from boundread.budget.enforce import depth_of
        from boundread.budget.ledger import SqliteLedger
        from boundread.budget.model import Scope
        from boundread.budget.policy import check_depth

        depth = depth_of({}) + 1
        sid = session or os.environ.get("BOUNDREAD_SESSION") or "default"
        with SqliteLedger() as ledger:
            for scope in (Scope("session", sid), Scope("global")):
                error = check_depth(depth, ledger.limits(scope), f"session {sid}")
                if error is not None:
                    raise error
        env = {**os.environ, "BOUNDREAD_DEPTH": str(depth), "BOUNDREAD_SESSION": sid}
        try:
            return subprocess.call(command, env=env)
        except OSError as exc:
            raise UsageError(f"cannot run {command[0]}: {exc.strerror}", "check the command after --") from exc

    boundary(False, work)


__all__ = ["BudgetError", "DepthExceeded", "budget_app"]
