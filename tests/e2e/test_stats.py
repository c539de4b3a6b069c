"""``boundread stats`` after real client sessions: each call the guard decided is one row, with real sizes.

The real clients (Claude Code, Gemini CLI, Codex) run scripted sessions against the fake model server; the
guard-check hook they run records each decided call, and ``boundread stats --json`` in the project reads them
back: what the agent asked for (the file's size on disk) against what the model got instead.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e import claude
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.test_redirect import CLIENTS, prepare, script


def _stats(workspace: Workspace) -> dict[str, object]:
    done = workspace.boundread("stats", "--json")
    assert done.returncode == 0, done.stderr
    body = json.loads(done.stdout)
    assert isinstance(body, dict)
    return body


@pytest.mark.parametrize(("client_name", "scenario", "name"), [
    ("claude", "read-pdf", "report.pdf"), ("claude", "cat-log", "huge.log"),
    ("gemini", "read-pdf", "report.pdf"), ("gemini", "cat-log", "huge.log"),
    ("codex", "cat-log", "huge.log"),
])
def test_a_redirect_in_the_real_client_is_one_row(workspace: Workspace, client_name: str, scenario: str,
                                                  name: str) -> None:
    client = CLIENTS[client_name]
    prepare(workspace, client, "redirect")
    with client.fake_model() as model:
        model.script(*script(client, scenario, "redirect", workspace))
        client.run(workspace, model, f"Read the file ({scenario})")
        (got,) = client.results(model)
    body = _stats(workspace)
    redirect = body["kinds"]["redirect"]  # type: ignore[index]
    assert redirect["calls"] == 1 and body["kinds"]["deny"]["calls"] == 0  # type: ignore[index]
    size = (workspace.project / name).stat().st_size
    assert redirect["raw_bytes"] == size
    if name == "huge.log":  # what the rewritten command prints (an overview, or at most its bound) and the note
        assert abs(redirect["delivered_bytes"] - len(got.encode())) < 1_000 and redirect["delivered_bytes"] < size / 100
    else:  # the slice file the Read was pointed at, and the note: a 12-page PDF of 9 kB holds more text than that
        (part,) = workspace.out.glob("report.pdf.*first-part*")
        assert part.stat().st_size < redirect["delivered_bytes"] < part.stat().st_size + 1_000
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
    deny, backstop = body["kinds"]["deny"], body["kinds"]["backstop"]  # type: ignore[index]
    assert (deny["calls"], deny["raw_bytes"]) == (1, pdf.stat().st_size)
    assert deny["delivered_bytes"] <= len(refused.encode()) + 200  # the reason, as Claude Code wraps it
    assert (backstop["calls"], backstop["raw_bytes"]) == (1, 300_001)  # the output and its newline
    assert 0 < backstop["delivered_bytes"] < 2_000
