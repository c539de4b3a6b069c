"""The sink is where every bound is enforced: chars, lines, line windows, grep, the deadline."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from boundread.contract.model import Span
from boundread.contract.sink import Sink
from boundread.limits import Deadline, Limits

LOG = "".join(f"line {n} {'ERROR' if n % 10 == 0 else 'ok'}\n" for n in range(1, 101))


def feed(sink: Sink, text: str, chunk: int = 7) -> Sink:
    for at in range(0, len(text), chunk):
        if not sink.write(text[at: at + chunk]):
            break
    sink.close()
    return sink


def test_max_chars_cuts_and_says_why() -> None:
    sink = feed(Sink(Limits(max_chars=50)), LOG)
    assert sink.chars == 50 and len(sink.text()) == 50
    assert sink.truncated and sink.reasons == ["max_chars 50 reached"]
    assert sink.full and not sink.write("more")


def test_max_lines_stops_at_the_nth_newline() -> None:
    sink = feed(Sink(Limits(max_lines=3)), LOG)
    assert sink.text() == "line 1 ok\nline 2 ok\nline 3 ok\n"
    assert sink.stop_line == 4


def test_window_is_exact_and_not_truncation() -> None:
    sink = feed(Sink(Limits(), window=Span(9, 11)), LOG)
    assert sink.text() == "line 9 ok\nline 10 ERROR\nline 11 ok\n"
    assert not sink.truncated and sink.full
    assert sink.line_no == 11  # stopped reading right after the window


def test_grep_numbers_lines_with_context_and_separators() -> None:
    sink = feed(Sink(Limits(), grep=re.compile("ERROR"), context=1), LOG[: LOG.index("line 31 ")])
    assert sink.text().splitlines()[:4] == ["9-line 9 ok", "10:line 10 ERROR", "11-line 11 ok", "--"]
    assert sink.matches == 3


def test_grep_stops_after_max_matches_and_its_context() -> None:
    sink = feed(Sink(Limits(max_matches=2), grep=re.compile("ERROR"), context=1), LOG)
    assert sink.matches == 2
    assert sink.text().splitlines()[-1] == "21-line 21 ok"
    assert sink.reasons == ["max_matches 2 reached"] and sink.stop_line == 22


def test_last_line_without_newline_is_kept() -> None:
    assert feed(Sink(Limits(), window=Span(2, 5)), "a\nb\nc").text() == "b\nc\n"


def test_expired_deadline_stops_with_timeout_reason() -> None:
    sink = Sink(Limits(), Deadline(0.0, start=0.0))
    assert not sink.write("text")
    assert sink.timed_out and sink.reasons and sink.reasons[0].startswith("timeout")


@given(st.text(max_size=3000), st.integers(1, 500), st.integers(1, 40), st.integers(1, 50))
def test_output_never_exceeds_the_bounds(text: str, max_chars: int, max_lines: int, chunk: int) -> None:
    sink = feed(Sink(Limits(max_chars=max_chars, max_lines=max_lines)), text, chunk)
    assert sink.chars <= max_chars and len(sink.text()) == sink.chars
    assert sink.text().count("\n") <= max_lines
    assert text.startswith(sink.text())
