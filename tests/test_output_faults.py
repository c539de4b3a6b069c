"""``-o`` under faults (issue 9): a path that names no file, one under a file, a device: one line, no
traceback, before any work; over an existing file or a symlink: the summary says what was replaced, and a
symlink is replaced by a regular file, never written through."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boundread.cli.app import app

runner = CliRunner()


@pytest.fixture
def src(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "in.txt"
    path.write_text("sentinel-9 line\n")
    return path


def _one_line(result: object, code: int, *needles: str) -> None:
    assert result.exit_code == code, (result.exit_code, result.output)  # type: ignore[attr-defined]
    err = result.stderr  # type: ignore[attr-defined]
    assert err.startswith("boundread: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, err


@pytest.mark.parametrize("out", ["", ".", ".."])
def test_an_output_that_names_no_file_is_a_usage_error(src: Path, out: str) -> None:
    _one_line(runner.invoke(app, ["extract", str(src), "-o", out]), 2, "names no file", "-o out.txt")


def test_an_output_under_a_file_names_that_file(src: Path, tmp_path: Path) -> None:
    (tmp_path / "existing-file").write_text("keep")
    result = runner.invoke(app, ["extract", str(src), "-o", "existing-file/x.txt"])
    _one_line(result, 3, "existing-file is a file, not a folder")
    assert (tmp_path / "existing-file").read_text() == "keep"
    _one_line(runner.invoke(app, ["extract", str(src), "-o", "existing-file/deeper/x.txt"]), 3, "existing-file is")


def test_an_output_that_is_a_folder_or_a_device(src: Path, tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    _one_line(runner.invoke(app, ["extract", str(src), "-o", "folder"]), 2, "is a folder", "folder/out.txt")
    _one_line(runner.invoke(app, ["extract", str(src), "-o", os.devnull]), 2, "under /dev", "--stdout")
    assert Path(os.devnull).is_char_device()


def test_over_an_existing_file_the_summary_says_what_it_replaced(src: Path, tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_text("x" * 2048)
    human = runner.invoke(app, ["extract", str(src), "-o", "old.txt"])
    assert human.exit_code == 0 and "replaced old.txt (2.0 kB)" in human.stdout, human.stdout
    assert (tmp_path / "old.txt").read_text() == "sentinel-9 line\n"
    data = json.loads(runner.invoke(app, ["extract", str(src), "-o", "old.txt", "--json"]).stdout)
    assert data["replaced"] == {"path": "old.txt", "was": "file", "bytes": 16, "target": None}
    fresh = json.loads(runner.invoke(app, ["extract", str(src), "-o", "new.txt", "--json"]).stdout)
    assert "replaced" not in fresh
    assert "replaced" not in runner.invoke(app, ["extract", str(src), "-o", "new2.txt"]).stdout


def test_over_a_symlink_it_replaces_the_link_and_never_writes_through(src: Path, tmp_path: Path) -> None:
    (tmp_path / "target.txt").write_text("keep me")
    (tmp_path / "link.txt").symlink_to("target.txt")
    result = runner.invoke(app, ["extract", str(src), "-o", "link.txt"])
    assert result.exit_code == 0
    assert "replaced the symlink link.txt (-> target.txt) with a regular file" in result.stdout
    assert not (tmp_path / "link.txt").is_symlink() and (tmp_path / "link.txt").read_text() == "sentinel-9 line\n"
    assert (tmp_path / "target.txt").read_text() == "keep me"
    (tmp_path / "dangling").symlink_to(tmp_path / "nowhere" / "x.txt")
    data = json.loads(runner.invoke(app, ["extract", str(src), "-o", "dangling", "--json"]).stdout)
    assert data["replaced"]["was"] == "symlink" and not (tmp_path / "nowhere").exists()


def test_a_symlink_to_the_input_is_replaced_and_the_input_kept(src: Path, tmp_path: Path) -> None:
    (tmp_path / "to-input").symlink_to(src)
    assert runner.invoke(app, ["extract", str(src), "-o", "to-input"]).exit_code == 0
    assert src.read_text() == "sentinel-9 line\n" and not (tmp_path / "to-input").is_symlink()
    _one_line(runner.invoke(app, ["extract", str(src), "-o", str(src)]), 2, "is the input file")
