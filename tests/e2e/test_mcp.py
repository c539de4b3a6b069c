"""`boundread mcp` inside the real Claude Code: registered by `boundread init --mcp` (the project's .mcp.json),
called by the scripted model as ``mcp__boundread__<tool>``.

Found with Claude Code 2.1.332: it saves a tool result over 50,000 characters to a file and shows the model
a 2 KB preview instead, so `init --mcp` registers the server with ``--max-chars 40000``. Print mode (``-p``)
starts the project's .mcp.json servers without the trust prompt an interactive session shows, so no
``--mcp-config`` or ``enableAllProjectMcpServers`` is needed; ``--allowedTools mcp__boundread__pages`` lets
the call through without a permission prompt. The MCP tools are deferred (the model finds them through
ToolSearch), and a call by name works. Claude Code hands the model the *structured content* (as JSON) and
the resource link, not the text block, so the envelope carries the slice and the next call itself. In print
mode it waits for the MCP servers only so long and then sends the first request without their tools ("No such
tool available"): by hand, a server slowed to 8 s kept its tools and one slowed to 12 s lost them, unless
MCP_CONNECTION_NONBLOCKING=false (then it waited); in CI, three test workers on two cores, the real server lost
that race once. These runs set the variable, as docs/mcp.md tells scripts to. (A server slowed to 15 s lost its
tools on a loaded machine even with it: a test of that would be flaky, so the probe is not kept.)
"""

from __future__ import annotations

import json

import pytest

from tests.e2e import claude
from tests.e2e.conftest import Workspace, client
from tests.e2e.fakemodel.server import Call, FakeModel, Turn
from tests.e2e.files import project_files

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'boundread[mcp]'")

TOOLS = "mcp__boundread__pages,mcp__boundread__info,mcp__boundread__extract"


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    project_files(workspace.project)
    done = workspace.boundread("init", "--mcp")
    assert done.returncode == 0, done.stderr
    entry = json.loads((workspace.project / ".mcp.json").read_text(encoding="utf-8"))["mcpServers"]["boundread"]
    assert entry["args"] == ["mcp", "--max-chars", "40000"]
    return workspace


def run(workspace: Workspace, model: FakeModel, prompt: str) -> claude.ClaudeRun:
    """``claude -p`` in the project (its .mcp.json), the boundread tools allowed without a prompt, with
    MCP_CONNECTION_NONBLOCKING=false (see the module's note)."""
    exe = client("claude", claude.PACKAGE)
    process = workspace.run([str(exe), "-p", prompt, "--allowedTools", TOOLS, "--output-format", "json"],
                            ANTHROPIC_BASE_URL=model.url, ANTHROPIC_API_KEY="sk-ant-e2e-fake",
                            MCP_CONNECTION_NONBLOCKING="false")
    assert process.returncode == 0, f"claude exited {process.returncode}: {process.stderr[-2000:]}"
    return claude.ClaudeRun(process, json.loads(process.stdout))


def envelope(seen: str) -> dict[str, object]:
    """The structured content in what reached the model (the JSON line after the resource link)."""
    start = seen.index('{"schema"')
    data: dict[str, object] = json.loads(seen[start:])
    return data


def test_the_model_gets_a_bounded_slice_and_the_next_call(project: Workspace) -> None:
    with claude.fake_model() as model:
        model.script(
            Turn(calls=(Call("mcp__boundread__pages", {"path": "report.pdf", "range": "1-2"}),)),
            Turn(calls=(Call("mcp__boundread__pages", {"path": "report.pdf", "range": "3-4"}),)),
            Turn(text="The report covers four pages so far."),
        )
        done = run(project, model, "Summarise report.pdf")
        first, second = claude.results(model)
    assert done.result["result"] == "The report covers four pages so far."
    data = envelope(first)
    assert data["command"] == "pages" and data["done"] == "pages 1-2 of 12"
    text = str(data["text"])
    assert "PAGE-2" in text and "PAGE-3" not in text and len(text) <= 100_000
    assert data["next_calls"] == ['pages(path="report.pdf", range="3-4")']  # the call the second turn made
    assert first.rstrip().endswith('"next_calls":["pages(path=\\"report.pdf\\", range=\\"3-4\\")"]}')
    assert "report.pdf.pages-1-2.txt" in first  # the resource link to the saved slice
    assert (project.out / "report.pdf.pages-1-2.txt").is_file()
    assert "PAGE-3" in str(envelope(second)["text"])


def test_a_huge_log_is_grepped_and_an_error_reaches_the_model_as_one_line(project: Workspace) -> None:
    with claude.fake_model() as model:
        model.script(
            Turn(calls=(Call("mcp__boundread__extract", {"path": "huge.log", "grep": "request 00050000 "}),)),
            Turn(calls=(Call("mcp__boundread__info", {"path": "/etc/passwd"}),)),
            Turn(text="ok"),
        )
        run(project, model, "Find request 50000 in huge.log")
        found, refused = claude.results(model)
    data = envelope(found)
    assert "request 00050000 served" in str(data["text"]) and data["done"] == "1 matching line of 60,000 read"
    assert "request 00049999" not in found
    assert "boundread: error: /etc/passwd is outside the folders this server serves" in refused
    assert "root:" not in refused


def test_a_default_slice_reaches_the_model_whole_not_as_a_saved_preview(project: Workspace) -> None:
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("mcp__boundread__extract", {"path": "huge.log"}),)), Turn(text="ok"))
        run(project, model, "Read huge.log")
        (seen,) = claude.results(model)
    assert "<persisted-output>" not in seen and "Output too large" not in seen
    data = envelope(seen)
    assert str(data["truncated_reasons"][0]).startswith("max_chars") and len(seen) <= 40_000  # footer included
    assert len(str(data["text"])) >= 30_000  # the envelope and the link take the rest
    assert str(data["next_calls"]).startswith("['extract(path=\"huge.log\", lines=\"")


def test_a_result_over_claude_codes_50000_threshold_stays_inline_by_the_tools_meta(project: Workspace) -> None:
    """Each tool declares ``_meta["anthropic/maxResultSizeChars"]`` (the server's --max-chars): Claude Code then
    keeps a result up to that size in the conversation, where without it a result over 50,000 characters is
    saved to a file and the model sees a 2 KB preview."""
    config = project.project / ".mcp.json"
    data = json.loads(config.read_text(encoding="utf-8"))
    data["mcpServers"]["boundread"]["args"] = ["mcp", "--max-chars", "80000"]
    config.write_text(json.dumps(data), encoding="utf-8")
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("mcp__boundread__extract", {"path": "huge.log"}),)), Turn(text="ok"))
        run(project, model, "Read huge.log")
        (seen,) = claude.results(model)
    assert "<persisted-output>" not in seen and "Output too large" not in seen
    assert 50_000 < len(seen) <= 80_000
    assert "request 00000001 served" in str(envelope(seen)["text"])

