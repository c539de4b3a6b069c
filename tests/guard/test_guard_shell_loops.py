"""Loops over names the shell reads: ``find ... | while read f; do cat "$f"; done``, ``done < list``,
``for f in $(cat list)``, ``cat $(cat list)`` and ``$(<file)``. The guard once ran their bodies with the names
unknown and let the dump through; now the body runs once per known line (at most FANOUT), and a cut says so."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from boundread.guard import check_command
from boundread.guard.shell import FANOUT

SAMPLE = Path(__file__).resolve().parents[2] / "src" / "boundread" / "data" / "sample-report.pdf"


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("loops")
    (root / "logs").mkdir()
    (root / "logs" / "app.log").write_text("2026-12-01 INFO request served in 12 ms\n" * 130_000)  # ~5 MB
    (root / "logs" / "small.log").write_text("ok\n")
    shutil.copy(SAMPLE, root / "report.pdf")
    (root / "list").write_text("logs/small.log\nlogs/app.log\n")
    (root / "smalls").write_text("logs/small.log\n")
    (root / "pair").write_text("1 logs/app.log\n")
    (root / "  padded").write_text("x\n")
    return root


DUMPS = [
    ('while read f; do cat "$f"; done < list', "app.log"),
    ('while IFS= read -r f; do cat -- "$f"; done < list', "app.log"),
    ('cat list | while read -r f; do cat "$f"; done', "app.log"),
    ('find logs -name "*.log" | while read f; do cat "$f"; done', "app.log"),
    ('find . -type f -name "*.pdf" | while read -r f; do cat "$f"; done', "report.pdf"),
    ('ls logs | while read f; do cat "logs/$f"; done', "app.log"),
    ('cd logs && ls | while read f; do cat "$f"; done', "app.log"),
    ('while read n f; do cat "$f"; done < pair', "app.log"),
    ('while read a b; do cat "$b"; done <<< "1 logs/app.log"', "app.log"),
    ('for f in $(cat list); do cat "$f"; done', "app.log"),
    ("cat $(cat list)", "app.log"),
    ("cat `cat list`", "app.log"),
    ('find logs | while read f; do [ -f "$f" ] && cat "$f"; done', "app.log"),
    # $(<file): bash reads the file itself, no cat needed
    ("printf '%s' \"$(<logs/app.log)\"", "app.log"),
    ('x=$(< logs/app.log); echo "$x"', "app.log"),
    ("cat $(<list)", "app.log"),
]

LEGIT = [
    'while read f; do wc -l "$f"; done < list',
    'while read -r f; do head -n 20 "$f"; done < list',
    'while read f; do cat "$f"; done < smalls',
    'find logs -name "*.log" | while read f; do echo "$f"; done',
    'ls logs | while read f; do stat "logs/$f" > /dev/null; done',
    'while read f; do cat "$f" > /dev/null; done < list',
    "cat $(cat smalls)",
    "x=$(<logs/app.log); echo ${#x}",
    "echo $(<list)",
    'printf "a b\\n" | while read x y; do cat "$y"; done',  # no file named b
    'while IFS= read -r f; do cat "$f"; done <<< "  padded"',  # IFS= keeps the blanks: the file "  padded"
]


@pytest.mark.parametrize(("command", "name"), DUMPS)
def test_a_loop_that_prints_a_big_file_is_denied(work: Path, command: str, name: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert name in decision.reason


@pytest.mark.parametrize("command", LEGIT)
def test_a_loop_that_does_not_dump_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


def test_read_trims_blanks_unless_ifs_is_empty(work: Path) -> None:
    (work / "padded.log").write_text("x" * 400_000)
    assert check_command('while read f; do cat "$f"; done <<< "  padded.log  "', cwd=work).decision == "deny"
    kept = check_command('while IFS= read -r f; do cat "$f"; done <<< "  padded.log  "', cwd=work)
    assert kept.decision == "allow"  # no file named "  padded.log  "


def test_a_long_list_is_cut_at_the_cap_and_says_so(tmp_path: Path) -> None:
    names = [f"f{number:04}.txt" for number in range(FANOUT + 10)]
    for name in names:
        (tmp_path / name).write_text("x\n")
    (tmp_path / "big.log").write_text("y" * 400_000)
    (tmp_path / "list").write_text("\n".join([*names, "big.log"]) + "\n")  # big.log past the cap
    decision = check_command('while read f; do cat "$f"; done < list', cwd=tmp_path)
    assert decision.decision == "deny"
    assert f"more than {FANOUT} lines" in decision.reason


def test_unknown_lines_keep_the_old_answer(work: Path) -> None:
    """A program's output cannot be known: the body runs once with the name unknown, as before."""
    assert check_command('ps aux | while read line; do echo "$line"; done', cwd=work).decision == "allow"
