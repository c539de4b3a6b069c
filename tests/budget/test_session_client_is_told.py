"""Which client wrote a session log (agents/sessionfiles.py ``client_of``): each log module claims its files by
their first line, or by their place when empty, asked in the registry's order (agents.LOGGERS); Claude Code
takes whatever no other client claims. The first lines are the shapes the client modules' docstrings name."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.agents.sessionfiles import client_of, files_of

FIRST_LINES = {
    "codex": b'{"type":"session_meta","payload":{"id":"t1","session_id":"root1"}}\n',
    "gemini": b'{"sessionId":"s1","projectHash":"abc","startTime":"2026-01-01T00:00:00Z"}\n',
    "copilot": b'{"type":"session.start","data":{"producer":"copilot-agent"}}\n',
    "claude": b'{"type":"user","message":{"role":"user","content":"hi"}}\n',
}
PLACES = {
    "codex": "sessions/2026/01/01/rollout-2026-01-01T00-00-00-abc.jsonl",
    "gemini": "tmp/hash/chats/session-2026-01-01.jsonl",
    "copilot": "session-state/sess-1/events.jsonl",
    "claude": "projects/-work/sess-1.jsonl",
}


def _file(root: Path, place: str, body: bytes) -> Path:
    path = root / place
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(body)
    return path


@pytest.mark.parametrize("client", sorted(FIRST_LINES))
def test_the_first_line_tells_the_client_wherever_the_file_is(tmp_path: Path, client: str) -> None:
    assert client_of(_file(tmp_path, "elsewhere/log.jsonl", FIRST_LINES[client])) == client


@pytest.mark.parametrize("client", sorted(PLACES))
def test_an_empty_file_is_told_by_its_place(tmp_path: Path, client: str) -> None:
    assert client_of(_file(tmp_path, PLACES[client], b"")) == client


def test_a_first_line_wins_over_the_place(tmp_path: Path) -> None:
    """A Codex rollout name holding a Gemini chat is a Gemini chat: the place only tells an empty file."""
    assert client_of(_file(tmp_path, PLACES["codex"], FIRST_LINES["gemini"])) == "gemini"


def test_an_unclaimed_file_is_a_claude_code_transcript(tmp_path: Path) -> None:
    """Only the first line is sniffed: a rollout's record on a later line does not make it a rollout."""
    assert client_of(_file(tmp_path, PLACES["codex"], b"\n" + FIRST_LINES["codex"])) == "claude"
    assert client_of(tmp_path / "missing" / "rollout-x.jsonl") == "codex"
    assert client_of(tmp_path / "missing.jsonl") == "claude"


def test_each_client_names_its_session_and_files(tmp_path: Path) -> None:
    """The session a file stands for comes from its client's log module; a payload's id wins over it."""
    copilot = _file(tmp_path, PLACES["copilot"], FIRST_LINES["copilot"])
    assert (files_of(copilot).client, files_of(copilot).session) == ("copilot", "sess-1")
    assert files_of(copilot, {"sessionId": "given"}).session == "given"
    codex = _file(tmp_path, PLACES["codex"], FIRST_LINES["codex"])
    assert (files_of(codex).session, files_of(codex).paths) == ("root1", [codex])
    gemini = _file(tmp_path, PLACES["gemini"], FIRST_LINES["gemini"])
    assert files_of(gemini).session == "s1"
    claude = _file(tmp_path, PLACES["claude"], FIRST_LINES["claude"])
    sub = _file(tmp_path, "projects/-work/sess-1/subagents/agent-a1.jsonl", FIRST_LINES["claude"])
    found = files_of(claude)
    assert (found.client, found.session, found.paths, found.readers) == ("claude", "sess-1", [claude, sub], {})
    assert files_of(sub).session == "sess-1"
