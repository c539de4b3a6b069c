"""What ``unzip -p a.zip [members]`` (and ``zipgrep``, its egrep) prints is those members' text (all of them when
none is named), judged as a gunzip's text is (guard/gunzipped.py): decompressed to measure it, a later stage's
bound measured on it, a grep of it sized on it. Before, a head of it was measured on the zip's compressed bytes
(and refused as "raw bytes"), and a grep of it was sized on them too, where nothing matches: `unzip -p a.zip |
grep INFO` printed megabytes.

The zip is made in the test: a 3.2 MB log (deflated), a small note, a stored member, and a folder.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from boundread.guard import check_command, gunzipped
from boundread.guard.bounds import Bound

LINE = b"2026-12-03T10:00:00Z INFO worker-1 request served\n"
LOG = LINE * 64_000  # 3.2 MB


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("unzipped")
    with zipfile.ZipFile(root / "logs.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("app.log", LOG)
        archive.writestr("notes.txt", b"SMALL NOTE\n")
        archive.writestr(zipfile.ZipInfo("data/"), b"")
        archive.writestr("data/stored.txt", b"stored line\n" * 10, compress_type=zipfile.ZIP_STORED)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as small:
        small.writestr("readme.md", b"# hello\n")
    (root / "small.zip").write_bytes(buffer.getvalue())
    return root


@pytest.mark.parametrize("command", [
    "unzip -p logs.zip notes.txt", "unzip -p small.zip", "unzip -p logs.zip data/stored.txt",
    "unzip -p logs.zip app.log | head -n 20", "unzip -p logs.zip app.log | tail -n 20",
    "unzip -c logs.zip app.log | tail -n 5", "unzip -p logs.zip | grep ERROR",
    "unzip -p logs.zip app.log | grep -c INFO",
    "unzip -p logs.zip app.log | sed -n 100,200p",
])
def test_a_small_member_or_a_bounded_part_of_a_big_ones_text_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


@pytest.mark.parametrize("command", [
    "unzip -p logs.zip", "unzip -p logs.zip app.log", "unzip -p logs.zip app.log | head -n 100000",
    "unzip -p logs.zip notes.txt app.log",
])
def test_a_big_members_text_is_refused_as_text(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert "would print the text of logs.zip" in decision.reason and "raw bytes" not in decision.reason
    assert "| head -n 200" in decision.reason and "boundread list-zip logs.zip" in decision.reason


def test_a_grep_of_the_members_text_is_sized_on_it(work: Path) -> None:
    """It printed every line, sized on the compressed bytes as "Binary file matches"."""
    decision = check_command("unzip -p logs.zip | grep INFO", cwd=work)
    assert decision.decision == "deny"
    assert "3.2 MB of text in all its members" in decision.reason
    assert "boundread extract logs.zip --member NAME --grep INFO" in decision.reason
    assert "unzip -p logs.zip | grep -c INFO   (how many lines match)" in decision.reason
    one = check_command("unzip -p logs.zip app.log | grep -v ERROR", cwd=work)
    assert one.decision == "deny"
    assert "unzip -p logs.zip app.log | grep -v -m 200 -- ERROR" in one.reason


def test_the_members_text_is_read_in_the_directorys_order(work: Path) -> None:
    zipped = work / "logs.zip"
    assert gunzipped.within(zipped, 256 * 1024, ("notes.txt",)) == len(b"SMALL NOTE\n")
    assert gunzipped.within(zipped, 256 * 1024, ("data",)) == len(b"stored line\n") * 10  # a folder: what it holds
    assert gunzipped.within(zipped, 256 * 1024, ("missing.txt",)) == 0  # unzip prints nothing of it
    assert gunzipped.within(zipped, 256 * 1024) is None  # all of it: over the cap
    assert gunzipped.head(zipped, 11, ("notes.txt", "app.log")) == LOG[:11]  # app.log comes first
    assert gunzipped.part(zipped, Bound("lines", 2, from_end=True), 256 * 1024) == len(b"stored line\n") * 2
    assert gunzipped.declared(zipped, ("app.log",)) == len(LOG)


def test_a_member_the_reader_cannot_inflate_is_not_measured(work: Path) -> None:
    """bzip2 (method 12): unzip may print it, the guard cannot tell how much - refused, not allowed unseen."""
    with zipfile.ZipFile(work / "bz.zip", "w", zipfile.ZIP_BZIP2) as archive:
        archive.writestr("a.txt", b"hello\n")
    assert gunzipped.within(work / "bz.zip", 256 * 1024) is None
    assert check_command("unzip -p bz.zip a.txt | head -n 1", cwd=work).decision == "deny"


@pytest.mark.parametrize(("command", "denied"), [
    ("zipgrep INFO logs.zip", True),  # egrep of every member's text: 3.2 MB
    ("zipgrep -i info logs.zip app.log", True),
    ("zipgrep INFO logs.zip -x notes.txt", True),  # members left out: taken as all of them
    ("zipgrep ERROR logs.zip", False),
    ("zipgrep INFO logs.zip notes.txt", False),
    ("zipgrep -c INFO logs.zip", False),
])
def test_zipgrep_is_the_grep_of_the_members_text(work: Path, command: str, denied: bool) -> None:
    decision = check_command(command, cwd=work)
    assert decision.denied is denied, (command, decision.reason)
    if denied:
        assert "boundread extract logs.zip --member" in decision.reason
