"""The MCP tools read a Parquet file: info gives its rows and row groups, sheets reads rows with or without the
sheet's name, and info's next step is a tool call that works."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp import Client

from tests.formats.parquet_fixtures import make_events
from tests.test_mcp import talk, text

pytest.importorskip("pyarrow")


def test_info_and_sheets(tmp_path: Path) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    make_events(folder / "ev.parquet")

    async def work(client: Client) -> None:
        about = await client.call_tool("info", {"path": "ev.parquet"})
        assert not about.is_error and about.structured_content is not None
        assert about.structured_content["kind"] == "parquet"
        assert about.structured_content["next_calls"][0] == 'sheets(path="ev.parquet", sheet="ev", rows="1-50")'
        rows = await client.call_tool("sheets", {"path": "ev.parquet", "rows": "455-456"})
        assert not rows.is_error and "455,row455,[binary 3 bytes]\n456,row456,[binary 3 bytes]" in text(rows)
        named = await client.call_tool("sheets", {"path": "ev.parquet", "sheet": "ev", "rows": "1000-1000"})
        assert "1000,row1000," in text(named)

    talk(folder, work)
