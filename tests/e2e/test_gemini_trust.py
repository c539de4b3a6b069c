"""Gemini CLI's folder trust with the real client (0.61): in a folder it does not trust it runs none of the
project's hooks, and ``gemini -p`` refuses to start there (exit 55); ``boundread doctor`` says the folder is
not trusted, and ``boundread init --agent gemini --trust`` makes the guard work.

An interactive session that the user tells not to trust the folder runs without the hooks, reading every
file whole: that needs a terminal and a person, and is covered by the same trust check."""

from __future__ import annotations

from tests.e2e import gemini
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.files import project_files

LOG_LINE = "2026-11-29T08:00:00Z INFO"
UNTRUSTED_EXIT = 55  # Gemini CLI's FatalUntrustedWorkspaceError


def test_an_untrusted_folder_runs_no_hook_until_init_trust(workspace: Workspace) -> None:
    project_files(workspace.project)
    gemini.user_settings(workspace, trusted=False)
    done = workspace.boundread("init", "--agent", "gemini")
    assert done.returncode == 0, done.stderr
    assert "does not trust" in done.stdout and "init --agent gemini --trust" in done.stdout
    workspace.deny_mode()
    read = (Call("read_file", {"file_path": str(workspace.project / "huge.log")}),)
    with gemini.fake_model() as model:
        model.script(Turn(calls=read), Turn(text="ok"))
        refused = gemini.run(workspace, model, "Read the log", expect=UNTRUSTED_EXIT)
        assert not model.log, "an untrusted folder: gemini -p asks the model nothing"
    assert "not running in a trusted directory" in refused.process.stderr
    doctor = workspace.boundread("doctor")
    assert doctor.returncode == 2, doctor.stdout
    assert "problem  trusted: Gemini CLI does not trust" in doctor.stdout

    trust = workspace.boundread("init", "--agent", "gemini", "--trust")
    assert trust.returncode == 0, trust.stderr
    assert f"wrote: {workspace.home / '.gemini' / 'trustedFolders.json'}" in trust.stdout
    doctor = workspace.boundread("doctor")
    assert doctor.returncode == 0, doctor.stdout
    with gemini.fake_model() as model:
        model.script(Turn(calls=read), Turn(text="ok"))
        gemini.run(workspace, model, "Read the log")
        (denied,) = gemini.results(model)
    assert "boundread" in denied and LOG_LINE not in denied, "trusted: the guard refuses the whole read"
