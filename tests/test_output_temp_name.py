"""write_atomic's temporary file is made without tempfile (start-up): a new file of mode 0600, named
``.<name>.XXXXXXXX.tmp`` (the 14 bytes BASE_BYTES leaves room for), never one that exists or a link."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from boundread.core import output


def test_a_new_private_file_named_as_mkstemp_would(tmp_path: Path) -> None:
    fd, name = output._mkstemp(tmp_path, ".out.txt.", ".tmp")
    os.close(fd)
    made = Path(name)
    assert made.parent == tmp_path
    assert made.name.startswith(".out.txt.") and made.name.endswith(".tmp")
    assert len(made.name) - len("out.txt") == 14
    assert stat.S_IMODE(made.stat().st_mode) == 0o600
    fd2, other = output._mkstemp(tmp_path, ".out.txt.", ".tmp")
    os.close(fd2)
    assert other != name


def test_an_existing_name_or_link_is_never_opened(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "target"
    target.write_text("keep", encoding="utf-8")
    (tmp_path / ".o.aaaaaaaa.tmp").symlink_to(target)
    (tmp_path / ".o.bbbbbbbb.tmp").write_text("keep", encoding="utf-8")
    draws = iter([bytes.fromhex("aaaaaaaa"), bytes.fromhex("bbbbbbbb"), bytes.fromhex("cccccccc")])
    monkeypatch.setattr(os, "urandom", lambda n: next(draws))
    fd, name = output._mkstemp(tmp_path, ".o.", ".tmp")
    os.close(fd)
    assert Path(name).name == ".o.cccccccc.tmp"
    assert target.read_text(encoding="utf-8") == "keep"
    assert (tmp_path / ".o.bbbbbbbb.tmp").read_text(encoding="utf-8") == "keep"


def test_extract_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boundread import api

    (tmp_path / "small.txt").write_text("hello\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOUNDREAD_OUT_DIR", str(tmp_path / "out"))
    result = api.extract(tmp_path / "small.txt")
    assert result.output is not None
    assert Path(result.output).read_text(encoding="utf-8") == "hello\n"
    assert not [p for p in (tmp_path / "out").iterdir() if p.name.endswith(".tmp")]
