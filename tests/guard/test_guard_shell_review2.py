"""False allows a second review found in the shell guard: a trailing redirection taken for the whole ``&&`` list,
known text cut by characters, brace sequences, a process substitution or here-string as a loop's input, and the
cost of ``find`` walks and continued lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("review2")
    (root / "logs").mkdir()
    (root / "logs" / "app.log").write_text("2026-12-01 INFO request served in 12 ms\n" * 130_000)  # ~5 MB
    (root / "logs" / "small.log").write_text("ok\n")
    (root / "logs" / "app1.log").write_text("y" * 400_000)
    (root / "logs" / "app01.log").write_text("y" * 400_000)
    (root / "logs" / "appc.log").write_text("y" * 400_000)
    (root / "log").write_text("")  # what `head -5` of the names once cut to: five characters
    return root


def decide(command: str, cwd: Path) -> str:
    return check_command(command, cwd=cwd).decision


# --- 1. a trailing redirection belongs to the last command of a list or pipeline ----------------------------------

REDIRECT_DUMPS = [
    "cat logs/app.log && echo done > /dev/null",
    "cd logs && cat < app.log",
    'cd logs && while read l; do echo "$l"; done < app.log',
    "true && cat logs/app.log || echo failed > /dev/null",
    "echo x | cat < logs/app.log",  # `<` is cat's stdin, not echo's
    "true && echo x | cat < logs/app.log",
]

REDIRECT_LEGIT = [
    "cat logs/app.log | tr a b > /dev/null",  # the pipe's last stage writes to /dev/null
    "true && cat logs/app.log > /dev/null",
    "cd logs && cat app.log > /dev/null",
    "cd logs && { cat app.log; } > /dev/null",
    "cd logs && wc -l < app.log",
]


@pytest.mark.parametrize("command", REDIRECT_DUMPS)
def test_a_trailing_redirect_applies_to_the_last_command_only(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert "app.log" in decision.reason


@pytest.mark.parametrize("command", REDIRECT_LEGIT)
def test_a_redirect_that_hides_the_output_still_allows(work: Path, command: str) -> None:
    assert decide(command, work) == "allow", command


# --- 2. known text through head/tail is cut by lines (or bytes) ---------------------------------------------------

def test_head_of_known_names_keeps_whole_lines(work: Path) -> None:
    assert decide('find . -name "*.log" | head -5 | while read f; do cat "$f"; done', work) == "deny"
    assert decide('ls logs | head -n 1 | while read f; do cat "logs/$f"; done', work) == "deny"  # app01.log


def test_tail_of_known_names_keeps_the_last_lines(work: Path) -> None:
    assert decide('ls logs | tail -n 1 | while read f; do cat "logs/$f"; done', work) == "allow"  # small.log
    assert decide('ls logs | tail -n 2 | while read f; do cat "logs/$f"; done', work) == "deny"  # appc.log


def test_known_text_cut_by_lines_and_bytes() -> None:
    from boundread.guard.bounds import BYTES, LINES, Bound
    from boundread.guard.shell.reads import bounded
    from boundread.guard.shell.state import Stream

    text = "one\ntwo\nthree\nfour\n"
    assert bounded(Stream(text=text), Bound(LINES, 2), "head").text == "one\ntwo\n"
    assert bounded(Stream(text=text), Bound(LINES, 2, from_end=True), "tail").text == "three\nfour\n"
    assert bounded(Stream(text=text), Bound(LINES, 1, 2), "sed").text == "three\n"  # sed -n 3p
    assert bounded(Stream(text=text), Bound(LINES, 9), "head").text == text
    assert bounded(Stream(text=text), Bound(BYTES, 5), "head").text == "one\nt"
    assert bounded(Stream(text=text), Bound(BYTES, 3, from_end=True), "tail").text == "ur\n"
    cut = bounded(Stream(text="é\n"), Bound(BYTES, 1), "head")  # half a character: not the text as it is
    assert not cut.exact


def test_read_stores_its_line_without_the_newline(work: Path) -> None:
    assert decide('read x <<< "logs/app.log"; cat "$x"', work) == "deny"
    assert decide('read x <<< "logs/small.log"; cat "$x"', work) == "allow"
