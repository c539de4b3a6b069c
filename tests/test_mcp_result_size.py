"""Every result of `boundread mcp --max-chars N` stays within N characters with everything around the slice: the
text block (the slice, what it is, where it was saved, the next call) and the structured content a client may
show instead (Claude Code shows it as JSON), on big files of every family; each tool tells Claude Code the cap
(``_meta["anthropic/maxResultSizeChars"]``), and the next call goes on where the cut slice stopped."""

from __future__ import annotations

import json
import os
import sys
import zipfile
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'boundread[mcp]'")

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import CallToolResult

from boundread.core.demo import write_samples
from boundread.mcp import tools

BIN = Path(sys.executable).parent / "boundread"

CALLS: list[tuple[str, dict[str, Any]]] = [
    ("extract", {"path": "big.log"}),
    ("extract", {"path": "quotes.log"}),
    ("extract", {"path": "big.log", "grep": "request 0000"}),
    ("pages", {"path": "report.pdf", "range": "1-12"}),
    ("extract", {"path": "report.pdf"}),
    ("sheets", {"path": "prices.xlsx", "sheet": "1", "max_rows": 100_000}),
    ("list_zip", {"path": "many.zip", "max_entries": 10_000}),
    ("extract", {"path": "many.zip", "member": "dir/file-00001.txt"}),
    ("info", {"path": "report.pdf"}),
    ("chunks", {"path": "big.log", "tokens": 50, "max_chunks": 5_000}),
]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sizes")
    write_samples(folder)
    with (folder / "big.log").open("w", encoding="utf-8") as fh:
        for n in range(40_000):
            fh.write(f"2026-12-02T10:00:00Z INFO request {n:08d} served in 12 ms\n")
    # a JSON envelope escapes each quote, backslash and newline: the worst case for the structured content
    (folder / "quotes.log").write_text('"\\"\n' * 40_000, encoding="utf-8")
    with zipfile.ZipFile(folder / "many.zip", "w") as archive:
        for n in range(3_000):
            archive.writestr(f"dir/file-{n:05d}.txt", f"entry {n}\n")
    return folder


def sizes(result: CallToolResult) -> tuple[int, int]:
    text = "\n".join(block.text for block in result.content if block.type == "text")
    structured = json.dumps(result.structured_content, ensure_ascii=False, separators=(",", ":"))
    return len(text), len(structured)


@pytest.mark.parametrize("cap", [4_000, 12_000, 40_000])
def test_every_result_fits_the_server_cap_with_its_footer(project: Path, cap: int) -> None:
    params = StdioServerParameters(command=str(BIN), args=["mcp", "--max-chars", str(cap)], cwd=str(project),
                                   env={**os.environ, "BOUNDREAD_OUT_DIR": str(project / f"out-{cap}")})

    async def main() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            for tool in (await client.list_tools()).tools:
                assert (tool.meta or {}).get("anthropic/maxResultSizeChars") == cap
                assert tool.description and "\n " not in tool.description  # no source indentation for the model
            for name, args in CALLS:
                result = await client.call_tool(name, args)
                assert not result.is_error, (name, args, result.content)
                text, structured = sizes(result)
                assert text <= cap and structured <= cap, (name, args, text, structured)
                envelope = result.structured_content or {}
                if name in ("extract", "pages") and any(reason.startswith("max_chars")
                                                         for reason in envelope["truncated_reasons"]):
                    assert envelope["chars"] >= cap // 4, (name, args)  # the words around take the rest
                if name == "extract" and args["path"].endswith(".log") and "grep" not in args:
                    assert envelope["truncated"], (name, args)  # the big ones were cut: the test tests a cut

    anyio.run(main)


def test_a_cut_slice_goes_on_where_it_stopped(project: Path) -> None:
    params = StdioServerParameters(command=str(BIN), args=["mcp", "--max-chars", "6000"], cwd=str(project),
                                   env={**os.environ, "BOUNDREAD_OUT_DIR": str(project / "out-walk")})

    async def main() -> None:
        async with Client(params, read_timeout_seconds=120) as client:
            first = (await client.call_tool("extract", {"path": "quotes.log"})).structured_content or {}
            assert first["truncated"] and str(first["done"]).endswith("(the last one cut)")
            following = str(first["next_calls"][0])
            assert following.startswith('extract(path="quotes.log", lines="'), following
            window = following.split('lines="')[1].split('"')[0]
            second = (await client.call_tool("extract", {"path": "quotes.log", "lines": window})).structured_content
            whole = str(first["text"]).rsplit("\n", 1)[0] + "\n" + str((second or {})["text"])  # the cut line again
            last = int(window.split("-")[1])
            assert whole == '"\\"\n' * last  # lines 1 to the window's end, each once, none skipped
            assert str(project) in str(first["next"]) and "boundread-mcp-" not in json.dumps(first)

    anyio.run(main)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.text(alphabet=st.sampled_from('ab "\\\t\u00e9\u4e2d\U0001f600'), max_size=300),
                      min_size=1, max_size=400),
       cap=st.integers(min_value=4_000, max_value=20_000))
def test_no_text_makes_a_reply_outgrow_its_cap(tmp_path: Path, lines: list[str], cap: int) -> None:
    """Whatever the text (quotes, backslashes and tabs, which JSON escapes; wide characters),
    the reply and its envelope stay within the server's cap."""
    source = tmp_path / "odd.txt"
    source.write_text("\n".join(lines) * 20 + "\n", encoding="utf-8")
    config = tools.Config(roots=(str(tmp_path),), max_chars=cap)
    reply = tools.settle(tools.extract(config, tools.Target(source, "odd.txt", tmp_path / "out")))
    structured = json.dumps(reply.envelope, ensure_ascii=False, separators=(",", ":"))
    assert len(reply.text) <= cap and len(structured) <= cap, (len(reply.text), len(structured))
    assert tools.size(reply) <= cap
