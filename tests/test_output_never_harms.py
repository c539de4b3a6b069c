"""``-o`` never harms what it does not own (issue 23 item 1): run as root, ``-o /dev/stdout`` replaced the
machine's /dev/stdout symlink with a regular file. Now a FIFO, a socket, a symlink that leads out of the output's
folder, any path under /dev, /proc or /sys, and a planted ``boundread-out`` link that leads out of the working
folder are refused in one line (exit 2) before any work, and a snapshot of the scratch tree shows nothing
changed. ``-o -`` is stdout. The system folders are checked by path only: no test writes there."""

from __future__ import annotations

import hashlib
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boundread.cli.app import app
from boundread.core import output
from boundread.errors import UsageError

runner = CliRunner()


def snapshot(root: Path) -> dict[str, str]:
    """Every entry under ``root``, links not followed: its type and, for a file, its content's digest."""
    seen: dict[str, str] = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = Path(folder) / name
            if path.is_symlink():
                seen[str(path)] = "link->" + os.readlink(path)
            elif path.is_fifo():
                seen[str(path)] = "fifo"
            elif path.is_socket():
                seen[str(path)] = "socket"
            elif path.is_file():
                seen[str(path)] = "file:" + hashlib.sha256(path.read_bytes()).hexdigest()
            else:
                seen[str(path)] = "dir"
    return seen


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A project with an input, a FIFO, a socket and links in and out of it; ``outside/`` beside it."""
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (outside / "precious.txt").write_text("keep me\n")
    (project / "in.txt").write_text("sentinel-23 line\n")
    os.mkfifo(project / "fifo")
    (project / "out-link").symlink_to("../outside/precious.txt")
    (project / "abs-link").symlink_to(outside / "precious.txt")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(project / "sock"))
    monkeypatch.chdir(project)
    yield tmp_path
    server.close()


def _refused(args: list[str], *needles: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, (result.exit_code, result.output)
    err = result.stderr
    assert err.startswith("boundread: error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    for needle in needles:
        assert needle in err, err


@pytest.mark.parametrize(("out", "said"), [
    ("fifo", "not a regular file"), ("sock", "not a regular file"),
    ("out-link", "outside its folder"), ("abs-link", "outside its folder"),
])
def test_special_files_and_links_out_are_refused_and_nothing_changes(tree: Path, out: str, said: str) -> None:
    before = snapshot(tree)
    _refused(["extract", "in.txt", "-o", out], said)
    assert snapshot(tree) == before


@pytest.mark.parametrize("command", [["pages", "in.txt", "1"], ["sheets", "in.txt", "1"]])
def test_every_writing_command_refuses_before_it_reads(tree: Path, command: list[str]) -> None:
    before = snapshot(tree)
    _refused([*command, "-o", "out-link"], "outside its folder")
    assert snapshot(tree) == before


@pytest.mark.parametrize("path", ["/dev/stdout", "/dev/null", "/dev/sda", "/proc/self/fd/1", "/proc/x/y.txt",
                                  "/sys/kernel/new.txt", "/dev/../dev/stdout", "/dev/shm/x.txt"])
def test_system_folders_are_refused_by_path(path: str) -> None:
    with pytest.raises(UsageError, match=r"under /(dev|proc|sys), which boundread never writes") as caught:
        output.check_dest(path)
    assert "-o -" in caught.value.fix


def test_a_link_into_a_system_folder_is_refused_by_where_it_leads(tree: Path) -> None:
    (tree / "project" / "to-dev").symlink_to("/dev/stdout")  # leads to /proc/<pid>/fd/1, then anywhere
    with pytest.raises(UsageError, match=r"under /(dev|proc)|outside its folder"):
        output.check_dest("to-dev")
    (tree / "project" / "devdir").symlink_to("/dev")
    with pytest.raises(UsageError, match="under /dev"):
        output.check_dest("devdir/new.txt")


def test_the_cli_refuses_a_system_path_before_any_write(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_write(*args: object, **kwargs: object) -> Path:
        raise AssertionError("write_atomic reached")

    monkeypatch.setattr(output, "write_atomic", no_write)
    _refused(["extract", "in.txt", "-o", "/dev/stdout"], "-o /dev/stdout is under /dev", "-o -")
    _refused(["pages", "in.txt", "1", "-o", "/proc/self/fd/1"], "under /proc")


def test_dash_is_stdout(tree: Path) -> None:
    before = snapshot(tree)
    result = runner.invoke(app, ["extract", "in.txt", "-o", "-"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "sentinel-23 line\n"
    assert "sentinel-23" not in result.stderr and "chars" in result.stderr
    assert not (tree / "project" / "-").exists()
    assert snapshot(tree) == before


def test_a_link_inside_the_folder_is_still_replaced_not_written_through(tree: Path) -> None:
    project = tree / "project"
    (project / "mine.txt").write_text("old\n")
    (project / "in-link").symlink_to("mine.txt")
    result = runner.invoke(app, ["extract", "in.txt", "-o", "in-link"])
    assert result.exit_code == 0 and "replaced the symlink in-link (-> mine.txt)" in result.stdout
    assert (project / "in-link").read_text() == "sentinel-23 line\n" and not (project / "in-link").is_symlink()
    assert (project / "mine.txt").read_text() == "old\n"


def test_a_planted_output_folder_link_is_refused(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOUNDREAD_OUT_DIR")
    (tree / "project" / "boundread-out").symlink_to(tree / "outside")
    before = snapshot(tree)
    for command in (["extract", "in.txt"], ["extract", "in.txt", "--grep", "x"]):
        _refused(command, "./boundread-out is a symlink to", "outside this folder", "BOUNDREAD_OUT_DIR")
    assert snapshot(tree) == before


def test_an_output_folder_link_inside_the_project_is_followed(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOUNDREAD_OUT_DIR")
    project = tree / "project"
    (project / "build").mkdir()
    (project / "boundread-out").symlink_to("build")
    result = runner.invoke(app, ["extract", "in.txt"])
    assert result.exit_code == 0, result.output
    assert (project / "build" / "in.txt.text.txt").read_text() == "sentinel-23 line\n"


def test_a_link_planted_under_a_default_name_is_replaced_never_written_through(tree: Path) -> None:
    """boundread chose the name in its own folder: the link there is replaced by the file; its target is kept."""
    out = tree / "out"  # the tests' BOUNDREAD_OUT_DIR
    out.mkdir()
    (out / "in.txt.text.txt").symlink_to(tree / "outside" / "precious.txt")
    before = snapshot(tree / "outside")
    result = runner.invoke(app, ["extract", "in.txt"])
    assert result.exit_code == 0, result.output
    assert not (out / "in.txt.text.txt").is_symlink()
    assert (out / "in.txt.text.txt").read_text() == "sentinel-23 line\n"
    assert snapshot(tree / "outside") == before


@pytest.mark.parametrize("folder", ["/dev/boundread-chunks", "/proc/boundread-chunks", "/sys/x/chunks"])
def test_chunks_never_makes_a_folder_in_a_system_folder(tree: Path, monkeypatch: pytest.MonkeyPatch,
                                                        folder: str) -> None:
    from boundread.chunks import plan

    def no_folder(*args: object) -> None:
        raise AssertionError("the folder was about to be made")

    monkeypatch.setattr(plan, "_prepare", no_folder)
    _refused(["chunks", "in.txt", "-o", folder], "which boundread never writes")
