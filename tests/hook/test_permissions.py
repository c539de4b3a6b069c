"""Redirect mode rewrites a call only where the rewrite cannot grant what the client would have refused
(hook/permissions.py): every file it reads inside the project, and no Claude Code deny or ask rule naming the
tool. Claude Code 2.1.332 checks its Bash rules on the rewritten command, so a rewrite would step around them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boundread.agents import claude, gemini
from boundread.hook import permissions


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "report.pdf").write_bytes(b"%PDF-1.4\n")
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "user-claude"))
    monkeypatch.setattr(claude, "_MANAGED", ())
    monkeypatch.setattr(claude, "_MANAGED_DROPINS", ())
    monkeypatch.setattr(gemini, "_SYSTEM", ())
    for name in ("GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH"):
        monkeypatch.delenv(name, raising=False)
    return root


def _rules(file: Path, **lists: list[str]) -> None:
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps({"permissions": lists}), encoding="utf-8")


def test_a_file_inside_the_project_may_be_rewritten(project: Path) -> None:
    assert permissions.may_rewrite("claude", "Bash", [str(project / "docs" / "report.pdf")], str(project))
    assert permissions.may_rewrite("gemini", "read_file", [str(project / "docs" / "report.pdf")], str(project / "docs"))


def test_a_file_outside_the_project_is_not(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.pdf"
    outside.write_bytes(b"%PDF-1.4\n")
    assert not permissions.may_rewrite("claude", "Read", [str(outside)], str(project))
    assert not permissions.may_rewrite("codex", "exec_command", [str(project / "docs" / "report.pdf"), str(outside)],
                                       str(project))
    assert not permissions.may_rewrite("claude", "Read", [], str(project))


def test_a_link_out_of_the_project_counts_as_outside(project: Path, tmp_path: Path) -> None:
    (tmp_path / "secret.pdf").write_bytes(b"%PDF-1.4\n")
    (project / "link.pdf").symlink_to(tmp_path / "secret.pdf")
    assert not permissions.may_rewrite("claude", "Read", [str(project / "link.pdf")], str(project))
    assert not permissions.may_rewrite("claude", "Read", [str(project / "docs" / ".." / ".." / "secret.pdf")],
                                       str(project))


def test_the_project_is_the_clients_project_dir(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    assert permissions.may_rewrite("claude", "Bash", [str(project / "docs" / "report.pdf")], str(project / "docs"))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project / "docs" / "sub"))
    assert not permissions.may_rewrite("claude", "Bash", [str(project / "docs" / "report.pdf")], str(project))


@pytest.mark.parametrize("where", [".claude/settings.json", ".claude/settings.local.json", "user"])
@pytest.mark.parametrize(("kind", "rule"), [("deny", "Bash(cat report.pdf)"), ("ask", "Bash"),
                                            ("deny", "Bash(cat:*)")])
def test_a_claude_rule_on_the_tool_keeps_the_deny(project: Path, tmp_path: Path, where: str, kind: str,
                                                  rule: str) -> None:
    pdf = str(project / "docs" / "report.pdf")
    assert permissions.may_rewrite("claude", "Bash", [pdf], str(project))
    file = tmp_path / "user-claude" / "settings.json" if where == "user" else project / where
    _rules(file, **{kind: [rule]})
    assert not permissions.may_rewrite("claude", "Bash", [pdf], str(project))
    assert permissions.may_rewrite("claude", "Read", [pdf], str(project))  # a rule on another tool
    assert permissions.may_rewrite("gemini", "Bash", [pdf], str(project))  # Claude Code's rules only


def test_allow_rules_do_not_count_and_a_settings_file_that_cannot_be_read_does(project: Path) -> None:
    pdf = str(project / "docs" / "report.pdf")
    _rules(project / ".claude" / "settings.json", allow=["Bash(cat:*)", "Read"])
    assert permissions.may_rewrite("claude", "Bash", [pdf], str(project))
    (project / ".claude" / "settings.local.json").write_text("{not json", encoding="utf-8")
    assert not permissions.may_rewrite("claude", "Bash", [pdf], str(project))
    (project / ".claude" / "settings.local.json").write_text("[" * 100_000, encoding="utf-8")
    assert not permissions.may_rewrite("claude", "Bash", [pdf], str(project))


@pytest.mark.parametrize("settings", [{"tools": {"exclude": ["run_shell_command(cat)"]}}, {"tools": {"core": ["ls"]}},
                                      {"excludeTools": ["read_file"]}, {"coreTools": ["run_shell_command"]},
                                      {"policyPaths": ["/opt/policies"]}, {"adminPolicyPaths": ["/opt/admin"]}])
def test_gemini_tool_restrictions_keep_the_deny(project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                settings: dict[str, object]) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    pdf = str(project / "docs" / "report.pdf")
    assert permissions.may_rewrite("gemini", "run_shell_command", [pdf], str(project))
    (project / ".gemini").mkdir()
    (project / ".gemini" / "settings.json").write_text(json.dumps({"hooks": {}, "tools": {"exclude": []}}))
    assert permissions.may_rewrite("gemini", "run_shell_command", [pdf], str(project))  # hooks, empty lists
    (project / ".gemini" / "settings.json").write_text(json.dumps(settings))
    assert not permissions.may_rewrite("gemini", "run_shell_command", [pdf], str(project))


def test_gemini_policy_files_and_codex_rules_keep_the_deny(project: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    pdf = str(project / "docs" / "report.pdf")
    (home / ".gemini" / "policies").mkdir(parents=True)
    assert permissions.may_rewrite("gemini", "read_file", [pdf], str(project))  # an empty folder
    (home / ".gemini" / "policies" / "mine.toml").write_text("[[rule]]\n")
    assert not permissions.may_rewrite("gemini", "read_file", [pdf], str(project))
    assert permissions.may_rewrite("codex", "exec_command", [pdf], str(project))
    (project / ".codex" / "rules").mkdir(parents=True)
    (project / ".codex" / "rules" / "default.rules").write_text('prefix_rule(pattern=["cat"], decision="forbidden")\n')
    assert not permissions.may_rewrite("codex", "exec_command", [pdf], str(project))


def test_an_agent_that_cannot_rewrite_never_may(project: Path) -> None:
    assert not permissions.may_rewrite("cursor", "Read", [str(project / "docs" / "report.pdf")], str(project))


def test_claude_managed_drop_in_settings_keep_the_deny(project: Path, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = str(project / "docs" / "report.pdf")
    dropins = tmp_path / "managed-settings.d"
    monkeypatch.setattr(claude, "_MANAGED_DROPINS", (str(tmp_path / "absent"), str(dropins)))
    assert permissions.may_rewrite("claude", "Bash", [pdf], str(project))  # no folder
    dropins.mkdir()
    _rules(dropins / "10-allow.json", allow=["Bash"])
    (dropins / "20-notes.txt").write_text('{"permissions": {"deny": ["Bash"]}}', encoding="utf-8")  # not a .json
    assert permissions.may_rewrite("claude", "Bash", [pdf], str(project))
    _rules(dropins / "50-deny.json", deny=["Bash(cat:*)"])
    assert not permissions.may_rewrite("claude", "Bash", [pdf], str(project))
    assert permissions.may_rewrite("claude", "Read", [pdf], str(project))  # a rule on another tool
    (dropins / "50-deny.json").unlink()
    looped = tmp_path / "looped.d"
    looped.symlink_to(looped)  # a folder that cannot be read (ELOOP, as EACCES would be) may hold rules
    monkeypatch.setattr(claude, "_MANAGED_DROPINS", (str(dropins), str(looped)))
    assert not permissions.may_rewrite("claude", "Bash", [pdf], str(project))
    monkeypatch.setattr(claude, "_MANAGED_DROPINS", (str(dropins),))
    assert permissions.may_rewrite("claude", "Bash", [pdf], str(project))
    (dropins / "bad.json").write_text("{not json", encoding="utf-8")
    assert not permissions.may_rewrite("claude", "Bash", [pdf], str(project))


@pytest.mark.parametrize("where", ["variable", "system", "defaults", "policies"])
def test_gemini_system_settings_and_policies_keep_the_deny(project: Path, tmp_path: Path, where: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    system = tmp_path / "etc-gemini-cli"
    system.mkdir()
    monkeypatch.setattr(gemini, "_SYSTEM", (str(system),))
    pdf = str(project / "docs" / "report.pdf")
    excluded = json.dumps({"tools": {"exclude": ["run_shell_command"]}})
    (system / "settings.json").write_text(json.dumps({"tools": {"exclude": []}}), encoding="utf-8")
    assert permissions.may_rewrite("gemini", "run_shell_command", [pdf], str(project))
    if where == "variable":  # GEMINI_CLI_SYSTEM_SETTINGS_PATH replaces the system file
        chosen = tmp_path / "chosen.json"
        chosen.write_text(excluded, encoding="utf-8")
        monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(chosen))
    elif where == "system":
        (system / "settings.json").write_text(excluded, encoding="utf-8")
    elif where == "defaults":
        (system / "system-defaults.json").write_text(json.dumps({"adminPolicyPaths": ["/opt/p"]}), encoding="utf-8")
    else:
        (system / "policies").mkdir()
        (system / "policies" / "admin.toml").write_text("[[rule]]\n", encoding="utf-8")
    assert not permissions.may_rewrite("gemini", "run_shell_command", [pdf], str(project))
