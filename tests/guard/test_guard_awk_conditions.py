"""An awk condition on fields is sized by what it keeps, never taken to print nothing.

``awk '$2 == "INFO"' big.log`` printed nine tenths of the log through the guard: a condition that was not a
``/regex/`` was read as printing no line at all. Each condition is now sized by a pattern that every line it keeps
matches (``$2 == "INFO"``: the lines holding INFO, sampled as a grep's are), or as the whole file where no pattern
bounds it (``$3 > 100``). The log is made here: nine lines in ten INFO, one in a thousand ERROR, none over 60
characters.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard import check_command
from boundread.guard.shell.filters import awk


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("awk")
    level = ("ERROR" if n % 1000 == 0 else "WARN" if n % 10 == 0 else "INFO" for n in range(60_000))
    (root / "big.log").write_text("".join(f"2026-12-01T05:51:05Z {lvl} request {n} served\n"
                                          for n, lvl in enumerate(level)))
    (root / "small.log").write_text("a INFO 1\nb ERROR 500\n")
    return root


DUMPS = [
    "awk '$2 == \"INFO\"' big.log",  # the held-out set's case
    "awk '\"INFO\" == $2' big.log",
    "awk '$2 ~ /INF/' big.log",
    "awk '$2 ~ \"INF\"' big.log",
    "awk '$2 == \"INFO\" || $2 == \"WARN\"' big.log",
    "awk '($2 == \"INFO\") && ($4 > 5)' big.log",
    "awk 'length($0) > 10' big.log",
    "awk 'length > 30 { print $1, $4 }' big.log",
    "awk '$4 > 100' big.log",  # no pattern bounds a number: every line may pass
    "awk '$2 != \"DEBUG\"' big.log",
    "awk '!/ERROR/' big.log",
    "awk 'NF > 3' big.log",
    "cat big.log | awk '$2 == \"INFO\"'",
    "gawk -F' ' '$2 == \"INFO\" {printf \"%s\\n\", $0}' big.log",
]

ALLOWED = [
    "awk '$2 == \"ERROR\"' big.log",
    "awk '$2 == \"ERROR\" && $4 > 5' big.log",  # either side of && bounds it: the ERROR lines
    "awk '$2 == \"ERROR\" || $2 == \"FATAL\"' big.log",
    "awk 'length($0) > 200' big.log",  # no line is that long
    "awk '$2 == \"INFO\"' big.log | head -n 20",
    "awk '$4 > 100' small.log",
    "awk 'END {print NR}' big.log",
    "awk '$2 == \"INFO\" {n++} END {print n}' big.log",
    "awk 'NR % 2000 == 0' big.log",  # where a line stands: left as bounds.py reads it
    "awk '$2 == \"INFO\" {print > \"info.txt\"}' big.log",  # written to a file, not printed
]


@pytest.mark.parametrize("command", DUMPS)
def test_a_condition_that_keeps_most_lines_is_a_dump(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert "boundread extract big.log" in decision.reason, decision.reason


@pytest.mark.parametrize("command", ALLOWED)
def test_a_condition_that_keeps_a_few_lines_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


@pytest.mark.parametrize(("program", "patterns"), [
    ('$2 == "INFO"', ("INFO",)),
    ('$1 == "a.b"', (r"a\.b",)),  # a string is matched as it is written
    ('$1 == "x\\ty"', ("x\ty",)),  # with awk's escapes read
    ("$3 == 404", ("404",)),
    ('$2 == "ERROR" && $3 > 5', ("ERROR",)),
    ('$2 == "ERROR" || /FATAL/', ("ERROR", "FATAL")),
    ("length($0) >= 81", (".{81}",)),
    ("length > 80", (".{81}",)),
    ("$(5) ~ /^5[0-9][0-9]$/", ("^5[0-9][0-9]$",)),
    ("$3 > 1000", ()),
    ('$2 != "DEBUG"', ()),
    ('$2 == ""', ()),
    ("!/x/", ()),
])
def test_what_a_condition_keeps(program: str, patterns: tuple[str, ...]) -> None:
    read = awk("awk", [program, "f.log"])
    assert read is not None and read[0] == ["f.log"]
    bound = read[1]
    assert (bound.grep.patterns if bound is not None and bound.grep is not None else ()) == patterns


@pytest.mark.parametrize("program", [
    "NR % 100 == 0", "NR==1, NR==5", "END {print NR}", "BEGIN {x = 1}", '$2 == "INFO" {n++}', "$2 == (",
    '$2 == "INFO" {print > "out.txt"}' + "; /x/",  # two rules
])
def test_what_is_not_read_here(program: str) -> None:
    assert awk("awk", [program, "f.log"]) is None
