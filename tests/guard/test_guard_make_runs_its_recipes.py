"""``make`` prints what its recipes print: the recipes it runs for its targets (and their prerequisites) are walked
as a shell script in its folder, from ``-f FILE``, ``-f -`` (its stdin) or the folder's own Makefile. It was an
unknown program, so a recipe that printed a big file went through (``printf 'all:\\n\\tcat big.log\\n' | make -f -``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "big.log").write_text("2026-12-03 INFO request served in 12 ms\n" * 20_000)  # ~800 kB
    (tmp_path / "small.txt").write_text("one line\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "Makefile").write_text("show:\n\t@cat ../big.log\n")
    (tmp_path / "Makefile").write_text("test: build\n\t@pytest -q\nbuild:\n\tpython -m build\n"
                                       "dump: prepare\n\t@cat big.log\nprepare:\n\ttouch stamp\n"
                                       "peek:\n\t@head -n 20 big.log\n")
    return tmp_path


@pytest.mark.parametrize("command", [
    "printf 'all:\\n\\tcat big.log\\n' | make -s -f -",
    "make -s -f - <<'MK'\ndump:\n\t@cat big.log\nMK",
    "make -s -f - show <<< $'show:\\n\\t@cat big.log'",
    "printf 'dump:\\n\\t@cat big.log\\n' > dump.mk && make -s -f dump.mk dump",
    "make dump",  # the folder's Makefile
    "make -C sub",  # sub's, its recipe run in sub
    "gmake --file=Makefile dump",
])
def test_a_recipe_that_prints_a_big_file_is_refused(project: Path, command: str) -> None:
    decision = check_command(command, cwd=project)
    assert decision.decision == "deny", command
    assert "big.log" in decision.reason


@pytest.mark.parametrize("command", [
    "make test", "make build", "make", "make peek", "make -n dump", "make --dry-run dump",
    "printf 'all:\\n\\tcat big.log | head -n 5\\n' | make -s -f -",
    "printf 'all:\\n\\tcat small.txt\\n' | make -s -f -",
    "make dump > out.txt", "make -f missing.mk dump",
])
def test_a_recipe_that_prints_little_or_nothing_is_allowed(project: Path, command: str) -> None:
    assert check_command(command, cwd=project).decision == "allow", command
