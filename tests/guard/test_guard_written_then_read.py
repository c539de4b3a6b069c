"""A file a command writes holds what it wrote, and a later read of it is judged as that content: ``split``'s
and ``csplit``'s pieces, ``sort -o``, ``uniq IN OUT``, ``sponge``, ``unzip A member -d DIR``, ``7z x A -oDIR``. A
glob that the written files match names them, as bash expands it when it runs, after they are made.

Files are made in the test: a 3 MB log, and a zip holding it and a small note.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("written")
    (root / "big.log").write_text("".join(f"2026-12-01T05:51:05Z INFO worker-3 request {n} served\n"
                                          for n in range(60_000)))
    with zipfile.ZipFile(root / "bundle.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(root / "big.log", "data/big.log")
        archive.writestr("docs/guide.md", "# guide\n")
    (root / "out").mkdir()
    return root


DUMPS = [
    "split -l 100000 big.log out/part_ && cat out/part_aa",
    "split -n 2 big.log out/x && cat out/xab",
    "split -b 1M big.log && cat xaa",
    "split -d -l 50000 big.log out/p && cat out/p01",
    "sort -o out/s.txt big.log && cat out/s.txt",
    "uniq big.log out/u.txt && less out/u.txt",
    "cat big.log | sponge out/sp.txt && cat out/sp.txt",
    "unzip -o bundle.zip data/big.log -d out/b && cat out/b/data/big.log",
    "7z x bundle.zip -oout/7 && cat out/7/data/big.log",
    # a glob over the pieces: none exists when the guard looks, all do when bash expands it
    "split -l 1000 big.log out/part_ && cat out/part_*",  # 60 pieces: more than the guard keeps one by one
    "split -n 2 big.log out/x && cat out/x*",
    "csplit -s -f out/c big.log 30000 && cat out/c01",
    "csplit -s -f out/c big.log 30000 && cat out/c*",
    "csplit -s big.log 1000 '{*}' && cat xx*",
    "csplit --quiet --prefix=out/r big.log '/request 5000 /' && cat out/r01",  # after a regex: up to the rest
    "cat big.log | csplit -s - 20000 && cat xx01",
]

ALLOWED = [
    "split -l 1000 big.log out/part_ && cat out/part_aa",  # 1,000 short lines
    "split -n 40 big.log out/y && cat out/yab",
    "sort -o out/s.txt big.log",  # written, not read back
    "sort -o out/s.txt big.log && head -n 20 out/s.txt",
    "unzip -o bundle.zip docs/guide.md -d out/b && cat out/b/docs/guide.md",
    "csplit -s -f out/c big.log 1000 && cat out/c00",  # lines 1-999
    "csplit -s -f out/c -n 3 big.log 1000 '{3}' && cat out/c002 out/c003",  # lines 2000-3999
    "split -l 1000 big.log out/part_ && wc -l out/part_*",
    "split -l 1000 big.log out/part_ && cat out/part_aa out/part_ab",
    "echo note > out/n.txt && cat out/n*.txt",
]


@pytest.mark.parametrize("command", DUMPS)
def test_a_written_file_read_back_is_its_content(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert "boundread " in decision.reason, decision.reason


@pytest.mark.parametrize("command", ALLOWED)
def test_a_small_part_or_a_write_alone_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)
