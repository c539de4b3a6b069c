from __future__ import annotations

import pytest

from boundread.contract.model import Span
from boundread.errors import UsageError
from boundread.ranges import OPEN_END, parse_span, parse_spans


@pytest.mark.parametrize(("text", "spans"), [
    ("1-5", (Span(1, 5),)),
    ("7", (Span(7, 7),)),
    ("1,3,8-10", (Span(1, 1), Span(3, 3), Span(8, 10))),
    (" 2 - 4 ", (Span(2, 4),)),
])
def test_page_ranges(text: str, spans: tuple[Span, ...]) -> None:
    assert parse_spans(text) == spans


@pytest.mark.parametrize("text", ["", "0-3", "5-2", "a-b", "1-", "-3", "1;2"])
def test_bad_page_ranges_name_the_fix(text: str) -> None:
    with pytest.raises(UsageError) as err:
        parse_spans(text)
    assert "e.g." in str(err.value) or "use" in str(err.value)


def test_line_ranges_may_be_open_ended() -> None:
    assert parse_span("2001-") == Span(2001, OPEN_END)
    assert parse_span("1-1000") == Span(1, 1000)
    with pytest.raises(UsageError):
        parse_span("1-5,7-9")
