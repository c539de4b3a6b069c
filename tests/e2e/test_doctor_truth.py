"""doctor tells the truth about the real clients: where a setting switches the hooks off, a whole read of a PDF
reaches the model without the guard AND doctor says not ready; without it, the guard answers AND doctor says
ready. Claude Code's ``disableAllHooks`` (the user's, the project's and the local settings, a later file's false
undoing an earlier true; the managed file and drop-ins), its bare, safe and ignored-trust variables; Gemini CLI's
``hooksConfig.enabled: false`` (the user's, the project's and the system settings) and ``hooksConfig.disabled``;
Codex's ``[features] codex_hooks = false``.

The managed settings live in /etc, which a test does not write: the client and doctor get them in a private mount
namespace with an overlay on /etc (root and unshare; elsewhere that test skips, tests/test_doctor_hooks_off.py
covers them with the folder as a parameter)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import claude, codex, gemini
from tests.e2e.conftest import BIN, RUN_TIMEOUT, Workspace, client
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.files import project_files

REFUSED = "Not an error: boundread refused this on purpose"


def _merge(path: Path, extra: dict[str, Any]) -> None:
    data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**data, **extra}, indent=2), encoding="utf-8")


def _doctor(workspace: Workspace, agent: str) -> tuple[int, str]:
    done = workspace.boundread("doctor", "--agent", agent)
    return done.returncode, done.stdout


CLAUDE_CASES = {
    "no setting": ({}, True),
    "user": ({"user": {"disableAllHooks": True}}, False),
    "project": ({"project": {"disableAllHooks": True}}, False),
    "local": ({"local": {"disableAllHooks": True}}, False),
    "user true, project false": ({"user": {"disableAllHooks": True}, "project": {"disableAllHooks": False}}, True),
}


@pytest.mark.parametrize("case", list(CLAUDE_CASES))
def test_claude_code_disable_all_hooks(workspace: Workspace, case: str) -> None:
    project_files(workspace.project)
    done = workspace.boundread("init")
    assert done.returncode == 0, done.stderr
    workspace.deny_mode()
    files = {"user": workspace.home / ".claude" / "settings.json",
             "project": workspace.project / ".claude" / "settings.json",
             "local": workspace.project / ".claude" / "settings.local.json"}
    layers, fires = CLAUDE_CASES[case]
    for layer, setting in layers.items():
        _merge(files[layer], setting)
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Read", {"file_path": str(workspace.project / "report.pdf")}),)),
                     Turn(text="ok"))
        claude.run(workspace, model, "Summarise report.pdf")
        (result,) = claude.results(model)
        print(f"claude {case}: last request {len(json.dumps(model.loop()[-1].body)):,} bytes")
    code, said = _doctor(workspace, "claude")
    if fires:
        assert REFUSED in result, "the hook fired"
        assert code == 0, said
        assert "ok       guard answers: `boundread guard-check --mode redirect` refused a whole read" in said
    else:
        assert "boundread" not in result, "the hook did not fire: the read reached the model"
        assert code == 2, said
        assert '"disableAllHooks": true in' in said and "problem  hooks enabled" in said
        assert "ok       guard answers" in said, "the hook command itself works"


class WithEnv(Workspace):
    """A workspace whose client and doctor both start with ``variable`` set (the shell's environment)."""

    variable: tuple[str, str] = ("", "")

    def env(self, **extra: str) -> dict[str, str]:
        name, value = self.variable
        return super().env(**({name: value} if name else {}), **extra)


@pytest.mark.parametrize("variable", ["CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE",
                                      "CLAUDE_CODE_IGNORE_PERSISTED_TRUST"])
def test_claude_code_variables_that_switch_hooks_off(tmp_path: Path, variable: str) -> None:
    """Bare mode runs no settings hook, safe mode only managed ones, ignored trust none of the project's in -p."""
    workspace = WithEnv(tmp_path)
    workspace.variable = (variable, "1")
    project_files(workspace.project)
    done = workspace.boundread("init")
    assert done.returncode == 0, done.stderr
    workspace.deny_mode()
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Read", {"file_path": str(workspace.project / "report.pdf")}),)),
                     Turn(text="ok"))
        claude.run(workspace, model, "Summarise report.pdf")
        (result,) = claude.results(model)
    assert "boundread" not in result, "the hook did not fire: the read reached the model"
    code, said = _doctor(workspace, "claude")
    assert code == 2, said
    assert f"problem  hooks enabled: {variable}=1 in this environment" in said


GEMINI_CASES: dict[str, tuple[str | None, dict[str, Any], bool]] = {
    "no setting": (None, {}, True),
    "user": ("user", {"enabled": False}, False),
    "project": ("project", {"enabled": False}, False),
    "system": ("system", {"enabled": False}, False),
    "system file in /tmp, which Gemini skips": ("system in /tmp", {"enabled": False}, True),
    "user disables our hook by name": ("user", {"disabled": ["boundread-guard"]}, False),
    "user disables another hook": ("user", {"disabled": ["someone-else"]}, True),
}


@pytest.mark.parametrize("case", list(GEMINI_CASES))
def test_gemini_hooks_config(tmp_path: Path, case: str) -> None:
    """The system settings are /etc/gemini-cli/settings.json in a private namespace (Gemini skips one in a folder
    others can write, as /tmp: ``$GEMINI_CLI_SYSTEM_SETTINGS_PATH``, set for gemini and doctor alike)."""
    layer, setting, fires = GEMINI_CASES[case]
    workspace: Workspace
    if layer == "system":
        client("gemini", gemini.PACKAGE)
        if not _namespaces(tmp_path):
            pytest.skip("needs root and unshare to give the client system settings without writing /etc")
        workspace = Managed(tmp_path / "ws")
        system = workspace.etc / "upper" / "gemini-cli" / "settings.json"
    else:
        workspace = WithEnv(tmp_path)
        system = tmp_path / "system" / "settings.json"
        workspace.variable = ("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(system))
    project_files(workspace.project)
    gemini.user_settings(workspace)
    done = workspace.boundread("init", "--agent", "gemini")
    assert done.returncode == 0, done.stderr
    workspace.deny_mode()
    if layer is not None:
        where = {"user": workspace.home / ".gemini" / "settings.json",
                 "project": workspace.project / ".gemini" / "settings.json"}.get(layer, system)
        _merge(where, {"hooksConfig": setting})
    with gemini.fake_model() as model:
        model.script(Turn(calls=(Call("read_file", {"file_path": str(workspace.project / "report.pdf")}),)),
                     Turn(text="ok"))
        gemini.run(workspace, model, "Summarise report.pdf")
        (result,) = gemini.results(model)
        print(f"gemini {case}: last request {len(json.dumps(model.loop()[-1].body)):,} bytes")
    code, said = _doctor(workspace, "gemini")
    if fires:
        assert "boundread pages report.pdf 1-5" in result, "the hook fired"
        assert code == 0, said
    else:
        assert "boundread" not in result, "the hook did not fire: the read reached the model"
        assert code == 2, said
        shown = '"hooksConfig": {"enabled": false} in' if "enabled" in setting else "lists 'boundread-guard'"
        assert shown in said and f"({layer} settings)" in said


#: A private mount namespace with an overlay on /etc: the managed settings a command sees, written nowhere else.
OVERLAY = ('set -e; mount -t overlay overlay '
           '-o "lowerdir=/etc,upperdir=$BOUNDREAD_ETC/upper,workdir=$BOUNDREAD_ETC/work" /etc; exec "$@"')


class Managed(Workspace):
    """A workspace whose commands (the client, doctor) run where /etc has the test's managed settings."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.etc = self.root / "etc"
        for name in ("upper", "work"):
            (self.etc / name).mkdir(parents=True)

    def managed(self, name: str, setting: dict[str, Any]) -> None:
        """Claude Code's managed settings file ``name`` (under /etc/claude-code)."""
        _merge(self.etc / "upper" / "claude-code" / name, setting)

    def _wrap(self, argv: list[str]) -> list[str]:
        return ["unshare", "-m", "sh", "-c", OVERLAY, "sh", *argv]

    def env(self, **extra: str) -> dict[str, str]:
        return super().env(BOUNDREAD_ETC=str(self.etc), **extra)

    def run(self, argv: list[str], **extra: str) -> subprocess.CompletedProcess[str]:
        return super().run(self._wrap(argv), **extra)

    def boundread(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(self._wrap([str(BIN / "boundread"), *args]), cwd=self.project, env=self.env(),
                              input=stdin or "", capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False)


def _namespaces(root: Path) -> bool:
    """Whether this machine lets a test mount an overlay on /etc in a private namespace (root, unshare)."""
    probe = Managed(root / "probe")
    done = subprocess.run(probe._wrap(["true"]), env=probe.env(), capture_output=True, check=False, timeout=30)
    return done.returncode == 0


DROP_IN = "managed-settings.d/50-policy.json"
#: Per case: the managed files written (name under /etc/claude-code, setting), the user's own setting, whether the
#: hook fires, and the file doctor must name.
MANAGED_CASES: dict[str, tuple[list[tuple[str, dict[str, Any]]], dict[str, Any], bool, str]] = {
    "control: a drop-in that switches nothing off": ([("managed-settings.d/10-other.json",
                                                       {"disableAllHooks": False})], {}, True, ""),
    "file disableAllHooks": ([("managed-settings.json", {"disableAllHooks": True})], {}, False,
                             "managed-settings.json"),
    "drop-in disableAllHooks": ([(DROP_IN, {"disableAllHooks": True})], {}, False, DROP_IN),
    "drop-in allowManagedHooksOnly": ([(DROP_IN, {"allowManagedHooksOnly": True})], {}, False, DROP_IN),
    "drop-in strictPluginOnlyCustomization": ([(DROP_IN, {"strictPluginOnlyCustomization": ["hooks"]})], {}, False,
                                              DROP_IN),
    "a drop-in's false undoes the file's true": ([("managed-settings.json", {"disableAllHooks": True}),
                                                  (DROP_IN, {"disableAllHooks": False})], {}, True, ""),
    "managed false undoes the user's true": ([("managed-settings.json", {"disableAllHooks": False})],
                                             {"disableAllHooks": True}, True, ""),
}


@pytest.mark.parametrize("case", list(MANAGED_CASES))
def test_claude_code_managed_settings(tmp_path: Path, case: str) -> None:
    client("claude", claude.PACKAGE)  # a missing client skips, or fails under CI, before anything else
    if not _namespaces(tmp_path):
        pytest.skip("needs root and unshare to give the client managed settings without writing /etc")
    workspace = Managed(tmp_path / "ws")
    project_files(workspace.project)
    done = workspace.boundread("init")
    assert done.returncode == 0, done.stderr
    workspace.deny_mode()
    files, user, fires, named = MANAGED_CASES[case]
    for name, setting in files:
        workspace.managed(name, setting)
    if user:
        _merge(workspace.home / ".claude" / "settings.json", user)
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Read", {"file_path": str(workspace.project / "report.pdf")}),)),
                     Turn(text="ok"))
        claude.run(workspace, model, "Summarise report.pdf")
        (result,) = claude.results(model)
    code, said = _doctor(workspace, "claude")
    assert not (Path("/etc/claude-code") / files[0][0]).exists(), "/etc itself is never written"
    if fires:
        assert REFUSED in result, "the hook fired"
        assert code == 0, said
        return
    assert "boundread" not in result, "the hook did not fire: the read reached the model"
    assert code == 2, said
    assert f"/etc/claude-code/{named} (managed settings)" in said and "problem  hooks enabled" in said


CODEX_CASES = {"no setting": ("", True), "codex_hooks = false": ("codex_hooks = false", False),
               "hooks = false, the older name": ("hooks = false", False),
               "codex_hooks = true": ("codex_hooks = true", True)}


@pytest.mark.parametrize("case", list(CODEX_CASES))
def test_codex_hooks_feature(workspace: Workspace, case: str) -> None:
    """``[features] codex_hooks = false`` in the user's config.toml: Codex runs no hook, the PDF reaches the model."""
    project_files(workspace.project)
    workspace.deny_mode()
    codex.configure(workspace)
    done = workspace.boundread("init", "--agent", "codex", "--trust")
    assert done.returncode == 0, done.stderr
    line, fires = CODEX_CASES[case]
    if line:
        config = workspace.home / ".codex" / "config.toml"
        config.write_text(config.read_text(encoding="utf-8") + f"\n[features]\n{line}\n", encoding="utf-8")
    with codex.fake_model() as model:
        model.script(Turn(calls=(codex.shell("cat report.pdf"),)), Turn(text="ok"))
        codex.run(workspace, model, "Read report.pdf")
        (result,) = codex.results(model)
    code, said = _doctor(workspace, "codex")
    if fires:
        assert REFUSED in result, "the hook fired"
        assert code == 0, said
    else:
        assert "boundread" not in result and "%PDF-1." in result, "the hook did not fire: cat printed the PDF"
        assert code == 2, said
        assert f"problem  hooks enabled: {line} under [features] in" in said
