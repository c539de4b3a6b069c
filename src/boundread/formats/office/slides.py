"""What pptx and odp share: a slide's text and marker, which slides were asked for, and how a run ends.

Both handlers import this module; neither imports the other.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from boundread.contract.model import FILE, Outcome, Request
from boundread.contract.sink import Sink
from boundread.errors import UsageError
from boundread.formats._lines import lines_on


@dataclass
class Slide:
    title: str = ""
    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)  # "Comment (author): text" lines
    warnings: list[str] = field(default_factory=list)  # what on the slide was not read, and why

    def chunks(self, number: int, total: int | str) -> Iterator[str]:
        yield f"--- slide {number} / {total} ---\n"
        if self.title:
            yield f"# {self.title}\n"
        for line in self.lines:
            yield line + "\n"
        if self.notes:
            yield "Notes: " + "\n".join(self.notes) + "\n"
        for line in self.comments:
            yield line + "\n"
        yield "\n"


def select(req: Request, total: int, name: str) -> tuple[list[int], list[str]]:
    """1-based slide numbers asked for (clamped to the file), and warnings about clamping."""
    if not req.pages:
        return list(range(1, total + 1)), []
    chosen: list[int] = []
    warnings: list[str] = []
    for span in req.pages:
        if span.first > total or span.last < 1:
            valid = f"1-{total}" if total > 1 else str(total)
            raise UsageError(
                f"slides {span}: {name} has {total} slide{'s' * (total != 1)}",
                f"ask for slides {valid}" if total else "it has no slides to read",
            )
        if span.last > total:
            warnings.append(f"slides {span} cut to {span.first}-{total}: the file has {total} slides")
        chosen.extend(n for n in range(max(span.first, 1), min(span.last, total) + 1) if n not in chosen)
    return chosen, warnings


def _ranges(numbers: list[int]) -> str:
    spans: list[list[int]] = []
    for n in numbers:
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def finish(req: Request, sink: Sink, total: int, written: list[int], cut: int | None, outcome: Outcome) -> Outcome:
    """done / totals / resume for a slide run."""
    outcome.totals = {"slides": total}
    outcome.done = f"slides {_ranges(written)} of {total}" if written else f"no slides of {total}"
    window = (req.pages[-1].last - req.pages[-1].first + 1) if req.pages else max(len(written), 1)
    if cut is not None and sink.reasons:
        outcome.done += f" (slide {cut} cut)"
        # a --grep or --lines read goes on at its next line; a step by slides would read the cut one again
        outcome.resume = lines_on(req, sink) if sink.filtering else (
            "pages", FILE, _rest(req, total, cut) or f"{cut}-{min(total, cut + window - 1)}")
    elif cut is None and req.pages and written and written[-1] < total:
        start = written[-1] + 1
        outcome.resume = ("pages", FILE, f"{start}-{min(total, start + window - 1)}")
    return outcome


def _rest(req: Request, total: int, cut: int) -> str | None:
    """Several ranges asked (``1-3,10-12``): the slides asked from the cut one on, every range of them (a
    window from the cut would skip the later ranges). None for one range: the next window of its width."""
    if len(req.pages) < 2:
        return None
    asked = list(dict.fromkeys(n for span in req.pages for n in range(max(span.first, 1), min(span.last, total) + 1)))
    return _ranges(asked[asked.index(cut):]).replace(" ", "") if cut in asked else None
