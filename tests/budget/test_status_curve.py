"""Issue 18, part 7: `budget status` shows a session's spend curve (tokens and USD over its requests, the cap as
a line) and which agent spent it, read in bounded SQL (buckets, per-agent sums) from either store."""

from __future__ import annotations

import json
import re
import sqlite3
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boundread.budget import history
from boundread.budget.ledger import open_ledger
from boundread.budget.model import BudgetLimits, Scope, UsageRecord
from boundread.cli.budget import budget_app
from boundread.render.spend import BLOCKS, HEIGHT, chart, compact, compact_usd

runner = CliRunner()


def _record(i: int, agent: str | None = None, *, keyed: bool = True) -> UsageRecord:
    """Request ``i``: counts and a cost that differ from one request to the next, so a wrong bucket shows.
    Unkeyed, it is recorded without the dedup lookup (half the round trips of a big batch on PostgreSQL)."""
    return UsageRecord("claude-sonnet-4-5", i % 7, 10 + i % 13, 100 * (i % 5), i % 3,
                       cost=Decimal(i % 11 + 1) / Decimal(1_000_000), key=f"r{i}" if keyed else None, agent=agent)


class _Counting:
    """A ledger connection that counts the rows its queries hand back: what `history` reads, not what SQL scans."""

    def __init__(self, db: Any) -> None:
        self.db, self.rows = db, 0

    def execute(self, sql: str, params: Any = ()) -> _Counting:
        self.cursor = self.db.execute(sql, params)
        return self

    def fetchall(self) -> list[Any]:
        found = list(self.cursor.fetchall())
        self.rows += len(found)
        return found

    def fetchone(self) -> Any:
        self.rows += 1
        return self.cursor.fetchone()


def _store(ledger: Any) -> Any:
    return ledger._db


def test_buckets_are_exact_sums_in_request_order(backend: str) -> None:
    """1,003 requests of one session, interleaved with another's: 40 buckets of 25 or 26 requests in id order,
    each the exact sum of its requests; the running totals end at the session's totals."""
    mine = [_record(i) for i in range(1003)]
    with open_ledger() as ledger:
        for start in range(0, 1003, 100):
            ledger.add_usage("s", mine[start:start + 100])
            ledger.add_usage("other", [_record(10_000 + start)])
        found = history.curve(_store(ledger), "s", 40)
        totals = ledger.totals(Scope("session", "s"))
    assert len(found) == 40 and {b.requests for b in found} == {25, 26}
    assert [b.first for b in found] == [1 + sum(b.requests for b in found[:k]) for k in range(40)]
    for bucket in found:
        part = mine[bucket.first - 1:bucket.first - 1 + bucket.requests]
        assert bucket.tokens == sum(r.tokens for r in part)
        assert bucket.cost == sum((r.cost for r in part), Decimal(0))
        assert bucket.subagent_tokens == 0
    assert sum(b.tokens for b in found) == totals.tokens and sum(b.cost for b in found) == totals.cost


def test_a_session_of_20000_requests_reads_only_its_buckets(backend: str) -> None:
    """20,000 requests (one add_usage batch on SQLite): the curve is 40 rows from the ledger (not 20,000), 500
    requests each, and the totals are exact; a chart as wide as a 40-column terminal asks for 30.

    PostgreSQL gets batches of 2,000: a transaction there is bounded in time (the store's STATEMENT_MS), and
    20,000 round trips can outlast it on a loaded machine - what is read back is the same."""
    records = [_record(i, None if i % 4 else f"sub{i % 3}", keyed=False) for i in range(20_000)]
    batch = len(records) if backend == "sqlite" else 2_000
    with open_ledger() as ledger:
        assert sum(ledger.add_usage("big", records[i:i + batch]) for i in range(0, len(records), batch)) == 20_000
        counting = _Counting(_store(ledger))
        found = history.read(counting, "big")
        narrow = history.curve(_store(ledger), "big", 30)
    assert len(found.buckets) == 40 and {b.requests for b in found.buckets} == {500}
    assert counting.rows <= 40 + 4 + 2  # the buckets, four agents' sums, the tree query and a count at most
    assert found.tokens == sum(r.tokens for r in records) and found.cost == sum((r.cost for r in records), Decimal(0))
    assert sum(b.subagent_tokens for b in found.buckets) == sum(r.tokens for r in records if r.agent)
    assert len(narrow) == 30 and sum(b.tokens for b in narrow) == found.tokens


def test_each_agent_is_summed_and_drawn_in_its_tree(backend: str) -> None:
    """Main agent, two sub-agents and a grandchild: per-agent sums in SQL; with `agents` rows each sits under its
    parent with its depth (a spawned agent that spent nothing is listed too); without them, under main, depth
    unknown."""
    records = [_record(i, (None, "a", "b", "a", None, "g")[i % 6]) for i in range(60)]
    with open_ledger() as ledger:
        ledger.add_usage("t", records)
        flat = history.read(_store(ledger), "t")
        with ledger._tx() as db:  # type: ignore[attr-defined]  # the lead's code fills this table later
            for agent, parent, depth, started in (("b", None, 1, 1.0), ("a", None, 1, 2.0), ("g", "a", 2, 3.0),
                                                  ("idle", "g", 3, 4.0)):
                db.execute("INSERT INTO agents(session, agent, parent, depth, started) VALUES (?, ?, ?, ?, ?)",
                           ("t", agent, parent, depth, started))
        tree = history.read(_store(ledger), "t")

    def spent(agent: str | None) -> tuple[int, int, Decimal]:
        mine = [r for r in records if r.agent == agent]
        return len(mine), sum(r.tokens for r in mine), sum((r.cost for r in mine), Decimal(0))

    assert not flat.depth_known and flat.agents[0].agent is None and flat.agents[0].depth == 0
    sums = {a.agent: (a.requests, a.tokens, a.cost) for a in flat.agents}
    assert sums == {x: spent(x) for x in (None, "a", "b", "g")}
    assert {(a.agent, a.level, a.depth) for a in flat.agents[1:]} == {("a", 1, None), ("b", 1, None), ("g", 1, None)}
    assert tree.depth_known
    assert [(a.agent, a.level, a.depth, a.parent) for a in tree.agents] == [
        (None, 0, 0, None), ("b", 1, 1, None), ("a", 1, 1, None), ("g", 2, 2, "a"), ("idle", 3, 3, "g")]
    assert (tree.agents[-1].requests, tree.agents[-1].tokens) == (0, 0)


def test_agents_past_the_limit_are_one_summed_row(backend: str) -> None:
    """Five spenders, room for three: the main agent (though it spent least), the two biggest sub-agents, and
    the other two summed exactly."""
    records = [UsageRecord("m", 1 + 1000 * (i % 5), 1, cost=Decimal(i + 1) / 1000, key=f"k{i}",
                           agent=f"agent{i % 5}" if i % 5 else None) for i in range(50)]
    with open_ledger() as ledger:
        ledger.add_usage("many", records)
        listed, rest, _ = history.agents(_store(ledger), "many", limit=3)
    assert [a.agent for a in listed] == [None, "agent3", "agent4"] and listed[0].requests == 10  # by first request
    assert rest is not None and rest.count == 2
    assert sum(a.requests for a in listed) + rest.requests == 50
    assert sum(a.tokens for a in listed) + rest.tokens == sum(r.tokens for r in records)
    assert sum((a.cost for a in listed), Decimal(0)) + rest.cost == sum((r.cost for r in records), Decimal(0))


def test_status_json_carries_the_buckets_and_agents(backend: str, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    records = [_record(i, "helper" if i % 2 else None) for i in range(100)]
    with open_ledger() as ledger:
        ledger.add_usage("j", records)
        ledger.set_limits(Scope("session", "j"), BudgetLimits(max_tokens=10_000))
    result = runner.invoke(budget_app, ["status", "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["schema"] == 1 and data["command"] == "budget status"
    session, glob = data["scopes"]
    assert session["scope"] == "session:j" and "curve" not in glob and "agents" not in glob
    curve = session["curve"]
    assert curve["requests"] == 100 and len(curve["buckets"]) == 40
    first, last = curve["buckets"][0], curve["buckets"][-1]
    assert (first["first"], first["last"], last["last"]) == (1, first["requests"], 100)
    assert set(first) == {"first", "last", "requests", "tokens", "usd", "subagent_tokens", "total_tokens",
                          "total_usd", "first_at", "last_at"}
    assert last["total_tokens"] == session["spent"]["tokens"] and last["total_usd"] == session["spent"]["usd"]
    assert Decimal(last["total_usd"]) == sum((r.cost for r in records), Decimal(0))
    agents = {a["agent"]: a for a in session["agents"]}
    assert set(agents) == {None, "helper"} and session["more_agents"] is None
    assert agents["helper"]["requests"] == 50 and agents["helper"]["depth"] is None
    assert agents[None]["tokens"] == sum(r.tokens for r in records if r.agent is None)


def _session_over_its_cap() -> None:
    with open_ledger() as ledger:
        ledger.add_usage("c", [_record(i, "sub" if i % 3 == 0 else None) for i in range(400)])
        tokens = ledger.totals(Scope("session", "c")).tokens
        ledger.set_limits(Scope("session", "c"), BudgetLimits(max_tokens=tokens * 3 // 4, max_usd=Decimal(1)))


def test_the_human_view_draws_the_curve_the_cap_and_the_agents(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _session_over_its_cap()
    result = runner.invoke(budget_app, ["status", "--session", "c"])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "spend curve: 400 requests" in out and "█" in out and "┤" in out
    assert "─" * 3 in out  # the token cap, a line across the chart
    assert "tokens 87,981 of 65,985 (133%)\n" in out
    assert "USD $0.002386 of $1.00 (<1%); the cap is off the chart" in out  # $1 is far over the spend: not drawn
    assert "by agent" in out and "main agent" in out and "└ sub" in out
    assert "no model request recorded" in runner.invoke(budget_app, ["status", "--session", "nothing"]).stdout


def test_a_console_that_is_not_utf8_gets_ascii(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    _session_over_its_cap()
    result = CliRunner(charset="ascii").invoke(budget_app, ["status", "--session", "c"])
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.isascii() and "spend curve" in out and "#" in out and "+" in out and "`- sub" in out
    assert "---" in out  # the cap line


def test_it_fits_40_columns_and_honours_no_color(tmp_path: Path) -> None:
    """The installed command on a 40-column terminal: no line is wider; with NO_COLOR no colour code, without
    it the curve is in colour (so the first check can fail)."""
    from tests import terminal

    _session_over_its_cap()  # in the state folder conftest gives this test, which the command inherits
    process, main = terminal.spawn(["budget", "status", "--session", "c"], columns=40, cwd=tmp_path)
    raw = terminal.read_all(main)
    assert process.wait(timeout=60) == 0, raw
    screen = terminal.plain(raw)
    assert "spend curve: 400 requests" in screen and "by agent" in screen
    assert "tokens: 87,981 of 65,985 133%" in screen  # the limits table as lines: its columns would cut figures
    assert all(len(line) <= 40 for line in screen.splitlines()), screen
    assert "\x1b[" in raw and not _colours(raw)  # bold and dim stay: NO_COLOR is about colour
    process, main = terminal.spawn(["budget", "status", "--session", "c"], columns=40, env={"NO_COLOR": ""},
                                   cwd=tmp_path)
    raw = terminal.read_all(main)
    assert process.wait(timeout=60) == 0 and {"32", "31", "33"} <= _colours(raw)  # the curve, past the cap, the cap


def _colours(raw: str) -> set[str]:
    """The SGR colour codes (foreground and background, 8, 16, 256 or RGB) in ``raw``."""
    codes = {code for group in re.findall(r"\x1b\[([0-9;]*)m", raw) for code in group.split(";")}
    return {code for code in codes if code.isdigit() and (30 <= int(code) <= 49 or 90 <= int(code) <= 107)}


def test_the_chart_puts_the_cap_on_its_row() -> None:
    rows, drawn = chart([25.0, 50.0, 75.0, 100.0], cap=50.0, ascii_only=False)
    assert drawn and len(rows) == HEIGHT
    lines = [row.plain for row in rows]
    assert lines[0] == f"{'100':>7} ┤   █"  # the top is the spend, past the cap
    assert lines[1] == f"{'':>7} │  ██"
    assert lines[2] == f"{'50':>7} ┤─███" and lines[3] == f"{'0':>7} ┤████"  # 50 is the second row's top
    rows, drawn = chart([1.0, 2.0], cap=100.0, ascii_only=True)
    assert not drawn and all("-" not in row.plain[9:] for row in rows)
    assert [row.plain[9:] for row in rows] == [" #", " #", "##", "##"]  # scaled to the spend: 2 at the top
    assert BLOCKS[8] == "█"


@pytest.mark.parametrize(("n", "text"), [(0, "0"), (950, "950"), (9_500, "9.5k"), (9_960, "10k"),
                                         (950_000, "950k"), (1_234_567, "1.2M"), (3 * 10**9, "3.0G")])
def test_compact_token_labels(n: int, text: str) -> None:
    assert compact(n) == text


@pytest.mark.parametrize(("usd", "text"), [("0", "$0"), ("0.00004", "$4e-05"), ("0.0012", "$0.0012"),
                                           ("0.53", "$0.53"), ("123.4", "$123.40"), ("1234", "$1.2k")])
def test_compact_usd_labels_stay_within_the_gutter(usd: str, text: str) -> None:
    assert compact_usd(Decimal(usd)) == text and len(text) <= 7


def test_an_old_sqlite_is_told_plainly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with open_ledger() as ledger:
        ledger.add_usage("o", [_record(1)])
    monkeypatch.setattr(sqlite3, "sqlite_version_info", (3, 24, 0))
    result = runner.invoke(budget_app, ["status", "--session", "o"])
    assert result.exit_code != 0 and "Traceback" not in result.stderr
    assert result.stderr.strip().startswith("boundread: error: the spend curve needs SQLite 3.25 or later")
    assert len(result.stderr.strip().splitlines()) == 1
