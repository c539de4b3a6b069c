"""Shared fixtures: a clean environment per test, and the real-world corpus when it is present."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

CORPUS = Path(os.environ.get("BOUNDREAD_CORPUS", Path(__file__).resolve().parents[1] / ".." / "shared" / "corpus"))


@pytest.fixture(autouse=True)
def _clean_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pin what the environment could change: terminal width, colour, home, state and output dirs."""
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / ".config"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "home" / ".local" / "state"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "home" / ".cache"))  # the grep counts (formats/_rg/counts)
    monkeypatch.delenv("BOUNDREAD_CACHE_DIR", raising=False)
    monkeypatch.setenv("BOUNDREAD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("BOUNDREAD_OUT_DIR", str(tmp_path / "out"))
    # a test's Codex-shaped payload must not interrupt the Codex session that may be running the tests
    monkeypatch.setenv("BOUNDREAD_CODEX_INTERRUPT", "0")
    for name in list(os.environ):
        if name.startswith("BOUNDREAD_GUARD_") or name in ("BOUNDREAD_DEPTH", "BOUNDREAD_LEDGER_URL"):
            monkeypatch.delenv(name)


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    """../shared/corpus, or a skip that says why (a user's machine has no corpus)."""
    if not (CORPUS / "manifest.json").is_file():
        pytest.skip(f"real-world corpus not found at {CORPUS} (set BOUNDREAD_CORPUS to run these tests)")
    return CORPUS.resolve()


@pytest.fixture(scope="session")
def manifest(corpus_dir: Path) -> dict[str, dict[str, Any]]:
    """The corpus manifest, keyed by file name."""
    entries = json.loads((corpus_dir / "manifest.json").read_text(encoding="utf-8"))
    return {entry["file"]: entry for entry in entries}
