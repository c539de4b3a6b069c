"""Sub-agents as the client records them: each one's real nesting depth, and the gate a spawn passes.

Hook payloads from inside a sub-agent carry its ``agent_id`` and nothing about its parent, so every sub-agent
looked like depth 1 and ``--max-depth 1`` let a sub-agent's own sub-agent run. Claude Code (2.1.332, checked in
the real client) writes beside the sub-agent's transcript ``<session>/subagents/agent-<id>.meta.json`` with
``"parentAgentId"`` (absent for a child of the main agent), ``"spawnDepth"`` (1 for a child of the main agent)
and ``"toolUseId"`` (the Agent call that started it), before the sub-agent's first tool call. That is the depth.

The gate runs at the spawn itself (the ``Agent`` tool call, ``Task`` in older clients), before the sub-agent
exists: the child would be one deeper than its caller (``--max-depth``), one more in the session and its project
(``--max-agents``), one more in the last minute (``--max-agents-per-minute``). An allowed spawn is recorded in
``agents`` under its tool call's id; once the client has written the sub-agent's meta file, the row takes the
sub-agent's own id (``sync``), which the usage rows of its requests carry too.

``spawn_depth`` is on guard-check's path for every sub-agent call: standard library, one small read, no json.
"""

from __future__ import annotations

import os

from boundread.budget.agentmeta import read_meta, spawn_depth

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from boundread.budget.sqlbase import SqlLedger

SPAWN_TOOLS = ("agent", "task")  # Claude Code's sub-agent tool; Task was its name before 2.x
MINUTE = 60.0


def is_spawn(tool: str) -> bool:
    return tool.casefold() in SPAWN_TOOLS


def budgeted(payload: dict[str, Any]) -> bool:
    """Whether a scope of the payload's session may have a budget (a fleet ledger: ask it; else the limits file
    beside the SQLite ledger lists the session, its folder or one above it, or all sessions). Cheap: no ledger."""
    from boundread.budget.enforce import _keys, _ledger_file, project_of, session_of
    from boundread.budget.ledgerurl import find
    from boundread.budget.sidecar import has_scope, path_for

    if find():
        return True
    return bool(has_scope(path_for(_ledger_file()), _keys(session_of(payload) or "default", project_of(payload))))


def gate(ledger: SqlLedger, payload: dict[str, Any], session: str, project: str | None,
         now: float) -> tuple[str | None, str | None]:
    """(the deny reason for a spawn the limits refuse - depth, count, rate - or None; the key it was recorded under
    when this call recorded it). A hook the client runs again for the same call (its ``tool_use_id``) finds the
    spawn recorded: the same spawn, counted once. A session none of whose scopes has a limit records nothing."""
    from boundread.budget.model import Scope
    from boundread.budget.rows import limits_of
    from boundread.budget.schema import SESSION_PROJECT, TOUCH_SESSION

    first = ledger._guarded(lambda: ledger._db.execute(SESSION_PROJECT, (session,)).fetchone())
    project = str(first[0]) if first and first[0] else project
    scopes = [Scope("session", session), Scope("global")] + ([Scope("project", project)] if project else [])
    agent = payload.get("agent_id")
    caller = str(agent) if isinstance(agent, (str, int)) and not isinstance(agent, bool) and agent != "" else None
    depth = spawn_depth(payload) + 1 + _env_depth()
    key = spawn_key(payload, now)
    with ledger._tx() as db:
        ledger._lock(db, "limits", tuple(s.key for s in scopes))
        if db.execute("SELECT 1 FROM agents WHERE session = ? AND agent = ?", (session, key)).fetchone():
            return None, None
        limited = [scope for scope in scopes if not limits_of(db, scope).empty]
        for scope in limited:
            why = _refusal(db, scope, session, depth, now)
            if why:
                return why, None
        if not limited:
            return None, None
        db.execute(TOUCH_SESSION, (session, project))
        db.execute("INSERT INTO agents(session, agent, parent, depth, started) VALUES (?, ?, ?, ?, ?)"
                   " ON CONFLICT(session, agent) DO NOTHING", (session, key, caller, depth, now))
    return None, key


def spawn_key(payload: dict[str, Any], now: float) -> str:
    """The spawn's key in ``agents`` until the sub-agent's own id replaces it: its call's ``tool_use_id`` (hashed
    when it is long: an index holds no 10 MB value), else its time."""
    call = payload.get("tool_use_id")
    if not isinstance(call, str) or not call:
        return f"spawn@{now}"
    if len(call) <= 200 and "\0" not in call:
        return call
    import hashlib

    return "toolu-sha256:" + hashlib.sha256(call.encode("utf-8", "surrogatepass")).hexdigest()


def _env_depth() -> int:
    """``BOUNDREAD_DEPTH`` (``budget exec``): the whole client runs that deep."""
    try:
        return max(int(os.environ.get("BOUNDREAD_DEPTH", "0") or 0), 0)
    except ValueError:
        return 0


def _refusal(db: Any, scope: Any, session: str, depth: int, now: float) -> str | None:
    from boundread.budget.errors import DepthExceeded, PolicyDenied, set_command
    from boundread.budget.rows import limits_of

    limits = limits_of(db, scope)
    where = f"session {session}" if scope.kind == "session" else scope.label
    if limits.max_depth is not None and depth > limits.max_depth:
        return str(DepthExceeded(depth, limits.max_depth, where,
                                 "do the work in this agent, or raise the limit with "
                                 f"`{set_command('--max-depth N', where)}` from outside the session"))
    if limits.max_agents is None and limits.max_agents_per_minute is None:
        return None
    members = {"session": "session = ?", "project": "session IN (SELECT id FROM sessions WHERE project = ?)"}
    where_sql = members.get(scope.kind)
    args: tuple[object, ...] = (scope.name,) if where_sql else ()
    base = f"SELECT COUNT(*) FROM agents{' WHERE ' + where_sql if where_sql else ''}"
    if limits.max_agents is not None:
        started = int(db.execute(base, args).fetchone()[0])
        if started + 1 > limits.max_agents:
            return str(PolicyDenied("max-agents", f"sub-agent limit reached: sub-agent {started + 1} of max"
                                    f" {limits.max_agents} in {where}", started + 1, limits.max_agents, where))
    if limits.max_agents_per_minute is not None:
        joiner = " AND" if where_sql else " WHERE"
        recent = int(db.execute(f"{base}{joiner} started > ?", (*args, now - MINUTE)).fetchone()[0])
        if recent + 1 > limits.max_agents_per_minute:
            return str(PolicyDenied("max-agents-per-minute", f"sub-agent rate reached: {recent + 1} started within"
                                    f" a minute, max {limits.max_agents_per_minute} in {where}", recent + 1,
                                    limits.max_agents_per_minute, where))
    return None


def forget(ledger: SqlLedger, session: str, key: str) -> None:
    """Take back a spawn the gate recorded but the rest of the budget refused (its call never ran)."""
    with ledger._tx() as db:
        db.execute("DELETE FROM agents WHERE session = ? AND agent = ?", (session, key))


def sync(ledger: SqlLedger, session: str, transcript: str) -> int:
    """Give each spawn recorded under its tool call's id the sub-agent's own id, from the meta files Claude Code
    wrote for the session (and add the sub-agents the gate did not see); how many rows changed."""
    import glob

    folder = os.path.join(transcript[: -len(".jsonl")], "subagents")  # noqa: PTH118
    if not transcript.endswith(".jsonl") or not os.path.isdir(folder):  # noqa: PTH112
        return 0
    known = {str(r[0]) for r in ledger._guarded(
        lambda: ledger._db.execute("SELECT agent FROM agents WHERE session = ?", (session,)).fetchall())}
    changed = 0
    for path in sorted(glob.glob(os.path.join(glob.escape(folder), "agent-*.meta.json")))[:10_000]:  # noqa: PTH118, PTH207
        agent = os.path.basename(path)[len("agent-"): -len(".meta.json")]  # noqa: PTH119
        if agent in known:
            continue
        meta = read_meta(path)
        if meta is None:
            continue
        depth, parent, tool_use = meta["spawnDepth"], meta["parentAgentId"], meta["toolUseId"]
        with ledger._tx() as db:
            tool_use = spawn_key({"tool_use_id": tool_use}, 0.0) if isinstance(tool_use, str) else None
            if tool_use and tool_use in known:
                db.execute("UPDATE agents SET agent = ?, depth = COALESCE(?, depth) WHERE session = ? AND agent = ?",
                           (agent, depth, session, tool_use))
            else:
                import time

                db.execute("INSERT INTO agents(session, agent, parent, depth, started) VALUES (?, ?, ?, ?, ?)"
                           " ON CONFLICT(session, agent) DO NOTHING",
                           (session, agent, parent, depth if isinstance(depth, int) else 1, time.time()))
        changed += 1
    return changed
