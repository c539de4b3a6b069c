"""Budget enforcement on the hook path: record each tool call and deny it when a guard trips.

Standard library only, and cheap when unused: with no ledger file, one ``os.path.exists`` and nothing more.
"""

from __future__ import annotations

# Hot path (guard-check, every agent tool call): no typing or pathlib at run time.
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SESSION_KEYS = ("session_id", "sessionId", "conversation_id", "conversationId", "chat_id", "thread_id")
SUBAGENT_KEYS = ("agent_id",)
UNUSABLE = "budget ledger unusable: "  # how the deny of a ledger that cannot count opens: a fault to fix, not a cap


def _state_dir() -> str:  # os.path, not pathlib: the cheapest possible check when budgets are unused
    explicit = os.environ.get("BOUNDREAD_STATE_DIR")
    if explicit:
        base = explicit
    else:
        home = os.path.expanduser("~")  # noqa: PTH111
        xdg = os.environ.get("XDG_STATE_HOME") or os.path.join(home, ".local", "state")  # noqa: PTH118
        base = os.path.join(xdg, "boundread")  # noqa: PTH118
    return base


def _ledger_file() -> str:
    return os.path.join(_state_dir(), "budget.sqlite3")  # noqa: PTH118


def session_of(payload: dict[str, Any]) -> str | None:
    """The agent's session id, whatever the dialect calls it, as every store keeps it (``schema.clean``)."""
    from boundread.budget.schema import clean

    for key in SESSION_KEYS:
        value = payload.get(key)
        if isinstance(value, (str, int)) and str(value):
            return clean(str(value))
    return None


def depth_of(payload: dict[str, Any]) -> int:
    """``BOUNDREAD_DEPTH`` (set by ``budget exec``), plus the sub-agent's own depth as the client records it
    (``budget/agents.py``: 1 for a child of the main agent, 2 for its child...; 1 where the client says nothing)."""
    try:
        depth = max(int(os.environ.get("BOUNDREAD_DEPTH", "0") or 0), 0)
    except ValueError:
        depth = 0
    if not any(payload.get(k) for k in SUBAGENT_KEYS):
        return depth
    from boundread.budget.agentmeta import spawn_depth

    return depth + spawn_depth(payload)


def call_id_of(payload: dict[str, Any]) -> str | None:
    """The client's id of this tool call (``tool_use_id``): the ledger records a call once under it, so a hook the
    client retries, or a write whose answer was lost, counts once and gets the answer recorded."""
    value = payload.get("tool_use_id")
    if not isinstance(value, str) or not value:
        return None
    if len(value) > 200:  # no client's id is this long; an index holds no 10 MB value (PostgreSQL refuses it)
        import hashlib

        return "sha256:" + hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()
    from boundread.budget.schema import clean

    return clean(value)


def project_of(payload: dict[str, Any]) -> str | None:
    """The project folder: ``$CLAUDE_PROJECT_DIR`` (Claude Code sets it for its hooks, Gemini CLI too), else the
    payload's ``cwd`` (or Cursor's first workspace root). The payload's cwd follows the agent's ``cd``; the project
    does not. The ledger keeps a session's first project whichever comes later (``schema.TOUCH_SESSION``)."""
    cwd = os.environ.get("CLAUDE_PROJECT_DIR") or payload.get("cwd") or payload.get("workspace_roots")
    if isinstance(cwd, list):
        cwd = cwd[0] if cwd else None
    if not isinstance(cwd, str) or not cwd or "\0" in cwd:  # realpath raises on a NUL: no such folder
        return None
    from boundread.budget.schema import clean

    return clean(os.path.realpath(cwd))


def check_tool_call(payload: dict[str, Any], tool_name: str, tool_input: Any) -> str | None:
    """Return a deny reason when a budget limit is reached or a policy trips, else None.

    Records the call (tool name + sha256 of its normalized input) when a budget applies to the session.
    An unusable, emptied or missing ledger (see ``unusable``) denies only the calls that have a budget.
    With ``BOUNDREAD_LEDGER_URL`` (or ``ledger_url`` in the user config) the ledger is that PostgreSQL database.
    """
    from boundread.budget.ledgerurl import find

    url = find()
    if url:
        from boundread.budget.schema import clean

        stand_in = os.path.join(_state_dir(), "budget.postgres")  # noqa: PTH118
        refused = _self_cap(payload, tool_name, tool_input, stand_in + ".sqlite3", stand_in + ".limits.json", url)
        return refused or _check_postgres(url, payload, clean(tool_name), tool_input)
    path = _ledger_file()
    from boundread.budget.sidecar import exists, marks, path_for

    side = path_for(path)
    if not os.path.exists(path):  # noqa: PTH110
        if not exists(side):  # budgets were never set (neither the sidecar nor its seal is there)
            return None
        return _self_cap(payload, tool_name, tool_input, path, side) or _lost(path, payload, tool_input)
    refused = _self_cap(payload, tool_name, tool_input, path, side)
    if refused:
        return refused
    noted = marks(side)  # before the ledger's transaction: a mark noted after it is another call's cap, not ours
    # not `from boundread.budget import hookpath`: that asks the package's __getattr__ first (importlib)
    from boundread.budget.hookpath import check
    from boundread.budget.hookrules import NeedsLedger, Unusable
    from boundread.budget.schema import clean

    tool_name = clean(tool_name)  # as every store keeps it: the same tool is one name in `calls`

    session, project, depth = session_of(payload) or "default", project_of(payload), depth_of(payload)
    call_id = call_id_of(payload)
    try:  # sqlite3 and integers: see hookpath for the imports and the fsync it avoids
        verdict = check(path, session, project, tool_name, tool_input, depth, call_id)
    except NeedsLedger:  # a migration to run, or a file to explain: the full ledger does both
        verdict = _check_with_ledger(path, session, project, tool_name, tool_input, depth, call_id)
    except Unusable as exc:  # it failed after finding this call's limits
        return unusable(path, str(exc), session, project, tool_input, limited=exc.limited)
    return _held(path, side, session, project, verdict, noted)


def _keys(session: str, project: str | None) -> list[str]:
    """The scope keys a call may count in: its session, the global scope, its folder and each one above it (the
    session's first project, which the ledger keeps, is one of them when the agent ran ``cd sub``)."""
    from boundread.budget.schema import scope_key

    keys = [scope_key("session", session), scope_key("global")]
    folder = project
    while folder:
        keys.append(scope_key("project", folder))
        parent = os.path.dirname(folder)  # noqa: PTH120
        folder = parent if parent != folder else None
    return keys


def _self_cap(payload: dict[str, Any], tool: str, tool_input: Any, ledger: str, side: str,
              url: str | None = None) -> str | None:
    """The self-cap refusal (budget/selfcap.py) of a call in a session that has a budget, or None. ``url``: a
    PostgreSQL ledger, whose ``side`` is only a cache - the server is asked when it does not list the session."""
    from boundread.budget.selfcap import Protected, refusal
    from boundread.budget.sidecar import has_scope

    cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) and payload.get("cwd") else os.getcwd()  # noqa: PTH109
    folder = tool_input.get("dir_path") or tool_input.get("workdir") if isinstance(tool_input, dict) else None
    if isinstance(folder, str) and folder:
        cwd = os.path.join(str(cwd), folder)  # noqa: PTH118

    def keys() -> list[str]:
        return _keys(session_of(payload) or "default", project_of(payload))

    def confirm() -> bool:
        from boundread.budget.selfpg import has_budget

        return has_budget(url or "", keys())

    return refusal(payload, tool, tool_input, str(cwd), Protected(_state_dir(), ledger),
                   lambda: bool(has_scope(side, keys())), confirm if url else None)


def _held(path: str, side: str, session: str, project: str | None, verdict: str | None,
          noted: dict[str, str]) -> str | None:
    """The verdict, with the cap marks of budget/sidecar.py: a cap reached is noted; a call the ledger allows in
    a scope noted as capped (with the same limits) is denied - the ledger's counters went down since.

    ``noted``: the marks as they were before the ledger decided. Read after it, they would hold the mark of a call
    that came later and found the cap this call had just filled: the last call under the cap, allowed and counted
    by the ledger, was then denied (64 hooks at once on a cap of 25: 24 allowed, 25 counted)."""
    from boundread.budget.schema import scope_key

    if verdict is not None:
        if not verdict.startswith(UNUSABLE) and scope_key("session", session) not in noted:
            from boundread.budget.caps import note

            note(path, side, session, project, verdict)
        return verdict
    if not noted:
        return None

    keys = [scope_key("session", session), scope_key("global")]
    if any(key.startswith("project:") for key in noted):
        from boundread.budget.caps import first_project

        first = first_project(path, session) or project  # the session's own project, as the ledger decides
        keys += [scope_key("project", first)] if first else []
    reason = next((noted[key] for key in keys if key in noted), None)
    if reason is None:
        return None
    from boundread.budget.selfcap import USER_ACTION

    return (f"{reason} - noted when the cap was reached; the ledger shows less now, so it was changed since: the"
            f" cap holds - {USER_ACTION} (`boundread budget set ...` to raise the limit, or `boundread budget"
            f" reset --session {session}`).")


def _check_postgres(url: str, payload: dict[str, Any], tool_name: str, tool_input: Any) -> str | None:
    """The same check on the fleet's database: libpq through ctypes (pghook), psycopg only when that cannot.

    Unreachable or failing, it applies the error policy over the limits last seen from this machine, kept in
    ``budget.postgres.limits.json`` (the SQLite ledger's sidecar plays that part for a damaged file).
    """
    import time

    from boundread.budget.hookrules import NeedsLedger, Unusable
    from boundread.budget.pghook import check
    from boundread.budget.pgschema import ANSWER_S

    stand_in = os.path.join(_state_dir(), "budget.postgres")  # noqa: PTH118 - its sidecar is the cache
    session, project, depth = session_of(payload) or "default", project_of(payload), depth_of(payload)
    call_id = call_id_of(payload)
    start = time.monotonic()
    try:
        return check(url, stand_in + ".limits.json", session, project, tool_name, tool_input, depth, call_id)
    except NeedsLedger:  # tables to create or migrate, or no libpq to load: psycopg does both, in what is left
        left = max(ANSWER_S - (time.monotonic() - start), 1.0)
        return _check_with_pg_ledger(url, stand_in, session, project, tool_name, tool_input, depth, left, call_id)
    except Unusable as exc:
        return unusable(stand_in, str(exc), session, project, tool_input, limited=exc.limited)


def _check_with_pg_ledger(
    url: str, stand_in: str, session: str, project: str | None, tool_name: str, tool_input: Any, depth: int,
    seconds: float, call_id: str | None = None,
) -> str | None:
    """psycopg's check, bounded by the clock (``seconds``: what is left of pghook's ``ANSWER_S``): a frozen server,
    which no statement_timeout ends, denies the calls with a budget instead of hanging the agent."""
    import logging  # psycopg imports it anyway
    import signal

    from boundread.budget.digest import action_digest
    from boundread.budget.errors import LedgerBusy, LedgerError
    from boundread.budget.ledgerurl import redact
    from boundread.budget.policy import decide
    from boundread.budget.postgres import PostgresLedger

    fired: list[bool] = []

    def late(*_: object) -> None:
        fired.append(True)
        raise _Late

    def quiet(record: logging.LogRecord) -> bool:  # the interrupted transaction's rollback fails: not news
        return not fired

    log = logging.getLogger("psycopg.transaction")

    try:
        previous = signal.signal(signal.SIGALRM, late)
    except (ValueError, AttributeError):  # not the main thread, or no SIGALRM: psycopg's TCP timeouts only
        previous = None
    else:
        signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)  # again each second: a rollback that waits ends too
    log.addFilter(quiet)
    try:
        with PostgresLedger(url) as ledger:
            verdict = ledger.record_call(session, project, tool_name, action_digest(tool_name, tool_input), depth,
                                         decide, call_id=call_id)
    except LedgerError as exc:  # a server still full is doubt where this machine never saw the fleet's limits
        doubt = isinstance(exc, LedgerBusy) and not os.path.exists(stand_in + ".limits.json")  # noqa: PTH110
        return unusable(stand_in, str(exc), session, project, tool_input, limited=doubt)
    except _Late:  # limits may have been read: spend unknown, a limited call must not pass
        if previous is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
        what = f"the budget ledger {redact(url)} did not answer within {seconds:.0f} s - retry, or check the server"
        return unusable(stand_in, what, session, project, tool_input, limited=True)
    finally:
        if previous is not None:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        log.removeFilter(quiet)
    return None if verdict is None else str(verdict)


class _Late(Exception):
    """psycopg's check ran past ``ANSWER_S``."""


def _lost(path: str, payload: dict[str, Any], tool_input: Any) -> str | None:
    from boundread.budget.sidecar import RECOVER, path_for

    what = (f"the budget ledger {path} is missing, but {path_for(path)} (or its sealed copy) lists limits -"
            f" it was deleted: ask the user to run `{RECOVER}` in their own terminal (it recreates the ledger with"
            " the limits; spend is recounted from the transcripts, a capped session stays capped)")
    return unusable(path, what, session_of(payload) or "default", project_of(payload), tool_input)


def _check_with_ledger(
    path: str, session: str, project: str | None, tool_name: str, tool_input: Any, depth: int,
    call_id: str | None = None,
) -> str | None:
    from pathlib import Path

    from boundread.budget.digest import action_digest
    from boundread.budget.errors import LedgerError
    from boundread.budget.policy import decide
    from boundread.budget.sqlite import SqliteLedger

    try:
        with SqliteLedger(Path(path)) as ledger:
            digest = action_digest(tool_name, tool_input)
            verdict = ledger.record_call(session, project, tool_name, digest, depth, decide, call_id=call_id)
    except LedgerError as exc:
        return unusable(path, str(exc), session, project, tool_input)
    return None if verdict is None else str(verdict)


def unusable(
    path: str, what: str, session: str, project: str | None, tool_input: Any, *, limited: bool = False
) -> str | None:
    """The verdict when the ledger cannot count (``what``: why, and the fix; ``limited``: a limit was seen).

    The limits live on in ``budget.limits.json`` (see ``sidecar``): a call of a session, project or global
    scope listed there (or in its seal) is denied, spend being unknown; any other call is allowed with a warning
    on stderr, as is the recovery command itself, so the deny never asks for something it would deny - except
    for a ledger that is gone: that one was deleted, and the self-cap check (selfcap.py) leaves its recovery to
    the user, which the deny says (``_lost``). ``project`` is the
    payload's folder: the session's first one, which the ledger keeps, is not known here, so a listed project
    that contains the folder applies too (a session that began in it and ran ``cd sub`` stays under its cap).
    """
    import sys

    from boundread.budget.sidecar import has_scope, path_for

    if is_recovery(tool_input):
        sys.stderr.write(f"boundread: warning: {what}\n")
        return None
    keys = _keys(session, project)
    if not limited and not has_scope(path_for(path), keys):
        sys.stderr.write(f"boundread: warning: {what} (this call has no budget: allowed)\n")
        return None
    return f"{UNUSABLE}{what} (calls with a budget are denied until then)"


def is_recovery(tool_input: Any) -> bool:
    """Whether the call runs ``boundread budget recover`` (a shell command or an argv list), and nothing else."""
    command = tool_input.get("command") if isinstance(tool_input, dict) else None
    words = command.split() if isinstance(command, str) else command
    if not isinstance(words, list) or not all(isinstance(w, str) for w in words) or len(words) < 3:
        return False
    program = words[0].replace("\\", "/").rsplit("/", 1)[-1]
    return program in ("boundread", "boundread.exe") and words[1:3] == ["budget", "recover"] and (
        words[3:] in ([], ["--json"]))


def budget_refusal(payload: dict[str, Any], tool: str, tool_input: Any) -> str | None:
    """The self-cap refusal of this call where its session has a budget, without recording it (as the first step
    of ``check_tool_call`` finds it): guard-check asks when the guard's own ground refused the call, so a
    budgeted session still gets the budget's refusal, which ends the session. None where budgets were never set."""
    from boundread.budget.ledgerurl import find
    from boundread.budget.sidecar import exists, path_for

    url = find()
    if url:
        stand_in = os.path.join(_state_dir(), "budget.postgres")  # noqa: PTH118
        return _self_cap(payload, tool, tool_input, stand_in + ".sqlite3", stand_in + ".limits.json", url)
    ledger = _ledger_file()
    side = path_for(ledger)
    if not os.path.exists(ledger) and not exists(side):  # noqa: PTH110
        return None
    return _self_cap(payload, tool, tool_input, ledger, side)
