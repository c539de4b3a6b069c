"""The MCP `chunks` tool through the SDK's own client: the plan, the chunk files in the output folder, the
call that goes on after max_chunks, and an error as a tool result."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'boundread[mcp]'")

from mcp import Client

from tests.test_mcp import project, talk, text

__all__ = ["project"]  # the fixture, used by name


def test_chunks_tool_plans_and_goes_on(project: Path) -> None:
    async def work(client: Client) -> None:
        first = await client.call_tool("chunks", {"path": "report.pdf", "tokens": 300, "max_chunks": 5,
                                                  "model": "claude-sonnet-4-5"})
        body = text(first)
        assert not first.is_error, body
        assert body.startswith("report.pdf: pdf, 5 chunks of at most ~300 tokens")
        assert "cost: ~$" in body and "next: chunks(" in body and '"start": 6' not in body
        assert 'next: chunks(path="report.pdf", tokens=300, max_chunks=5, start=6, model="claude-sonnet-4-5")' in body
        envelope = first.structured_content or {}
        assert envelope["schema"] == 1 and envelope["command"] == "chunks" and not envelope["complete"]
        folder = project / "boundread-out" / "report.pdf.chunks"
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        assert [c["file"] for c in manifest["chunks"]] == [f"chunk-0000{i}.txt" for i in range(1, 6)]
        assert f"{folder / 'chunk-00001.txt'}  page 1" in body
        rest = await client.call_tool("chunks", {"path": "report.pdf", "tokens": 300, "max_chunks": 50, "start": 6})
        assert not rest.is_error and (rest.structured_content or {})["complete"], text(rest)
        bad = await client.call_tool("chunks", {"path": "nope.pdf"})
        assert bad.is_error and "no such file" in text(bad)

    talk(project, work)
