"""The served-roots check of `boundread mcp` holds while the file changes under it: a thread swaps a served file
for a link to a file outside the roots and back, as fast as it can, while the client calls extract on it; no
answer ever holds the outside file (before: 34 of 400 calls did, checked by path and then reopened). A NUL byte
in a path is a one-line tool error."""

from __future__ import annotations

import json
import os
import sys
import threading
from pathlib import Path

import anyio
import pytest

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'boundread[mcp]'")

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import CallToolResult

from boundread.mcp import roots

BIN = Path(sys.executable).parent / "boundread"
CALLS = 400


def said(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text") + str(result.structured_content)


def swapping(folder: Path, outside: Path, stop: threading.Event) -> None:
    """``folder/data.txt`` as the served file, then as a link to ``outside``, and again, until ``stop``."""
    inside_copy, link = folder / ".data.regular", folder / ".data.link"
    while not stop.is_set():
        inside_copy.write_text("INSIDE-CONTENT\n", encoding="utf-8")
        os.replace(inside_copy, folder / "data.txt")
        link.unlink(missing_ok=True)
        link.symlink_to(outside)
        os.replace(link, folder / "data.txt")


def test_a_file_swapped_for_an_outside_link_is_never_read(tmp_path: Path) -> None:
    served = tmp_path / "served"
    served.mkdir()
    outside = tmp_path / "secret.txt"
    outside.write_text("OUTSIDE-SECRET\n", encoding="utf-8")
    (served / "data.txt").write_text("INSIDE-CONTENT\n", encoding="utf-8")
    params = StdioServerParameters(command=str(BIN), args=["mcp", "--root", str(served)], cwd=str(served),
                                   env={**os.environ, "BOUNDREAD_OUT_DIR": str(tmp_path / "out")})
    answers: list[str] = []

    async def main() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            for _ in range(CALLS):
                answers.append(said(await client.call_tool("extract", {"path": "data.txt"})))

    stop = threading.Event()
    swapper = threading.Thread(target=swapping, args=(served, outside, stop), daemon=True)
    swapper.start()
    try:
        anyio.run(main)
    finally:
        stop.set()
        swapper.join(timeout=10)
    leaked = [answer for answer in answers if "OUTSIDE-SECRET" in answer]
    assert not leaked, f"{len(leaked)} of {CALLS} calls read the outside file: {leaked[0][:300]}"
    read = sum("INSIDE-CONTENT" in answer for answer in answers)
    refused = sum("outside the folders this server serves" in answer for answer in answers)
    assert read > 0 and refused > 0 and read + refused <= CALLS  # both states were met; each answer one of them


def test_a_link_inside_the_roots_is_still_served(tmp_path: Path) -> None:
    (tmp_path / "real.txt").write_text("LINKED\n", encoding="utf-8")
    (tmp_path / "alias.log").symlink_to(tmp_path / "real.txt")
    opened = roots.open_inside("alias.log", (str(tmp_path),), tmp_path)
    try:
        assert opened.real == tmp_path / "real.txt"
        assert opened.read.name == "real.txt" and opened.read.read_text(encoding="utf-8") == "LINKED\n"
    finally:
        opened.release()
    assert not opened.read.exists()  # the link to the open file goes with it


def test_a_nul_byte_in_a_path_is_a_one_line_tool_error(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("STILL-SERVING\n", encoding="utf-8")
    params = StdioServerParameters(command=str(BIN), args=["mcp"], cwd=str(tmp_path),
                                   env={**os.environ, "BOUNDREAD_OUT_DIR": str(tmp_path / "out")})

    async def main() -> None:
        async with Client(params, read_timeout_seconds=60) as client:
            for tool, args in (("extract", {"path": "a\x00b.txt"}), ("info", {"path": "\x00"}),
                               ("pages", {"path": "r\x00.pdf", "range": "1"})):
                result = await client.call_tool(tool, args)
                text = said(result).split("{", 1)[0]
                assert result.is_error and text.startswith("boundread: error: the path ") and "NUL byte" in text
                assert text.count("\n") == 0, text
            assert "STILL-SERVING" in said(await client.call_tool("extract", {"path": "a.txt"}))

    anyio.run(main)


def test_the_link_a_file_is_read_through_is_never_named(tmp_path: Path) -> None:
    """What a call says and saves names the served file, not the private link the engine read it through."""
    served = tmp_path / "my docs"
    served.mkdir()
    log = served / "app.log"
    log.write_text("".join(f"line {n}\n" for n in range(50_000)), encoding="utf-8")
    params = StdioServerParameters(command=str(BIN), args=["mcp", "--max-chars", "5000"], cwd=str(served),
                                   env={**os.environ, "BOUNDREAD_OUT_DIR": str(tmp_path / "out")})

    async def main() -> list[str]:
        async with Client(params, read_timeout_seconds=120) as client:
            return [said(await client.call_tool(tool, args)) for tool, args in (
                ("extract", {"path": "app.log"}), ("info", {"path": "app.log"}),
                ("chunks", {"path": "app.log", "tokens": 20_000}), ("extract", {"path": "app.log", "pages": "1"}))]

    answers = anyio.run(main)
    assert all("boundread-mcp-" not in answer for answer in answers), answers
    assert "boundread extract '" + str(log) + "' --lines" in answers[0]  # the CLI step names the real file
    manifest = json.loads((tmp_path / "out" / "app.log.chunks" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["source"]["path"] == str(log)
