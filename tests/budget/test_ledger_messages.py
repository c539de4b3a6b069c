"""Issue 18, part 8: the ledger's messages - no piece of a password, and ``budget recover`` only where it helps.

A password with an unencoded ``@`` or ``/`` reached libpq, which read its pieces as a host, a port or a database
and quoted them back (``invalid port number: "Wv3"``). And every SQLite failure that was not a lock sent the user
to ``budget recover``, which cannot mend a read-only folder or a full disk (it fails to move the file aside) -
real faults here: a small tmpfs, remounted read-only or filled up (the tests run as root, as CI does).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pgserver
import psycopg
import pytest
from typer.testing import CliRunner

from boundread.budget import enforce, libpq
from boundread.budget.errors import LedgerError
from boundread.budget.model import BudgetLimits, Scope
from boundread.budget.postgres import PostgresLedger
from boundread.budget.sqlite import SqliteLedger
from boundread.cli.budget import budget_app

PASSWORD = "Qx7@Zk9/Wv3:Jm5%Yp?Rt8#Hn2&Lb4"
PIECES = ("Qx7", "Zk9", "Wv3", "Jm5", "Rt8", "Hn2", "Lb4")
RECOVER = "budget recover"


@pytest.fixture(scope="module")
def fleet_role(pg_server: pgserver.Server) -> str:
    """A role whose password has every character a URL must encode."""
    with psycopg.connect(pg_server.url(), autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS fleet")
        conn.execute(f"CREATE ROLE fleet LOGIN SUPERUSER PASSWORD '{PASSWORD}'")
    return f"127.0.0.1:{pg_server.port}/postgres"


def _no_piece(*texts: str) -> None:
    for text in texts:
        shown = [piece for piece in PIECES if piece in text]
        assert not shown, (shown, text)


@pytest.mark.parametrize("lean", [True, False], ids=["libpq", "psycopg"])
@pytest.mark.parametrize("form", ["raw URL", "keyword string"])
def test_an_unencoded_password_shows_no_piece_of_itself(
    fleet_role: str, lean: bool, form: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    host, _, rest = fleet_role.partition(":")
    port = rest.split("/", 1)[0]
    url = (f"postgresql://fleet:{PASSWORD}@{fleet_role}" if form == "raw URL"
           else f"host={host} port={port} user=fleet dbname=postgres password=Qx7 Zk9")
    if not lean:
        monkeypatch.setattr(libpq, "LIBPQ", ("libpq-that-is-not-there.so",))
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", url)
    reason = enforce.check_tool_call({"session_id": "s"}, "Bash", {"command": "ls"})
    err = capsys.readouterr().err
    assert reason is None and "boundread: warning:" in err  # no budget seen on this machine: allowed, warned
    _no_piece(err)
    with pytest.raises(LedgerError) as caught:
        PostgresLedger(url)
    _no_piece(str(caught.value))
    assert "percent-encode" in str(caught.value) or "password='...'" in str(caught.value)
    status = CliRunner().invoke(budget_app, ["status"])
    assert status.exit_code != 0
    _no_piece(status.output)


@pytest.mark.parametrize("lean", [True, False], ids=["libpq", "psycopg"])
def test_the_password_encoded_as_the_message_says_works(
    fleet_role: str, lean: bool, monkeypatch: pytest.MonkeyPatch, pg_url: str
) -> None:
    schema = pg_url.split("search_path%3D", 1)[1]
    url = f"postgresql://fleet:{quote(PASSWORD, safe='')}@{fleet_role}?options=-csearch_path%3D{schema}"
    with PostgresLedger(url) as ledger:
        ledger.set_limits(Scope("session", "s"), BudgetLimits(max_calls=1))
    if not lean:
        monkeypatch.setattr(libpq, "LIBPQ", ("libpq-that-is-not-there.so",))
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", url)
    assert enforce.check_tool_call({"session_id": "s"}, "Bash", {"command": "ls"}) is None
    reason = enforce.check_tool_call({"session_id": "s"}, "Bash", {"command": "pwd"})
    assert reason is not None and "call 2 of max 1" in reason


@pytest.fixture
def small_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A 2 MiB tmpfs as the state folder's disk, with a ledger that has a budget for session ``b``."""
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True,
                          text=True, check=False)
    if done.returncode:
        pytest.fail(f"these tests mount a tmpfs (CI runs as root): {done.stderr.strip()}")
    monkeypatch.setenv("BOUNDREAD_STATE_DIR", str(mount / "state"))
    with SqliteLedger() as ledger:
        ledger.set_limits(Scope("session", "b"), BudgetLimits(max_calls=50))
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def _deny_reason(session: str) -> str:
    reason = enforce.check_tool_call({"session_id": session}, "Bash", {"command": "ls"})
    assert reason is not None
    return reason


def _cli_error(*args: str) -> str:
    done = CliRunner().invoke(budget_app, list(args))
    assert done.exit_code == 6 and done.stderr.count("\n") == 1, done.output
    return str(done.stderr)


def test_a_read_only_folder_is_named_and_recover_is_not(small_disk: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    reason = _deny_reason("b")
    assert "read-only" in reason and "writable" in reason and RECOVER not in reason, reason
    err = _cli_error("add", "--session", "b", "--model", "m", "--input", "1")
    assert "read-only" in err and RECOVER not in err, err
    assert enforce.check_tool_call({"session_id": "free"}, "Bash", {"command": "ls"}) is None


def test_a_full_disk_is_named_and_recover_is_not(small_disk: Path) -> None:
    with open(small_disk / "filler", "wb") as filler:
        try:
            while True:
                filler.write(b"\0" * 65536)
                filler.flush()
        except OSError:
            pass
    reason = _deny_reason("b")
    assert "full" in reason and "free space" in reason and RECOVER not in reason, reason
    err = _cli_error("add", "--session", "b", "--model", "m", "--input", "1")
    assert "full" in err and RECOVER not in err, err


def test_a_damaged_ledger_still_names_recover(small_disk: Path) -> None:
    path = small_disk / "state" / "budget.sqlite3"
    for tail in ("-wal", "-shm"):
        Path(f"{path}{tail}").unlink(missing_ok=True)
    path.write_bytes(b"this is no database" * 300)
    assert RECOVER in _deny_reason("b")
    assert RECOVER in _cli_error("status")
    assert json.loads(CliRunner().invoke(budget_app, ["recover", "--json"]).stdout)["changed"] is True
