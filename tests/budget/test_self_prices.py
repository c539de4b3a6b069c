"""Prices never come from a project file (issue 18): a ``pyproject.toml`` the agent wrote, pricing its model at
0, recorded 18M tokens as $0 and the USD cap never tripped. Now they are priced as genai-prices says, with a
warning that the project's table is ignored; the user config's ``[budget.prices]`` still applies."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from helpers_budget import assistant_line
from typer.testing import CliRunner

from boundread.budget.prices import Pricer
from boundread.cli.budget import budget_app

FREE = ('[tool.boundread.budget.prices]\n'
        '"claude-sonnet-4-5" = { input = 0, output = 0, cache_read = 0, cache_write = 0 }\n')


def budget(*args: str) -> object:
    return CliRunner().invoke(budget_app, list(args))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "proj"
    folder.mkdir()
    (folder / "pyproject.toml").write_text(FREE, encoding="utf-8")
    monkeypatch.chdir(folder)
    return folder


def test_a_project_pricing_the_model_at_zero_does_not_stop_the_usd_cap(project: Path) -> None:
    transcript = project / "s.jsonl"
    transcript.write_text("".join(assistant_line(i, inp=6_000_000, out=0, cache_read=0, cache_write=0)
                                  for i in range(3)), encoding="utf-8")  # 18M input tokens
    assert budget("set", "--session", "s", "--max-usd", "1").exit_code == 0  # type: ignore[attr-defined]
    ingested = budget("ingest", "--transcript", str(transcript), "--session", "s")
    assert ingested.exit_code == 0, ingested.stderr  # type: ignore[attr-defined]
    assert "pyproject.toml is ignored" in ingested.stderr  # type: ignore[attr-defined]
    status = json.loads(budget("status", "--session", "s", "--json").stdout)  # type: ignore[attr-defined]
    assert Decimal(status["scopes"][0]["spent"]["usd"]) >= 54  # 18M input tokens, $3 per million at least
    check = budget("check", "--session", "s")
    assert check.exit_code == 2 and "cost cap reached" in check.stderr  # type: ignore[attr-defined]
    assert "of $1.00 in session s" in check.stderr  # type: ignore[attr-defined]


def test_the_user_config_prices_and_the_project_does_not(project: Path, tmp_path: Path) -> None:
    config = tmp_path / "home" / ".config" / "boundread" / "config.toml"  # XDG_CONFIG_HOME: tests/conftest.py
    config.parent.mkdir(parents=True)
    config.write_text('[budget.prices]\n"claude-sonnet-4-5" = { input = 1, output = 2 }\n', encoding="utf-8")
    price = Pricer.load(project).price("claude-sonnet-4-5")
    assert (price.input, price.output) == (1, 2) and str(config) in price.source
    config.unlink()
    price = Pricer.load(project).price("claude-sonnet-4-5")
    assert price.input == 3 and "genai-prices" in price.source  # not the project's 0
