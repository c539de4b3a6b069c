"""``budget ingest`` of real GitHub Copilot CLI 1.0.102 session events (fixtures/README.md): each request once."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from captured import Case, case, lines
from typer.testing import CliRunner

from boundread.agents import sessionfiles
from boundread.agents.sessionfiles import ingest_all
from boundread.budget.ledger import open_ledger
from boundread.budget.model import Scope, Totals
from boundread.budget.transcript import SessionIngest
from boundread.cli.budget import budget_app
from boundread.hook import ingest as ingest_hook

runner = CliRunner()


@pytest.fixture
def resumed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Case:
    found = case("copilot-resume", tmp_path)
    monkeypatch.setenv("COPILOT_HOME", str(found.dir))  # where a payload's sessionId finds the file
    return found


def _totals(session: str) -> Totals:
    with open_ledger() as ledger:
        return ledger.totals(Scope("session", session))


def _ingest_file(path: Path) -> SessionIngest:
    files = sessionfiles.files_of(path)
    with open_ledger() as ledger:
        return ingest_all(ledger, files.paths, session=files.session, readers=files.readers)


def _events(found: Case) -> Path:
    (path,) = found.dir.rglob("events.jsonl")
    return path


def test_the_events_are_counted_as_the_server_billed_them(resumed: Case, backend: str) -> None:
    """inputTokens 150 holds the 30 cache reads and 20 writes: the ledger's total is the provider's 200."""
    result = _ingest_file(_events(resumed))
    each = resumed.expected["ledger_each"]
    n = resumed.expected["requests"]
    assert (result.session, result.records) == (resumed.expected["session"], n)
    spent = _totals(result.session)
    assert (spent.input, spent.output, spent.cache_read, spent.cache_write) == tuple(n * each[k] for k in each)
    assert spent.tokens == n * 200 == resumed.tokens
    assert not spent.unpriced


def test_the_hook_payloads_as_captured_count_the_session(resumed: Case) -> None:
    """Only agentStop names the file; the other events carry the sessionId, which finds it under COPILOT_HOME."""
    assert sum("transcriptPath" in p for p in resumed.payloads) == 2
    for payload in resumed.payloads:
        ingest_hook.ingest_payload(json.dumps(payload))
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens


def test_ingested_after_every_line_each_request_counts_once(resumed: Case) -> None:
    path = _events(resumed)
    whole = lines(path)
    path.write_bytes(b"")
    hook = resumed.payloads[1]  # a postToolUse: the sessionId only
    for line in whole:
        with path.open("ab") as f:
            f.write(line)
        ingest_hook.ingest_payload(json.dumps(hook))
    assert _totals(resumed.expected["session"]).tokens == resumed.tokens


def test_the_transcript_option_reads_the_events_and_a_rerun_counts_nothing(resumed: Case) -> None:
    path = _events(resumed)
    first = runner.invoke(budget_app, ["ingest", "--transcript", str(path)])
    assert first.stdout.startswith(f"session {resumed.expected['session']}: 5 new request(s)"), first.output
    again = runner.invoke(budget_app, ["ingest", "--transcript", str(path)])
    assert again.stdout.startswith(f"session {resumed.expected['session']}: 0 new request(s)")


def test_events_without_usage_leave_no_session(resumed: Case) -> None:
    path = _events(resumed)
    path.write_bytes(b"".join(line for line in lines(path) if b'"session.usage_record"' not in line))
    assert _ingest_file(path).records == 0
    with open_ledger() as ledger:
        assert ledger.sessions() == []


def test_a_session_id_that_is_no_folder_name_names_no_file(resumed: Case) -> None:
    from boundread.errors import UsageError

    with pytest.raises(UsageError, match="no transcript"):
        ingest_hook.ingest_payload(json.dumps({"sessionId": "../../etc", "cwd": "/"}))


@pytest.mark.parametrize(("line", "warning"), [
    (b'{"type":"session.usage_record","data":' + b"[" * 100_000 + b"\n", "not JSON"),
    (b'{"type":"session.usage_record","data":{"usage":{"inputTokens":5}}}\n', "without a request id"),
    (b'{"type":"session.usage_record","data":{"usage":{"apiCallId":"a","inputTokens":' + b"9" * 31 + b"}}}\n",
     "not a possible token count"),
    (b'{"type":"session.usage_record","data":{"usage":{"apiCallId":"b","inputTokens":2,"cacheReadTokens":9}}}\n',
     "exceed the input"),
])
def test_a_hostile_line_is_one_warning_and_the_rest_counts(resumed: Case, line: bytes, warning: str) -> None:
    path = _events(resumed)
    whole = lines(path)
    path.write_bytes(whole[0] + line + b"".join(whole[1:]))
    result = _ingest_file(path)
    assert [w for w in result.warnings if warning in w], result.warnings
    assert _totals(resumed.expected["session"]).tokens >= resumed.tokens
