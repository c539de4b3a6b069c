"""The ledger schema in PostgreSQL's words: the same steps as schema.py, the same version numbers.

SQLite's ``INTEGER`` is 64-bit and its ``PRAGMA user_version`` holds the step reached; here the counts are
``BIGINT``, row ids ``BIGSERIAL``, ``sessions.seq`` keeps their insertion order (SQLite's ``rowid``) and the
table ``boundread_schema`` holds the version. Never edit a released step: append one to both files.
No imports: the hook path imports this module.
"""

from __future__ import annotations

V1 = (
    "CREATE TABLE limits(scope TEXT PRIMARY KEY, max_tokens BIGINT, max_usd TEXT, max_depth BIGINT,"
    " max_calls BIGINT, max_repeat BIGINT)",
    "CREATE TABLE sessions(id TEXT PRIMARY KEY, project TEXT, input BIGINT NOT NULL DEFAULT 0,"
    " output BIGINT NOT NULL DEFAULT 0, cache_read BIGINT NOT NULL DEFAULT 0,"
    " cache_write BIGINT NOT NULL DEFAULT 0, cost_nanos BIGINT NOT NULL DEFAULT 0,"
    " calls BIGINT NOT NULL DEFAULT 0, depth BIGINT NOT NULL DEFAULT 0, seq BIGSERIAL)",
    "CREATE TABLE usage(id BIGSERIAL PRIMARY KEY, session TEXT NOT NULL, key TEXT, model TEXT NOT NULL,"
    " input BIGINT NOT NULL, output BIGINT NOT NULL, cache_read BIGINT NOT NULL,"
    " cache_write BIGINT NOT NULL, cost_nanos BIGINT NOT NULL, UNIQUE(session, key))",
    "CREATE TABLE calls(id BIGSERIAL PRIMARY KEY, session TEXT NOT NULL, tool TEXT NOT NULL,"
    " digest TEXT NOT NULL, depth BIGINT NOT NULL, allowed BIGINT NOT NULL)",
    "CREATE INDEX calls_by_session ON calls(session, id)",
    'CREATE TABLE offsets(path TEXT PRIMARY KEY, "offset" BIGINT NOT NULL)',
)

V2 = (
    "ALTER TABLE limits ADD COLUMN deny_tools TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE sessions ADD COLUMN warnings BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE usage ADD COLUMN flagged BIGINT NOT NULL DEFAULT 0",
    "ALTER TABLE usage ADD COLUMN price_source TEXT NOT NULL DEFAULT ''",
    "ALTER TABLE offsets ADD COLUMN session TEXT",
    "CREATE INDEX sessions_by_project ON sessions(project)",
)

V3 = (
    "ALTER TABLE usage ADD COLUMN message TEXT",
    "ALTER TABLE usage ADD COLUMN sidechain BIGINT NOT NULL DEFAULT 0",
    "UPDATE usage SET message = CASE WHEN strpos(key, ':') > 0 THEN substr(key, 1, strpos(key, ':') - 1) ELSE key"
    " END WHERE key IS NOT NULL AND key NOT LIKE '@%'",
    "CREATE INDEX usage_by_key ON usage(key)",
    "CREATE INDEX usage_by_message ON usage(message)",
)

V4 = (
    "ALTER TABLE limits ADD COLUMN max_agents BIGINT",
    "ALTER TABLE limits ADD COLUMN max_agents_per_minute BIGINT",
    "ALTER TABLE limits ADD COLUMN allow_overshoot BIGINT",
    "ALTER TABLE usage ADD COLUMN agent TEXT",
    "ALTER TABLE usage ADD COLUMN at DOUBLE PRECISION",
    "CREATE TABLE agents(session TEXT NOT NULL, agent TEXT NOT NULL, parent TEXT, depth BIGINT NOT NULL,"
    " started DOUBLE PRECISION NOT NULL, ended DOUBLE PRECISION, PRIMARY KEY(session, agent))",
    "CREATE INDEX agents_by_start ON agents(session, started)",
    "ALTER TABLE sessions ADD COLUMN halted TEXT",
)

V5 = (
    "ALTER TABLE calls ADD COLUMN call_id TEXT",
    "ALTER TABLE calls ADD COLUMN reason TEXT",
    "CREATE UNIQUE INDEX calls_by_call_id ON calls(session, call_id)",
)

V6 = (  # issue 21: the guard's decisions (schema.DECISIONS_TABLE), here in the fleet's ledger
    "CREATE TABLE decisions(id BIGSERIAL PRIMARY KEY, session TEXT NOT NULL, project TEXT, agent TEXT NOT NULL,"
    " tool TEXT NOT NULL, kind TEXT NOT NULL, target TEXT NOT NULL, raw_bytes BIGINT, delivered_bytes BIGINT,"
    " at DOUBLE PRECISION NOT NULL, key TEXT)",
    "CREATE INDEX decisions_by_session ON decisions(session, at)",
    "CREATE INDEX decisions_by_project ON decisions(project, at)",
    "CREATE UNIQUE INDEX decisions_by_key ON decisions(key)",
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (V1, V2, V3, V4, V5, V6)
VERSION_TABLE = "CREATE TABLE IF NOT EXISTS boundread_schema(version INTEGER NOT NULL)"
VERSION = "SELECT version FROM boundread_schema"
CONNECT_S = 2  # a server that is down or slow: the hook gives up after this, then the error policy applies
STATEMENT_MS = 10_000  # how long one of a command's operations may take (lock waits, a server that stops answering)
COMMAND_S = STATEMENT_MS // 1000 + CONNECT_S  # a budget command behind a server that stops answering: one line by then
ANSWER_S = 6  # everything guard-check waits for on this ledger (as schema.WAIT_S): it answers by 8 s, timeout 10
# pg_advisory_xact_lock keys ("brd" + n): one ingest or reset at a time (dedup reads then writes), one migration
USAGE_LOCK, LIMITS_LOCK, MIGRATE_LOCK = 0x62726401, 0x62726402, 0x62726403
LOCK_SCOPES = "SELECT scope FROM limits WHERE scope IN ({marks}) ORDER BY scope FOR UPDATE"
CACHE = "budget.postgres.limits.json"  # in the state folder: the limits last seen, for when the server is down
