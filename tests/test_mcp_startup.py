"""`boundread mcp` over a raw stdio pipe: `initialize` is answered before the SDK loads, and says what the SDK
says; the session then works as if the SDK had answered; SIGINT stops an idle server; SIGTERM while a chunks
call runs leaves its folder with a manifest that lists every chunk file written. (Timing: bench/mcp_timing.py.)"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import anyio
import pytest

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'boundread[mcp]'")

from mcp import Client

from boundread import __version__
from boundread.mcp import handshake, server
from boundread.mcp.config import Config

BIN = Path(sys.executable).parent / "boundread"


def initialize(ident: int | str = 0, version: str = "2025-06-18") -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": ident, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {},
                       "clientInfo": {"name": "test", "version": "1"}}}


@contextmanager
def serving(root: Path, *args: str) -> Iterator[subprocess.Popen[bytes]]:
    env = {**os.environ, "BOUNDREAD_OUT_DIR": str(root / "boundread-out")}
    with tempfile.TemporaryFile() as errors:  # a file, not a pipe: a server never blocks on what it logs
        proc = subprocess.Popen([str(BIN), "mcp", *args], cwd=root, env=env, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=errors)
        try:
            yield proc
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait(timeout=30)
            for stream in (proc.stdin, proc.stdout):
                if stream is not None:
                    stream.close()
            errors.seek(0)
            logged = errors.read()
            assert b"Traceback" not in logged and b"differs" not in logged, logged.decode(errors="replace")


def send(proc: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write(json.dumps(message).encode() + b"\n")
    proc.stdin.flush()


def receive(proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    """The next message that is not a notification (a log line the SDK may send)."""
    out: IO[bytes] | None = proc.stdout
    assert out is not None
    while True:
        line = out.readline()
        assert line, "the server closed stdout"
        message: dict[str, Any] = json.loads(line)
        if "id" in message:
            return message


def handshake_done(proc: subprocess.Popen[bytes], version: str = "2025-06-18") -> dict[str, Any]:
    send(proc, initialize(7, version))
    answer = receive(proc)
    send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    return answer


def sdk_answer() -> tuple[dict[str, Any], str | None]:
    """What the SDK's own server says of itself: its info and instructions. (Its whole answer over stdio is
    compared by the server itself, which says on stderr when it differs from the early one.)"""
    async def main() -> tuple[dict[str, Any], str | None]:
        async with Client(server.build(Config(roots=("/",)))) as client:
            info = client.server_info
            assert info is not None
            return info.model_dump(by_alias=True, exclude_none=True), client.instructions

    return anyio.run(main)


def test_initialize_is_answered_as_the_sdk_would(tmp_path: Path) -> None:
    info, instructions = sdk_answer()
    for asked, agreed in (("2025-06-18", "2025-06-18"), ("2024-11-05", "2024-11-05"), ("1999-01-01", "2025-11-25")):
        with serving(tmp_path) as proc:
            answer = handshake_done(proc, asked)
            assert answer["id"] == 7
            result = answer["result"]
            assert result["protocolVersion"] == agreed
            assert result["serverInfo"] == info == {"name": "boundread", "version": __version__}
            assert result["capabilities"]["tools"] == {"listChanged": False}
            assert result["instructions"] == instructions
            send(proc, {"jsonrpc": "2.0", "id": 8, "method": "tools/list"})
            listed = receive(proc)
            assert listed["id"] == 8 and "extract" in [tool["name"] for tool in listed["result"]["tools"]]
            proc.stdin.close()  # type: ignore[union-attr]
            assert proc.wait(timeout=30) == 0
            assert proc.stdout.read() == b""  # type: ignore[union-attr]  # the SDK's answer was not sent again


def test_only_a_well_formed_initialize_is_answered_early() -> None:
    assert handshake.answer(json.dumps(initialize()).encode()) is not None
    broken = initialize()
    del broken["params"]["clientInfo"]
    for message in (broken, {**initialize(), "method": "ping"}, {**initialize(), "id": None}):
        assert handshake.answer(json.dumps(message).encode()) is None
    assert handshake.answer(b"not json\n") is None


def test_a_bad_initialize_gets_the_sdks_error_and_a_tool_call_still_works(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("HELLO-LINE\n", encoding="utf-8")
    broken = initialize(1)
    del broken["params"]["clientInfo"]
    with serving(tmp_path) as proc:
        send(proc, broken)
        assert "error" in receive(proc)
        handshake_done(proc)
        send(proc, {"jsonrpc": "2.0", "id": 9, "method": "tools/call",
                    "params": {"name": "extract", "arguments": {"path": "a.txt"}}})
        called = receive(proc)
        assert "HELLO-LINE" in json.dumps(called.get("result")), called


def test_sigint_stops_an_idle_server(tmp_path: Path) -> None:
    with serving(tmp_path) as proc:
        handshake_done(proc)
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        receive(proc)  # the SDK is up and the server idle, its stdin open
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) is not None


def test_sigterm_during_chunks_leaves_a_manifest_for_every_chunk_written(tmp_path: Path) -> None:
    """(The chunker sees the interrupt between its 1 MB blocks of text: ~128 chunks of 2,000 tokens.)"""
    with (tmp_path / "big.log").open("w", encoding="utf-8") as fh:
        for n in range(400_000):
            fh.write(f"2026-12-02T10:00:00Z INFO request {n:08d} served in 12 ms\n")
    folder = tmp_path / "boundread-out" / "big.log.chunks"
    with serving(tmp_path) as proc:
        handshake_done(proc)
        send(proc, {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                    "params": {"name": "chunks", "arguments": {"path": "big.log", "tokens": 2_000,
                                                                "max_chunks": 100_000}}})
        deadline = time.monotonic() + 60
        while not (folder / "chunk-00002.txt").exists():
            assert time.monotonic() < deadline and proc.poll() is None, "no chunk file was written"
            time.sleep(0.01)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) is not None
    manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
    files = sorted(path.name for path in folder.glob("chunk-*.txt"))
    assert [chunk["file"] for chunk in manifest["chunks"]] == files
    assert manifest["complete"] is False and "interrupted" in manifest["truncated_reasons"]  # stopped early
