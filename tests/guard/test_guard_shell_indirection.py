"""Names reached indirectly are followed: arrays, ``${f%.gz}`` and the other cutting operators, ``${!ref}``, ``~+``,
an alias, ``ls -S | head -1``, a ``<(...)`` read as a file, ``**`` under ``shopt -s globstar``, GNU ``parallel``, and
the command ``script -qc``/``su -c``/``runuser``/``xvfb-run`` run.

Files are made in the test: a 3 MB log next to small texts, and small texts two folders deep that are over the
cap together.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard import check_command
from boundread.guard.shell.params import operate


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("indirection")
    (root / "big.log").write_text("2026-12-01T05:51:05Z INFO worker-3 request served in 12 ms\n" * 55_000)
    (root / "small.txt").write_text("hello\n")
    deep = root / "docs" / "a" / "b"
    deep.mkdir(parents=True)
    (deep / "big.txt").write_text("words " * 60_000)
    return root


DUMPS = [
    ('files=(big.log); cat "${files[@]}"', "big.log"),
    ('arr=(small.txt big.log); cat "${arr[1]}"', "big.log"),
    ("declare -a F=(big.log); cat ${F[@]}", "big.log"),
    ('c=(cat big.log); "${c[@]}"', "big.log"),
    ('f=big.log.gz; cat "${f%.gz}"', "big.log"),
    ('f=logs/big.log; cat "${f##*/}"', "big.log"),
    ('f=big.txt; cat "${f/txt/log}"', "big.log"),
    ("f=xbig.log; cat ${f:1}", "big.log"),
    ("cat ~+/big.log", "big.log"),
    ("shopt -s expand_aliases\nalias show='cat big.log'\nshow", "big.log"),
    ("alias c=cat; c big.log", "big.log"),
    ('cat "$(ls -S | head -n 1)"', "big.log"),
    ("cat `ls -S | head -1`", "big.log"),
    ("xargs -a <(echo big.log) cat", "big.log"),
    ("cat <(cat big.log)", "big.log"),
    ("shopt -s globstar; cat **/*.txt", "big.txt"),
    ("shopt -s globstar; cat docs/**", "big.txt"),
    ("x=big.log; y=x; cat ${!y}", "big.log"),
    ('script -qc "cat big.log" /dev/null', "big.log"),
    ('su me -c "cat big.log"', "big.log"),
    ("runuser -u me -- cat big.log", "big.log"),
    ("xvfb-run cat big.log", "big.log"),
    ("parallel cat ::: big.log", "big.log"),
    ("echo big.log | parallel cat", "big.log"),
    ("ls *.log | parallel -j4 cat {}", "big.log"),
    ("parallel ::: 'cat big.log'", "big.log"),
]

ALLOWED = [
    'arr=(small.txt big.log); cat "${arr[0]}"',
    'f=big.log; echo "${f%.log}"',
    'x=(a b); echo "${#x[@]}"',
    "alias ls='ls -l'; ls",  # an alias of itself is expanded once
    "ls -S | head",
    "shopt -s globstar; ls **/*.txt",
    "cat **/*.txt",  # without globstar, ** is *: docs/a only, no .txt there
    "parallel wc -l ::: big.log",
    "script -q /dev/null",  # a session recorded: nothing run here
]


@pytest.mark.parametrize(("command", "name"), DUMPS)
def test_a_name_reached_indirectly_is_followed(work: Path, command: str, name: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert name in decision.reason and "boundread " in decision.reason, decision.reason


@pytest.mark.parametrize("command", ALLOWED)
def test_a_look_alike_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


@pytest.mark.parametrize(("value", "rest", "expected"), [
    ("big.log.gz", "%.gz", "big.log"),
    ("a/b/c.txt", "%/*", "a/b"),
    ("a/b/c.txt", "%%/*", "a"),
    ("a/b/c.txt", "#*/", "b/c.txt"),
    ("a/b/c.txt", "##*/", "c.txt"),
    ("aXbXc", "/X/Y", "aYbXc"),
    ("aXbXc", "//X/Y", "aYbYc"),
    ("big", "/#b/B", "Big"),
    ("big.log", "/%log/txt", "big.txt"),
    ("abcdef", ":1:2", "bc"),
    ("abcdef", ": -2", "ef"),
    ("abc", "^^", "ABC"),
    ("abc", '%"$x"', None),  # a pattern that is itself an expansion: not followed
])
def test_an_operator_cuts_the_value_as_bash_does(value: str, rest: str, expected: str | None) -> None:
    assert operate(value, rest) == expected
