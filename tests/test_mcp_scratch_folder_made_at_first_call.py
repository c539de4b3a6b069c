"""``boundread mcp`` keeps the links to the files its calls read in a private folder under $TMPDIR: made at the
first call (a server killed before any call - a client that only listed tools - left an empty
``boundread-mcp-*`` in /tmp each time), removed when the server ends."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'boundread[mcp]'")

from tests.test_mcp_startup import handshake_done, receive, send, serving


def _scratch(tmp: Path) -> list[Path]:
    return sorted(tmp.glob("boundread-mcp-*"))


def test_a_server_killed_before_any_call_leaves_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    with serving(tmp_path) as proc:
        handshake_done(proc)
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        assert receive(proc)["id"] == 2
        send(proc, {"jsonrpc": "2.0", "id": 4, "method": "ping"})  # the SDK's server answers: it is built
        assert receive(proc)["id"] == 4
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert _scratch(tmp) == []


def test_the_folder_of_a_call_goes_when_the_server_ends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp))
    (tmp_path / "notes.txt").write_text("hello\n", encoding="utf-8")
    with serving(tmp_path) as proc:
        handshake_done(proc)
        send(proc, {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                    "params": {"name": "info", "arguments": {"path": "notes.txt"}}})
        answer = receive(proc)
        assert answer["id"] == 3 and not answer["result"].get("isError"), answer
        assert len(_scratch(tmp)) == 1  # made by the call
        assert proc.stdin is not None
        proc.stdin.close()  # the client goes: the server ends as usual
        assert proc.wait(timeout=60) == 0
    assert _scratch(tmp) == []
