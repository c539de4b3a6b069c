"""`boundread mcp` lists its tools before the MCP SDK has loaded (Codex 0.171 searched a server still loading as
empty), from mcp/catalog.json - which says what the SDK says, for every protocol version the early
``initialize`` agrees to, and for any --max-chars. The stdio test holds the SDK's import at a gate (a
sitecustomize import hook in the server's Python), so the answers it gets can only be the early ones."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'boundread[mcp]'")

from boundread.mcp import catalog
from boundread.mcp.handshake import PROTOCOLS
from boundread.mcp.stdio import Early
from tests.test_mcp_startup import initialize, receive, send

BIN = Path(sys.executable).parent / "boundread"

GATE = '''
import importlib.abc, os, sys, threading, time

class Gate(importlib.abc.MetaPathFinder):
    """The first import of `mcp` in a thread (the SDK's loading) waits until the test creates the gate file;
    the main thread's find_spec (is the extra installed?) passes."""
    def find_spec(self, name, path=None, target=None):
        if name == "mcp" and threading.current_thread() is not threading.main_thread():
            sys.meta_path.remove(self)
            while not os.path.exists(os.environ["GATE_FILE"]):
                time.sleep(0.01)
        return None

if os.environ.get("GATE_FILE"):
    sys.meta_path.insert(0, Gate())
'''

INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def listing(ident: int | str, params: dict[str, Any] | None = None) -> bytes:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": ident, "method": "tools/list"}
    if params is not None:
        message["params"] = params
    return json.dumps(message).encode() + b"\n"


@pytest.mark.parametrize("version", PROTOCOLS)
def test_the_catalog_is_what_the_sdk_lists(version: str) -> None:
    for max_chars in (32_000, 100_000):
        assert catalog.result(max_chars) == catalog.sdk_result(max_chars, version), (
            "mcp/catalog.json is stale: run `python -m boundread.mcp.catalog`")


def test_tools_are_listed_early_only_after_our_initialize_and_the_clients_initialized() -> None:
    early = Early(32_000)
    assert early.answer(listing(1)) is None  # the first line is not initialize: the SDK answers everything
    assert early.answer(json.dumps(initialize(1)).encode()) is None
    assert early.answer(listing(2)) is None and not early.answered

    early = Early(32_000)
    assert early.answer(json.dumps(initialize(1)).encode()) is not None
    assert early.answer(listing(2)) is None  # before notifications/initialized
    assert early.answer(json.dumps(INITIALIZED).encode()) is None
    assert early.answer(listing(3, {"cursor": "next"})) is None  # a later page: the SDK's
    assert early.answer(listing(True)) is None  # type: ignore[arg-type]  # not a request id
    listed = early.answer(listing("four", {"_meta": {"progressToken": 0}}))
    assert listed is not None and listed.id == "four" and listed.result == catalog.result(32_000)
    assert json.loads(listed.line) == {"jsonrpc": "2.0", "id": "four", "result": catalog.result(32_000)}
    assert sorted(early.answered, key=str) == [1, "four"]


def test_a_client_gets_the_tools_while_the_sdk_is_still_loading(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(GATE, encoding="utf-8")
    (tmp_path / "a.txt").write_text("HELLO-LINE\n", encoding="utf-8")
    gate = tmp_path / "gate"
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site"), "GATE_FILE": str(gate),
           "BOUNDREAD_OUT_DIR": str(tmp_path / "out")}
    errors = tmp_path / "stderr"
    with errors.open("wb") as err:
        proc = subprocess.Popen([str(BIN), "mcp", "--max-chars", "32000"], cwd=tmp_path, env=env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err)
    watchdog = threading.Timer(120, proc.kill)  # a server that never answers fails the test, not hangs it
    watchdog.start()
    try:
        send(proc, initialize(1))
        assert receive(proc)["result"]["serverInfo"]["name"] == "boundread"
        send(proc, INITIALIZED)
        send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        listed = receive(proc)
        assert listed == {"jsonrpc": "2.0", "id": 2, "result": catalog.result(32_000)}
        assert not gate.exists() and proc.poll() is None  # answered with the SDK's import still held
        gate.touch()
        send(proc, {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                    "params": {"name": "extract", "arguments": {"path": "a.txt"}}})
        called = receive(proc)  # the SDK's answer to tools/list 2 was dropped: the next message answers 3
        assert called["id"] == 3 and "HELLO-LINE" in json.dumps(called["result"]), called
        assert proc.stdin is not None
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
        assert proc.stdout is not None and proc.stdout.read() == b""
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()
    logged = errors.read_text(encoding="utf-8", errors="replace")
    assert "differs" not in logged and "Traceback" not in logged, logged


def test_a_client_that_goes_while_the_sdk_loads_ends_the_server(tmp_path: Path) -> None:
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(GATE, encoding="utf-8")
    gate = tmp_path / "gate"
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site"), "GATE_FILE": str(gate)}
    proc = subprocess.Popen([str(BIN), "mcp"], cwd=tmp_path, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    send(proc, initialize(1))
    assert "result" in receive(proc)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.close()  # gone before (or as) the gate opens
    gate.touch()
    assert proc.wait(timeout=30) == 0
    assert proc.stdout.read() == b""  # the SDK's own initialize answer was dropped
    proc.stdout.close()
