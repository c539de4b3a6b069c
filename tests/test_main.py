"""The entry point's fast paths: ``--version`` without Typer, and one command built instead of all of them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boundread.cli import COMPLETE_VAR, _name, only
from boundread.cli.app import app
from tests.helpers import run

COMMANDS = [*(_name(info) for info in app.registered_commands), *(info.name for info in app.registered_groups)]


def _entry(*args: str) -> subprocess.CompletedProcess[str]:
    probe = ("import sys\nfrom boundread.__main__ import main\nsys.argv = ['boundread', *sys.argv[1:]]\n"
             "try:\n    main()\nfinally:\n"
             "    print('TYPER' if 'typer' in sys.modules else 'NO-TYPER', file=sys.stderr)")
    return subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=60,
                          check=False)


def test_version_fast_path_prints_what_typer_prints() -> None:
    fast = _entry("--version")
    assert fast.returncode == 0 and fast.stderr.strip() == "NO-TYPER"
    assert fast.stdout == run("--version").stdout


def test_other_arguments_still_go_through_typer() -> None:
    done = _entry("-h")
    assert done.returncode == 0 and "Usage: boundread" in done.stdout and done.stderr.strip().endswith("TYPER")
    assert "--version" in done.stdout


@pytest.mark.parametrize("name", COMMANDS)
def test_one_command_keeps_its_help(name: str) -> None:
    view = only(name)
    assert view is not app
    assert len(view.registered_commands) + len(view.registered_groups) == 1
    runner = CliRunner()
    whole = runner.invoke(app, [name, "--help"], catch_exceptions=False)
    alone = runner.invoke(view, [name, "--help"], catch_exceptions=False)
    assert alone.exit_code == whole.exit_code == 0 and alone.stdout == whole.stdout


def test_the_app_itself_stays_whole() -> None:
    before = len(app.registered_commands), len(app.registered_groups)
    only("extract")
    assert (len(app.registered_commands), len(app.registered_groups)) == before
    assert {"info", "extract", "pages", "budget", "guard-check"} <= set(COMMANDS)  # the names read right


@pytest.mark.parametrize("name", [None, "--help", "extrac", "-h"])
def test_no_command_gets_the_whole_app(name: str | None) -> None:
    assert only(name) is app


def test_shell_completion_gets_the_whole_app(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(COMPLETE_VAR, "complete_bash")
    assert only("extract") is app


def test_one_command_runs_as_in_the_whole_app(tmp_path: Path) -> None:
    log = tmp_path / "a.log"
    log.write_text("one\ntwo\nthree\n", encoding="utf-8")
    runner = CliRunner()
    args = ["extract", str(log), "--lines", "2-3", "--stdout"]
    whole = runner.invoke(app, args, catch_exceptions=False)
    alone = runner.invoke(only("extract"), args, catch_exceptions=False)
    assert alone.exit_code == whole.exit_code == 0
    assert alone.stdout == whole.stdout == "two\nthree\n"
    bad = runner.invoke(only("extract"), ["extract", str(log), "--lines"], catch_exceptions=False)
    assert bad.exit_code == 2 and "--lines" in bad.stderr
