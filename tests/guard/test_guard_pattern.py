"""The guard's own shell patterns (guard/shell/pattern.py) and tree-sitter loaded with stand-ins for re/enum."""

from __future__ import annotations

import fnmatch
import random
import subprocess
import sys
from pathlib import Path

import pytest

from boundread.guard.shell.pattern import Glob
from boundread.guard.shell.pattern import fnmatch as shell_fnmatch


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for name in ("a.pdf", "b.pdf", "ab.log", ".dot.pdf", "x[1].txt", "star*.md", "sub/a.pdf", "sub/c.txt",
                 "sub/deep/z.pdf", "sub2/a.pdf", ".hid/h.pdf"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    return tmp_path


@pytest.mark.parametrize(("pattern", "names"), [
    ("*.pdf", ["a.pdf", "b.pdf"]),  # no leading dot without a leading dot
    (".*.pdf", [".dot.pdf"]),
    ("?.pdf", ["a.pdf", "b.pdf"]),
    ("[!a].pdf", ["b.pdf"]),
    ("[^a].pdf", ["b.pdf"]),  # bash takes ^ as ! (Python's fnmatch does not)
    ("[[:alpha:]].pdf", ["a.pdf", "b.pdf"]),  # bash's classes
    ("*/*.pdf", ["sub/a.pdf", "sub2/a.pdf"]),
    ("*/*/*", ["sub/deep/z.pdf"]),
    ("sub*/", ["sub/", "sub2/"]),
    ("x[[]1].txt", ["x[1].txt"]),
    ("nomatch*", []),
    ("**", ["a.pdf", "ab.log", "b.pdf", "star*.md", "sub", "sub2", "x[1].txt"]),  # no globstar: ** is *
])
def test_glob_as_bash_expands(tree: Path, pattern: str, names: list[str]) -> None:
    assert Glob(pattern, str(tree), 256).names == names


def test_a_quoted_star_is_literal(tree: Path) -> None:
    assert Glob("st\ue003*", str(tree), 256).names == []  # `st'*'*`: "st*" then anything; no such name
    assert Glob("star\ue003*", str(tree), 256).names == ["star*.md"]


def test_the_cap_is_said(tmp_path: Path) -> None:
    for number in range(300):
        (tmp_path / f"f{number:03}.txt").write_text("x")
    found = Glob("*.txt", str(tmp_path), 256)
    assert found.capped and len(found.names) == 256
    assert not Glob("f00*.txt", str(tmp_path), 256).capped


def test_matching_agrees_with_fnmatch_where_bash_does() -> None:
    """Random patterns over ``ab*?[]!-`` (no classes, no ``^``): the same answer as Python's fnmatch."""
    rng = random.Random(7)
    for _ in range(20_000):
        pattern = "".join(rng.choice("ab*?[]!-") for _ in range(rng.randint(0, 7)))
        name = "".join(rng.choice("ab-!") for _ in range(rng.randint(0, 7)))
        assert shell_fnmatch(name, pattern) == fnmatch.fnmatchcase(name, pattern), (pattern, name)


def test_a_long_name_against_many_stars_is_not_exponential() -> None:
    assert not shell_fnmatch("a" * 5000, "*a" * 40 + "b")


def test_tree_sitter_still_works_after_the_stand_ins() -> None:
    """The stand-ins leave sys.modules; tree_sitter's own package, queries (re) and loggers (enum) work."""
    code = (
        "import sys\n"
        "from boundread.guard.shell import parser\n"
        "tree = parser.parse('cat \"$f\" | head')\n"
        "assert 're' not in sys.modules and 'enum' not in sys.modules, 'loaded'\n"
        "import re, enum, tree_sitter, tree_sitter_bash\n"
        "assert isinstance(re.compile('a'), re.Pattern) and tree_sitter.LogType.PARSE == 0\n"
        "lang = tree_sitter.Language(tree_sitter_bash.language())\n"
        "query = tree_sitter.Query(lang, '((word) @w (#match? @w \"^ca\"))')\n"
        "print(len(tree_sitter.QueryCursor(query).captures(tree)['w']))\n"
        "logs = []\n"
        "p = tree_sitter.Parser(lang)\n"
        "p.logger = lambda kind, message: logs.append(kind)\n"
        "p.parse(b'ls')\n"
        "print(isinstance(logs[0], enum.IntEnum))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.split() == ["1", "True"]
