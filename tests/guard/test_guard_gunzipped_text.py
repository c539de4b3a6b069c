"""What a gunzip prints (``zcat f.gz``, ``gzip -dc``, ``gunzip -c``, ``gzip -d < f.gz``) is the gzip file's text,
judged by its size - measured by decompressing at most the cap, never by the size field a file's trailer claims.
A small log's text is allowed whole; a big one, a file whose trailer lies, a cut-short file, a bomb and a tar
(NUL bytes: not text) are judged as before, by the file's kind. ``cat f.gz`` prints the compressed bytes and stays
refused.

Files are made in the test: a small and a big gzipped log, a two-member file whose trailer counts only its last
member, a cut-short file, a small .tar.gz, and 66 MB of text gzipped into 64 KB.
"""

from __future__ import annotations

import gzip
import tarfile
from pathlib import Path

import pytest

from boundread.guard import check_command, facts

SMALL = b"".join(b"2026-12-03T10:00:%02dZ INFO worker-1 ok\n" % (n % 60) for n in range(200))  # 8 KB


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gunzipped")
    (root / "small.log.gz").write_bytes(gzip.compress(SMALL))
    (root / "big.log.gz").write_bytes(gzip.compress(SMALL * 400))  # 3.2 MB of text
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
    assert facts.gunzipped_within(work / "small.log.gz", 256 * 1024) == len(SMALL)
    assert facts.gunzipped_within(work / "two.gz", 10 * 1024 * 1024) == len(SMALL) * 100 + 2
    assert facts.gzip_size(work / "two.gz", (work / "two.gz").stat().st_size) == 2  # what the trailer claims
    assert facts.gunzipped_within(work / "two.gz", 256 * 1024) is None  # more than the cap
    assert facts.gunzipped_within(work / "bomb.gz", 256 * 1024) is None
    assert facts.gunzipped_within(work / "cut.gz", 256 * 1024) is None
    (work / "plain.txt").write_bytes(SMALL)
    assert facts.gunzipped_within(work / "plain.txt", 256 * 1024) is None  # not gzip
