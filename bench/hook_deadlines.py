"""The hooks' deadlines in seconds, as ratios of the bound each one promises (issue 20 part 6).

    .venv/bin/python bench/hook_deadlines.py [--postgres] [--repeat 3]

The unit tests assert that each wait ends by its own deadline (the message names it, the stall outlasts it);
the seconds themselves are measured here, on this machine's load, and compared with what the user is promised:

- guard-check on a SQLite ledger another process keeps locked (exclusive), against the 10 s timeout `init`
  writes in the agents' settings;
- guard-check when the client leaves stdin open after the payload, against STDIN_DEADLINE;
- with ``--postgres``, guard-check behind a PostgreSQL server that stops answering mid-call (a throw-away server
  and a stalling proxy, tests/budget/pgserver.py), against the 10 s timeout;
- the guard's own speed on what used to be timed in the tests: 200 reads of devices (nothing is opened), and a
  command with a 300,000-character word (the tree-sitter parse is linear).

Nothing is asserted: a ratio near or above 1 is a finding for the README.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
CONSOLE = "import sys; sys.argv[1:] = ['guard-check']; from boundread.__main__ import main; main()"
HOOK_TIMEOUT_S = 10.0  # what `boundread init` writes in every agent's settings


def _payload(cwd: Path, session: str) -> str:
    return json.dumps({"session_id": session, "hook_event_name": "PreToolUse", "tool_name": "Bash",
                       "tool_input": {"command": "ls"}, "cwd": str(cwd), "tool_use_id": f"t-{time.time_ns()}"})


def _env(state: Path, **more: str) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(SRC), "BOUNDREAD_STATE_DIR": str(state), **more}


def _hook(cwd: Path, env: dict[str, str], session: str) -> float:
    start = time.monotonic()
    subprocess.run([sys.executable, "-c", CONSOLE], input=_payload(cwd, session), capture_output=True, text=True,
                   env=env, cwd=cwd, timeout=120, check=False)
    return time.monotonic() - start


def _row(what: str, seconds: list[float], bound: float, bound_name: str) -> None:
    worst = max(seconds)
    print(f"{what:<58} p50 {statistics.median(seconds):6.2f} s  worst {worst:6.2f} s  "
          f"/ {bound_name} {bound:g} s = {worst / bound:4.2f}")


def locked_sqlite(work: Path, repeat: int) -> None:
    sys.path.insert(0, str(SRC))
    os.environ["BOUNDREAD_STATE_DIR"] = str(work / "state")
    from boundread.budget.ledger import ledger_path
    from boundread.budget.model import BudgetLimits, Scope
    from boundread.budget.sqlite import SqliteLedger

    with SqliteLedger() as ledger:
        ledger.set_limits(Scope("session", "capped"), BudgetLimits(max_calls=1000))
    code = (f"import sqlite3, time\ndb = sqlite3.connect({str(ledger_path())!r}, isolation_level=None)\n"
            "db.execute('PRAGMA locking_mode = EXCLUSIVE'); db.execute('BEGIN EXCLUSIVE')\n"
            "print('held', flush=True); time.sleep(600)\n")
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        times = [_hook(work, _env(work / "state"), "capped") for _ in range(repeat)]
    finally:
        holder.kill()
        holder.wait()
    _row("guard-check, SQLite ledger locked elsewhere", times, HOOK_TIMEOUT_S, "init's timeout")


def stdin_left_open(work: Path, repeat: int) -> None:
    sys.path.insert(0, str(SRC))
    from boundread.hook.stdin import STDIN_DEADLINE

    times = []
    for _ in range(repeat):
        with subprocess.Popen([sys.executable, "-c", CONSOLE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, env=_env(work / "state"), cwd=work) as child:
            assert child.stdin is not None and child.stdout is not None
            start = time.monotonic()
            child.stdin.write(_payload(work, "open").encode())
            child.stdin.flush()
            child.stdout.read()  # the answer, while stdin is still open
            times.append(time.monotonic() - start)
            child.stdin.close()
    _row("guard-check, stdin left open after the payload", times, STDIN_DEADLINE, "STDIN_DEADLINE")


def stalled_postgres(work: Path, repeat: int) -> None:
    sys.path.insert(0, str(ROOT / "tests" / "budget"))
    import pgserver

    from boundread.budget.model import BudgetLimits, Scope
    from boundread.budget.postgres import PostgresLedger

    server = pgserver.start()
    try:
        with PostgresLedger(server.url()) as ledger:
            ledger.set_limits(Scope("global"), BudgetLimits(max_calls=100_000))
        times = []
        for _ in range(repeat):
            proxy = pgserver.Stall(server.port, up=b"FOR UPDATE", close_s=120.0)
            url = server.url().replace(f":{server.port}/", f":{proxy.port}/")
            _hook(work, _env(work / "pg", BOUNDREAD_LEDGER_URL=server.url()), "seen")  # the limits cached here
            times.append(_hook(work, _env(work / "pg", BOUNDREAD_LEDGER_URL=url), "seen"))
            proxy.close()
        _row("guard-check, PostgreSQL that stops answering under the lock", times, HOOK_TIMEOUT_S, "init's timeout")
    finally:
        server.stop()


def guard_speed(work: Path, repeat: int) -> None:
    sys.path.insert(0, str(SRC))
    from boundread.guard import check_command, check_read

    devices, words = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(200):
            check_read("/dev/zero")
            check_read("/dev/stdin")
        devices.append(time.perf_counter() - start)
        start = time.perf_counter()
        check_command("cat " + "a" * 300_000, cwd=str(work))
        words.append(time.perf_counter() - start)
    _row("400 device reads decided (stat and name)", devices, HOOK_TIMEOUT_S, "init's timeout")
    _row("a command with a 300,000-character word", words, HOOK_TIMEOUT_S, "init's timeout")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", action="store_true", help="also time a stalled PostgreSQL ledger")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="boundread-deadlines-") as folder:
        work = Path(folder)
        os.environ["XDG_CONFIG_HOME"] = str(work / "xdg")
        guard_speed(work, args.repeat)
        stdin_left_open(work, args.repeat)
        locked_sqlite(work, args.repeat)
        if args.postgres:
            stalled_postgres(work, args.repeat)


if __name__ == "__main__":
    main()
