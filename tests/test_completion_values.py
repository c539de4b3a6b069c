"""Completion of the values the file knows (issue 23 item 5): sheet names after ``sheets F`` and ``--sheet``,
archive members after ``--member``, in bash, zsh and fish alike (the scripts in completions/ ask the program
itself), and nothing - no error, no traceback - for a file that cannot say."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from boundread.core.demo import write_samples

BIN = Path(sys.executable).parent / "boundread"


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_samples(tmp_path_factory.mktemp("samples"))


def _bash(words: str, cword: int) -> list[str]:
    env = {"COMP_WORDS": words, "COMP_CWORD": str(cword), "_BOUNDREAD_COMPLETE": "complete_bash", "PATH": "/usr/bin"}
    run = subprocess.run([str(BIN)], env=env, capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    return [line for line in run.stdout.splitlines() if line]


def test_bash_offers_sheet_names(samples: dict[str, Path]) -> None:
    book = samples["prices.xlsx"]
    assert _bash(f"boundread sheets {book} ", 3) == ["Prices 2026", "Notes", "Internal"]
    assert _bash(f"boundread sheets {book} P", 3) == ["Prices 2026"]
    assert _bash(f"boundread extract {book} --sheet N", 4) == ["Notes"]
    assert _bash(f"boundread view {book} --sheet I", 4) == ["Internal"]


def test_bash_offers_members_even_before_the_option_has_its_value(samples: dict[str, Path]) -> None:
    archive = samples["catalogue.zip"]
    members = ["catalogue/report.pdf", "catalogue/prices.xlsx", "catalogue/README.txt"]
    assert _bash(f"boundread extract {archive} --member ", 4) == members
    assert _bash(f"boundread extract --grep x {archive} --member catalogue/p", 6) == ["catalogue/prices.xlsx"]


def test_zsh_and_fish_get_the_same_values(samples: dict[str, Path]) -> None:
    book = samples["prices.xlsx"]
    for shell, extra in (("zsh", {}), ("fish", {"_TYPER_COMPLETE_FISH_ACTION": "get-args"})):
        env = {"_TYPER_COMPLETE_ARGS": f"boundread sheets {book} ", "_BOUNDREAD_COMPLETE": f"complete_{shell}",
               "PATH": "/usr/bin", **extra}
        run = subprocess.run([str(BIN)], env=env, capture_output=True, text=True, timeout=60, check=False)
        assert run.returncode == 0 and run.stderr == ""
        assert all(name in run.stdout for name in ("Prices 2026", "Notes", "Internal")), (shell, run.stdout)


@pytest.mark.parametrize("words", ["boundread sheets {missing} ", "boundread sheets {log} ",
                                   "boundread extract {log} --member "])
def test_a_file_that_cannot_say_offers_nothing(samples: dict[str, Path], tmp_path: Path, words: str) -> None:
    line = words.format(missing=tmp_path / "nope.xlsx", log=samples["server.log"])
    assert _bash(line, len(line.split())) == []


def _bash_in(state: Path, words: str, cword: int) -> list[str]:
    env = {"COMP_WORDS": words, "COMP_CWORD": str(cword), "_BOUNDREAD_COMPLETE": "complete_bash", "PATH": "/usr/bin",
           "BOUNDREAD_STATE_DIR": str(state), "HOME": str(state)}
    run = subprocess.run([str(BIN)], env=env, capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    return [line for line in run.stdout.splitlines() if line]


def test_bash_offers_the_ledger_s_sessions(tmp_path: Path) -> None:
    """`--session <TAB>` offers the ids the ledger knows - spent in, or with limits only - and where there is no
    ledger, nothing, without creating one."""
    assert _bash_in(tmp_path, "boundread budget status --session ", 4) == []
    assert list(tmp_path.iterdir()) == []
    env = {"BOUNDREAD_STATE_DIR": str(tmp_path), "HOME": str(tmp_path), "PATH": "/usr/bin"}
    for args in (["set", "--session", "demo-1", "--max-usd", "1"],
                 ["add", "--session", "dev-2", "--model", "claude-sonnet-4-5", "--input", "10", "--output", "1"]):
        subprocess.run([str(BIN), "budget", *args], env=env, capture_output=True, check=True, timeout=60)
    assert sorted(_bash_in(tmp_path, "boundread budget status --session ", 4)) == ["demo-1", "dev-2"]
    assert _bash_in(tmp_path, "boundread budget set --session dem", 4) == ["demo-1"]
    assert _bash_in(tmp_path, "boundread budget check --session dev", 4) == ["dev-2"]
