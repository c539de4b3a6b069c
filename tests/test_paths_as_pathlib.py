"""core/paths.py answers as pathlib does (the output checks and the default output name use it instead of
pathlib, for start-up): the same string, name, parent, parents and join for every shape of path."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.core import paths

SHAPES = ["", ".", "/", "//", "///", "a", "a/", "a/b", "a//b", "./a", "a/./b", "a/..", "../a", "/x", "//x", "///x",
          "/x/y/z", "a/b/c.txt", "x/.", ".a", "a/b/", "/..", "..", "//a/b", " a/b ", "boundread-out/报告.pdf.txt"]


@pytest.mark.parametrize("text", SHAPES)
def test_each_answer_is_pathlibs(text: str) -> None:
    path = Path(text)
    assert paths.pure(text) == str(path)
    assert paths.name(text) == path.name
    assert paths.parent(text) == str(path.parent)
    assert paths.parents(text) == [str(up) for up in path.parents]
    assert paths.join(text, "out.txt") == str(path / "out.txt")
    assert paths.pure(path) == str(path)  # a Path in, the same string out
