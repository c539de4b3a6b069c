"""The MCP extract tool reads a part of a big JSON file (``json_path``) and JSONL records (``rows``); its next
step is a tool call with the path that continues, and info on JSON gives the shape."""

from __future__ import annotations

import json
from pathlib import Path

from mcp import Client

from boundread.mcp.calls import tool_call
from tests.test_mcp import talk, text


def test_next_extract_with_path_is_a_tool_call() -> None:
    call = tool_call("boundread extract dump.json --path '.items[50:]'", "dump.json")
    assert call == 'extract(path="dump.json", json_path=".items[50:]")'


def test_extract_json_path_and_jsonl_rows(tmp_path: Path) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "dump.json").write_text(json.dumps({"items": [{"id": i} for i in range(500)]}), encoding="utf-8")
    (folder / "e.jsonl").write_text("".join(json.dumps({"n": i}) + "\n" for i in range(30)), encoding="utf-8")

    async def work(client: Client) -> None:
        about = await client.call_tool("info", {"path": "dump.json"})
        assert not about.is_error and about.structured_content is not None
        assert about.structured_content["fields"]["arrays"][0] == ".items 500"
        part = await client.call_tool("extract", {"path": "dump.json", "json_path": ".items[].id"})
        body = text(part)
        assert not part.is_error and body.startswith("0\n1\n2\n") and "\n199\n" in body and "\n200\n" not in body
        assert 'json_path=".items[200:].id"' in body
        rows = await client.call_tool("extract", {"path": "e.jsonl", "rows": "3-4"})
        assert '{"n": 2}\n{"n": 3}' in text(rows)

    talk(folder, work)
