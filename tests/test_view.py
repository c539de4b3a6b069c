"""``boundread view`` (issue 23 item 3): on a terminal the bounded slice goes to the pager ($PAGER, else
``less -R`` with ``LESS=FRX`` as git sets it), the summary and ``next`` at its end; off a terminal it is plain
stdout with the summary on stderr. A fake pager (a script that copies its stdin to a file) stands in for less,
and a pseudo-terminal for the person's screen. ``--head N`` (extract and view) is the first N lines."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boundread.cli.app import app
from boundread.cli.view import as_view
from tests import terminal

runner = CliRunner()


@pytest.fixture
def log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "app.log"
    path.write_text("".join(f"line {n} {'ERROR' if n % 7 == 0 else 'ok'}\n" for n in range(1, 201)))
    return path


@pytest.fixture
def pager(tmp_path: Path) -> Path:
    """A pager that keeps what it was given in ``paged.txt`` and its LESS in ``less.txt``."""
    script = tmp_path / "fake-pager"
    script.write_text(f'#!/bin/sh\nprintf "%s" "$LESS" > {tmp_path}/less.txt\ncat > {tmp_path}/paged.txt\n')
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def test_on_a_terminal_the_slice_and_its_summary_go_to_the_pager(log: Path, pager: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LESS", raising=False)
    code, screen = terminal.run(["view", str(log), "--grep", "ERROR", "--max-matches", "3"],
                                env={"PAGER": str(pager)}, cwd=tmp_path)
    assert code == 0, screen
    paged = (tmp_path / "paged.txt").read_text()
    text, _, summary = paged.partition("\n(end of the slice)\n")
    assert text == "7:line 7 ERROR\n14:line 14 ERROR\n21:line 21 ERROR\n", paged
    assert "max_matches 3 reached" in summary and "next:" in summary
    assert f"boundread view {log} --grep ERROR --lines 22-" in summary.split("next:")[1], summary
    assert (tmp_path / "less.txt").read_text() == "FRX"
    assert "line 7" not in screen  # the pager had it, not the terminal
    assert not (tmp_path / "boundread-out").exists() and not (tmp_path / "out").exists()


def test_the_users_less_settings_are_kept(log: Path, pager: Path, tmp_path: Path) -> None:
    code, _ = terminal.run(["view", str(log), "--head", "2"], env={"PAGER": str(pager), "LESS": "-S"},
                           cwd=tmp_path)
    assert code == 0
    assert (tmp_path / "less.txt").read_text() == "-S"
    assert (tmp_path / "paged.txt").read_text().startswith("line 1 ok\nline 2 ok\n\n(end of the slice)\n  ")


def test_pager_cat_prints_on_the_terminal(log: Path, tmp_path: Path) -> None:
    code, screen = terminal.run(["view", str(log), "--head", "2"], env={"PAGER": "cat"}, cwd=tmp_path)
    assert code == 0 and "line 1 ok\nline 2 ok\n" in screen, screen


def test_an_error_is_one_line_and_starts_no_pager(pager: Path, tmp_path: Path) -> None:
    code, screen = terminal.run(["view", str(tmp_path / "missing.log")], env={"PAGER": str(pager)}, cwd=tmp_path)
    assert code == 3 and "boundread: error: " in screen and "Traceback" not in screen, screen
    assert not (tmp_path / "paged.txt").exists()


def test_off_a_terminal_it_is_plain_stdout(log: Path) -> None:
    result = runner.invoke(app, ["view", str(log), "--head", "3"])
    assert result.exit_code == 0, result.output
    assert result.stdout == "line 1 ok\nline 2 ok\nline 3 ok\n"
    assert "wrote the text to stdout" in result.stderr and "line 1" not in result.stderr


def test_head_is_the_first_lines_and_names_its_file(log: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["extract", str(log), "--head", "2"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "app.log.lines-1-2.txt").read_text() == "line 1 ok\nline 2 ok\n"


@pytest.mark.parametrize("other", [["--tail", "5"], ["--lines", "3-4"]])
def test_head_does_not_combine_with_tail_or_lines(log: Path, other: list[str]) -> None:
    for command in ("extract", "view"):
        result = runner.invoke(app, [command, str(log), "--head", "2", *other])
        assert result.exit_code == 2 and result.stderr.startswith("boundread: error: --head does not combine")
        assert result.stderr.count("\n") == 1


def test_an_unstartable_pager_is_one_line(log: Path, tmp_path: Path) -> None:
    code, screen = terminal.run(["view", str(log)], env={"PAGER": str(tmp_path / "no-such-pager")}, cwd=tmp_path)
    assert code == 2 and "cannot start the pager" in screen and "Traceback" not in screen, screen


def test_a_pager_quit_early_ends_the_read_quietly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The person quits after the first screen: the read stops, exit 0, no BrokenPipeError."""
    monkeypatch.chdir(tmp_path)
    big = tmp_path / "big.log"
    big.write_text("".join(f"{n} ERROR something failed here\n" for n in range(1, 300_001)))
    script = tmp_path / "quits"
    script.write_text(f"#!/bin/sh\nhead -n 1 > {tmp_path}/paged.txt\n")
    script.chmod(0o755)
    code, screen = terminal.run(["view", str(big), "--grep", "ERROR", "--max-matches", "1000000",
                                 "--max-chars", "100000000"], env={"PAGER": str(script)}, cwd=tmp_path)
    assert code == 0, screen
    assert "Traceback" not in screen and "BrokenPipe" not in screen and "Exception" not in screen, screen
    assert (tmp_path / "paged.txt").read_text() == "1:1 ERROR something failed here\n"


@pytest.mark.parametrize(("step", "said"), [
    ("boundread extract a.log --grep ERROR --lines 1995-", "boundread view a.log --grep ERROR --lines 1995-"),
    ("boundread pages 'my r.pdf' 6-10", "boundread view 'my r.pdf' --pages 6-10"),
    ("boundread sheets b.xlsx 'Prices 2026' --rows 201-400",
     "boundread view b.xlsx --sheet 'Prices 2026' --rows 201-400"),
    ("boundread extract b.xlsx --sheet=-neg --rows 5-9", "boundread view b.xlsx --sheet=-neg --rows 5-9"),
    ("boundread sheets b.xlsx", "boundread sheets b.xlsx"),  # the sheet list: view has none
    ("boundread extract a.pdf --pages 3 --layout", "boundread extract a.pdf --pages 3 --layout"),  # no --layout
    ("boundread sheets b.xlsx --rows 5-9 -- -neg", "boundread sheets b.xlsx --rows 5-9 -- -neg"),
    ("boundread list-zip a.zip --entries 501-", "boundread list-zip a.zip --entries 501-"),
])
def test_next_is_said_with_view_where_view_can_say_it(step: str, said: str) -> None:
    assert as_view(step) == said
