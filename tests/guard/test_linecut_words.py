"""linecut.argv splits a pipeline stage without shlex (and the re it loads) when the stage has no quotes: the
words must be shlex.split's, whatever the spacing or characters."""

from __future__ import annotations

import shlex
from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from boundread.guard.shell import linecut


@dataclass
class _Stage:
    text: bytes
    type: str = "command"


_UNQUOTED = st.text(st.sampled_from(list("ab-c1,./:=#~%é\u00a0\u2003\x0b\x0c \t\r\n")), max_size=40)


@given(_UNQUOTED)
def test_an_unquoted_stage_splits_as_shlex_does(text: str) -> None:
    assert linecut.argv(_Stage(text.encode())) == shlex.split(text)  # type: ignore[arg-type]


def test_quoted_and_expanding_stages() -> None:
    assert linecut.argv(_Stage(b"cut  -c1-80\t-d ,")) == ["cut", "-c1-80", "-d", ","]  # type: ignore[arg-type]
    assert linecut.argv(_Stage(b"c'u't -c 1-80")) == ["cut", "-c", "1-80"]  # type: ignore[arg-type]
    assert linecut.argv(_Stage(b"grep 'a b")) is None  # type: ignore[arg-type]
    assert linecut.argv(_Stage(b"cat $f")) is None  # type: ignore[arg-type]
    assert linecut.argv(_Stage(b"cat f", "subshell")) is None  # type: ignore[arg-type]
