"""Page numbers as runs, ``1-3,7,9-12``: how the handler and the rereader name sets of pages."""

from __future__ import annotations

from boundread.contract.model import Span


def spans(numbers: list[int]) -> list[Span]:
    """Consecutive page numbers as spans, in the order they were written."""
    found: list[Span] = []
    for number in numbers:
        if found and number == found[-1].last + 1:
            found[-1] = Span(found[-1].first, number)
        else:
            found.append(Span(number, number))
    return found


def joined(found: list[Span]) -> str:
    return ",".join(str(span) for span in found)


def runs(numbers: list[int]) -> str:
    """``[1, 2, 3, 7]`` -> ``1-3,7``."""
    return joined(spans(numbers))


def pages_word(span: Span) -> str:
    """``page 3``, ``pages 2-4``."""
    return f"page {span}" if span.first == span.last else f"pages {span}"


def named(numbers: list[int]) -> str:
    """``page 3``, ``pages 2-4,7``."""
    return f"page {numbers[0]}" if len(numbers) == 1 else f"pages {runs(numbers)}"
