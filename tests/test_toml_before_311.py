"""Configs are read on every supported Python (issue 20 part 5): below 3.11 through ``tomli``, the parser that
became ``tomllib``. On Python 3.10 the guard's config, the budget's ledger address and prices and Codex's trust
were once skipped without a word. Here the interpreter's version is set to 3.10 while the reads run, so the branch
that imports ``tomli`` is the one taken (checked by what was imported, not assumed)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from boundread import tomlread
from boundread.guard import config as guard_config


@pytest.fixture
def python_310(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "version_info", (3, 10, 13, "final", 0))
    monkeypatch.delitem(sys.modules, "tomli", raising=False)


def test_the_parser_below_311_is_tomli(python_310: None) -> None:
    assert tomlread.loads('[guard]\nline_cap = 77\n') == {"guard": {"line_cap": 77}}
    assert "tomli" in sys.modules


def test_a_broken_text_is_a_toml_error_with_either_parser(python_310: None) -> None:
    with pytest.raises(tomlread.TOMLError):
        tomlread.loads("[guard\n")


def test_the_guard_reads_a_project_config_on_310(python_310: None, tmp_path: Path) -> None:
    (tmp_path / ".boundread.toml").write_text("[guard]\nline_cap = 77\n", encoding="utf-8")
    cfg = guard_config.load(str(tmp_path), None)
    assert cfg.line_cap == 77 and guard_config.origin(cfg, "line_cap").endswith(".boundread.toml")
    assert not any("3.10" in note for note in cfg.notes)


def test_a_broken_project_config_is_named_on_310(python_310: None, tmp_path: Path) -> None:
    (tmp_path / ".boundread.toml").write_text("[guard\nline_cap = 77\n", encoding="utf-8")
    cfg = guard_config.load(str(tmp_path), None)
    assert cfg.line_cap == guard_config.GuardConfig().line_cap
    assert any("invalid TOML" in note and "fix or remove the file" in note for note in cfg.notes)
