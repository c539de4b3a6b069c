"""The MCP tools read a SQLite database: info lists its tables, sheets reads a table's rows, extract runs one
read-only --sql (sql=) and refuses a write; the next step is a tool call."""

from __future__ import annotations

from pathlib import Path

from mcp import Client

from boundread.mcp.calls import tool_call
from tests.formats.sqlite_fixtures import SENTINEL, make_app
from tests.test_mcp import talk, text


def test_next_extract_with_sql_is_a_tool_call() -> None:
    call = tool_call("boundread extract app.db --sql 'SELECT id FROM users' --rows 201-400", "app.db")
    assert call == 'extract(path="app.db", sql="SELECT id FROM users", rows="201-400")'


def test_info_sheets_and_sql(tmp_path: Path) -> None:
    folder = tmp_path / "project"
    folder.mkdir()
    make_app(folder / "app.db")

    async def work(client: Client) -> None:
        about = await client.call_tool("info", {"path": "app.db"})
        assert not about.is_error and about.structured_content is not None
        assert about.structured_content["kind"] == "sqlite"
        rows = await client.call_tool("sheets", {"path": "app.db", "sheet": "users", "rows": "1-2"})
        assert f"1,user1 {SENTINEL}" in text(rows) and "[blob 50.0 kB]" in text(rows)
        query = await client.call_tool("extract", {"path": "app.db", "sql": "SELECT k FROM kv ORDER BY k"})
        assert not query.is_error and text(query).startswith("k\na\nb\nc\n")
        write = await client.call_tool("extract", {"path": "app.db", "sql": "DELETE FROM kv"})
        assert write.is_error and "delete kv is not allowed" in text(write)

    talk(folder, work)
