"""The ledger schema as ordered migrations; ``PRAGMA user_version`` says how many have run.

Never edit a released step: append a new one. An older ledger opens in a newer boundread by running the rest.
"""

from __future__ import annotations

V1 = (
    "CREATE TABLE limits(scope TEXT PRIMARY KEY, max_tokens INTEGER, max_usd TEXT, max_depth INTEGER,"
    " max_calls INTEGER, max_repeat INTEGER)",
    "CREATE TABLE sessions(id TEXT PRIMARY KEY, project TEXT, input INTEGER NOT NULL DEFAULT 0,"
    " output INTEGER NOT NULL DEFAULT 0, cache_read INTEGER NOT NULL DEFAULT 0,"
    " cache_write INTEGER NOT NULL DEFAULT 0, cost_nanos INTEGER NOT NULL DEFAULT 0,"
    " calls INTEGER NOT NULL DEFAULT 0, depth INTEGER NOT NULL DEFAULT 0)",
    "CREATE TABLE usage(id INTEGER PRIMARY KEY, session TEXT NOT NULL, key TEXT, model TEXT NOT NULL,"
    " input INTEGER NOT NULL, output INTEGER NOT NULL, cache_read INTEGER NOT NULL,"
    " cache_write INTEGER NOT NULL, cost_nanos INTEGER NOT NULL, UNIQUE(session, key))",
    "CREATE TABLE calls(id INTEGER PRIMARY KEY, session TEXT NOT NULL, tool TEXT NOT NULL,"
    " digest TEXT NOT NULL, depth INTEGER NOT NULL, allowed INTEGER NOT NULL)",
    "CREATE INDEX calls_by_session ON calls(session, id)",
    "CREATE TABLE offsets(path TEXT PRIMARY KEY, offset INTEGER NOT NULL)",
)

V2 = (  # forbidden tools, ingest warnings, unknown-model flags, which session a transcript fed
    "ALTER TABLE limits ADD COLUMN deny_tools TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE sessions ADD COLUMN warnings INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE usage ADD COLUMN flagged INTEGER NOT NULL DEFAULT 0",
    "ALTER TABLE usage ADD COLUMN price_source TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE offsets ADD COLUMN session TEXT",
    "CREATE INDEX sessions_by_project ON sessions(project)",
)

V3 = (  # one request counts once in the whole ledger: resumed sessions and sub-agent copies re-log messages
    "ALTER TABLE usage ADD COLUMN message TEXT",
    "ALTER TABLE usage ADD COLUMN sidechain INTEGER NOT NULL DEFAULT 0",
    "UPDATE usage SET message = CASE WHEN instr(key, ':') > 0 THEN substr(key, 1, instr(key, ':') - 1) ELSE key END"
    " WHERE key IS NOT NULL AND key NOT LIKE '@%'",
    "CREATE INDEX usage_by_key ON usage(key)",
    "CREATE INDEX usage_by_message ON usage(message)",
)

V4 = (  # issue 18: the session ends at the cap, sub-agents have a real depth, spawns are gated
    "ALTER TABLE limits ADD COLUMN max_agents INTEGER",
    "ALTER TABLE limits ADD COLUMN max_agents_per_minute INTEGER",
    "ALTER TABLE limits ADD COLUMN allow_overshoot INTEGER",
    "ALTER TABLE usage ADD COLUMN agent TEXT",  # the sub-agent that spent it (NULL: the session's main agent)
    "ALTER TABLE usage ADD COLUMN at REAL",  # when it was recorded (Unix seconds): the spend curve's order
    "CREATE TABLE agents(session TEXT NOT NULL, agent TEXT NOT NULL, parent TEXT, depth INTEGER NOT NULL,"
    " started REAL NOT NULL, ended REAL, PRIMARY KEY(session, agent))",  # ended: its SubagentStop came
    "CREATE INDEX agents_by_start ON agents(session, started)",
    "ALTER TABLE sessions ADD COLUMN halted TEXT",  # why the budget ended the session (NULL: it may go on)
)

V5 = (  # issue 18: a tool call is recorded once, under an id chosen before the write (a retried or lost write)
    "ALTER TABLE calls ADD COLUMN call_id TEXT",  # the payload's tool_use_id, else one the hook drew
    "ALTER TABLE calls ADD COLUMN reason TEXT",  # the deny reason given (NULL: allowed): a retry gets the same answer
    "CREATE UNIQUE INDEX calls_by_call_id ON calls(session, call_id)",
)

# issue 21: PostgreSQL keeps the guard's decisions (``boundread stats``) in the ledger (pgschema.V6). SQLite keeps them
# in a file of their own beside it (``DECISIONS_FILE``): a deny must not create the budget ledger, whose presence
# puts the budget check on every later tool call (+8-10 ms each, measured). This step only keeps the numbers one.
V6: tuple[str, ...] = ()

MIGRATIONS: tuple[tuple[str, ...], ...] = (V1, V2, V3, V4, V5, V6)
CURRENT_VERSION = len(MIGRATIONS)

# The guard's decisions (budget/decisions.py writes them, ``boundread stats`` reads them): one row per call it refused
# (deny), rewrote to a bounded one (redirect) or whose output it replaced after the call (backstop). ``target``: the
# file's path, or a digest of a call that names none; ``raw_bytes``: what the agent asked for (the file's size on
# disk, the output's size), NULL when not measured; ``delivered_bytes``: what the model got instead (the reason, the
# slice and its note, the replacement), NULL when known only after the call ran. ``at``: Unix seconds. ``key``: drawn
# by the hook, so that a row written twice (a journal folded again) counts once.
DECISIONS_TABLE = (
    "CREATE TABLE decisions(id INTEGER PRIMARY KEY, session TEXT NOT NULL, project TEXT, agent TEXT NOT NULL,"
    " tool TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL, raw_bytes INTEGER, delivered_bytes INTEGER,"
    " at REAL NOT NULL, key TEXT)",
    "CREATE INDEX decisions_by_session ON decisions(session, at)",
    "CREATE INDEX decisions_by_project ON decisions(project, at)",
    "CREATE UNIQUE INDEX decisions_by_key ON decisions(key)",
)
DECISIONS_FILE = "decisions.sqlite3"  # SQLite's store of them, in the state folder beside budget.sqlite3
DECISIONS_JOURNAL = "decisions.journal"  # where guard-check appends them for it (budget/decided.py has the format)
DECISION_STEPS: tuple[tuple[str, ...], ...] = (DECISIONS_TABLE,)  # its own migrations (``PRAGMA user_version``)
DECISION_COLS = "session, project, agent, tool, kind, target, raw_bytes, delivered_bytes, at"
RECORD_DECISION = (f"INSERT INTO decisions({DECISION_COLS}, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                   " ON CONFLICT(key) DO NOTHING")

# How the tables are used, shared by the ledger (ledger.py, the Python API and CLI) and the hook's lean path
# (hookpath.py): both read and record through these, so the schema has one definition. No imports here:
# the hook path imports this module on every call.
BUSY_MS = 3_000  # how long one statement waits for another writer: twice fits in the hook's WAIT_S
WAIT_S = 6.0  # all the hook's ledger waits (locks, a server), so guard-check answers by 8 s (init: timeout 10)
WRITE_WAIT_S = 30.0  # how long a command retries an idempotent write that meets a lock (budget add, ingest, set)
LIMIT_COLS = ("max_tokens, max_usd, max_depth, max_calls, max_repeat, deny_tools, max_agents, max_agents_per_minute,"
              " allow_overshoot")
LIMIT_MARKS = ", ".join("?" * (LIMIT_COLS.count(",") + 2))  # the scope key and every limit column
SCOPE_WHERE = {"session": "WHERE id = ?", "project": "WHERE project = ?", "global": ""}  # over `sessions`
# A session keeps the first project it was seen in: a later call from a subfolder (another cwd) is still the
# project's, so that the project's cap applies to it (the checks read the project back with SESSION_PROJECT).
TOUCH_SESSION = (
    "INSERT INTO sessions(id, project) VALUES (?, ?) ON CONFLICT(id) DO UPDATE"
    " SET project = COALESCE(sessions.project, excluded.project)"
)
SESSION_PROJECT = "SELECT project FROM sessions WHERE id = ?"
# Appended to a ``limits`` query over ``scope IN (...)``, with the session id twice as the last parameters: also the
# limits of the session's own project, and a row "@<project>" naming it, so that the hook learns in the same trip
# a project other than its payload's (hookpath.own_project).
WITH_SESSION_PROJECT = (
    " OR scope = (SELECT 'project:' || project FROM sessions WHERE id = ?)"
    f" UNION ALL SELECT '@' || project, {', '.join(['NULL'] * len(LIMIT_COLS.split(',')))} FROM sessions"
    " WHERE id = ? AND project IS NOT NULL"
)
RECENT_DIGESTS = "SELECT digest FROM calls WHERE session = ? ORDER BY id DESC LIMIT ?"  # most recent first
RECORD_CALL = "INSERT INTO calls(session, tool, digest, depth, allowed) VALUES (?, ?, ?, ?, ?)"
RECORD_CALL_ID = ("INSERT INTO calls(session, tool, digest, depth, allowed, call_id, reason)"
                  " VALUES (?, ?, ?, ?, ?, ?, ?)")
CALL_BY_ID = "SELECT allowed, reason FROM calls WHERE session = ? AND call_id = ?"  # a call recorded before: its answer
# What a scope spent, as ``rows.totals_of`` sums it (without the unpriced models, which no verdict reads)
SPENT = ("SELECT CAST(COALESCE(SUM(input), 0) AS BIGINT), CAST(COALESCE(SUM(output), 0) AS BIGINT),"
         " CAST(COALESCE(SUM(cache_read), 0) AS BIGINT), CAST(COALESCE(SUM(cache_write), 0) AS BIGINT),"
         " CAST(COALESCE(SUM(cost_nanos), 0) AS BIGINT), CAST(COALESCE(SUM(calls), 0) AS BIGINT),"
         " CAST(COALESCE(MAX(depth), 0) AS BIGINT), CAST(COALESCE(SUM(warnings), 0) AS BIGINT) FROM sessions ")
COUNT_CALL = "UPDATE sessions SET calls = calls + ?, depth = MAX(depth, ?) WHERE id = ?"  # allowed calls only
COUNT_CALL_PG = COUNT_CALL.replace("MAX(", "GREATEST(")  # PostgreSQL's two-argument maximum


def scope_key(kind: str, name: str = "") -> str:
    """The ``limits.scope`` value: ``global``, ``session:<id>`` or ``project:<dir>``."""
    return kind if kind == "global" else f"{kind}:{name}"


def clean(text: str) -> str:
    """``text`` as every store keeps it: NUL and lone surrogates as U+FFFD.

    PostgreSQL refuses NUL in text, libpq's C strings stop at it, and a lone surrogate (``"\\ud800"``, from JSON
    or a file name) is no UTF-8 for any of them: the same id is then the same key in SQLite, in PostgreSQL and
    on the hook's libpq path, and it never fails a write.
    """
    if "\0" in text:
        text = text.replace("\0", "\ufffd")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = "".join("\ufffd" if "\ud800" <= ch <= "\udfff" else ch for ch in text)
    return text


def clean_params(params: tuple[object, ...] | list[object]) -> tuple[object, ...]:
    """``clean`` over the text parameters of one statement."""
    return tuple(clean(v) if isinstance(v, str) else v for v in params)
