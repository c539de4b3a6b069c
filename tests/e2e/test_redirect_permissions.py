"""Redirect mode and the client's own permission rules, in the real Claude Code.

Claude Code checks its Bash rules on the command a hook hands back: had the guard rewritten a `cat report.pdf`
that a deny rule names into `boundread extract report.pdf`, the rule would no longer match and the text would
reach the model. So where such a rule exists the guard keeps its deny (guard/permissions.py); its Read rules are
checked before any hook, and hold either way."""

from __future__ import annotations

import json

import pytest

from tests.e2e import claude
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.test_redirect import CLIENTS, PAGE_1, prepare


def _with_rule(workspace: Workspace, kind: str, rule: str) -> None:
    settings = workspace.project / ".claude" / "settings.json"
    data = json.loads(settings.read_text(encoding="utf-8"))
    data.setdefault("permissions", {})[kind] = [rule]
    settings.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize(("call", "rule"), [
    (Call("Bash", {"command": "cat report.pdf", "description": "show it"}), "Bash(cat report.pdf)"),
    (Call("Bash", {"command": "cat report.pdf", "description": "show it"}), "Bash(cat:*)"),
])
def test_a_deny_rule_on_the_command_is_not_stepped_around(workspace: Workspace, call: Call, rule: str) -> None:
    prepare(workspace, CLIENTS["claude"], "redirect")
    _with_rule(workspace, "deny", rule)
    with claude.fake_model() as model:
        model.script(Turn(calls=(call,)), Turn(text="ok"))
        claude.run(workspace, model, "Show the report")
        (answer,) = claude.results(model)
    assert PAGE_1 not in answer and "--- page 1 /" not in answer


def test_without_a_rule_the_same_command_is_redirected(workspace: Workspace) -> None:
    prepare(workspace, CLIENTS["claude"], "redirect")
    _with_rule(workspace, "allow", "Bash(cat:*)")
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Bash", {"command": "cat report.pdf", "description": "show it"}),)),
                     Turn(text="ok"))
        claude.run(workspace, model, "Show the report")
        (answer,) = claude.results(model)
    assert PAGE_1 in answer


def test_a_pdf_outside_the_project_is_denied_not_redirected(workspace: Workspace) -> None:
    prepare(workspace, CLIENTS["claude"], "redirect")
    outside = workspace.root / "elsewhere"
    outside.mkdir()
    (outside / "report.pdf").write_bytes((workspace.project / "report.pdf").read_bytes())
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Read", {"file_path": str(outside / "report.pdf")}),)), Turn(text="ok"))
        claude.run(workspace, model, "Read it")
        (answer,) = claude.results(model)
    assert PAGE_1 not in answer
