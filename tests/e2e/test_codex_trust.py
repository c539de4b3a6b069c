"""``boundread init --agent codex --trust`` and ``boundread doctor`` against what the real Codex decides."""

from __future__ import annotations

import json

import pytest

from boundread.agents import codex_trust
from tests.e2e import codex
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Turn
from tests.e2e.files import project_files


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    project_files(workspace.project)
    workspace.deny_mode()
    codex.configure(workspace)  # the user's provider settings, before boundread touches the file
    return workspace


def _doctor(workspace: Workspace) -> dict[str, object]:
    done = workspace.boundread("doctor", "--agent", "codex", "--json")
    body: dict[str, object] = json.loads(done.stdout)
    body["exit"] = done.returncode
    return body


def _cat_pdf(workspace: Workspace) -> str:
    with codex.fake_model() as model:
        model.script(Turn(calls=(codex.shell("cat report.pdf"),)), Turn(text="ok"))
        codex.run(workspace, model, "Read report.pdf")
        (answer,) = codex.results(model)
    return answer


def test_our_hash_is_the_one_codex_computes(project: Workspace) -> None:
    assert project.boundread("init", "--agent", "codex").returncode == 0
    codex.trust_project(project)  # Codex lists no hooks of an untrusted folder
    with codex.AppServer(project) as server:
        listed = server.call("hooks/list", {"cwds": [str(project.project)]})
    theirs = sorted((h["key"], h["currentHash"]) for entry in listed["data"] for h in entry["hooks"])
    ours = sorted((hook.key, hook.hash) for hook in codex_trust.our_hooks(project.project / ".codex" / "hooks.json"))
    assert len(ours) == 2 and ours == theirs  # the guard before and after the shell tool


def test_init_says_the_hook_is_silent_until_trusted_and_doctor_agrees(project: Workspace) -> None:
    done = project.boundread("init", "--agent", "codex")
    assert "/hooks" in done.stdout and "--trust" in done.stdout
    report = _doctor(project)
    assert report["exit"] == 2
    assert "boundread" not in _cat_pdf(project), "Codex really runs cat without the hook"


def test_init_trust_makes_codex_run_the_hook(project: Workspace) -> None:
    done = project.boundread("init", "--agent", "codex", "--trust")
    assert done.returncode == 0, done.stderr
    answer = _cat_pdf(project)
    assert "Command blocked by PreToolUse hook" in answer
    assert "boundread pages report.pdf 1-5" in answer
    assert _doctor(project)["exit"] == 0
    config = codex.config_file(project).read_text(encoding="utf-8")
    assert 'model_provider = "fake"' in config, "the user's own settings stay"
    again = project.boundread("init", "--agent", "codex", "--trust")
    assert codex.config_file(project).read_text(encoding="utf-8") == config, "idempotent"
    assert again.returncode == 0


def test_a_changed_hook_is_untrusted_again_and_doctor_says_so(project: Workspace) -> None:
    assert project.boundread("init", "--agent", "codex", "--trust").returncode == 0
    hooks = project.project / ".codex" / "hooks.json"
    hooks.write_text(hooks.read_text(encoding="utf-8").replace('"timeout": 10', '"timeout": 11'), encoding="utf-8")
    assert "boundread" not in _cat_pdf(project), "Codex skips the changed hook without a word"
    report = _doctor(project)
    assert report["exit"] == 2
    assert "trust" in json.dumps(report).lower()
