"""Editors in batch mode print what their commands print: ``%p``/``,p`` the whole file, ``10,20p`` a range.

``ex -sc '%p|q!'``, ``vim -es +'%p'``, ``ed -s f <<< ',p'``, ``emacs --batch --eval '(princ (buffer-string))'``
are dumps of a big file; a range, an edit written back and an editor opened for a person are not; ``g/re/p``
(``v/re/p``) prints the lines that match (or not), sized as grep's.
Files are made in the test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("editors")
    (root / "big.log").write_text("2026-12-01T05:51:05Z INFO worker-3 request served in 12 ms\n" * 55_000)
    (root / "small.log").write_text("one\ntwo\n")
    (root / "print.ed").write_text(",p\nq\n")
    (root / "print.vim").write_text("%p\nq!\n")
    return root


DUMPS = [
    "ex -sc '%print|q' big.log",
    "ex -s big.log <<< '%p'",
    "vim -es -c '%p' -c 'q!' big.log",
    "vim -es +'%p' +'q!' big.log",
    "vi -es -c '%p|q!' big.log",
    "nvim -es -c '1,$nu' -c 'q!' big.log",
    "vim -es -c 'w !cat' -c 'q!' big.log",
    "ed -s big.log <<< ',p'",
    "ed -s big.log <<< ',n'",
    "echo ',p' | ed -s big.log",
    "printf '%s\\n' '1,$p' q | ed -s big.log",
    "emacs --batch big.log --eval '(princ (buffer-string))'",
    "ed -s big.log < print.ed",
    "vim -es -S print.vim big.log",
]

ALLOWED = [
    "ex -sc '%p|q!' small.log",
    "ex -sc '1,20p|q!' big.log",
    "ed -s big.log <<< '1,5p'",
    "vim -es -c '%s/INFO/info/g' -c 'wq' big.log",  # an edit written back: nothing printed
    "vim big.log",  # for a person, not a batch
    "ex -sc 'g/ERROR/p|q!' big.log",  # the lines that match, as grep prints them: none here
    "vim -es -c 'v/INFO/p' -c 'q!' big.log",  # the lines that do not: none
    "emacs --batch big.log --eval '(message \"%d\" (buffer-size))'",
]


@pytest.mark.parametrize("command", DUMPS)
def test_a_batch_editor_printing_the_buffer_is_a_dump(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert "big.log" in decision.reason and "boundread extract big.log" in decision.reason, decision.reason


@pytest.mark.parametrize("command", ["ex -sc 'g/INFO/p|q!' big.log", "vim -u NONE -E -s -c 'g/INFO/p' -c 'q!' big.log",
                                     "vim -es -c 'global/worker/nu' -c 'q!' big.log",
                                     "vim -es -c 'v/ERROR/p' -c 'q!' big.log"])
def test_a_global_print_of_most_lines_is_sized_as_grep(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert "big.log" in decision.reason and "of a sample" in decision.reason, decision.reason


@pytest.mark.parametrize("command", ALLOWED)
def test_a_range_an_edit_or_a_person_s_editor_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)
