"""What a gunzip prints (``zcat f.gz``, ``gzip -dc``, ``gunzip -c``, ``gzip -d < f.gz``) is the gzip file's text,
judged by its size - measured by decompressing at most the cap, never by the size field a file's trailer claims.
A small log's text is allowed whole; a big one, a file whose trailer lies, a cut-short file, a bomb and a tar
(NUL bytes: not text) are refused. A later stage's bound (``| head -n 20``, ``| tail -n 50``, ``| sed -n
100,200p``) is measured on that text, as it is on a file's. ``cat f.gz`` prints the compressed bytes and stays
refused.

Files are made in the test: a small and a big gzipped log, a two-member file whose trailer counts only its last
member, a cut-short file, a small .tar.gz, and 66 MB of text gzipped into 64 KB.
"""

from __future__ import annotations

import gzip
import tarfile
from pathlib import Path

import pytest

from boundread.guard import check_command, facts, gunzipped
from boundread.guard.bounds import Bound

SMALL = b"".join(b"2026-12-03T10:00:%02dZ INFO worker-1 ok\n" % (n % 60) for n in range(200))  # 8 KB


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gunzipped")
    (root / "small.log.gz").write_bytes(gzip.compress(SMALL))
    (root / "big.log.gz").write_bytes(gzip.compress(SMALL * 400))  # 3.2 MB of text
    (root / "big.log").write_bytes(SMALL * 400)
    (root / "two.gz").write_bytes(gzip.compress(SMALL * 100) + gzip.compress(b"x\n"))  # trailer: 2 bytes
    (root / "cut.gz").write_bytes(gzip.compress(SMALL)[:-12])
    with tarfile.open(root / "small.tar.gz", "w:gz") as archive:
        archive.add(root / "small.log.gz", "small.log.gz")
    (root / "bomb.gz").write_bytes(gzip.compress(b"ab\n" * (22 * 1024 * 1024), compresslevel=9))
    return root


@pytest.mark.parametrize("command", [
    "zcat small.log.gz", "gzip -dc small.log.gz", "gunzip -c small.log.gz", "gzip -d < small.log.gz",
    "gzip --decompress --stdout small.log.gz", "zcat small.log.gz | head -n 5", "zcat small.log.gz | grep INFO",
    "cat small.log.gz | gunzip",
])
def test_a_small_gzip_files_text_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


@pytest.mark.parametrize("command", [
    "zcat big.log.gz", "gunzip -c big.log.gz", "zcat big.log.gz | grep INFO",
    "zcat two.gz",  # its trailer says 2 bytes; it holds 800 KB
    "zcat cut.gz",  # cut short: not measured, judged by its kind
    "zcat bomb.gz",  # 66 MB of text in 64 KB: decompressing stops at the cap
    "cat small.log.gz",  # the compressed bytes
    "gzip -c small.log.gz",  # compressed again
    "zcat small.tar.gz",  # a tar's headers and padding: not text
])
def test_what_is_not_a_small_text_is_refused(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command


def test_the_text_is_measured_across_members_and_stops_at_the_cap(work: Path) -> None:
    assert gunzipped.within(work / "small.log.gz", 256 * 1024) == len(SMALL)
    assert gunzipped.within(work / "two.gz", 10 * 1024 * 1024) == len(SMALL) * 100 + 2
    assert facts.gzip_size(work / "two.gz", (work / "two.gz").stat().st_size) == 2  # what the trailer claims
    assert gunzipped.within(work / "two.gz", 256 * 1024) is None  # more than the cap
    assert gunzipped.within(work / "bomb.gz", 256 * 1024) is None
    assert gunzipped.within(work / "cut.gz", 256 * 1024) is None
    (work / "plain.txt").write_bytes(SMALL)
    assert gunzipped.within(work / "plain.txt", 256 * 1024) is None  # not gzip


@pytest.mark.parametrize("command", [
    "zcat big.log.gz | head -n 20", "gzip -dc big.log.gz | head -5", "zcat big.log.gz | tail -n 50",
    "zcat big.log.gz | sed -n 100,200p", "zcat big.log.gz | head -c 4096", "zcat big.log.gz | tail -c 100000",
    "gunzip -c two.gz | tail -n 3",  # the last member's lines
    "zcat bomb.gz | head -n 1000", "zcat bomb.gz | tail -n 50",  # past what is read: by its first lines
    "zcat -f big.log | head -n 20",  # not gzip: -f prints it as it is
])
def test_a_bounded_part_of_a_big_gzip_files_text_is_allowed(work: Path, command: str) -> None:
    """A `head` of the text was measured on the compressed bytes, which are not text: refused as "raw bytes"."""
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


@pytest.mark.parametrize("command", [
    "zcat big.log.gz", "zcat big.log.gz | head -n 100000", "zcat big.log.gz | tail -n 100000",
    "zcat big.log.gz | sed -n 1000,90000p", "zcat big.log.gz | head -c 1000000",
])
def test_a_big_gzip_files_text_is_refused_as_text_with_a_part_to_print(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert "would print the text of big.log.gz" in decision.reason and "raw bytes" not in decision.reason
    assert "zcat big.log.gz | head -n 200" in decision.reason
    assert "boundread extract big.log.gz --lines 1-200" in decision.reason


def test_a_tar_in_a_gzip_file_is_refused_as_its_bytes(work: Path) -> None:
    decision = check_command("zcat small.tar.gz", cwd=work)
    assert decision.decision == "deny" and "would print the text of" not in decision.reason


def _lines(count: int, skip: int = 0, *, from_end: bool = False) -> Bound:
    return Bound("lines", count, skip, from_end)


def test_parts_are_measured_on_the_text_across_members(work: Path) -> None:
    line = len(SMALL) // 200
    two = work / "two.gz"  # 20,000 lines, then "x\n" in a member of its own
    assert gunzipped.part(two, _lines(3), 256 * 1024) == 3 * line
    assert gunzipped.part(two, _lines(2, skip=19_999), 256 * 1024) == line + 2  # across the members
    assert gunzipped.part(two, _lines(2, from_end=True), 256 * 1024) == line + 2
    assert gunzipped.part(two, _lines(100_000), 256 * 1024) is None  # all of it: 800 KB
    assert gunzipped.part(two, _lines(5, skip=10**6), 256 * 1024) == 0  # past its end
    assert gunzipped.part(two, Bound("bytes", 4096), 256 * 1024) == 4096
    assert gunzipped.part(two, Bound("bytes", 10**6), 256 * 1024) is None
    assert gunzipped.part(work / "small.log.gz", _lines(500, from_end=True), 256 * 1024) == len(SMALL)


def test_lines_past_the_work_limit_are_sized_by_the_longest_line_of_the_texts_beginning(work: Path) -> None:
    """66 MB of text: no more than WORK is decompressed; a tail past it is sized as lines deep in a big file are,
    by the longest line of the first 64 KB - unless that comes to more than the cap."""
    assert gunzipped.part(work / "bomb.gz", _lines(5, from_end=True), 256 * 1024) == 15
    assert gunzipped.part(work / "bomb.gz", _lines(5), 256 * 1024) == 15
    assert gunzipped.part(work / "bomb.gz", _lines(10**6, from_end=True), 256 * 1024) is None
    long_first = work / "long-first.gz"
    long_first.write_bytes(gzip.compress(b"x" * 70_000 + b"\n" + b"ab\n" * (12 * 1024 * 1024), compresslevel=9))
    assert gunzipped.part(long_first, _lines(5, from_end=True), 256 * 1024) is None
    assert gunzipped.part(work / "cut.gz", _lines(5, from_end=True), 256 * 1024) is not None  # zcat prints it
