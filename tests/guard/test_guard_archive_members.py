"""An archive's member is judged as itself: printed (``unzip -p``, ``tar -xO``) or unpacked and read back.

``unzip -p bundle.zip docs/guide.md`` prints a small member of a big archive - allowed; the big member is
refused with the archive's listing and member commands. ``unzip -d DIR``/``tar -xf A -C DIR`` then ``cat
DIR/member`` is the same print. Archives are made in the test: a 3 MB log and a small note, zipped and tarred.
"""

from __future__ import annotations

import tarfile
import zipfile
from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("members")
    log = "".join(f"2026-12-01T05:51:05Z INFO worker-{n % 7} request {n} served in {n % 97} ms\n"
                  for n in range(50_000))
    (root / "big.log").write_text(log)
    (root / "small.txt").write_text("hello\n")
    with zipfile.ZipFile(root / "bundle.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.write(root / "big.log", "data/big.log")
        archive.write(root / "small.txt", "docs/guide.md")
    with tarfile.open(root / "logs.tar.gz", "w:gz") as archive:
        archive.add(root / "big.log", "big.log")
        archive.add(root / "small.txt", "./small.txt")
    (root / "out").mkdir()
    return root


ALLOWED = [
    "unzip -p bundle.zip docs/guide.md",
    "unzip -p bundle.zip docs/missing.md",  # no such member: nothing printed
    "tar -xOzf logs.tar.gz small.txt",
    "tar -xzf logs.tar.gz -C out && cat out/small.txt",
    "unzip -o bundle.zip -d out/b && cat out/b/docs/guide.md",
    "tar -xzf logs.tar.gz -C out",
    "python3 -m zipfile -e bundle.zip out/z && cat out/z/docs/guide.md",
    "python3 -m zipfile -l bundle.zip",
]

DUMPS = [
    ("unzip -p bundle.zip data/big.log", "bundle.zip"),
    ("unzip -p bundle.zip", "bundle.zip"),
    ("unzip -p bundle.zip 'data/*'", "bundle.zip"),
    ("tar -xOzf logs.tar.gz big.log", "logs.tar.gz"),
    ("tar -xOzf logs.tar.gz", "logs.tar.gz"),
    ("unzip -o bundle.zip -d out/b && cat out/b/data/big.log", "bundle.zip"),
    ("tar -xzf logs.tar.gz -C out && cat out/big.log", "logs.tar.gz"),
    ("python3 -m zipfile -e bundle.zip out/z && cat out/z/data/big.log", "bundle.zip"),  # unzip -d's way
    ("mkdir -p out/x && cd out/x && tar xzf ../../logs.tar.gz && less big.log", "logs.tar.gz"),
]


@pytest.mark.parametrize("command", ALLOWED)
def test_a_small_member_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


@pytest.mark.parametrize(("command", "archive"), DUMPS)
def test_a_big_member_is_refused_with_the_member_commands(work: Path, command: str, archive: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert f"boundread extract {archive} --member" in decision.reason, decision.reason


def test_a_corrupt_archive_is_judged_whole(work: Path) -> None:
    (work / "bad.tar.gz").write_bytes(b"\x1f\x8b\x08\x00" + b"\x00" * 400_000)
    assert check_command("tar -xOzf bad.tar.gz small.txt", cwd=work).decision == "deny"
