"""The exit-code table is ExitCode: every code the CLI returns is a member, Ctrl-C's 130 included."""

from __future__ import annotations

from pathlib import Path

from boundread.cli import docs
from boundread.errors import ExitCode

ROOT = Path(__file__).resolve().parents[1]


def test_interrupted_is_a_documented_exit_code() -> None:
    assert ExitCode(130) is ExitCode.INTERRUPTED
    readme = (ROOT / docs.REFERENCE).read_text(encoding="utf-8")
    meanings = dict(docs.exit_codes(readme))
    assert meanings[130].startswith("interrupted (Ctrl-C)")


def test_the_man_page_lists_130_once() -> None:
    man = (ROOT / "man" / "boundread.1").read_text(encoding="utf-8")
    status = man.split(".SH EXIT STATUS", 1)[1].split(".SH ", 1)[0]
    assert status.count("\\fB130\\fR") == 1
    assert [int(code) for code in ExitCode] == [int(line[3:-3]) for line in status.splitlines()
                                                if line.startswith("\\fB")]


def test_no_bare_130_left_in_the_cli() -> None:
    for path in (ROOT / "src" / "boundread" / "cli").glob("*.py"):
        assert "130)" not in path.read_text(encoding="utf-8").replace("(128 + 2)", ""), path
        assert "= 130" not in path.read_text(encoding="utf-8"), path
