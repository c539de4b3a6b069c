"""Everyday commands judged by what they print, not by the size of the file they read.

A column reduced by ``uniq -c``/``sort -u`` is a summary, and so are the distinct lines of a file or a grep's
distinct matches when they are few (sized on a sample, by decide); ``cut -c1-100`` prints at most lines x 100
characters; ``shuf -n 20`` twenty lines. The same programs still refuse a dump: a projection printed whole,
``sort -u`` of the file itself, ``cut -c`` of a file of many lines. Files are made in the test: a 3 MB log of
short lines, a 1.5 MB minified script of three lines, CSV and JSON records, a file of four repeated lines.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("summaries")
    (root / "big.log").write_text("".join(f"2026-12-01T05:51:{n % 60:02}Z {('INFO', 'WARN')[n % 2]} "
                                          f"worker-{n % 7} request {n} served\n" for n in range(60_000)))
    line = "var a=1;" * 60_000
    (root / "bundle.min.js").write_text(f"{line}\n{line}\n{line}\n")
    (root / "data.csv").write_text("id,name,city\n" + "".join(f"{n},name {n},city {n % 9}\n" for n in range(40_000)))
    (root / "levels.txt").write_text("".join(("INFO\n", "WARN\n", "ERROR\n", "DEBUG\n")[n % 4] for n in range(120_000)))
    rows = [{"id": n, "name": f"name {n}", "city": f"city {n % 9}"} for n in range(20_000)]
    (root / "data.json").write_text(json.dumps({"items": rows}, indent=2))
    (root / "rows.json").write_text(json.dumps(rows))
    return root


ALLOWED = [
    "awk '{print $2}' big.log | sort | uniq -c",
    "awk '{print $2}' big.log | sort | uniq -c | sort -rn",
    "awk -F, '{print $3}' data.csv | sort | uniq -c",
    "awk '{print $2, $3}' big.log | sort -u",
    "cut -d' ' -f2 big.log | sort | uniq -c",
    "cut -d, -f3 data.csv | sort -u",
    "cut -c1-100 bundle.min.js",
    "cut -b-80 bundle.min.js",
    "shuf -n 20 big.log",
    "shuf -n 5 data.csv",
    "cat big.log | shuf -n 10",
    "jq -r '.items[] | .name' data.json | sort | uniq -c",
    "jq -r '.items[].name' data.json",  # one short field: 200 KB
    "jq -r '.[].city' rows.json | sort -u",
    "csvcut -c city data.csv | sort | uniq -c",
    "grep -o 'worker-[0-9]' big.log | sort | uniq -c",  # a grep's distinct matches: seven
    "sort -u levels.txt",  # a 600 KB file of four distinct lines
    "cat levels.txt | sort | uniq -c",
]

DUMPS = [
    "awk '{print $2}' big.log",  # a column of every line, printed whole
    "awk '{print $0}' big.log | sort -u",  # the lines themselves
    "sort -u big.log",
    "uniq big.log",
    "cut -d' ' -f1-5 big.log | sort -u",  # most of each line
    "cut -c1-60 big.log",  # 60,000 lines x 61
    "cut -c5- bundle.min.js",  # to the end of each line
    "shuf big.log",
    "shuf -n 20000 big.log",
    "jq '.items[] | {id, name, city}' data.json",  # the records printed whole
    "jq -c '.items[]' data.json | sort -u",  # the records themselves
    "csvcut -c city data.csv",
]


@pytest.mark.parametrize("command", ALLOWED)
def test_a_summary_or_a_bounded_part_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


@pytest.mark.parametrize("command", DUMPS)
def test_the_same_programs_still_refuse_a_dump(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert "boundread extract" in decision.reason, decision.reason
