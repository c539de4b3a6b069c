"""doctor starts the MCP server `init --mcp` registered, as the client would, and calls the agent not ready when
it cannot list its tools (the mcp extra missing where the registered boundread runs, a program gone)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'boundread[mcp]'")

from boundread.agents import doctor
from tests.helpers import run


def server_check(project: Path, home: Path, agent: str = "gemini") -> doctor.Check | None:
    report = doctor.diagnose([agent], project, home=home)
    found = [check for check in report.agents[0].checks if check.name == "mcp server"]
    return found[0] if found else None


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


def test_a_registered_server_that_starts_is_ready(project: Path, tmp_path: Path) -> None:
    assert server_check(project, tmp_path / "home") is None  # nothing registered: nothing to check
    for agent in ("gemini", "codex"):
        assert run("init", "--agent", agent, "--mcp", "--dir", str(project)).exit_code == 0
        check = server_check(project, tmp_path / "home", agent)
        assert check is not None and check.ok is True, check
        assert "6 tools (info, pages, sheets, list_zip, extract, chunks)" in check.detail


def test_a_server_without_the_mcp_extra_is_not_ready(project: Path, tmp_path: Path) -> None:
    bin_dir = tmp_path / "other-install"
    bin_dir.mkdir()
    program = bin_dir / "boundread"  # a boundread whose Python cannot import the SDK
    program.write_text(f"#!/bin/sh\nexec {sys.executable} -c \"import sys; sys.modules['mcp'] = None; "
                       f"sys.argv[0] = 'boundread'; from boundread.__main__ import main; main()\" \"$@\"\n")
    program.chmod(0o755)
    assert run("init", "--agent", "gemini", "--mcp", "--dir", str(project)).exit_code == 0
    settings = project / ".gemini" / "settings.json"
    data = json.loads(settings.read_text(encoding="utf-8"))
    data["mcpServers"]["boundread"]["command"] = str(program)
    settings.write_text(json.dumps(data), encoding="utf-8")
    check = server_check(project, tmp_path / "home")
    assert check is not None and check.ok is False, check
    assert "mcp is missing" in check.detail and "pip install 'boundread[mcp]'" in check.fix
    assert not doctor.diagnose(["gemini"], project, home=tmp_path / "home").agents[0].ready
    program.unlink()
    gone = server_check(project, tmp_path / "home")
    assert gone is not None and gone.ok is False and "not found" in gone.detail
