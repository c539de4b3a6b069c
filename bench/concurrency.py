"""The ledger under load (issue 18, part 8): N guard-check hooks at once, on SQLite and on PostgreSQL.

    .venv/bin/python bench/concurrency.py [--workers 8 32 64] [--calls 4] [--store sqlite|postgres|pgbouncer]
                                          [--adds 128] [--src OTHER/src --src src]

N worker threads each start ``--calls`` guard-check processes one after another (the console script next to this
interpreter, a Claude Code ``PreToolUse`` payload for ``Bash ls`` on stdin), so N hooks run at once for the whole
round, as when N agents share one ledger. Every call's wall time counts: p50, p99 and the slowest. Each worker is
its own session; a global ``--max-calls`` far above the load keeps the ledger consulted and written on every call.
A second round caps the global scope at 25 calls and counts the allowed answers: exactly 25 is the contract.

``--adds N`` starts N ``budget add`` processes at once (each its own request) and counts those that failed and
the tokens the ledger then holds. ``--src`` runs the hooks on another checkout's ``src`` (PYTHONPATH), by turns
with this one, for a before/after on the same machine load.

PostgreSQL is a throw-away server (tests/budget/pgserver.py); ``pgbouncer`` puts a real pgbouncer in transaction
mode in front of it (Debian's package). Nothing is asserted: the figures go to the README.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from table import Row

ROOT = Path(__file__).resolve().parents[1]
EXE = Path(sys.executable).with_name("boundread")
CAP = 25


@dataclass(frozen=True)
class Round:
    store: str
    workers: int
    walls: tuple[float, ...]
    allowed: int
    errors: int
    cpus: tuple[float, ...] = ()

    def pct(self, q: float) -> float:
        ordered = sorted(self.walls)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")

    def line(self) -> str:
        return (f"{self.store:9} {self.workers:3} hooks at once: p50 {statistics.median(self.walls):6.2f} s, p99 "
                f"{self.pct(0.99):6.2f} s, max {max(self.walls):6.2f} s ({len(self.walls)} calls, {self.errors} "
                f"errors; CPU {statistics.mean(self.cpus) * 1000:.0f} ms a call)")


def _payload(folder: Path, session: str) -> bytes:
    return json.dumps({"session_id": session, "transcript_path": str(folder / "t.jsonl"), "cwd": str(folder),
                       "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls"}}).encode()


def _hook(env: dict[str, str], folder: Path, session: str, n: int) -> tuple[float, float, bool | None]:
    """One guard-check: its wall time, its CPU time (user + system, from wait4), and whether it allowed (None: it
    failed)."""
    payload = json.loads(_payload(folder, session))
    payload["tool_input"] = {"command": f"ls {n}"}  # distinct calls: no --max-repeat in play
    start = time.perf_counter()
    proc = subprocess.Popen([str(EXE), "guard-check"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env, cwd=folder)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(payload).encode())
    proc.stdin.close()
    out = proc.stdout.read()
    proc.stdout.close()
    _, status, usage = os.wait4(proc.pid, 0)  # reaps the child, with its own CPU time
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    if proc.returncode not in (0, 2):
        return wall, cpu, None
    return wall, cpu, b'"deny"' not in out


def run_round(store: str, env: dict[str, str], folder: Path, workers: int, calls: int) -> Round:
    walls: list[float] = []
    cpus: list[float] = []
    verdicts: list[bool | None] = []
    lock = threading.Lock()
    go = threading.Barrier(workers)

    def worker(w: int) -> None:
        go.wait()
        for i in range(calls):
            wall, cpu, allowed = _hook(env, folder, f"bench-{workers}-{w}", i)
            with lock:
                walls.append(wall)
                cpus.append(cpu)
                verdicts.append(allowed)

    threads = [threading.Thread(target=worker, args=(w,)) for w in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return Round(store, workers, tuple(walls), verdicts.count(True), verdicts.count(None), tuple(cpus))


def _budget(env: dict[str, str], *args: str) -> None:
    subprocess.run([str(EXE), "budget", *args], env=env, check=True, capture_output=True, timeout=120)


@contextmanager
def store_env(store: str, folder: Path) -> Iterator[dict[str, str]]:
    """The environment of guard-check for ``store``: a fresh state folder, and a fresh server for PostgreSQL."""
    env = {**os.environ, "NO_COLOR": "1", "BOUNDREAD_STATE_DIR": str(folder / "state"), "PYTHONDONTWRITEBYTECODE": ""}
    env.pop("BOUNDREAD_LEDGER_URL", None)
    if store == "sqlite":
        yield env
        return
    sys.path.insert(0, str(ROOT / "tests" / "budget"))
    import pgserver

    server = pgserver.start()
    bouncer = None
    try:
        url = server.url()
        if store == "pgbouncer":
            bouncer = pgserver.start_bouncer(server)
            url = server.url(port=bouncer.port)
        yield {**env, "BOUNDREAD_LEDGER_URL": url}
    finally:
        if bouncer is not None:
            bouncer.stop()
        server.stop()


def measure(store: str, workers: list[int], calls: int, srcs: list[str | None] | None = None) -> list[Round]:
    """The rounds for each load, then the cap's round; with several ``srcs`` (checkouts), each round runs on each
    by turns, every checkout on a ledger of its own, so the machine's load drifts over all of them alike."""
    srcs = srcs or [None]
    rounds = []
    with ExitStack() as stack:
        envs = {}
        for src in srcs:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="boundread-conc-")))
            env = stack.enter_context(store_env(store, folder))
            env = {**env, "PYTHONPATH": str(Path(src).resolve())} if src else env
            _budget(env, "set", "--global", "--max-calls", "100000000")
            envs[src] = (env, folder)
        label = {src: f" [{src}]" if src else "" for src in srcs}
        for n in workers:
            for src, (env, folder) in envs.items():
                print(f"bench: {store}, {n} hooks at once{label[src]} ...", end=" ", file=sys.stderr, flush=True)
                got = run_round(f"{store}{label[src]}", env, folder, n, calls)
                print(got.line().split(": ", 1)[1], file=sys.stderr, flush=True)
                rounds.append(got)
        for env, _ in envs.values():
            _budget(env, "reset")
            _budget(env, "set", "--global", "--max-calls", str(CAP))
        for src, (env, folder) in envs.items():
            exact = run_round(store, env, folder, max(workers), 2)
            rounds.append(Round(f"{store} cap{label[src]}", exact.workers, exact.walls, exact.allowed, exact.errors,
                                exact.cpus))
    return rounds


def adds(store: str, count: int, src: str | None = None) -> tuple[int, int, int]:
    """``count`` budget add processes at once: how many failed, the input tokens held, the tokens sent."""
    with tempfile.TemporaryDirectory(prefix="boundread-adds-") as tmp, store_env(store, Path(tmp)) as env:
        env = {**env, "BOUNDREAD_BUDGET_PRICES": '{"m": {"input": 1000}}'}
        env = {**env, "PYTHONPATH": str(Path(src).resolve())} if src else env
        _budget(env, "set", "--global", "--max-calls", "1000")  # creates the ledger before the burst
        go = threading.Barrier(count)
        codes: list[int] = []

        def one(i: int) -> None:
            go.wait()
            done = subprocess.run([str(EXE), "budget", "add", "--session", f"s{i % 8}", "--model", "m", "--input",
                                   str(1000 + i)], env=env, capture_output=True, timeout=600, check=False)
            codes.append(done.returncode)

        threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        status = subprocess.run([str(EXE), "budget", "status", "--json"], env=env, capture_output=True, text=True,
                                check=True)
        scopes = json.loads(status.stdout)["scopes"]
        held = next(s for s in scopes if s["scope"] == "global")["spent"]["input"]
        return sum(1 for c in codes if c), int(held), sum(1000 + i for i in range(count))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, nargs="*", default=[8, 32, 64], help="hooks at once (none: no rounds)")
    parser.add_argument("--calls", type=int, default=4, help="guard-check calls per worker, one after another")
    parser.add_argument("--store", choices=("sqlite", "postgres", "pgbouncer"), action="append")
    parser.add_argument("--adds", type=int, default=0, help="also start this many budget add at once")
    parser.add_argument("--src", action="append", help="a src folder to run by turns (default: the installed one)")
    args = parser.parse_args(argv)
    if not EXE.exists():
        sys.exit(f"bench: {EXE} is missing: run with the project's venv python after `pip install -e .`")
    print(f"{os.cpu_count()} cores; each worker runs {args.calls} guard-check calls in a row")
    for store in args.store or ["sqlite", "postgres"]:
        for got in measure(store, args.workers, args.calls, list(args.src or [None])) if args.workers else []:
            print(_describe(got))
        for src in args.src or [None] if args.adds else []:
            failed, held, sent = adds(store, args.adds, src)
            print(f"{store:9} {args.adds} budget add at once: {failed} failed; the ledger holds {held:,} of {sent:,}"
                  f" input tokens{f' [{src}]' if src else ''}")
    return 0


def _describe(got: Round) -> str:
    if " cap" in got.store:
        return (f"{got.store:13} {got.workers} hooks x 2 calls, global --max-calls {CAP}: {got.allowed} allowed, "
                f"{got.errors} errors; p50 {statistics.median(got.walls):.2f} s, p99 {got.pct(0.99):.2f} s, CPU "
                f"{statistics.mean(got.cpus) * 1000:.0f} ms a call")
    return got.line()


def rows(calls: int = 3) -> list[Row]:
    """The rows of ``bench/run.py --only concurrency``: p50 / p99 per store and load, and the cap's allowed count."""
    out = []
    for store in ("sqlite", "postgres"):
        for got in measure(store, [8, 32, 64], calls):
            if " cap" in got.store:
                out.append(Row(f"64 hooks x 2 on a global --max-calls {CAP} ({store}): allowed", str(got.allowed),
                               target=f"= {CAP}", result="PASS" if got.allowed == CAP else "MISS"))
                continue
            p99 = got.pct(0.99)
            what = f"guard-check, {got.workers} hooks at once ({store}): p50 / p99"
            out.append(Row(what, f"{statistics.median(got.walls):.2f} / {p99:.2f} s",
                           target="p99 < 2 s" if got.workers == 64 else "-",
                           result=("PASS" if p99 < 2 else "MISS") if got.workers == 64 else "info"))
    return out

if __name__ == "__main__":
    sys.exit(main())
