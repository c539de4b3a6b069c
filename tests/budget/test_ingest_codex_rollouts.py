"""``budget ingest`` of real Codex 0.171 rollouts (fixtures/README.md): each request once, as the server billed it."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from captured import Case, case, lines
from typer.testing import CliRunner

from boundread.agents import sessionfiles
from boundread.agents.codexlog import CodexLines
from boundread.agents.sessionfiles import ingest, ingest_all
from boundread.budget import transcript
from boundread.budget.ledger import ledger_path, open_ledger
from boundread.budget.model import Scope, Totals
from boundread.cli.budget import budget_app
from boundread.hook import ingest as ingest_hook

runner = CliRunner()


@pytest.fixture
def resumed(tmp_path: Path) -> Case:
    return case("codex-resume", tmp_path)


@pytest.fixture
def spawning(tmp_path: Path) -> Case:
    return case("codex-subagent", tmp_path)


def _totals(session: str) -> Totals:
    with open_ledger() as ledger:
        return ledger.totals(Scope("session", session))


def _rows() -> list[tuple[str, str, int, int, int, int, str | None, float | None]]:
    db = sqlite3.connect(ledger_path())
    try:
        return db.execute("SELECT key, model, input, output, cache_read, cache_write, agent, at FROM usage"
                          " ORDER BY at").fetchall()
    finally:
        db.close()


def _ingest_file(path: Path) -> transcript.SessionIngest:
    files = sessionfiles.files_of(path)
    with open_ledger() as ledger:
        return ingest_all(ledger, files.paths, session=files.session, readers=files.readers)


def test_a_rollout_is_counted_as_the_server_billed_it(resumed: Case, backend: str) -> None:
    """input_tokens 150 holds 30 cached and 7 written; output 50 holds 10 reasoning; total 200 per request."""
    result = _ingest_file(resumed.main)
    each = resumed.expected["ledger_each"]
    n = resumed.expected["requests"]
    assert (result.session, result.records) == (resumed.expected["session"], n)
    spent = _totals(result.session)
    assert (spent.input, spent.output, spent.cache_read, spent.cache_write) == tuple(n * each[k] for k in each)
    assert spent.tokens == n * resumed.expected["server_usage_each"]["total_tokens"] == resumed.tokens
    assert spent.cost > 0 and not spent.unpriced  # gpt-5.5 is priced as itself


def test_each_request_says_its_model_and_time_and_no_sub_agent(resumed: Case) -> None:
    _ingest_file(resumed.main)
    rows = _rows()
    assert len(rows) == 5 and {r[1] for r in rows} == {"gpt-5.5"} and {r[6] for r in rows} == {None}
    times = [r[7] for r in rows]
    assert all(t is not None and 1.7e9 < t < 1.9e9 for t in times) and times == sorted(times)


def test_a_second_ingest_counts_nothing_and_opens_nothing(resumed: Case) -> None:
    _ingest_file(resumed.main)
    again = _ingest_file(resumed.main)
    assert (again.records, again.files, again.unchanged) == (0, (), 1)


def test_ingested_after_every_line_each_request_counts_once(resumed: Case, backend: str) -> None:
    """A hook can run between a token_usage_record and its token_count echo: either read alone is one key."""
    whole = lines(resumed.main)
    resumed.main.write_bytes(b"")
    stop = {**resumed.events("Stop")[0], "transcript_path": str(resumed.main)}
    for line in whole:
        with resumed.main.open("ab") as f:
            f.write(line)
        ingest_hook.ingest_payload(json.dumps(stop))
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens


@pytest.mark.parametrize("keep", ["token_usage_record", "token_count"])
def test_either_kind_of_line_alone_counts_every_request(resumed: Case, keep: str) -> None:
    """Older Codex versions write only the token_count event; the record alone counts the same."""
    drop = b'"token_count"' if keep == "token_usage_record" else b'"token_usage_record"'
    resumed.main.write_bytes(b"".join(line for line in lines(resumed.main) if drop not in line))
    assert _ingest_file(resumed.main).records == 5
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens


def test_the_model_is_found_before_a_read_that_starts_mid_turn(resumed: Case) -> None:
    whole = lines(resumed.main)
    first_usage = next(i for i, line in enumerate(whole) if b'"token_usage_record"' in line)
    resumed.main.write_bytes(b"".join(whole[:first_usage]))
    assert _ingest_file(resumed.main).records == 0  # the turn_context was read, no request yet
    resumed.main.write_bytes(b"".join(whole))
    _ingest_file(resumed.main)
    assert {r[1] for r in _rows()} == {"gpt-5.5"}


def test_the_hook_payloads_as_captured_count_the_session(resumed: Case) -> None:
    for payload in resumed.payloads:
        ingest_hook.ingest_payload(json.dumps(payload))
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens


def test_a_sub_agent_rollout_is_found_from_the_parent_and_named_by_its_thread(spawning: Case,
                                                                                backend: str) -> None:
    (stop,) = spawning.events("Stop")
    result = ingest_hook.ingest_payload(json.dumps(stop))
    assert (result.records, len(result.files)) == (5, 2)
    assert _totals(spawning.expected["session"]).tokens == spawning.tokens
    if backend == "sqlite":
        agents = [r[6] for r in _rows()]
        assert agents.count(spawning.expected["agent"]) == 2 and agents.count(None) == 3


def test_the_sub_agents_own_hook_then_the_parents_count_it_once(spawning: Case) -> None:
    child_hook = next(p for p in spawning.payloads if p.get("agent_id"))
    assert child_hook["agent_id"] == spawning.expected["agent"] and child_hook["transcript_path"] != str(spawning.main)
    first = ingest_hook.ingest_payload(json.dumps(child_hook))
    assert (first.session, first.records) == (spawning.expected["session"], 2)
    for payload in spawning.payloads:
        ingest_hook.ingest_payload(json.dumps(payload))
    assert _totals(spawning.expected["session"]).tokens == spawning.tokens


def test_a_sub_agent_rollout_given_alone_names_the_parent_session(spawning: Case) -> None:
    child = next(p for p in spawning.files() if p != spawning.main)
    out = runner.invoke(budget_app, ["ingest", "--transcript", str(child)])
    assert out.exit_code == 0, out.stderr
    assert out.stdout.startswith(f"session {spawning.expected['session']}: 2 new request(s)")


def test_the_transcript_option_reads_a_rollout_and_a_rerun_counts_nothing(resumed: Case) -> None:
    first = runner.invoke(budget_app, ["ingest", "--transcript", str(resumed.main), "--json"])
    assert first.exit_code == 0, first.stderr
    assert json.loads(first.stdout)["records"] == 5
    again = runner.invoke(budget_app, ["ingest", "--transcript", str(resumed.main)])
    assert again.stdout.startswith(f"session {resumed.expected['session']}: 0 new request(s)")


# Bad input ---------------------------------------------------------------------------------------------
def test_a_rollout_without_usage_leaves_no_session(resumed: Case) -> None:
    """The issue's report: 0 requests and a junk session row. Now: 0 requests and no row."""
    whole = lines(resumed.main)
    resumed.main.write_bytes(b"".join(line for line in whole if b'"token_' not in line))
    result = _ingest_file(resumed.main)
    assert result.records == 0
    with open_ledger() as ledger:
        assert ledger.sessions() == []


def test_a_half_written_last_line_waits_for_its_end(resumed: Case) -> None:
    whole = resumed.main.read_bytes()
    cut = whole.rindex(b'"token_usage_record"') + 40
    resumed.main.write_bytes(whole[:cut])
    assert _ingest_file(resumed.main).records == 4
    resumed.main.write_bytes(whole)
    assert _ingest_file(resumed.main).records == 1
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens


@pytest.mark.parametrize("how", ["cut", "rewritten", "repeated"])
def test_a_cut_or_rewritten_rollout_counts_nothing_twice(resumed: Case, how: str) -> None:
    whole = lines(resumed.main)
    _ingest_file(resumed.main)
    if how == "cut":  # shorter than the stored offset, then grown back past it
        resumed.main.write_bytes(b"".join(whole[: len(whole) // 2]))
        result = _ingest_file(resumed.main)
        assert any("cut since the last ingest" in w for w in result.warnings)
        resumed.main.write_bytes(b"".join(whole) + whole[-1])
    elif how == "rewritten":  # other bytes at the stored offset: another file of the same session
        resumed.main.write_bytes(b'{"junk": 1}\n' + b"".join(whole))
    else:  # every line twice
        resumed.main.write_bytes(b"".join(line + line for line in whole))
    result = _ingest_file(resumed.main)
    assert result.records == 0, result
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens


@pytest.mark.parametrize(("line", "warning"), [
    (b"\x00\xff garbage\n", "not JSON"),
    (b'{"type":"token_usage_record","payload":' + b"[" * 100_000 + b"\n", "not JSON"),
    (b'{"type":"token_usage_record","payload":{"thread_id":"t","usage":{"input_tokens":5}}}\n', "running total"),
    (b'{"type":"token_usage_record","payload":{"usage":{"input_tokens":' + b"9" * 31
     + b'},"thread_token_usage":{"total_tokens":1}}}\n', "not a possible token count"),
    (b'{"type":"token_usage_record","payload":{"usage":{"input_tokens":' + b"9" * 5000
     + b'},"thread_token_usage":{"total_tokens":1}}}\n', "not JSON"),
    (b'{"type":"event_msg","payload":{"type":"token_count","info":{"last_token_usage":{"input_tokens":-4,'
     b'"output_tokens":true},"total_token_usage":{"total_tokens":7}}}}\n', "is not a token count"),
    (b'{"type":"token_usage_record","payload":{"usage":{"input_tokens":10,"cached_input_tokens":50},'
     b'"thread_token_usage":{"total_tokens":9}}}\n', "exceed the input"),
])
def test_a_hostile_line_is_one_warning_and_the_rest_counts(resumed: Case, line: bytes, warning: str) -> None:
    """Before the first record, where a token_count is read (after one, it is the record's echo)."""
    whole = lines(resumed.main)
    resumed.main.write_bytes(whole[0] + line + b"".join(whole[1:]))
    result = _ingest_file(resumed.main)
    assert [w for w in result.warnings if warning in w], result.warnings
    assert all("\n" not in w and len(w) < 300 for w in result.warnings)
    assert _totals(resumed.expected["session"]).tokens >= resumed.tokens


def test_an_over_long_line_is_skipped(resumed: Case, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(transcript, "MAX_LINE", 30_000)  # the session_meta line (22 KB) still fits
    whole = lines(resumed.main)
    huge = b'{"type":"token_count","payload":"' + b"x" * 40_000 + b'"}\n'
    resumed.main.write_bytes(b"".join(whole[:20]) + huge + b"".join(whole[20:]))
    result = _ingest_file(resumed.main)
    assert any("over 30,000" in w for w in result.warnings)
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens


def test_a_fifo_named_like_a_rollout_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "rollout-2026-12-02T00-55-01-01a2343f-6b84-7603-aeef-fbe1b32a4b22.jsonl"
    os.mkfifo(fifo)
    out = runner.invoke(budget_app, ["ingest", "--transcript", str(fifo)])
    assert out.exit_code == 3 and "is a FIFO, not a regular file" in out.stderr


def test_sub_agent_threads_are_looked_up_by_safe_names_only(resumed: Case) -> None:
    reader = CodexLines(resumed.main, "root")
    for child in ("../../etc/passwd", "*", "[a-z]", "", "x" * 500):
        reader.children[child] = None
    assert reader.found() == []


def test_one_ingest_reads_the_rollout(resumed: Case) -> None:
    with open_ledger() as ledger:
        assert ingest(ledger, resumed.main).records == 5
