"""``diff``, ``comm``, ``join`` and ``cmp -l`` print lines made of two files' own lines, ``split -n K/N`` a
chunk of one: each file is judged as printed, the chunk as the file's size over N. Their counts and yes/no
answers (``diff -q``, ``cmp``, ``| wc -l``) and a bounded part stay allowed. Files are made in the test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("derived")
    (root / "a.txt").write_text("".join(f"key{n:06} alpha {n}\n" for n in range(0, 60_000, 2)))
    (root / "b.txt").write_text("".join(f"key{n:06} beta {n}\n" for n in range(0, 60_000, 3)))
    (root / "a-small.txt").write_text("key1 a\nkey2 a\n")
    (root / "b-small.txt").write_text("key1 b\n")
    return root


DUMPS = [
    "join a.txt b.txt",
    "comm a.txt b.txt",
    "comm -23 a.txt b.txt",
    "diff a.txt b.txt",
    "diff -u a.txt b.txt | less",
    "diff -y a.txt b.txt",
    "sdiff a.txt b.txt",
    "diff3 a.txt b.txt a-small.txt",
    "cat b.txt | diff a-small.txt -",
    "cmp -l a.txt b.txt",
    "split -n l/1/2 a.txt",
    "split -n r/2/2 a.txt",
]

ALLOWED = [
    "join a-small.txt b-small.txt",
    "comm -12 a-small.txt b-small.txt",
    "diff -q a.txt b.txt",
    "diff a.txt b.txt | wc -l",
    "diff -u a.txt b.txt | head -n 40",
    "join a.txt b.txt | wc -l",
    "cmp a.txt b.txt",
    "comm -123 a.txt b.txt",
    "split -n l/1/40 a.txt",  # a fortieth
    "split -n 4 a.txt",  # four files written
]


@pytest.mark.parametrize("command", DUMPS)
def test_a_derived_print_is_judged_as_its_files(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert "boundread extract" in decision.reason, decision.reason


@pytest.mark.parametrize("command", ALLOWED)
def test_a_count_an_answer_or_a_part_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)
