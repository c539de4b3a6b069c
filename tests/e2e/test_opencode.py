"""The guard inside the real opencode 1.18.33, through the plugin ``boundread init --agent opencode`` writes.

What is asserted is what reached the model (the tool results opencode sent to the fake Anthropic server) and what
opencode ran (its JSON events: each tool call's input after the plugin). opencode takes a rewrite - the plugin
changes the call's args in place - so init writes redirect mode; deny mode is the project's config.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e import opencode
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.test_qwen import PAGES, big_pdf

PAGE_1, PAGE_50 = "PAGE-1.", "PAGE-50."


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    """A 100-page PDF and a small file; the output folder inside the project (opencode asks before it reads
    outside it, which `opencode run` cannot)."""
    workspace.out = workspace.project / "boundread-out"
    big_pdf(workspace.project / "big.pdf")
    (workspace.project / "notes.txt").write_text("SMALL-SENTINEL\n", encoding="utf-8")
    done = workspace.boundread("init", "--agent", "opencode")
    assert done.returncode == 0, done.stderr
    assert (workspace.project / ".opencode" / "plugin" / "boundread.js").is_file()
    return workspace


def first(workspace: Workspace, call: Call) -> tuple[opencode.OpencodeRun, str, list[int]]:
    """One session whose model makes ``call`` then stops: the run, the first tool result, each request's size."""
    with opencode.fake_model() as model:
        model.script(Turn(calls=(call,)), Turn(text="Done."))
        run = opencode.run(workspace, model, "Read big.pdf")
        results, sizes = opencode.results(model), opencode.request_chars(model)
    assert len(results) == 1, results
    return run, results[0], sizes


def test_a_whole_read_of_a_100_page_pdf_gives_the_first_part_in_the_same_call(project: Workspace) -> None:
    run, result, _ = first(project, Call("read", {"filePath": str(project.project / "big.pdf")}))
    (state,) = run.tool_states()
    assert state["status"] == "completed"
    assert "[boundread redirect] big.pdf: PDF" in result and f"{PAGES} pages" in result
    assert PAGE_1 in result and PAGE_50 not in result
    assert "Next part: boundread pages big.pdf" in result
    assert "attachments" not in state  # not the PDF itself


def test_a_whole_read_of_a_big_log_gets_a_range_and_the_plugin_adds_the_note(project: Workspace) -> None:
    """The read is rewritten to a range of the same file (opencode's own offset/limit); what the guard tells the
    model about it (the next part, the grep) reaches it through the plugin's tool.execute.after."""
    log = project.project / "big.log"
    with log.open("w", encoding="utf-8") as out:
        for n in range(1, 60_001):
            out.write(f"2026-11-29T08:00:00Z INFO request {n:08d} served in 12 ms\n")
    _, result, _ = first(project, Call("read", {"filePath": str(log)}))
    assert "request 00000001 served" in result and "request 00060000 served" not in result
    assert "(Showing lines 1-" in result  # opencode's own words for a range
    assert "boundread redirect:" in result and "Next part: the same Read with offset=" in result


def test_cat_of_the_pdf_runs_the_bounded_command_instead(project: Workspace) -> None:
    run, result, _ = first(project, Call("bash", {"command": "cat big.pdf", "description": "Show it"}))
    (state,) = run.tool_states()
    assert state["input"]["command"].startswith("boundread extract big.pdf") and "--stdout" in state["input"]["command"]
    assert PAGE_1 in result and PAGE_50 not in result and "%PDF-1." not in result


def test_in_deny_mode_the_model_gets_the_reason(project: Workspace) -> None:
    project.deny_mode()
    run, result, _ = first(project, Call("read", {"filePath": str(project.project / "big.pdf")}))
    (state,) = run.tool_states()
    assert state["status"] == "error"
    assert "boundread pages big.pdf 1-5" in result and f"{PAGES} pages" in result and PAGE_1 not in result


def test_the_guard_stays_silent_for_a_small_file_and_a_bounded_command(project: Workspace) -> None:
    with opencode.fake_model() as model:
        model.script(Turn(calls=(Call("read", {"filePath": str(project.project / "notes.txt")}),)),
                     Turn(calls=(Call("bash", {"command": "head -c 100 big.pdf", "description": "x"}),)),
                     Turn(text="ok"))
        run = opencode.run(project, model, "Read the notes")
        read, head = opencode.results(model)
    assert "SMALL-SENTINEL" in read and "boundread" not in read
    assert "%PDF-1." in head and "boundread" not in head
    assert [state["input"] for state in run.tool_states()] == [
        {"filePath": str(project.project / "notes.txt")}, {"command": "head -c 100 big.pdf", "description": "x"}]


def test_without_the_plugin_opencode_sends_the_whole_pdf(project: Workspace) -> None:
    """The same read, after `init --uninstall`: opencode attaches the PDF whole (every page, base64) - what the
    plugin keeps out. Request sizes in chars; tests/e2e notes the figures (not timing: sizes are deterministic)."""
    _, _, guarded = first(project, Call("read", {"filePath": str(project.project / "big.pdf")}))
    removed = project.boundread("init", "--agent", "opencode", "--uninstall")
    assert removed.returncode == 0, removed.stderr
    assert not (project.project / ".opencode" / "plugin" / "boundread.js").exists()
    run, result, native = first(project, Call("read", {"filePath": str(project.project / "big.pdf")}))
    (state,) = run.tool_states()
    assert result == "PDF read successfully" and state["attachments"][0]["mime"] == "application/pdf"
    pdf_bytes = (project.project / "big.pdf").stat().st_size
    assert native[1] - native[0] > pdf_bytes  # the base64 of every byte went to the model
    assert guarded[1] - guarded[0] < native[1] - native[0]


def test_doctor_says_ready_after_init(project: Workspace) -> None:
    report = json.loads(project.boundread("doctor", "--agent", "opencode", "--json").stdout)["agents"][0]
    assert report["ready"] is True, report
    assert {check["name"] for check in report["checks"]} >= {"plugin", "command runs", "guard answers"}


def test_the_users_plugin_guards_every_project(workspace: Workspace) -> None:
    """`init --agent opencode --user` writes ~/.config/opencode/plugin/boundread.js: opencode loads it in a project
    with no .opencode of its own."""
    workspace.out = workspace.project / "boundread-out"
    big_pdf(workspace.project / "big.pdf")
    done = workspace.boundread("init", "--agent", "opencode", "--user")
    assert done.returncode == 0, done.stderr
    assert (workspace.home / ".config" / "opencode" / "plugin" / "boundread.js").is_file()
    assert not (workspace.project / ".opencode").exists()
    _, result, _ = first(workspace, Call("read", {"filePath": str(workspace.project / "big.pdf")}))
    assert "[boundread redirect] big.pdf: PDF" in result and PAGE_50 not in result
