"""``boundread stats`` after real client sessions: each call the guard decided is one row, with real sizes.

The real clients (Claude Code, Gemini CLI, Codex) run scripted sessions against the fake model server; the
guard-check hook they run records each decided call, and ``boundread stats --json`` in the project reads them
back: what the agent asked for (the file's size on disk) against what the model got instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.e2e import claude, codex, gemini
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, FakeModel, Turn
from tests.e2e.files import project_files
from tests.e2e.test_posttool import FULL, SEQ


@dataclass(frozen=True)
class Client:
    name: str
    init: tuple[str, ...]
    read: str  # the read tool ("" when the client has none: Codex)
    shell: str
    run: Callable[[Workspace, FakeModel, str], object]
    results: Callable[[FakeModel], list[str]]
    fake_model: Callable[[], FakeModel]

    def shell_call(self, command: str) -> Call:
        return codex.shell(command) if self.name == "codex" else Call(self.shell, {"command": command,
                                                                                   "description": "run"})


CLIENTS = {
    "claude": Client("claude", ("init",), "Read", "Bash", claude.run, claude.results, claude.fake_model),
    "gemini": Client("gemini", ("init", "--agent", "gemini"), "read_file", "run_shell_command", gemini.run,
                     gemini.results, gemini.fake_model),
    "codex": Client("codex", ("init", "--agent", "codex"), "", "exec_command", codex.run, codex.results,
                    codex.fake_model),
}


def prepare(workspace: Workspace, client: Client, mode: str) -> None:
    """The demo's files and huge.log, ``boundread init`` for the client, ``mode`` in .boundread.toml; the output
    folder inside the project (Gemini CLI reads no file outside its workspace)."""
    workspace.out = workspace.project / "boundread-out"
    project_files(workspace.project)
    done = workspace.boundread(*client.init)
    assert done.returncode == 0, done.stderr
    (workspace.project / ".boundread.toml").write_text(f'[guard]\nmode = "{mode}"\n', encoding="utf-8")
    if client.name == "codex":
        codex.trust_project(workspace)
        codex.trust_hooks(workspace)


def first_call(client: Client, workspace: Workspace, name: str) -> Call:
    """A whole Read of ``name``, or ``cat`` of it where the client has no read tool or the name is a log."""
    if name.endswith(".pdf") and client.read:
        return Call(client.read, {"file_path": str(workspace.project / name)})
    return client.shell_call(f"cat {name}")


def _stats(workspace: Workspace) -> dict[str, Any]:
    done = workspace.boundread("stats", "--json")
    assert done.returncode == 0, done.stderr
    body: dict[str, Any] = json.loads(done.stdout)
    return body


@pytest.mark.parametrize(("client_name", "name"), [
    ("claude", "report.pdf"), ("claude", "huge.log"), ("gemini", "report.pdf"), ("gemini", "huge.log"),
    ("codex", "huge.log"),
])
def test_a_redirect_in_the_real_client_is_one_row(workspace: Workspace, client_name: str, name: str) -> None:
    client = CLIENTS[client_name]
    prepare(workspace, client, "redirect")
    with client.fake_model() as model:
        model.script(Turn(calls=(first_call(client, workspace, name),)), Turn(text="Done."))
        client.run(workspace, model, f"Read {name}")
        (got,) = client.results(model)
    body = _stats(workspace)
    redirect = body["kinds"]["redirect"]
    assert redirect["calls"] == 1 and body["kinds"]["deny"]["calls"] == 0
    size = (workspace.project / name).stat().st_size
    assert redirect["raw_bytes"] == size
    if name == "huge.log":  # what the rewritten command prints (an overview, or at most its bound) and the note
        assert abs(redirect["delivered_bytes"] - len(got.encode())) < 1_000 and redirect["delivered_bytes"] < size / 100
    else:  # the slice file the Read was pointed at, and the note: a 12-page PDF of 9 kB holds more text than that
        (part,) = workspace.out.glob("report.pdf.*first-part*")
        assert part.stat().st_size <= redirect["delivered_bytes"] < part.stat().st_size + 1_000
    assert body["top"] == [{"path": str(workspace.project / name), "calls": 1, "raw_bytes": size}]
    assert got  # the model had the first part in that one tool result


def test_a_deny_and_a_backstop_in_claude_code(workspace: Workspace) -> None:
    """Deny mode: a whole Read of the PDF is refused (the reason is what the model gets); a command that prints
    300 kB is replaced after it ran by the short answer."""
    client = CLIENTS["claude"]
    prepare(workspace, client, "deny")
    pdf = workspace.project / "report.pdf"
    noisy = "python3 -c \"print('y' * 300000)\""
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Read", {"file_path": str(pdf)}),)),
                     Turn(calls=(Call("Bash", {"command": noisy, "description": "print"}),)), Turn(text="Done."))
        claude.run(workspace, model, "Read it")
        refused, replaced = claude.results(model)
    assert "Not an error: boundread refused this on purpose" in refused
    assert "boundread put this short answer in place of its output" in replaced
    body = _stats(workspace)
    deny, backstop = body["kinds"]["deny"], body["kinds"]["backstop"]
    assert (deny["calls"], deny["raw_bytes"]) == (1, pdf.stat().st_size)
    assert len(refused.encode()) - 200 < deny["delivered_bytes"] <= len(refused.encode())  # the reason, wrapped
    assert (backstop["calls"], backstop["raw_bytes"]) == (1, 300_001)  # the output and its newline
    assert 0 < backstop["delivered_bytes"] < 2_000


@pytest.mark.parametrize("client_name", ["claude", "gemini"])
def test_a_2_mb_output_replaced_after_the_call_counts_its_whole_size(workspace: Workspace, client_name: str) -> None:
    """Claude Code keeps Bash output over 30,000 characters in its own file (the payload has a preview and the
    size); Gemini CLI sends it whole as the model would get it (without its last newline, in its untrusted-context
    wrapper): the row has that whole size either way."""
    client = CLIENTS[client_name]
    prepare(workspace, client, "redirect")
    with client.fake_model() as model:
        model.script(Turn(calls=(client.shell_call(SEQ),)), Turn(text="ok"))
        client.run(workspace, model, "Generate the lines")
        (answer,) = client.results(model)
    assert "boundread put this short answer in place of its output" in answer
    backstop = _stats(workspace)["kinds"]["backstop"]
    assert backstop["calls"] == 1
    if client_name == "claude":
        assert backstop["raw_bytes"] == len(FULL)
    else:
        assert len(FULL) - 1 < backstop["raw_bytes"] < len(FULL) + 200
    assert len(answer) - 200 < backstop["delivered_bytes"] < len(answer) + 200


@pytest.mark.parametrize("name", ["report.pdf", "huge.log"])
def test_copilot_redirects_are_rows_too(workspace: Workspace, name: str) -> None:
    """Copilot CLI 1.0.102, trusted folder: a whole ``view`` redirected through its ``modifiedArgs`` is one row."""
    from tests.e2e import copilot

    workspace.out = workspace.project / "boundread-out"
    project_files(workspace.project)
    copilot.trust(workspace)
    done = workspace.boundread("init", "--agent", "copilot")
    assert done.returncode == 0, done.stderr
    (workspace.project / ".boundread.toml").write_text('[guard]\nmode = "redirect"\n', encoding="utf-8")
    with copilot.fake_model() as model:
        model.script(Turn(calls=(Call("view", {"path": str(workspace.project / name)}),)), Turn(text="Done."))
        copilot.run(workspace, model, f"Read {name}")
        assert copilot.results(model)
    body = _stats(workspace)
    redirect = body["kinds"]["redirect"]
    size = (workspace.project / name).stat().st_size
    assert (redirect["calls"], redirect["raw_bytes"], body["kinds"]["deny"]["calls"]) == (1, size, 0)
    assert 0 < redirect["delivered_bytes"] <= 20 * 1024 + 1_000  # what Copilot's view takes at most, and the note
