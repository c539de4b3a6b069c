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

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from boundread.budget.sqlbase import SqlLedger

SPAWN_TOOLS = ("agent", "task")  # Claude Code's sub-agent tool; Task was its name before 2.x
MINUTE = 60.0
META_MAX = 64 * 1024  # a meta file is a few hundred bytes; more is not one


def is_spawn(tool: str) -> bool:
    return tool.casefold() in SPAWN_TOOLS


def meta_path(payload: dict[str, Any], agent: str) -> str | None:
    """Where Claude Code keeps ``agent``'s meta file for the session whose transcript the payload names."""
    transcript = payload.get("transcript_path")
    if not isinstance(transcript, str) or not transcript.endswith(".jsonl") or "/" in agent or "\0" in agent:
        return None
    return os.path.join(transcript[: -len(".jsonl")], "subagents", f"agent-{agent}.meta.json")  # noqa: PTH118


def read_meta(path: str) -> dict[str, object] | None:
    """``spawnDepth``, ``parentAgentId`` and ``toolUseId`` of one meta file, or None if it is not (yet) there."""
    try:
        with open(path, "rb") as fh:
            text = fh.read(META_MAX).decode("utf-8", "replace")
    except OSError:
        return None
    return {"spawnDepth": _number(text, "spawnDepth"), "parentAgentId": _text(text, "parentAgentId"),
            "toolUseId": _text(text, "toolUseId")}


def spawn_depth(payload: dict[str, Any]) -> int:
    """How deep the agent that sent ``payload`` is: 0 for the main agent, its meta file's ``spawnDepth`` for a
    sub-agent, 1 for a sub-agent whose meta file cannot be read (a client that writes none)."""
    agent = payload.get("agent_id")
    if not isinstance(agent, str) or not agent:
        return 0
    path = meta_path(payload, agent)
    meta = read_meta(path) if path else None
    depth = meta.get("spawnDepth") if meta else None
    return depth if isinstance(depth, int) and depth > 0 else 1


def _number(text: str, key: str) -> int | None:
    value = _raw(text, key)
    return int(value) if value is not None and value.isascii() and value.isdigit() and len(value) < 10 else None


def _text(text: str, key: str) -> str | None:
    value = _raw(text, key)
    if value is None or not value.startswith('"'):
        return None
    end = value.find('"', 1)
    return value[1:end] if end > 1 and "\\" not in value[1:end] else None


def _raw(text: str, key: str) -> str | None:
    """The value after ``"key":`` in a flat JSON object, up to the next comma or brace (ids have neither)."""
    at = text.find(f'"{key}"')
    if at < 0:
        return None
    rest = text[at + len(key) + 2:].lstrip()
    if not rest.startswith(":"):
        return None
    rest = rest[1:].lstrip()
    ends = [i for i in (rest.find(","), rest.find("}")) if i >= 0]
    return rest[: min(ends)].strip() if ends else None


def gate(ledger: SqlLedger, payload: dict[str, Any], session: str, project: str | None, now: float) -> str | None:
    """The deny reason for a spawn the limits refuse (depth, count, rate), else None, the spawn recorded."""
    from boundread.budget.model import Scope
    from boundread.budget.schema import SESSION_PROJECT

    first = ledger._guarded(lambda: ledger._db.execute(SESSION_PROJECT, (session,)).fetchone())
    project = str(first[0]) if first and first[0] else project
    scopes = [Scope("session", session), Scope("global")] + ([Scope("project", project)] if project else [])
    caller = payload.get("agent_id") if isinstance(payload.get("agent_id"), str) else None
    depth = spawn_depth(payload) + 1 + _env_depth()
    with ledger._tx() as db:
        ledger._lock(db, "limits", tuple(s.key for s in scopes))
        for scope in scopes:
            why = _refusal(db, scope, session, depth, now)
            if why:
                return why
        db.execute("INSERT INTO sessions(id, project) VALUES (?, ?) ON CONFLICT(id) DO NOTHING", (session, project))
        key = str(payload.get("tool_use_id") or f"spawn@{now}")
        db.execute("INSERT INTO agents(session, agent, parent, depth, started) VALUES (?, ?, ?, ?, ?)"
                   " ON CONFLICT(session, agent) DO NOTHING", (session, key, caller, depth, now))
    return None


def _env_depth() -> int:
    """``BOUNDREAD_DEPTH`` (``budget exec``): the whole client runs that deep."""
    try:
        return max(int(os.environ.get("BOUNDREAD_DEPTH", "0") or 0), 0)
    except ValueError:
        return 0


def _refusal(db: Any, scope: Any, session: str, depth: int, now: float) -> str | None:
    from boundread.budget.errors import DepthExceeded, PolicyDenied
    from boundread.budget.rows import limits_of

    limits = limits_of(db, scope)
    where = f"session {session}" if scope.kind == "session" else scope.label
    if limits.max_depth is not None and depth > limits.max_depth:
        return str(DepthExceeded(depth, limits.max_depth, where,
                                 "do the work in this agent, or raise the limit with `boundread budget set"
                                 " --max-depth N` from outside the session"))
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
                                    f" {limits.max_agents} in {where}", started + 1, limits.max_agents))
    if limits.max_agents_per_minute is not None:
        joiner = " AND" if where_sql else " WHERE"
        recent = int(db.execute(f"{base}{joiner} started > ?", (*args, now - MINUTE)).fetchone()[0])
        if recent + 1 > limits.max_agents_per_minute:
            return str(PolicyDenied("max-agents-per-minute", f"sub-agent rate reached: {recent + 1} started within"
                                    f" a minute, max {limits.max_agents_per_minute} in {where}", recent + 1,
                                    limits.max_agents_per_minute))
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
