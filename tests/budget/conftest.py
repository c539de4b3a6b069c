"""The ``backend`` fixture: each ledger test runs on SQLite and on a real PostgreSQL server.

The server starts once per test run (pgserver.py); each test gets its own schema in it, named in the URL's
``search_path``, so tests never see each other's rows. In CI (``CI`` set, and not to ``0``, ``false`` or ``no``)
a server that cannot start fails the tests instead of skipping them.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterator

import pgserver
import pytest

_SCHEMAS = itertools.count(1)


@pytest.fixture(autouse=True)
def _sqlite_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """A ledger URL in the developer's environment must not send the tests to that database."""
    monkeypatch.delenv("BOUNDREAD_LEDGER_URL", raising=False)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[pgserver.Server]:
    try:
        server = pgserver.start()
    except (RuntimeError, OSError, PermissionError) as exc:
        if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
            pytest.fail(f"PostgreSQL ledger tests need a server: {exc}")
        pytest.skip(f"PostgreSQL ledger tests need a server: {exc}")
    yield server
    server.stop()


@pytest.fixture
def new_pg_url(pg_server: pgserver.Server) -> Callable[[], str]:
    """Make URLs, each to an empty schema of its own on the test server."""

    def make() -> str:
        import psycopg

        schema = f"t{os.getpid()}_{next(_SCHEMAS)}"
        with psycopg.connect(pg_server.url(), autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        return pg_server.url(f"options=-csearch_path%3D{schema}")

    return make


@pytest.fixture
def pg_url(new_pg_url: Callable[[], str]) -> str:
    """A URL to an empty schema of its own on the test server."""
    return new_pg_url()


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The store ``open_ledger()`` gives in this test: ``sqlite``, or ``postgres`` (``BOUNDREAD_LEDGER_URL``)."""
    if request.param == "postgres":
        monkeypatch.setenv("BOUNDREAD_LEDGER_URL", request.getfixturevalue("pg_url"))
    else:
        monkeypatch.delenv("BOUNDREAD_LEDGER_URL", raising=False)
    return str(request.param)
