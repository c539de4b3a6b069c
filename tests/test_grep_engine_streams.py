"""`--grep` of a decompressed stream by rg reading a pipe (formats/_rg/stream.py) gives what the Sink gives
when the decoded text is written into it (the .gz/.bz2/.xz path today), with the same bounds; and it stops at the
decompression cap, and hands a damaged stream's error back to the caller.
"""

from __future__ import annotations

import gzip
import io
import re
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boundread.contract.sink import Sink
from boundread.formats._rg import stream as rgstream
from boundread.limits import Limits
from tests.helpers import needs_rg
from tests.test_textscan import PATTERNS, files


@pytest.fixture(autouse=True)
def _needs_rg() -> None:
    needs_rg()


def _reader(data: bytes, step: int) -> tuple[bytes, Callable[[int], bytes]]:
    stream = gzip.GzipFile(fileobj=io.BytesIO(gzip.compress(data)), mode="rb")
    return stream.read(step), lambda n: stream.read(min(n, step))


def _written(data: bytes, encoding: str, sink: Sink) -> None:
    """The reference: the decoded text, universal newlines, written into the sink (archives/single.py's loop)."""
    text = data.decode(encoding, "replace").replace("\r\n", "\n").replace("\r", "\n")
    sink.write(text)
    sink.close()


def _view(sink: Sink) -> tuple[object, ...]:
    return sink.text(), sink.matches, sink.line_no, sink.reasons, sink.stop_line


@settings(derandomize=True, max_examples=150, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=files(), pattern=st.sampled_from(PATTERNS), context=st.integers(0, 2), matches=st.integers(1, 5),
       ignore_case=st.booleans(), step=st.sampled_from([1, 3, 1 << 20]),
       encoding=st.sampled_from(["utf-8", "latin-1", "utf-8-sig"]))
def test_the_stream_by_rg_gives_what_the_sink_gives(data: bytes, pattern: str, context: int, matches: int,
                                                    ignore_case: bool, step: int, encoding: str) -> None:
    if encoding == "utf-8-sig":
        data = b"\xef\xbb\xbf" + data
    grep = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
    limits = Limits(max_matches=matches, timeout=None)
    by_rg = Sink(limits, grep=grep, context=context)
    first, more = _reader(data, step)
    dec = "utf-8" if encoding.startswith("utf-8") else encoding
    streamed = rgstream.grep(first, more, by_rg, encoding, dec, cap=1 << 30)
    if streamed is None:
        return  # a pattern rg cannot take: the caller's own loop reads it
    by_rg.close()
    assert streamed.error is None and not streamed.capped
    reference = Sink(limits, grep=grep, context=context)
    _written(data, encoding, reference)
    assert _view(by_rg) == _view(reference)


def test_the_cap_stops_the_stream() -> None:
    data = b"".join(b"line %d ERROR\n" % n for n in range(10_000))
    sink = Sink(Limits(max_matches=1_000_000, timeout=None), grep=re.compile("ERROR"))
    first, more = _reader(data, 4096)
    streamed = rgstream.grep(first, more, sink, "utf-8", "utf-8", cap=50_000)
    assert streamed is not None
    assert streamed.capped
    assert streamed.produced == 50_000
    assert sink.line_no == data[:50_000].count(b"\n") + 1  # and the cut line, as the sink had it
    assert sink.matches == data[:50_000].count(b"ERROR")


def test_a_damaged_stream_hands_its_error_back() -> None:
    packed = gzip.compress(b"a ERROR\n" * 50_000)
    stream = gzip.GzipFile(fileobj=io.BytesIO(packed[: len(packed) // 2]), mode="rb")
    sink = Sink(Limits(max_matches=1_000_000, timeout=None), grep=re.compile("ERROR"))
    streamed = rgstream.grep(stream.read(1000), stream.read, sink, "utf-8", "utf-8", cap=1 << 30)
    assert streamed is not None
    assert isinstance(streamed.error, EOFError)
    assert 0 < sink.matches < 50_000
