"""Two more routes of the fresh2 set: perl's code glued to its switch, and a file jq loads into a variable.

``perl -pe1 big.txt`` prints every line (the code ``1`` is glued to ``-e``, which the walk took for more switches),
and ``jq -n --slurpfile d data.json '$d'`` prints the file it loads into ``$d`` (``-n`` reads no input, so nothing
was judged). A switch whose value is glued to it (``-Mstrict``, ``-i.bak``, ``-l0``) is not taken for code.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boundread.guard import check_command
from boundread.guard.shell.scripts import _glued_code


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("glued")
    (root / "big.txt").write_text("the order service retried the payment\n" * 30_000)
    (root / "data.json").write_text(json.dumps([{"id": n, "name": f"item {n}"} for n in range(20_000)], indent=2))
    (root / "small.json").write_text('{"a": 1}\n')
    return root


DUMPS = [
    "perl -pe1 big.txt",
    "perl -ne'print' big.txt",
    "perl -lpe's/a/b/' big.txt",
    "perl -0777pe1 big.txt",
    "ruby -pe1 big.txt",
    "jq -n --slurpfile d data.json '$d'",
    "jq --rawfile text big.txt -n '$text'",
]

ALLOWED = [
    "perl -ne'print if /payments/' big.txt",  # a grep: no line matches
    "perl -lne'$n++; END {print $n}' big.txt",
    "perl -Mstrict -e'print 1'",
    "jq -n --slurpfile d data.json '$d[0] | length'",
    "jq -n --slurpfile d small.json '$d'",
    "jq -n --arg x 1 '$x'",
]


@pytest.mark.parametrize("command", DUMPS)
def test_the_file_is_judged(work: Path, command: str) -> None:
    assert check_command(command, cwd=work).decision == "deny", command


@pytest.mark.parametrize("command", ALLOWED)
def test_parts_and_small_files_stay_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


@pytest.mark.parametrize(("name", "cluster", "at"), [
    ("perl", "pe1", 1), ("perl", "ne", 1), ("perl", "lne", 2), ("perl", "0777ne", 5), ("perl", "0x1Fpe1", 5),
    ("perl", "l0e1", 2), ("perl", "Mfeature=say", -1), ("perl", "i.bake", -1), ("perl", "Istrict", -1),
    ("ruby", "pe1", 1), ("ruby", "E", -1), ("ruby", "rjson", -1),
])
def test_where_the_code_starts_in_a_cluster(name: str, cluster: str, at: int) -> None:
    assert _glued_code(name, cluster) == at
