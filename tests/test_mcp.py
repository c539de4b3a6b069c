"""`boundread mcp` through the MCP SDK's own client, over stdio (and once over streamable HTTP): the tools,
their results on real files, errors, roots, a bomb, a 1 GB log, parallel calls; `init --mcp`; the next call."""

from __future__ import annotations

import ast
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'boundread[mcp]'")

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import CallToolResult, ListRootsResult, Root

from boundread.core.demo import write_samples
from boundread.mcp import calls, roots, slices, tools
from tests.formats.test_archive import MB, _raw_zip
from tests.helpers import run

BIN = Path(sys.executable).parent / "boundread"
GB_LINE = b"2026-11-29T08:00:00Z INFO worker-1 request served in 12 ms upstream=backend-3 bytes=12345\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    write_samples(folder)
    (folder / "server.log").write_text("".join(f"{n} {'FATAL disk full' if n % 1000 == 0 else 'GET /index'}\n"
                                               for n in range(1, 5001)), encoding="utf-8")
    (tmp_path / "secret.txt").write_text("SECRET-OUTSIDE\n", encoding="utf-8")
    (folder / "escape.txt").symlink_to(tmp_path / "secret.txt")
    (tmp_path / "project-old").mkdir()
    (tmp_path / "project-old" / "x.txt").write_text("SIBLING\n", encoding="utf-8")
    return folder


def server(root: Path, *args: str) -> StdioServerParameters:
    env = {**os.environ, "BOUNDREAD_OUT_DIR": str(root / "boundread-out")}
    return StdioServerParameters(command=str(BIN), args=["mcp", *args], cwd=str(root), env=env)


@asynccontextmanager
async def connect(root: Path, *args: str, client_roots: list[Path] | None = None,
                  mode: str = "legacy") -> AsyncIterator[Client]:
    async def list_roots(ctx: object) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri=folder.as_uri(), name=folder.name) for folder in client_roots or []])

    async with Client(server(root, *args), mode=mode, read_timeout_seconds=120,
                      list_roots_callback=list_roots if client_roots is not None else None) as client:
        yield client


def talk(root: Path, work: Callable[[Client], Awaitable[None]], *args: str, **kw: Any) -> None:
    async def main() -> None:
        async with connect(root, *args, **kw) as client:
            await work(client)

    anyio.run(main)


def text(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


def link(result: CallToolResult) -> Path:
    (found,) = [block for block in result.content if block.type == "resource_link"]
    assert found.uri.startswith("file://") and found.mime_type == "text/plain"
    return Path(found.uri.removeprefix("file://"))


def test_tools_are_listed_typed_and_read_only(project: Path) -> None:
    async def work(client: Client) -> None:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        assert list(listed) == ["info", "pages", "sheets", "list_zip", "extract", "chunks"]
        for tool in listed.values():
            assert tool.annotations is not None and tool.annotations.read_only_hint is True
            assert tool.annotations.destructive_hint is False
            assert "client_roots" not in tool.input_schema["properties"]  # filled by the server, not the model
        pages = listed["pages"].input_schema
        assert pages["required"] == ["path", "range"]
        assert pages["properties"]["range"]["type"] == "string"
        extract = listed["extract"].input_schema["properties"]
        assert {"lines", "grep", "ignore_case", "context", "member", "sheet", "max_chars", "encoding"} <= set(extract)
        assert extract["context"]["type"] == "integer" and extract["ignore_case"]["type"] == "boolean"

    talk(project, work)


def test_each_tool_on_real_files(project: Path) -> None:
    async def work(client: Client) -> None:
        about = await client.call_tool("info", {"path": "report.pdf"})
        assert not about.is_error and "pages: 12" in text(about)
        assert text(about).splitlines()[-2:][0] == 'next: pages(path="report.pdf", range="1-5")'
        assert about.structured_content is not None and about.structured_content["fields"]["pages"] == 12

        part = await client.call_tool("pages", {"path": "report.pdf", "range": "1-2"})
        body = text(part)
        assert "PAGE-2" in body and "PAGE-3" not in body
        assert body.endswith('next: pages(path="report.pdf", range="3-4")')
        saved = link(part)
        assert saved == project / "boundread-out" / "report.pdf.pages-1-2.txt"
        assert "PAGE-2" in saved.read_text(encoding="utf-8")
        envelope = part.structured_content or {}
        assert envelope["schema"] == 1 and envelope["command"] == "pages" and envelope["done"] == "pages 1-2 of 12"
        assert list(envelope)[-2:] == ["text", "next_calls"] and "PAGE-2" in envelope["text"]
        assert envelope["next_calls"] == ['pages(path="report.pdf", range="3-4")']

        book = await client.call_tool("sheets", {"path": "prices.xlsx"})
        assert "'Prices 2026', 301 rows x 5 cols" in text(book)
        assert 'next: sheets(path="prices.xlsx", sheet="Prices 2026", max_rows=50)' in text(book)
        rows = await client.call_tool("sheets", {"path": "prices.xlsx", "sheet": "Prices 2026", "max_rows": 50})
        assert not rows.is_error and link(rows).suffix == ".csv"
        assert 'sheets(path="prices.xlsx", sheet="Prices 2026", rows="51-100"' in text(rows).splitlines()[-1]

        listing = await client.call_tool("list_zip", {"path": "catalogue.zip"})
        assert not listing.is_error and "catalogue.zip: zip archive" in text(listing)
        assert text(listing).splitlines()[-1].startswith('next: extract(path="catalogue.zip", member=')

        hits = await client.call_tool("extract", {"path": "server.log", "grep": "fatal", "ignore_case": True,
                                                  "context": 1})
        assert "1000 FATAL disk full" in text(hits) and "999 GET /index" in text(hits)
        assert "2500 GET" not in text(hits)

        window = await client.call_tool("extract", {"path": "server.log", "max_chars": 200})
        assert len((window.structured_content or {})["text"]) <= 200
        assert text(window).endswith('next: extract(path="server.log", lines="15-28")')
        cut = await client.call_tool("pages", {"path": "report.pdf", "range": "1-2", "max_chars": 400})
        # the next call goes on from the character this one stopped at, with the server's cap
        assert text(cut).endswith('next: pages(path="report.pdf", range="1-2", offset=400)')

    talk(project, work)


def test_a_saved_slice_is_a_readable_resource_and_nothing_else_is(project: Path) -> None:
    async def work(client: Client) -> None:
        part = await client.call_tool("pages", {"path": "report.pdf", "range": "2"})
        uri = link(part).as_uri()
        (content,) = (await client.read_resource(uri)).contents
        assert content.text.startswith("--- page 2 / 12 ---")  # type: ignore[union-attr]
        for other in ("file:///etc/passwd", (project / "report.pdf").as_uri(), (project / "server.log").as_uri(),
                      uri.replace("boundread-out/", "boundread-out/../")):
            with pytest.raises(Exception, match="not a slice this server saved"):
                await client.read_resource(other)

    talk(project, work)


def test_a_result_is_bounded_by_the_server_limit(project: Path) -> None:
    async def work(client: Client) -> None:
        whole = await client.call_tool("extract", {"path": "server.log", "max_chars": 1_000_000})
        envelope = whole.structured_content or {}
        assert envelope["truncated"]  # the call cannot raise the server's cap, which holds the words around too
        assert len(text(whole)) <= 5_000 and len(json.dumps(envelope, ensure_ascii=False)) <= 5_000
        assert 2_000 < envelope["chars"] < 5_000 and "cut: max_chars" in text(whole)
        last = int(str(envelope["text"]).splitlines()[-1].split()[0])  # each line starts with its number
        following = text(whole).rsplit('next: extract(path="server.log", lines="', 1)[1]
        assert int(following.split("-")[0]) in (last, last + 1)  # on from the line it stopped in, or after it

    talk(project, work, "--max-chars", "5000")


def test_errors_are_results_and_the_server_keeps_serving(project: Path, tmp_path: Path) -> None:
    (project / "bad.pdf").write_bytes(b"%PDF-1.7\n" + os.urandom(5000))

    async def work(client: Client) -> None:
        cases = {
            ("info", "nope.pdf"): "no such file",
            ("info", "/etc/passwd"): "outside the folders this server serves",
            ("info", "../secret.txt"): "outside the folders",
            ("info", "escape.txt"): "outside the folders",  # a symlink out of the root
            ("info", str(tmp_path / "project-old" / "x.txt")): "outside the folders",  # a prefix, not a folder
            ("pages", "prices.xlsx"): "not pdf",
            ("extract", "bad.pdf"): "",
        }
        for (tool, path), words in cases.items():
            args: dict[str, Any] = {"path": path} | ({"range": "1"} if tool == "pages" else {})
            result = await client.call_tool(tool, args)
            assert result.is_error, (tool, path, text(result))
            assert text(result).startswith("boundread: error: ") and words in text(result)
            assert len(text(result).splitlines()) == 1
            assert "SECRET-OUTSIDE" not in text(result) and "SIBLING" not in text(result)
            error = (result.structured_content or {})["error"]
            assert error["code"] and error["exit_code"] > 0
        bad = await client.call_tool("extract", {"path": "server.log", "grep": "("})
        assert bad.is_error and "bad --grep pattern" in text(bad)
        bad = await client.call_tool("pages", {"path": "report.pdf", "range": "5-2"})
        assert bad.is_error
        schema_errors = {  # the SDK's own validation, and what it would drop without a word, said as ours
            ("pages", '{"path": "report.pdf"}'): "range: required - call pages(path, range, layout=false,",
            ("sheets", '{"path": "prices.xlsx", "sheet": "1", "max_rows": 0}'): "max_rows=0: must be >= 1 - call "
                                                                               "sheets(path, sheet=null,",
            ("extract", '{"path": "server.log", "context": "two"}'): 'context="two": input should be a valid integer',
            ("extract", '{"path": "report.pdf", "page": "3"}'): "extract takes no argument 'page' - call extract(",
            ("read", '{"path": "report.pdf"}'): "no tool 'read' - the tools are info, pages, sheets, list_zip,",
        }
        for (tool, args), words in schema_errors.items():
            wrong = await client.call_tool(tool, json.loads(args))
            assert wrong.is_error and text(wrong).startswith("boundread: error: ") and words in text(wrong), text(wrong)
            assert len(text(wrong).splitlines()) == 1 and "pydantic" not in text(wrong)
            assert (wrong.structured_content or {})["error"] == {"code": "usage", "exit_code": 2,
                                                                 "message": text(wrong).removeprefix("boundread: "
                                                                                                     "error: ")}
        assert not (await client.call_tool("info", {"path": "report.pdf"})).is_error  # still serving

    talk(project, work)


def test_list_zip_pages_through_a_long_listing_by_its_next_call(project: Path) -> None:
    import zipfile

    names = [f"docs/{n:04d}.{'pdf' if n % 3 == 0 else 'txt'}" for n in range(1_200)]
    with zipfile.ZipFile(project / "many.zip", "w") as zf:
        for name in names:
            zf.writestr(name, name)

    async def work(client: Client) -> None:
        seen: list[str] = []
        args: dict[str, Any] = {"path": "many.zip", "match": "*.pdf", "max_entries": 150}
        for _ in range(5):
            page = await client.call_tool("list_zip", args)
            assert not page.is_error
            data = page.structured_content or {}
            seen += [entry["name"] for entry in data["entries"]]
            following = [call for call in data["next_calls"] if call.startswith("list_zip(")]
            if not following:
                break
            assert f"next: {following[0]}" in text(page)
            tool, args = _call_args(following[0])
            assert tool == "list_zip" and args["match"] == "*.pdf" and args["max_entries"] == 150
        assert seen == [name for name in names if name.endswith(".pdf")]  # each once, in order
        first = await client.call_tool("list_zip", {"path": "many.zip"})
        assert 'next: list_zip(path="many.zip", entries="501-1000")' in text(first)
        assert "listed 500 of 1,200 entries (1-500)" in text(first)

    talk(project, work)


def test_a_listing_cut_at_max_chars_goes_on_from_the_first_entry_not_shown(project: Path) -> None:
    """max_chars cuts a page of 100 entries after a few dozen lines: the next call starts at the first entry the
    cut left out, so following the next calls shows every entry once, in order, in the text and the JSON alike."""
    import zipfile

    names = [f"docs/{n:04d}.txt" for n in range(250)]
    with zipfile.ZipFile(project / "many.zip", "w") as zf:
        for name in names:
            zf.writestr(name, name)
    config = tools.Config(roots=(str(project),), max_chars=1_000)
    target = tools.Target(project / "many.zip", "many.zip", project / "boundread-out")
    shown: list[str] = []
    listed: list[str] = []
    args: dict[str, Any] = {"max_entries": 100}
    cuts = 0
    for _ in range(30):
        reply = tools.settle(tools.list_zip(config, target, **args))
        lines = reply.text.splitlines()
        shown += [word for line in lines for word in line.split()[-1:] if word in names]
        listed += [entry["name"] for entry in reply.envelope["entries"]]
        following = [call for call in reply.envelope["next_calls"] if call.startswith("list_zip(")]
        if not following:
            break
        cuts += "cut: the listing is longer than max_chars; entries" in reply.text
        tool, args = _call_args(following[0])
        assert tool == "list_zip" and args.pop("path") == "many.zip" and args["max_entries"] == 100
    assert shown == names and listed == names and cuts >= 3


def test_a_listing_entry_longer_than_max_chars_is_stepped_over_in_words(project: Path) -> None:
    import zipfile

    names = ["a.txt", "long-" + "x" * 300 + ".txt", "b.txt"]
    with zipfile.ZipFile(project / "long.zip", "w") as zf:
        for name in names:
            zf.writestr(name, name)
    config = tools.Config(roots=(str(project),), max_chars=200)
    target = tools.Target(project / "long.zip", "long.zip", project / "boundread-out")
    first = tools.settle(tools.list_zip(config, target))
    assert [e["name"] for e in first.envelope["entries"]] == ["a.txt"]
    assert "entries 1-1 shown; the next call goes on from entry 2" in first.text
    _, args = _call_args(first.envelope["next_calls"][0])
    second = tools.settle(tools.list_zip(config, target, entries=args["entries"]))
    assert second.envelope["entries"] == []
    assert "entry 2 does not fit; the next call goes on from entry 3" in second.text
    _, args = _call_args(second.envelope["next_calls"][0])
    third = tools.settle(tools.list_zip(config, target, entries=args["entries"]))
    assert [e["name"] for e in third.envelope["entries"]] == ["b.txt"]


def _call_args(call: str) -> tuple[str, dict[str, Any]]:
    """``list_zip(path="a.zip", entries="1-5")`` -> ("list_zip", {"path": "a.zip", "entries": "1-5"})."""
    tree = ast.parse(call, mode="eval").body
    assert isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name)
    return tree.func.id, {kw.arg: ast.literal_eval(kw.value) for kw in tree.keywords if kw.arg}


def test_a_zip_bomb_is_refused_and_the_server_survives(project: Path) -> None:
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = packer.compress(bytes(MB)) + packer.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(200):
        crc = zlib.crc32(bytes(MB), crc)
    payload = block * 200 + zlib.compressobj(9, zlib.DEFLATED, -15).flush()
    (project / "bomb.zip").write_bytes(_raw_zip(b"zeros.bin", payload, crc, 200 * MB))

    async def work(client: Client) -> None:
        listing = await client.call_tool("list_zip", {"path": "bomb.zip"})
        assert not listing.is_error and "ratio" in text(listing)
        opened = await client.call_tool("extract", {"path": "bomb.zip", "member": "zeros.bin"})
        assert opened.is_error and "refused" in (opened.structured_content or {})["error"]["code"]
        assert not (await client.call_tool("info", {"path": "report.pdf"})).is_error

    talk(project, work)


def _big_log(path: Path, size: int) -> None:
    """About ``size`` bytes of log lines, with one FATAL line in the middle."""
    chunk = GB_LINE * 10_000
    count = max(1, size // len(chunk))
    with path.open("wb") as out:
        for n in range(count):
            if n == count // 2:
                out.write(b"2026-11-29T09:00:00Z FATAL disk full on /var\n")
            out.write(chunk)


def _server_peak_kb(marker: str) -> int:
    """VmHWM (peak resident memory) of the running `boundread mcp` whose arguments contain ``marker``."""
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
            if b"mcp" in argv and marker.encode() in b" ".join(argv):
                status = (proc / "status").read_text()
                return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM")))
        except (OSError, StopIteration):
            continue
    raise AssertionError("server process not found")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads peak memory from /proc")
def test_a_1_gb_log_grep_is_bounded_in_time_and_memory(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A grep over 1 GB stops at the server's --timeout (3 s) and says where to go on, and the server's peak
    memory stays far below the file's size. The seconds are bench/mcp_timing.py's to measure; here the answer
    only has to come within four times the deadline, which holds on a loaded 2-core machine. The Python scan:
    rg greps the 1 GB inside the deadline (its deadline: tests/test_grep_engine_stops.py)."""
    monkeypatch.setenv("BOUNDREAD_GREP_ENGINE", "python")
    _big_log(project / "huge.log", 1 << 30)
    timings: dict[str, float] = {}

    async def work(client: Client) -> None:
        start = time.monotonic()
        # F.T.L: no literal the byte search can narrow to (an F is in every INFO line), so every line is read
        hits = await client.call_tool("extract", {"path": "huge.log", "grep": "F.T.L"})
        timings["grep"] = time.monotonic() - start
        envelope = hits.structured_content or {}
        assert not hits.is_error and envelope["timed_out"]
        assert "timeout after 2.7 s" in text(hits)  # the engine stops a tenth before the call's deadline
        assert text(hits).splitlines()[-1].startswith('next: extract(path="huge.log", grep="F.T.L", lines="')
        assert len(envelope["text"]) <= 100_000
        timings["peak_kb"] = _server_peak_kb(str(project))

    talk(project, work, "--root", str(project), "--timeout", "3")
    assert timings["grep"] < 4 * 3  # due by the deadline: four times it, whatever else the machine runs
    assert timings["peak_kb"] < 300 * 1024, f"peak {timings['peak_kb']} KB for a 1 GB file"


def test_parallel_calls_do_not_wait_for_a_slow_one(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Quick calls made while a slow grep runs answer before it (the order, not the seconds: those are
    bench/mcp_timing.py's). The Python scan is the slow one: rg would answer before the quick calls are made."""
    monkeypatch.setenv("BOUNDREAD_GREP_ENGINE", "python")
    _big_log(project / "huge.log", 300 << 20)
    done: dict[str, float] = {}

    async def work(client: Client) -> None:
        start = time.monotonic()

        async def call(name: str, tool: str, args: dict[str, Any]) -> None:
            result = await client.call_tool(tool, args)
            assert not result.is_error, text(result)
            done[name] = time.monotonic() - start

        async with anyio.create_task_group() as group:
            group.start_soon(call, "slow", "extract", {"path": "huge.log", "grep": "N.V.R"})  # not narrowed
            await anyio.sleep(0.3)
            for n in range(3):
                group.start_soon(call, f"quick{n}", "info", {"path": "report.pdf"})

    talk(project, work, "--timeout", "4")
    assert max(done[f"quick{n}"] for n in range(3)) < done["slow"], done


@pytest.mark.parametrize("mode", ["legacy", "auto"])  # roots/list mid-call (2025-11-25), input_required (2026-07-28)
def test_the_client_roots_decide_what_is_served(project: Path, mode: str) -> None:
    docs = project / "docs"
    docs.mkdir()
    (docs / "notes.txt").write_text("NOTES-IN-ROOT\n", encoding="utf-8")

    async def work(client: Client) -> None:
        inside = await client.call_tool("extract", {"path": "notes.txt"})  # relative to the client's root
        assert "NOTES-IN-ROOT" in text(inside)
        outside = await client.call_tool("info", {"path": str(project / "report.pdf")})
        assert outside.is_error and "outside the folders" in text(outside)

    talk(project, work, client_roots=[docs], mode=mode)


def test_a_client_root_outside_root_is_ignored(project: Path, tmp_path: Path) -> None:
    async def work(client: Client) -> None:
        result = await client.call_tool("info", {"path": str(tmp_path / "secret.txt")})
        assert result.is_error and "outside the folders" in text(result)
        assert not (await client.call_tool("info", {"path": "report.pdf"})).is_error

    talk(project, work, "--root", str(project), client_roots=[tmp_path])


def test_streamable_http_on_localhost(project: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([str(BIN), "mcp", "--http", "--port", str(port)], cwd=project,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)

        async def main() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                result = await client.call_tool("pages", {"path": "report.pdf", "range": "2"})
                assert "PAGE-2" in text(result) and not result.is_error

        anyio.run(main)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_without_the_sdk_the_command_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mcp", None)  # not importable, as on a machine without the extra
    result = run("mcp")
    assert result.exit_code == 2
    assert "pip install 'boundread[mcp]'" in result.stderr


def test_mcp_help_reads_numbers_as_words_and_the_port_range_is_checked() -> None:
    shown = run("mcp", "--help").stdout
    assert "--port" in shown and "(1-65535)" in shown
    assert "x>=" not in shown and "<=x" not in shown and "range" not in shown
    for port, why in (("0", "0 is below 1"), ("65536", "65536 is above 65535"), ("http", "'http' is not a whole")):
        result = run("mcp", "--port", port)
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.startswith(f"boundread: error: invalid value for '--port': {why}"), result.stderr
        assert result.stderr.count("\n") == 1


# ---- init --mcp -----------------------------------------------------------------------------------

def test_init_mcp_registers_the_server_for_claude_code_and_cursor(tmp_path: Path) -> None:
    first = run("init", "--mcp", "--dir", str(tmp_path))
    assert first.exit_code == 0, first.stderr
    entry = json.loads((tmp_path / ".mcp.json").read_text())["mcpServers"]["boundread"]
    assert entry["args"] == ["mcp", "--max-chars", "40000"]  # under Claude Code's 50,000-char cut to a preview
    assert entry["type"] == "stdio" and "boundread" in entry["command"]
    assert "unchanged: " + str(tmp_path / ".mcp.json") in run("init", "--mcp", "--dir", str(tmp_path)).stdout
    assert run("init", "--agent", "cursor", "--mcp", "--dir", str(tmp_path)).exit_code == 0
    assert json.loads((tmp_path / ".cursor" / "mcp.json").read_text())["mcpServers"]["boundread"]["args"] == ["mcp"]
    assert run("init", "--uninstall", "--dir", str(tmp_path)).exit_code == 0
    assert not (tmp_path / ".mcp.json").exists()


def test_init_mcp_keeps_other_servers_and_refuses_a_foreign_boundread(tmp_path: Path) -> None:
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {"other": {"command": "x"}}}))
    assert run("init", "--mcp", "--dir", str(tmp_path)).exit_code == 0
    assert set(json.loads(config.read_text())["mcpServers"]) == {"other", "boundread"}
    assert run("init", "--uninstall", "--dir", str(tmp_path)).exit_code == 0
    assert json.loads(config.read_text()) == {"mcpServers": {"other": {"command": "x"}}}
    config.write_text(json.dumps({"mcpServers": {"boundread": {"command": "npx", "args": ["something"]}}}))
    refused = run("init", "--mcp", "--dir", str(tmp_path))
    assert refused.exit_code == 2 and "not `boundread mcp`" in refused.stderr
    assert run("init", "--agent", "copilot", "--mcp", "--dir", str(tmp_path)).exit_code == 2  # no MCP config known


# ---- the next call, and the roots check, as units -------------------------------------------------

@pytest.mark.parametrize(("command", "call"), [
    ("boundread pages /r/report.pdf 6-10", 'pages(path="r.pdf", range="6-10")'),
    ("boundread pages /r/report.pdf 1-5 --layout", 'pages(path="r.pdf", range="1-5", layout=true)'),
    ("boundread sheets '/r/my book.xlsx' 'Lista 2024' --rows 201-400",
     'sheets(path="r.pdf", sheet="Lista 2024", rows="201-400")'),
    ("boundread extract /r/a.log --grep 'ERROR|FATAL' -i --context 2 --lines 5000-",
     'extract(path="r.pdf", grep="ERROR|FATAL", ignore_case=true, context=2, lines="5000-")'),
    ("boundread extract /r/b.zip --member docs/spec.pdf --pages 4-6",
     'extract(path="r.pdf", member="docs/spec.pdf", pages="4-6")'),
    ("boundread extract /r/a.log --lines 18-34 --encoding cp1251",
     'extract(path="r.pdf", lines="18-34", encoding="cp1251")'),
    ("boundread list-zip /r/b.zip", 'list_zip(path="r.pdf")'),
    ("boundread info /r/b.zip", 'info(path="r.pdf")'),
    ("boundread extract /r/a.log --max-matches 5", None),  # no tool takes it: stays a CLI command
    ("boundread budget status", None),
    ("boundread pages /r/report.pdf", None),
])
def test_cli_next_commands_become_tool_calls(command: str, call: str | None) -> None:
    assert calls.tool_call(command, "r.pdf") == call


def test_quoted_commands_in_messages_become_calls() -> None:
    said = calls.in_text("9,812 pages: use `boundread pages /r/big.pdf 1-20`", "/r/big.pdf", "big.pdf")
    assert said == '9,812 pages: use `pages(path="big.pdf", range="1-20")`'


def test_roots_check_whole_components(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "sub").mkdir(parents=True)
    (tmp_path / "data-old").mkdir()
    served = (roots.real(data),)
    assert roots.resolve("sub", served) == data / "sub"
    assert roots.resolve(str(data), served) == data
    for outside in (str(tmp_path / "data-old"), "../data-old", "/", "sub/../../data-old"):
        with pytest.raises(Exception, match="outside the folders"):
            roots.resolve(outside, served)
    assert roots.from_uris(["file:///a%20b/c", "https://x/y", "file://host/z"]) == (roots.real("/a b/c"),)
    assert roots.effective(("/p",), True, ("/p/q", "/elsewhere")) == ("/p/q",)
    assert roots.effective(("/p",), False, ("/elsewhere",)) == ("/elsewhere",)


def test_the_cli_does_not_load_the_sdk_until_mcp_runs() -> None:
    probe = "from boundread.cli.app import app\nimport sys\nprint('mcp' in sys.modules, 'anyio' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.split() == ["False", "False"]


# ---- in process: every next call makes progress; a timed-out call answers in time and writes nothing ---------

def _dispatch(config: tools.Config, project: Path, expr: str) -> tools.Reply:
    """Make the tool call ``expr`` (as a next call reads) on the tools module, as the server would."""
    node = ast.parse(expr, mode="eval").body
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    args = {kw.arg: ast.literal_eval(kw.value) for kw in node.keywords if kw.arg}
    path = args.pop("path")
    target = tools.Target(project / path, path, project / "boundread-out")
    if node.func.id == "pages":
        return tools.settle(tools.pages(config, target, args.pop("range"), **args))
    if node.func.id == "sheets":
        return tools.settle(tools.sheets(config, target, args.pop("sheet", None), args.pop("rows", None), **args))
    assert node.func.id == "extract", expr
    return tools.settle(tools.extract(config, target, **args))


def _walk(config: tools.Config, project: Path, first: str, steps: int) -> tuple[str, list[str], tools.Reply]:
    """Follow the next calls from ``first``: the text read in order, the calls made, the last reply."""
    made: list[str] = []
    read, expr = "", first
    for _ in range(steps):
        assert expr not in made, f"{expr} again after {made}"
        made.append(expr)
        reply = _dispatch(config, project, expr)
        assert not reply.is_error, reply.text
        body = reply.envelope["text"]
        assert 0 < len(body) <= config.max_chars, (expr, body)
        read += body
        following = [call for call in reply.envelope["next_calls"] if call.startswith(expr.split("(")[0])]
        if not following or "offset=" not in following[0]:
            break  # the selection is read (or the engine's next moves on from it)
        expr = following[0]
    return read, made, reply


@pytest.fixture
def odd_files(project: Path) -> Path:
    """A one-line text file and a workbook row far longer than a small max_chars."""
    import xlsxwriter

    (project / "long.txt").write_text("LONGLINE-" + "abcdefghij" * 30 + "-END\nshort second line\n",
                                      encoding="utf-8")
    book = xlsxwriter.Workbook(str(project / "wide.xlsx"))
    sheet = book.add_worksheet("Wide")
    for col in range(6):
        sheet.write(0, col, f"CELL{col}-" + "x" * 40)
    sheet.write(1, 0, "SECOND-ROW")
    book.close()
    return project


STARTS = ('pages(path="report.pdf", range="1-2")', 'extract(path="long.txt")',
          'sheets(path="wide.xlsx", sheet="Wide")', 'extract(path="report.pdf", pages="3")')


@pytest.mark.parametrize("max_chars", range(1, 51))
def test_every_next_call_makes_progress_at_a_small_server_cap(odd_files: Path, max_chars: int) -> None:
    small = tools.Config(roots=(str(odd_files),), max_chars=max_chars)
    whole = tools.Config(roots=(str(odd_files),))
    for first in STARTS:
        full = _dispatch(whole, odd_files, first).envelope["text"]
        read, made, _ = _walk(small, odd_files, first, steps=3)
        assert full.startswith(read) and len(read) >= min(len(full), max_chars * len(made)), (first, made)


@pytest.mark.parametrize(("first", "max_chars"), [(STARTS[0], 50), (STARTS[1], 7), (STARTS[2], 33)])
def test_following_offsets_reads_the_selection_exactly_once(odd_files: Path, first: str, max_chars: int) -> None:
    full = _dispatch(tools.Config(roots=(str(odd_files),)), odd_files, first).envelope["text"]
    read, made, last = _walk(tools.Config(roots=(str(odd_files),), max_chars=max_chars), odd_files, first, 500)
    assert read == full and len(made) == -(-len(full) // max_chars)
    assert all("offset=" not in call for call in last.envelope["next_calls"])  # on to the next selection, or done
    saved = [p.name for p in (odd_files / "boundread-out").iterdir() if ".from-" in p.name]
    assert len(saved) == len(made) - 1  # each offset call saved its own slice


def test_each_cut_sheet_gets_its_next_call(project: Path) -> None:
    """extract() of a workbook cuts every sheet at max_rows: a next call for each, the first sheet's first."""
    from tests.test_next_every_part import rows_in, workbook

    workbook(project / "two.xlsx", rows=300)
    config = tools.Config(roots=(str(project),))
    reply = _dispatch(config, project, 'extract(path="two.xlsx")')
    calls_made = ['sheets(path="two.xlsx", sheet="Sales 2025", rows="201-400")',
                  'sheets(path="two.xlsx", sheet="Costs", rows="201-400")']
    assert reply.envelope["next_calls"] == calls_made
    assert reply.text.splitlines()[-2:] == [f"next: {call}" for call in calls_made]
    for index, call in enumerate(calls_made):
        assert rows_in(_dispatch(config, project, call).envelope["text"]) == [(index, r) for r in range(201, 301)]


def test_an_offset_past_its_reach_is_a_usage_error(odd_files: Path) -> None:
    config = tools.Config(roots=(str(odd_files),), max_chars=10)
    with pytest.raises(Exception, match="past the 100,000 characters an offset reaches"):
        _dispatch(config, odd_files, 'extract(path="long.txt", offset=100001)')


def test_at_the_reach_of_offsets_the_reply_says_how_to_read_on(odd_files: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(slices, "OFFSET_REACH", 60)
    config = tools.Config(roots=(str(odd_files),), max_chars=25)
    read, made, last = _walk(config, odd_files, 'extract(path="long.txt")', 50)
    assert made[-1] == 'extract(path="long.txt", offset=50)' and len(read) == 75
    assert last.envelope["next_calls"] == [] and "next: none" in last.text
    assert any("past the 60 characters offset reaches" in w for w in last.envelope["warnings"])
    assert 'lines=\"A-B\"' in last.text or 'lines="A-B"' in last.text


def test_a_timed_out_call_answers_at_its_deadline_and_its_worker_writes_nothing(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boundread.mcp import server

    release, finished = threading.Event(), threading.Event()
    real_pages = tools.pages

    def stuck(*args: Any, **kwargs: Any) -> tools.Reply:  # a library call that ignores the engine's deadline
        try:
            release.wait(30)
            return real_pages(*args, **kwargs)
        finally:
            finished.set()

    monkeypatch.setattr(tools, "pages", stuck)
    config = tools.Config(roots=(str(project),), timeout=0.5, out_dir=str(project / "boundread-out"))
    answers: list[CallToolResult] = []

    async def main() -> None:
        async with Client(server.build(config)) as client:
            answers.append(await client.call_tool("pages", {"path": "report.pdf", "range": "1"}))
            assert not finished.is_set()  # answered while the worker was still stuck
            release.set()
            await anyio.to_thread.run_sync(finished.wait, 30)
            await anyio.sleep(0.2)

    anyio.run(main)
    (answer,) = answers
    assert answer.is_error and "no answer after 0.5 s" in text(answer)
    assert not (project / "boundread-out").exists() or not list((project / "boundread-out").glob("report.pdf*"))


def test_the_engine_stops_before_the_call_deadline() -> None:
    for seconds in (0.1, 3.0, 60.0):
        engine_s = tools.engine_timeout(tools.Config(roots=("/",), timeout=seconds))
        assert seconds * 0.9 <= engine_s < seconds and seconds - engine_s <= 1.0
