"""A file read through a descriptor is the file: ``cat /dev/stdin < f``, ``exec 3< f; cat <&3``, ``/dev/fd/3``.

``/dev/stdin`` (and ``/dev/fd/0``, ``/proc/self/fd/0``) named as an operand is the command's stdin, as ``-`` is;
``N< FILE`` opens descriptor N on FILE - for that command or, with ``exec``, for the rest of the shell - and
``<&N`` or ``/dev/fd/N`` reads it. Files are made in the test: a 3 MB log and a small text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("descriptors")
    (root / "big.log").write_text("2026-12-01T05:51:05Z INFO worker-3 request served in 12 ms\n" * 55_000)
    (root / "small.txt").write_text("hello\n")
    return root


DUMPS = [
    "cat /dev/stdin < big.log",
    "cat /proc/self/fd/0 < big.log",
    "cat /dev/fd/0 < big.log",
    "exec 3< big.log; cat <&3",
    "exec 3<big.log && cat /dev/fd/3",
    "exec 4< big.log; cat <&4; exec 4<&-",
    "cat 3<big.log <&3",
    "dd if=/dev/stdin < big.log 2>/dev/null",
    "cat small.txt - < big.log",
]

ALLOWED = [
    "cat /dev/stdin < small.txt",
    "exec 3< small.txt; cat <&3",
    "head -n 5 /dev/stdin < big.log",
    "exec 3< big.log; head -n 5 <&3",
    "exec 3< big.log; wc -l <&3",
]


@pytest.mark.parametrize("command", DUMPS)
def test_a_file_through_a_descriptor_is_the_file(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert "big.log" in decision.reason and "boundread extract big.log" in decision.reason, decision.reason


@pytest.mark.parametrize("command", ALLOWED)
def test_a_bounded_or_small_read_through_a_descriptor_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)
