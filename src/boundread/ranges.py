"""Parse the ranges users type: pages ``1-5``, ``7``, ``1,3,8-10``; lines ``2001-4000`` or ``2001-``."""

from __future__ import annotations

import re
import sys

from boundread.contract.model import Span
from boundread.errors import UsageError

_PART = re.compile(r"^\s*(\d+)\s*(?:(-)\s*(\d*)\s*)?$")
OPEN_END = sys.maxsize


def parse_spans(text: str, what: str = "pages", *, open_end: bool = False) -> tuple[Span, ...]:
    """``"1,3,8-10"`` -> spans, 1-based and inclusive. ``open_end`` allows ``"6-"`` (to the end)."""
    spans: list[Span] = []
    for part in text.split(","):
        match = _PART.match(part)
        if not match:
            raise UsageError(f"bad {what} range {text!r}", "use forms like 1-5, 7 or 1,3,8-10")
        first = int(match.group(1))
        if match.group(2) is None:
            last = first
        elif match.group(3):
            last = int(match.group(3))
        elif open_end:
            last = OPEN_END
        else:
            raise UsageError(f"bad {what} range {text!r}: no end", f"give both ends, e.g. {first}-{first + 9}")
        if first < 1 or last < first:
            raise UsageError(f"bad {what} range {part.strip()!r}", f"{what} count from 1 and run forwards, e.g. 1-5")
        spans.append(Span(first, last))
    return tuple(spans)


def parse_span(text: str, what: str = "lines") -> Span:
    spans = parse_spans(text, what, open_end=True)
    if len(spans) != 1:
        raise UsageError(f"--{what} takes one range, got {text!r}", "use A-B, e.g. 1-1000")
    return spans[0]


def span_text(span: Span) -> str:
    return f"{span.first}-" if span.last == OPEN_END else str(span)
