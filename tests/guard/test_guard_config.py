"""Config precedence: defaults < user (XDG) < project (.boundread.toml / pyproject) < env vars."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from boundread.guard import config
from boundread.hook.main import run

needs_tomllib = pytest.mark.skipif(sys.version_info < (3, 11), reason="tomllib needs Python 3.11+")


def test_defaults(tmp_path: Path) -> None:
    cfg = config.load(tmp_path)
    assert cfg.text_max_bytes == 256_000 and cfg.on_error == "allow"  # 256 kB, decimal as units.py
    assert cfg.attachment_dirs == ("attachments",) and "pdf" in cfg.deny_kinds
    assert cfg.sources == ("defaults",)


@needs_tomllib
def test_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user = Path(config.user_file())
    user.parent.mkdir(parents=True)
    user.write_text('[guard]\ntext_max_bytes = "1MB"\nline_cap = 500\npdf_page_cap = 7\n')
    project = tmp_path / "proj"
    (project / "sub" / "deeper").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.boundread.guard]\nline_cap = 300\n'
                                            'attachment-dirs = ["inbox", "uploads"]\n')
    cfg = config.load(project / "sub" / "deeper")
    assert cfg.text_max_bytes == 1_000_000  # from the user file: "1MB"
    assert cfg.line_cap == 300  # the project beats the user (it tightens)
    assert cfg.attachment_dirs == ("attachments", "inbox", "uploads")  # a project may add folders, not drop one
    assert cfg.sources == ("defaults", str(user), str(project / "pyproject.toml"))
    monkeypatch.setenv("BOUNDREAD_GUARD_LINE_CAP", "100")
    monkeypatch.setenv("BOUNDREAD_GUARD_ON_ERROR", "deny")
    cfg = config.load(project / "sub")
    assert (cfg.line_cap, cfg.on_error, cfg.pdf_page_cap) == (100, "deny", 7)  # env beats both


@needs_tomllib
def test_nearest_boundread_toml_wins(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.boundread.guard]\nline_cap = 300\n")
    (tmp_path / "inner").mkdir()
    (tmp_path / "inner" / ".boundread.toml").write_text("[guard]\nline_cap = 50\n[budget]\nmax_usd = 3\n")
    assert config.load(tmp_path / "inner").line_cap == 50
    assert config.load(tmp_path).line_cap == 300


def test_bad_values_fall_back_and_name_the_fix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOUNDREAD_GUARD_TEXT_MAX_BYTES", "lots")
    monkeypatch.setenv("BOUNDREAD_GUARD_LINE_CAP", "100")
    monkeypatch.setenv("BOUNDREAD_GUARD_NOPE", "1")
    cfg = config.load(tmp_path)
    assert cfg.text_max_bytes == 256_000 and cfg.line_cap == 100  # the bad one keeps its default
    assert len(cfg.notes) == 2
    assert "BOUNDREAD_GUARD_TEXT_MAX_BYTES" in cfg.notes[0] and "'256kB'" in cfg.notes[0]
    assert "unknown guard setting 'nope'" in cfg.notes[1]


@needs_tomllib
def test_payload_cwd_selects_the_project_config(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    user = Path(config.user_file())
    user.parent.mkdir(parents=True)
    user.write_text('[guard]\nproject_may_loosen = ["allow"]\n')  # the user lets projects add allow globs
    (tmp_path / ".boundread.toml").write_text('[guard]\nallow = ["*.pdf"]\n')
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(b"%PDF-1.4\n%%EOF\n")
    payload = {"session_id": "s", "transcript_path": "/t", "cwd": str(tmp_path), "hook_event_name": "PreToolUse",
               "permission_mode": "default", "tool_name": "Read", "tool_input": {"file_path": str(pdf)},
               "tool_use_id": "t"}
    assert run([], io.StringIO(json.dumps(payload))) == 0
    assert capsys.readouterr().out == ""  # allowed by the project's allow-list
    payload["cwd"] = str(tmp_path.parent)
    run([], io.StringIO(json.dumps(payload)))
    assert "deny" in capsys.readouterr().out


@needs_tomllib
def test_broken_config_is_ignored_with_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / ".boundread.toml").write_text("[guard\n")
    (tmp_path / "x.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    assert run(["--config", str(tmp_path / ".boundread.toml"), "--path", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert "boundread: warning: " in err and "invalid TOML" in err and "ignored" in err


def test_explicit_missing_config(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["--config", "/no/such/file.toml", "--path", "x.pdf"]) == 0
    assert "no such file" in capsys.readouterr().err


def test_a_pyproject_that_only_names_boundread_is_no_config(tmp_path: Path) -> None:
    """A project that depends on boundread has "boundread" in its pyproject but no guard table: no note."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "app"\ndependencies = ["boundread"]\n',
                                             encoding="utf-8")
    loaded = config.load(tmp_path)
    assert loaded.notes == () and loaded == config.GuardConfig()


@pytest.mark.parametrize(("written", "size", "shown"), [
    ("256KB", 256_000, "256.0 kB"), ("256kB", 256_000, "256.0 kB"), ("256 kb", 256_000, "256.0 kB"),
    ("5MB", 5_000_000, "5.0 MB"), ("1.5MB", 1_500_000, "1.5 MB"), ("300000", 300_000, "300.0 kB"),
    ("256KiB", 262_144, "256 KiB"), ("5MiB", 5_242_880, "5 MiB"), ("1GiB", 1024**3, "1 GiB"),
    ("2GB", 2 * 10**9, "2.0 GB"), ("125MiB", 125 * 1024**2, "125 MiB"), ("1000KiB", 1_024_000, "1,000 KiB"),
    ("3GiB", 3 * 1024**3, "3 GiB"), ("1.024MB", 1_024_000, "1,000 KiB"),
])
def test_sizes_are_decimal_and_binary_units_read_back_as_written(written: str, size: int, shown: str) -> None:
    assert config.parse_size(written) == size
    assert config.shown_size(size) == shown


@pytest.mark.parametrize("written", ["lots", "-5", "1.2.3", "5QB", "", ".5k", "1e6", "5 M B"])
def test_a_size_that_is_not_one_names_the_units(written: str) -> None:
    with pytest.raises(config.ConfigError, match="kB = 1,000 bytes, KiB = 1,024"):
        config.parse_size(written)


def test_the_default_caps_are_round_decimal_sizes() -> None:
    defaults = config.GuardConfig()
    assert (defaults.text_max_bytes, defaults.image_max_bytes, defaults.extract_max_bytes) == \
        (256_000, 5_000_000, 50_000_000)
