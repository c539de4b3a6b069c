"""`boundread doctor`: each check ok or a problem with its fix, exit 0 ready / 2 not, JSON, no traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boundread import __version__, agents
from boundread.agents import doctor, doctor_program, gemini_trust, install, locate
from boundread.cli.app import app

#: The name of doctor's check of the pre-tool guard a plain init registers: it lists the tools of the matcher.
PRE = {agent: f"guard hook on PreToolUse ({', '.join(agents.module(agent).PRE_MATCHER.split('|'))})"
       for agent in ("claude", "codex")}

SCRIPT = Path(sys.executable).parent / "boundread"  # this installation's console script
needs_script = pytest.mark.skipif(not SCRIPT.is_file(), reason="needs the installed console script (pip install -e .)")


@pytest.fixture(autouse=True)
def _path(monkeypatch: pytest.MonkeyPatch) -> None:
    """The PATH a hook would run with: this installation's script on it, as after `pipx install`."""
    monkeypatch.setenv("PATH", f"{SCRIPT.parent}{os.pathsep}/usr/bin{os.pathsep}/bin")


def _init(root: Path, agent: str = "claude", **kw: Any) -> None:
    install.apply(install.plan(agent, root, home=root / "home", program=locate.Program("boundread"), **kw))


def _doctor(*args: str) -> Any:
    return CliRunner().invoke(app, ["doctor", *args])


def _checks(result: Any, agent: str = "claude") -> dict[str, dict[str, Any]]:
    data = json.loads(result.stdout)
    assert data["schema"] == 1 and data["command"] == "doctor"
    (entry,) = [a for a in data["agents"] if a["agent"] == agent]
    return {check["name"]: check for check in entry["checks"]}


def _settings(root: Path) -> Path:
    return root / ".claude" / "settings.json"


@needs_script
def test_a_fresh_claude_init_is_ready(tmp_path: Path) -> None:
    _init(tmp_path, budget=True)
    result = _doctor("--dir", str(tmp_path), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert [(a["agent"], a["ready"]) for a in data["agents"]] == [("claude", True)]
    checks = _checks(result)
    assert set(checks) == {"settings", "guard hook on PreToolUse (every tool)", "guard hook on PostToolBatch",
                           "guard hook on PostToolUse (Bash)", "command found", "start-up", "command runs",
                           "same version", "guard answers", "budget ingest", "skill", "hooks enabled"}
    # start-up's fix depends on the pip that wrote this venv's script: its own test below
    assert all(check["ok"] is True and check["fix"] == "" for name, check in checks.items() if name != "start-up")
    assert set(checks["settings"]) == {"name", "ok", "detail", "fix"}
    assert str(SCRIPT) in checks["command found"]["detail"]
    assert "inherits the PATH of the shell" in checks["command found"]["detail"]
    assert checks["same version"]["detail"] == f"boundread {__version__}, as this one"
    assert "SessionEnd" in checks["budget ingest"]["detail"]
    human = _doctor("--dir", str(tmp_path))
    assert human.exit_code == 0
    lines = human.stdout.splitlines()
    lines = lines[:lines.index("guard settings (each with the file that set it):")]  # then the guard's settings
    assert lines[0] == "claude:" and lines[-1] == "  claude is ready"
    assert all(line.startswith("  ok ") for line in lines[1:-1])


def test_a_missing_event_is_a_problem_naming_the_fix(tmp_path: Path) -> None:
    _init(tmp_path)
    settings = json.loads(_settings(tmp_path).read_text())
    del settings["hooks"]["PostToolBatch"]
    settings["hooks"]["PreToolUse"][0]["matcher"] = "Read"
    _settings(tmp_path).write_text(json.dumps(settings))
    result = _doctor("--dir", str(tmp_path), "--json")
    assert result.exit_code == 2
    checks = _checks(result)
    batch = checks["guard hook on PostToolBatch"]
    assert batch["ok"] is False and "not registered on PostToolBatch" in batch["detail"]
    assert "init" in batch["fix"] and f"--dir {tmp_path}" in batch["fix"]
    pre = checks[PRE["claude"]]
    assert pre["ok"] is False and "leaves out Bash, Write, Edit" in pre["detail"]
    human = _doctor("--dir", str(tmp_path))
    assert human.exit_code == 2
    assert "  problem  guard hook on PostToolBatch: boundread guard-check is not registered on PostToolBatch - run" \
        in human.stdout
    assert human.stdout.split("guard settings")[0].rstrip().endswith("claude is not ready: 2 problems")


@pytest.mark.parametrize(("agent", "event", "name"), [
    ("claude", "PostToolUse", "guard hook on PostToolUse (Bash)"),
    ("gemini", "AfterTool", "guard hook on AfterTool (run_shell_command, read_file, read_many_files, mcp_.*)"),
])
def test_an_init_from_before_the_post_tool_hook_is_told_to_run_init_again(tmp_path: Path, agent: str, event: str,
                                                                          name: str) -> None:
    _init(tmp_path, agent)
    path = tmp_path / (".claude" if agent == "claude" else ".gemini") / "settings.json"
    settings = json.loads(path.read_text())
    del settings["hooks"][event]
    path.write_text(json.dumps(settings))
    result = _doctor("--dir", str(tmp_path), "--agent", agent, "--json")
    assert result.exit_code == 2
    check = _checks(result, agent)[name]
    assert check["ok"] is False and f"not registered on {event}" in check["detail"] and "init" in check["fix"]
    _init(tmp_path, agent)  # init again adds it, and only it
    assert _checks(_doctor("--dir", str(tmp_path), "--agent", agent, "--json"), agent)[name]["ok"] is True
    assert json.loads(path.read_text())["hooks"][event][0]["hooks"][0]["command"].startswith(
        "boundread guard-check")


@pytest.mark.parametrize("matcher", ["*", "", None, ".*", "Read|Bash|Write|Edit|MultiEdit|NotebookEdit|mcp__.*|Grep",
                                     "Re.*|Bash|Write|.*Edit|mcp__.*"])
def test_matchers_that_cover_the_guarded_tools(tmp_path: Path, matcher: str | None) -> None:
    _init(tmp_path)
    settings = json.loads(_settings(tmp_path).read_text())
    group = settings["hooks"]["PreToolUse"][0]
    if matcher is None:
        del group["matcher"]
    else:
        group["matcher"] = matcher
    _settings(tmp_path).write_text(json.dumps(settings))
    checks = _checks(_doctor("--dir", str(tmp_path), "--agent", "claude", "--json"))
    assert checks[PRE["claude"]]["ok"] is True


@pytest.mark.parametrize("matcher", ["Read|Bash", "Bash,Read", "Read|Bash|Grep"])
def test_a_matcher_that_leaves_out_the_file_tools_is_a_problem(tmp_path: Path, matcher: str) -> None:
    """Such a hook guards reads but not the guard's own ground: a Write to .claude/settings.json never reaches it."""
    _init(tmp_path)
    settings = json.loads(_settings(tmp_path).read_text())
    settings["hooks"]["PreToolUse"][0]["matcher"] = matcher
    _settings(tmp_path).write_text(json.dumps(settings))
    check = _checks(_doctor("--dir", str(tmp_path), "--agent", "claude", "--json"))[PRE["claude"]]
    assert check["ok"] is False and "leaves out Write, Edit, MultiEdit, NotebookEdit" in check["detail"]
    _init(tmp_path)  # what an earlier init wrote is replaced; a matcher the user widened is kept
    kept = json.loads(_settings(tmp_path).read_text())["hooks"]["PreToolUse"][0]["matcher"]
    assert kept == (agents.module("claude").PRE_MATCHER if matcher == "Read|Bash" else matcher)


@pytest.mark.parametrize("text", ["{oops", "[1, 2]", '{"hooks": []}', "\xff\xfe"])
def test_a_broken_settings_file_is_a_problem_not_a_traceback(tmp_path: Path, text: str) -> None:
    _init(tmp_path)
    _settings(tmp_path).write_bytes(text.encode("latin-1"))
    result = _doctor("--dir", str(tmp_path), "--json")
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)  # no traceback
    checks = _checks(result)
    assert checks["settings"]["ok"] is False and checks["settings"]["fix"]
    assert checks["skill"]["ok"] is True  # the rest that can be checked still is
    assert _settings(tmp_path).read_bytes() == text.encode("latin-1")  # left as it was


def test_a_bare_command_not_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _init(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    result = _doctor("--dir", str(tmp_path), "--json")
    assert result.exit_code == 2
    found = _checks(result)["command found"]
    assert found["ok"] is False and "`boundread` is not found on this PATH" in found["detail"]
    assert "inherits the PATH of the shell" in found["detail"] and "command not found" in found["detail"]
    assert "init" in found["fix"] and "absolute path" in found["fix"]
    assert "command runs" not in _checks(result)


def _fake(folder: Path, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    fake = folder / "boundread"
    fake.write_text(f"#!/bin/sh\n{body}\n")
    fake.chmod(0o755)
    return fake


@pytest.mark.skipif(os.name == "nt", reason="a /bin/sh script stands in for boundread")
def test_another_version_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _init(tmp_path)
    fake = _fake(tmp_path / "old-bin", 'echo "boundread 0.0.1"')
    monkeypatch.setenv("PATH", str(fake.parent))
    checks = _checks(_doctor("--dir", str(tmp_path), "--json"))
    assert checks["command found"]["ok"] is True and str(fake) in checks["command found"]["detail"]
    assert checks["command runs"]["ok"] is True
    version = checks["same version"]
    assert version["ok"] is False and f"boundread 0.0.1, this is {__version__}" in version["detail"]
    assert "pip install -U boundread" in version["fix"]


#: The console script as pip before 25.2 wrote it (distlib's template), and as pip 25.2+ writes it.
OLD_PIP = ("#!{python}\n# -*- coding: utf-8 -*-\nimport re\nimport sys\nfrom boundread.__main__ import main\n"
           "if __name__ == '__main__':\n    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n"
           "    sys.exit(main())\n")
NEW_PIP = ("#!{python}\nimport sys\nfrom boundread.__main__ import main\nif __name__ == '__main__':\n"
           "    sys.argv[0] = sys.argv[0].removesuffix('.exe')\n    sys.exit(main())\n")


@pytest.mark.skipif(os.name == "nt", reason="a script with a shebang stands in for boundread")
@pytest.mark.parametrize(("script", "slow"), [(OLD_PIP, True), (NEW_PIP, False)], ids=["pip-before-25.2", "pip-25.2"])
def test_start_up_says_when_the_script_imports_re_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        script: str, slow: bool) -> None:
    _init(tmp_path)
    fake = tmp_path / "bin" / "boundread"
    fake.parent.mkdir()
    fake.write_text(script.format(python=sys.executable))
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(fake.parent))
    checks = _checks(_doctor("--dir", str(tmp_path), "--json"))
    start = checks["start-up"]
    assert start["ok"] is True  # slower, not broken: the agent is still ready
    assert checks["command runs"]["ok"] is True  # the script itself works either way
    if slow:
        assert "imports re before boundread" in start["detail"] and "pip install -U pip" in start["fix"]
    else:
        assert "without importing re first" in start["detail"] and start["fix"] == ""


@pytest.mark.skipif(os.name == "nt", reason="a /bin/sh script stands in for boundread")
def test_a_command_that_fails_or_hangs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _init(tmp_path)
    fake = _fake(tmp_path / "bad-bin", "echo 'ModuleNotFoundError: No module named boundread' >&2; exit 1")
    monkeypatch.setenv("PATH", str(fake.parent))
    runs = _checks(_doctor("--dir", str(tmp_path), "--json"))["command runs"]
    assert runs["ok"] is False and "exited 1: ModuleNotFoundError" in runs["detail"]
    _fake(fake.parent, "sleep 30 & sleep 30")  # a child holding the pipes open: killed with its group
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}/usr/bin{os.pathsep}/bin")
    monkeypatch.setattr(doctor_program, "RUN_TIMEOUT", 0.2)
    runs = _checks(_doctor("--dir", str(tmp_path), "--json"))["command runs"]
    assert runs["ok"] is False and "did not answer in 0.2 s" in runs["detail"]


@needs_script
def test_budget_ingest_on_every_event(tmp_path: Path) -> None:
    _init(tmp_path)
    assert _checks(_doctor("--dir", str(tmp_path), "--json"))["budget ingest"]["ok"] is True  # optional
    _init(tmp_path, budget=True)
    settings = json.loads(_settings(tmp_path).read_text())
    del settings["hooks"]["SessionEnd"]
    _settings(tmp_path).write_text(json.dumps(settings))
    result = _doctor("--dir", str(tmp_path), "--json")
    assert result.exit_code == 2
    ingest = _checks(result)["budget ingest"]
    assert ingest["ok"] is False and "not on SessionEnd" in ingest["detail"] and "--budget" in ingest["fix"]


@needs_script
@pytest.mark.parametrize(("agent", "dropped"), [("codex", "Stop"), ("gemini", "AfterAgent"),
                                               ("copilot", "agentStop")])
def test_codex_and_gemini_budget_ingest_on_every_event(tmp_path: Path, agent: str, dropped: str) -> None:
    done = CliRunner().invoke(app, ["init", "--dir", str(tmp_path), "--agent", agent, "--budget", "--trust"])
    assert done.exit_code == 0, done.output
    result = _doctor("--dir", str(tmp_path), "--agent", agent, "--json")
    assert result.exit_code == 0, result.stdout
    checks = _checks(result, agent)
    events = ", ".join(agents.module(agent).INGEST_EVENTS)
    assert checks["budget ingest"] == {"name": "budget ingest", "ok": True, "detail": f"on {events}", "fix": ""}
    pre = {"codex": "PreToolUse (every tool)", "gemini": "BeforeTool (every tool)",
           "copilot": "preToolUse (.*)"}
    assert checks[f"guard hook on {pre[agent]}"]["ok"] is True
    if agent == "codex":
        assert checks["trusted"]["ok"] is True  # the guard and the three ingest hooks
    spec = install.target(agent, tmp_path, tmp_path / "home", False)
    settings = json.loads(spec.settings.read_text())
    del settings["hooks"][dropped]
    spec.settings.write_text(json.dumps(settings))
    result = _doctor("--dir", str(tmp_path), "--agent", agent, "--json")
    assert result.exit_code == 2
    ingest = _checks(result, agent)["budget ingest"]
    assert ingest["ok"] is False and f"not on {dropped}" in ingest["detail"]
    assert f"init --agent {agent} " in ingest["fix"] and ingest["fix"].endswith(" --budget`")


def test_limits_without_the_ingest_hooks_are_a_problem(tmp_path: Path) -> None:
    """A token or USD cap that never sees what the agent spends never trips."""
    from boundread.budget.ledger import open_ledger
    from boundread.budget.model import BudgetLimits, Scope

    _init(tmp_path, "gemini")
    assert _checks(_doctor("--dir", str(tmp_path), "--agent", "gemini", "--json"), "gemini")["budget ingest"]["ok"]
    with open_ledger() as ledger:
        ledger.set_limits(Scope("project", os.path.realpath(tmp_path)), BudgetLimits(max_tokens=1000))
    ingest = _checks(_doctor("--dir", str(tmp_path), "--agent", "gemini", "--json"), "gemini")["budget ingest"]
    assert ingest["ok"] is False and "the ledger has limits for this project" in ingest["detail"]
    assert "init --agent gemini" in ingest["fix"] and "--budget" in ingest["fix"]


def test_a_missing_skill(tmp_path: Path) -> None:
    _init(tmp_path)
    (tmp_path / ".claude" / "skills" / "boundread" / "SKILL.md").unlink()
    skill = _checks(_doctor("--dir", str(tmp_path), "--json"))["skill"]
    assert skill["ok"] is False and "init" in skill["fix"]


@needs_script
def test_codex_trust_is_read_from_the_users_config(tmp_path: Path) -> None:
    _init(tmp_path, "codex")
    settings = tmp_path / ".codex" / "hooks.json"
    result = _doctor("--dir", str(tmp_path), "--agent", "codex", "--json")
    assert result.exit_code == 2, "an untrusted hook is skipped by Codex: not ready"
    checks = _checks(result, "codex")
    assert checks["trusted"]["ok"] is False
    assert checks["trusted"]["fix"] == doctor.codex_trust_hint(settings)
    assert "boundread init --agent codex --trust" in checks["trusted"]["fix"]
    assert checks["AGENTS section"]["ok"] is True
    assert checks[PRE["codex"]]["ok"] is True
    assert CliRunner().invoke(app, ["init", "--dir", str(tmp_path), "--agent", "codex", "--trust"]).exit_code == 0
    result = _doctor("--dir", str(tmp_path), "--agent", "codex", "--json")
    assert result.exit_code == 0 and _checks(result, "codex")["trusted"]["ok"] is True
    (Path.home() / ".codex" / "config.toml").write_text("[broken", encoding="utf-8")
    result = _doctor("--dir", str(tmp_path), "--agent", "codex", "--json")
    assert result.exit_code == 0  # "cannot tell" is not a problem
    assert _checks(result, "codex")["trusted"]["ok"] is None


@needs_script
def test_gemini_folder_trust(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Gemini CLI runs no settings hook in a folder it does not trust: not ready until the folder is trusted."""
    monkeypatch.delenv("GEMINI_CLI_TRUST_WORKSPACE", raising=False)
    _init(tmp_path, "gemini")
    result = _doctor("--dir", str(tmp_path), "--agent", "gemini", "--json")
    assert result.exit_code == 2, "gemini is ready in an untrusted folder"
    checks = _checks(result, "gemini")
    assert checks["trusted"]["ok"] is False and "does not trust" in checks["trusted"]["detail"]
    assert checks["trusted"]["fix"] == gemini_trust.how(tmp_path)
    assert "boundread init --agent gemini --trust" in checks["trusted"]["fix"]
    assert all(check["ok"] for name, check in checks.items() if name != "trusted")
    human = _doctor("--dir", str(tmp_path), "--agent", "gemini")
    assert "  gemini is not ready: 1 problem" in human.stdout
    done = CliRunner().invoke(app, ["init", "--dir", str(tmp_path), "--agent", "gemini", "--trust"])
    assert done.exit_code == 0, done.output
    result = _doctor("--dir", str(tmp_path), "--agent", "gemini", "--json")
    assert result.exit_code == 0, result.stdout
    assert "TRUST_FOLDER" in _checks(result, "gemini")["trusted"]["detail"]
    monkeypatch.setenv("GEMINI_CLI_TRUST_WORKSPACE", "false")  # the environment Gemini would start with
    off = _checks(_doctor("--dir", str(tmp_path), "--agent", "gemini", "--json"), "gemini")["trusted"]
    assert off["ok"] is False and off["fix"] == "unset GEMINI_CLI_TRUST_WORKSPACE where you start gemini"


@needs_script
@pytest.mark.parametrize("agent", ["gemini", "cursor", "copilot"])
def test_other_agents_ready_after_init(tmp_path: Path, agent: str) -> None:
    _init(tmp_path, agent)
    if agent in agents.TRUSTED:  # and the folder trusted, as `init --agent NAME --trust` records it
        truster = agents.truster_of(agent)
        truster.trust_apply(truster.trust_change(tmp_path, Path.home(), False, install.plan(agent, tmp_path)[0]))
    result = _doctor("--dir", str(tmp_path), "--agent", agent, "--json")
    assert result.exit_code == 0, result.stdout
    checks = _checks(result, agent)
    assert all(check["ok"] for check in checks.values())
    assert ("budget ingest" in checks) == (agent != "cursor")  # optional, and said so: Cursor's logs are not read


def test_all_finds_the_agents_set_up_here(tmp_path: Path) -> None:
    empty = _doctor("--dir", str(tmp_path), "--json")
    assert empty.exit_code == 2 and json.loads(empty.stdout)["agents"] == []
    human = _doctor("--dir", str(tmp_path))
    assert human.exit_code == 2 and "no agent settings or boundread hook" in human.stdout
    assert "boundread init --agent NAME" in human.stdout
    _init(tmp_path)
    _init(tmp_path, "gemini")
    found = json.loads(_doctor("--dir", str(tmp_path), "--json").stdout)
    assert [a["agent"] for a in found["agents"]] == ["claude", "gemini"]
    named = json.loads(_doctor("--dir", str(tmp_path), "--agent", "codex", "--json").stdout)
    assert [a["agent"] for a in named["agents"]] == ["codex"]  # asked for: checked even when absent


@needs_script
def test_all_does_not_count_agents_for_a_shared_agents_md(tmp_path: Path) -> None:
    """After `init --agent codex --trust`, AGENTS.md has our section, but Cursor and Copilot are not set up."""
    done = CliRunner().invoke(app, ["init", "--dir", str(tmp_path), "--agent", "codex", "--trust"])
    assert done.exit_code == 0, done.output
    result = _doctor("--dir", str(tmp_path), "--json")
    assert [a["agent"] for a in json.loads(result.stdout)["agents"]] == ["codex"]
    assert result.exit_code == 0, result.stdout
    _init(tmp_path, "cursor")  # its own .cursor/hooks.json: found
    found = json.loads(_doctor("--dir", str(tmp_path), "--json").stdout)
    assert [a["agent"] for a in found["agents"]] == ["codex", "cursor"]


def test_user_scope(tmp_path: Path) -> None:
    install.apply(install.plan("claude", tmp_path, user=True, home=tmp_path / "home",
                               program=locate.Program("boundread")))
    result = _doctor("--user", "--json")
    assert [a["agent"] for a in json.loads(result.stdout)["agents"]] == ["claude"]
    assert str(tmp_path / "home" / ".claude" / "settings.json") in _checks(result)["settings"]["detail"]
    missing = _checks(_doctor("--user", "--agent", "codex", "--json"), "codex")["settings"]
    assert "--user" in missing["fix"] and "--dir" not in missing["fix"]


def test_an_unknown_agent_is_a_usage_error(tmp_path: Path) -> None:
    result = _doctor("--dir", str(tmp_path), "--agent", "vim")
    assert result.exit_code == 2
    assert result.stderr.strip() == ("boundread: error: unknown agent 'vim' - use all or one of: claude, codex, "
                                     "gemini, cursor, copilot, qwen, opencode")
    as_json = _doctor("--dir", str(tmp_path), "--agent", "vim", "--json")
    assert json.loads(as_json.stdout)["error"]["code"] == "usage"


def test_help_documents_the_exit_status() -> None:
    result = CliRunner().invoke(app, ["doctor", "--help"])
    assert "0 when every check is ready, 2 when something is not" in " ".join(result.stdout.split())


@needs_script
def test_installed_script_on_a_path_without_it(tmp_path: Path) -> None:
    """Subprocess: a bare hook command fails doctor where the PATH lacks boundread; init's absolute path fixes it."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home"), "LANG": "C.UTF-8", "NO_COLOR": "1"}
    _init(tmp_path)  # bare `boundread guard-check`, as when init ran where boundread was on PATH

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(SCRIPT), *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=60, check=False)

    before = run("doctor")
    assert before.returncode == 2, before.stdout + before.stderr
    assert "problem  command found: `boundread` is not found on this PATH" in before.stdout
    assert f"run `{SCRIPT} init`" in before.stdout  # the fix names a boundread that works from this PATH
    assert run("init").returncode == 0
    after = run("doctor", "--json")
    assert after.returncode == 0, after.stdout
    checks = _checks(after)
    assert checks["command runs"]["ok"] is True and checks["same version"]["ok"] is True


def test_doctor_shows_which_file_set_each_guard_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A project file that tries to loosen the guard is named in a note, and each value with the layer that set it."""
    from boundread.guard import config

    user = Path(config.user_file())
    user.parent.mkdir(parents=True, exist_ok=True)
    user.write_text('[guard]\ntext_max_bytes = "1MB"\n')
    (tmp_path / ".boundread.toml").write_text('[guard]\nline_cap = 300\nallow = ["**"]\ntext_max_bytes = "1GB"\n')
    monkeypatch.setenv("BOUNDREAD_GUARD_PDF_PAGE_CAP", "5")
    data = json.loads(_doctor("--dir", str(tmp_path), "--json").stdout)
    found = {setting["key"]: (setting["value"], setting["from"]) for setting in data["settings"]}
    assert found["text_max_bytes"] == ("'1.0MB'", str(user))  # the project's 1 GB was cut back
    assert found["line_cap"] == ("300", str(tmp_path / ".boundread.toml"))  # it may tighten
    assert found["pdf_page_cap"] == ("5", "env") and found["allow"] == ("[]", "defaults")
    assert any("[allow]: a project file may only tighten the guard" in note for note in data["notes"])
    human = _doctor("--dir", str(tmp_path)).stdout.splitlines()
    assert f"  line_cap            = 300  ({tmp_path / '.boundread.toml'})" in human


def test_a_star_matcher_is_every_tool_except_where_the_client_reads_a_regex() -> None:
    """Copilot CLI reads a matcher as a regular expression: "*" matches no tool there (".*" every one), so a
    hand-written Copilot hook with "*" is no guard; for Claude Code "*" is every tool."""
    from boundread.agents.doctor import _covers

    assert _covers("*", "Read", "claude") and _covers("*", "bash", "codex")
    assert not _covers("*", "view", "copilot") and _covers(".*", "view", "copilot")
    assert _covers("bash|view", "view", "copilot") and not _covers("bash", "view", "copilot")
