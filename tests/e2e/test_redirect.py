"""Redirect mode inside the real clients: the same first turn in deny mode and in redirect mode.

Each session starts with one whole read (a Read of report.pdf or huge.log, ``cat report.pdf``, ``cat
huge.log``). In deny mode the scripted model then does what the deny reason says, until the text of the
file's first part reaches it; in redirect mode that text arrives with the first tool result. What is
measured is what the fake server saw: the agent-loop requests up to the first one that carries the text,
what the model read on the way (``Measure``). bench/redirect.py prints the same sessions as ratios.

Tokens, as chars (~4 a token): ``input_chars`` is every loop request's body up to that one - what a provider
bills as input without caching, since each turn re-sends the system prompt, the tools and the history;
``overhead_chars`` is the tool results before the one with the text (the deny reason, "wrote ..." summaries).
The first part differs in size between the modes (redirect: what fits 24,000 chars; the deny's advice:
pages 1-5 or 500 lines), so ``tool_chars`` is reported, not compared.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from tests.e2e import claude, codex, gemini
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, FakeModel, Turn
from tests.e2e.files import project_files

PAGE_1 = "PAGE-1."  # in the text of report.pdf's first page
LINE_1 = "request 00000001 served"  # huge.log's first line
HEADER = "[boundread redirect] report.pdf: PDF"


@dataclass(frozen=True)
class Measure:
    """One session up to the moment the model has the first part's text."""

    client: str
    scenario: str
    mode: str
    requests: int  # agent-loop requests up to and including the first one that carries the text
    tool_chars: int  # characters of the tool results the model got on the way
    input_chars: int  # characters of those requests' bodies, all of them
    results: tuple[str, ...]  # those tool results, in order

    @property
    def overhead_chars(self) -> int:
        return sum(len(text) for text in self.results[:-1])

    @property
    def tool_calls(self) -> int:
        return self.requests - 1


@dataclass(frozen=True)
class Client:
    name: str
    init: tuple[str, ...]
    read: str  # the read tool ("" when the client has none: Codex)
    shell: str
    run: Callable[[Workspace, FakeModel, str], object]
    results: Callable[[FakeModel], list[str]]
    fake_model: Callable[[], FakeModel]

    def read_call(self, path: str, **extra: object) -> Call:
        return Call(self.read, {"file_path": path, **extra})

    def shell_call(self, command: str) -> Call:
        if self.name == "codex":
            return codex.shell(command)
        return Call(self.shell, {"command": command, "description": "run"})


CLIENTS = {
    "claude": Client("claude", ("init",), "Read", "Bash", claude.run, claude.results, claude.fake_model),
    "gemini": Client("gemini", ("init", "--agent", "gemini"), "read_file", "run_shell_command", gemini.run,
                     gemini.results, gemini.fake_model),
    "codex": Client("codex", ("init", "--agent", "codex"), "", "exec_command", codex.run, codex.results,
                    codex.fake_model),
}
#: (client, scenario) for every session; Codex has a shell tool only.
SESSIONS = [(c, s) for c in ("claude", "gemini") for s in ("read-pdf", "read-log", "cat-pdf", "cat-log")] + \
    [("codex", "cat-pdf"), ("codex", "cat-log")]


def prepare(workspace: Workspace, client: Client, mode: str, extra: str = "") -> Workspace:
    """The test files, ``boundread init`` for the client, and ``mode`` in the project's .boundread.toml.

    The output folder is inside the project: Gemini CLI reads no file outside its workspace."""
    workspace.out = workspace.project / "boundread-out"
    project_files(workspace.project)
    done = workspace.boundread(*client.init)
    assert done.returncode == 0, done.stderr
    (workspace.project / ".boundread.toml").write_text(f'[guard]\nmode = "{mode}"\n{extra}', encoding="utf-8")
    if client.name == "codex":
        codex.trust_project(workspace)
        codex.trust_hooks(workspace)
    return workspace


def script(client: Client, scenario: str, mode: str, workspace: Workspace) -> tuple[Turn, ...]:
    """The first turn, then (deny mode) what the deny reason tells the model to do, step by step."""
    pdf, log, out = (str(workspace.project / "report.pdf"), str(workspace.project / "huge.log"), workspace.out)
    first = {"read-pdf": client.read_call(pdf) if client.read else None,
             "read-log": client.read_call(log) if client.read else None,
             "cat-pdf": client.shell_call("cat report.pdf"), "cat-log": client.shell_call("cat huge.log")}[scenario]
    assert first is not None
    turns = [Turn(calls=(first,))]
    if mode == "deny":
        if scenario == "read-log":  # the reason names the client's own range parameters
            bounded = {"limit": 500, "offset": 1} if client.name == "claude" else {"start_line": 1, "end_line": 500}
            turns.append(Turn(calls=(client.read_call(log, **bounded),)))
        else:
            command, written = (("boundread pages report.pdf 1-5", "report.pdf.pages-1-5.txt") if "pdf" in scenario
                                else ("boundread extract huge.log --lines 1-500", "huge.log.lines-1-500.txt"))
            turns.append(Turn(calls=(client.shell_call(command),)))
            then = client.read_call(str(out / written)) if client.read else client.shell_call(f"cat {out / written}")
            turns.append(Turn(calls=(then,)))
    return (*turns, Turn(text="Done."))


def session(workspace: Workspace, client_name: str, scenario: str, mode: str) -> Measure:
    """Run one scripted session with the real client; what reached the model, up to the first part's text."""
    client = CLIENTS[client_name]
    prepare(workspace, client, mode)
    sentinel = PAGE_1 if "pdf" in scenario else LINE_1
    with client.fake_model() as model:
        model.script(*script(client, scenario, mode, workspace))
        client.run(workspace, model, f"Read the file ({scenario})")
        results = client.results(model)
        bodies = [len(json.dumps(exchange.body)) for exchange in model.loop()]
    seen = next((n for n, text in enumerate(results) if sentinel in text), None)
    assert seen is not None, f"{client_name} {scenario} {mode}: the text never reached the model: {results}"
    return Measure(client_name, scenario, mode, seen + 2, sum(len(text) for text in results[:seen + 1]),
                   sum(bodies[:seen + 2]), tuple(results[:seen + 1]))


@pytest.mark.parametrize(("client_name", "scenario"), SESSIONS)
def test_redirect_gives_the_first_part_in_the_first_tool_result(workspace: Workspace, client_name: str,
                                                               scenario: str) -> None:
    got = session(workspace, client_name, scenario, "redirect")
    assert got.tool_calls == 1, got.results
    (text,) = got.results
    assert "Not an error" not in text  # not a deny
    if scenario == "read-pdf":
        assert HEADER in text and "12 pages" in text and "pages 1-12 of 12" in text
        assert "--grep PATTERN" in text
    elif scenario == "read-log":
        assert LINE_1 in text and "request 00001000 served" not in text  # a bounded range of the log
    elif scenario == "cat-pdf":
        assert "--- page 1 / 12 ---" in text and "%PDF-1." not in text
    else:
        assert "next:" in text and "boundread extract huge.log --lines" in text  # the rest, same turn
        assert "request 00060000 served" not in text


@pytest.mark.parametrize(("client_name", "scenario"), SESSIONS)
def test_deny_mode_needs_more_turns_and_more_tokens(tmp_path_factory: pytest.TempPathFactory, client_name: str,
                                                    scenario: str) -> None:
    deny = session(Workspace(tmp_path_factory.mktemp("deny")), client_name, scenario, "deny")
    redirect = session(Workspace(tmp_path_factory.mktemp("redirect")), client_name, scenario, "redirect")
    assert "Not an error: boundread refused this on purpose" in deny.results[0]
    assert deny.tool_calls > redirect.tool_calls
    assert redirect.overhead_chars == 0 < deny.overhead_chars
    assert deny.input_chars > redirect.input_chars, (deny.input_chars, redirect.input_chars)


@pytest.mark.parametrize("scenario", ["read-pdf", "read-log", "cat-log"])
def test_post_tool_batch_is_silent_about_what_it_redirected(workspace: Workspace, scenario: str) -> None:
    """Claude Code's PostToolBatch sees the call as the model made it (a whole Read, ``cat huge.log``); after a
    redirect the model has the first part and the next step, so no "read them in bounded parts instead"."""
    client = CLIENTS["claude"]
    prepare(workspace, client, "redirect")
    with client.fake_model() as model:
        model.script(*script(client, scenario, "redirect", workspace))
        client.run(workspace, model, "Read the file")
        assert len(client.results(model)) == 1
        sent = json.dumps([exchange.body for exchange in model.loop()])
    assert "boundread redirect" in sent  # the redirect's own context reached the model
    assert "should not) read these files whole" not in sent and "PostToolBatch hook" not in sent


def test_redirect_falls_back_to_deny_for_a_read_with_a_range(workspace: Workspace) -> None:
    """The agent asked for that part: the deny says why it is too much (Claude Code itself refuses over 20
    pages, so the guard's cap is lowered here)."""
    prepare(workspace, CLIENTS["claude"], "redirect", "pdf_page_cap = 5\n")
    pdf = str(workspace.project / "report.pdf")
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Read", {"file_path": pdf, "pages": "1-10"}),)), Turn(text="ok"))
        claude.run(workspace, model, "Read pages")
        (answer,) = claude.results(model)
    assert "Not an error: boundread refused this on purpose" in answer


def test_a_repeated_redirect_reuses_the_cached_slice(workspace: Workspace) -> None:
    prepare(workspace, CLIENTS["claude"], "redirect")
    pdf = str(workspace.project / "report.pdf")
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Read", {"file_path": pdf}),)), Turn(calls=(Call("Read", {"file_path": pdf}),)),
                     Turn(text="ok"))
        claude.run(workspace, model, "Read it twice")
        first, second = claude.results(model)
    assert HEADER in first and HEADER in second
    index = json.loads((workspace.out / ".boundread-redirect.json").read_text(encoding="utf-8"))
    assert len(index) == 1
    assert sorted(p.name for p in workspace.out.iterdir()) == [
        ".boundread-redirect.json", ".gitignore", next(iter(index.values()))["file"]]
