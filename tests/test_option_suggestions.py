"""An unknown option suggests only options close to what was typed (difflib ratio >= 0.75): click's own
cut-off offered ``--rows`` for ``--bogus``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import run


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "server.log"
    path.write_text("one\ntwo\n", encoding="utf-8")
    return path


def test_a_word_like_no_option_suggests_nothing(log: Path) -> None:
    done = run("extract", str(log), "--bogus")
    assert done.exit_code == 2
    assert done.stderr.strip() == "boundread: error: no such option: --bogus - see `boundread extract --help`"


def test_a_typo_suggests_the_option_it_is_close_to_and_not_its_neighbours(log: Path) -> None:
    done = run("extract", str(log), "--max-char", "3")
    assert done.exit_code == 2
    assert "(Possible options: --max-chars)" in done.stderr
    assert "--max-cols" not in done.stderr and "--max-rows" not in done.stderr


def test_a_short_typo_keeps_its_match(log: Path) -> None:
    done = run("extract", str(log), "--row", "3")
    assert "(Possible options: --rows)" in done.stderr
