"""A file printed through another name or route is judged as that file.

From the fresh2 command set (written blind to the guard): ``env -C logs cat ...`` runs in another folder,
``git --git-dir=repo/.git show HEAD:f`` names f from that repository's root, ``cat /proc/self/cwd/big.log`` is the
command's own folder (the guard's /proc/self is the guard's), ``realpath big.log | xargs cat`` prints the path it
then reads, ``bsdcat`` unpacks as ``zcat`` does, ``pygmentize`` prints a file highlighted, and ``git ls-files |
xargs cat`` reads the names git lists. Each of them passed.
"""

from __future__ import annotations

import gzip
import subprocess
from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("named")
    line = "2026-12-01T05:51:05Z INFO worker-3 GET /api/v1/items/42 200 12ms user=alice\n"
    (root / "big.log").write_text(line * 5000)
    (root / "small.txt").write_text("hello\n")
    with gzip.open(root / "big.log.gz", "wt") as fh:
        fh.write(line * 5000)
    (root / "logs").mkdir()
    for n in range(3):
        (root / "logs" / f"app-{n}.log").write_text(line * 1500)
    repo = root / "repo"
    (repo / "data").mkdir(parents=True)
    (repo / "data" / "fixtures.json").write_text('{"id": 1, "name": "item"}\n' * 20_000)
    (repo / "app.py").write_text("print('hi')\n")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "fixtures"], check=True)
    return root


DUMPS = [
    "env -C logs cat app-0.log app-1.log app-2.log",
    "env --chdir=logs cat app-0.log app-1.log app-2.log",
    "git --git-dir=repo/.git show HEAD:data/fixtures.json",
    "git --git-dir repo/.git --work-tree repo show HEAD:data/fixtures.json",
    "cat /proc/self/cwd/big.log",
    "realpath big.log | xargs cat",
    "readlink -f big.log | xargs cat",
    "cat $(realpath big.log)",
    "bsdcat big.log.gz",
    "pygmentize -l text big.log",
    "cd repo && git ls-files | xargs cat",  # the names git lists, read by running it
    "cd repo && git ls-files -z | xargs -0 cat",
]

ALLOWED = [
    "env -C logs wc -l app-0.log app-1.log app-2.log",
    "git --git-dir=repo/.git show HEAD:app.py",
    "git --git-dir=repo/.git log --oneline -5",
    "head -n 20 /proc/self/cwd/big.log",
    "realpath small.txt | xargs cat",
    "realpath big.log",
    "bsdcat big.log.gz | head -n 20",
    "pygmentize -o out.html big.log",  # written to a file
    "cd repo && git ls-files | xargs wc -l",
    "cd repo && cat $(git ls-files app.py)",
]


@pytest.mark.parametrize("command", DUMPS)
def test_the_file_behind_the_name_is_judged(work: Path, command: str) -> None:
    assert check_command(command, cwd=work).decision == "deny", command


@pytest.mark.parametrize("command", ALLOWED)
def test_bounded_or_small_reads_stay_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)
