"""What `budget status` pays for a session's spend curve (issue 18, part 7): one session of N requests beside others.

    .venv/bin/python bench/status_curve.py [--requests 100000] [--others 100000] [--store sqlite|postgres]

The ledger gets ``--others`` requests of other sessions, then the session's ``--requests`` (add_usage batches of
2,000, a sub-agent every third request), and ``budget.history.read`` (40 buckets and the per-agent sums) runs three
times: the best and the worst wall time, and how many rows it read. PostgreSQL is a throw-away server
(tests/budget/pgserver.py). Nothing is asserted: the figures go to the README.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _records(prefix: str, n: int, agents: bool) -> list[Any]:
    from boundread.budget.model import UsageRecord

    return [UsageRecord("claude-sonnet-4-5", 5, 300, 2000 + i, 200, cost=Decimal("0.00001"), key=f"{prefix}{i}",
                        agent=f"sub{i % 7}" if agents and i % 3 == 0 else None) for i in range(n)]


def measure(requests: int, others: int) -> None:
    from boundread.budget import history
    from boundread.budget.ledger import open_ledger

    with open_ledger() as ledger:
        started = time.perf_counter()
        for session, records in (("others", _records("o", others, False)), ("big", _records("b", requests, True))):
            for i in range(0, len(records), 2_000):  # a batch a transaction can hold within its time bound
                ledger.add_usage(session, records[i:i + 2_000])
                if os.environ.get("BOUNDREAD_LEDGER_URL"):  # fresh statistics: without them PostgreSQL looks
                    ledger._db.execute("ANALYZE usage")  # type: ignore[attr-defined]  # a key up in id order
        print(f"recorded {requests:,} + {others:,} requests in {time.perf_counter() - started:.1f} s")
        walls = []
        for _ in range(3):
            started = time.perf_counter()
            found = history.session_history(ledger, "big")
            walls.append(time.perf_counter() - started)
    rows = len(found.buckets) + len(found.agents)
    print(f"history.read of {found.requests:,} requests: best {min(walls):.3f} s, worst {max(walls):.3f} s,"
          f" {rows} rows ({len(found.buckets)} buckets, {len(found.agents)} agents)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--others", type=int, default=100_000)
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as state:
        os.environ["BOUNDREAD_STATE_DIR"] = state
        os.environ.pop("BOUNDREAD_LEDGER_URL", None)
        if args.store == "sqlite":
            measure(args.requests, args.others)
            return
        sys.path.insert(0, str(ROOT / "tests" / "budget"))
        import pgserver

        server = pgserver.start()
        try:
            os.environ["BOUNDREAD_LEDGER_URL"] = server.url()
            measure(args.requests, args.others)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
