"""Where a filtered read of chosen parts goes on: the next line of the same parts' text, not the next part."""

from __future__ import annotations

from boundread.contract.model import FILE, Request, Suggestion
from boundread.contract.sink import Sink
from boundread.ranges import OPEN_END, span_text


def lines_on(req: Request, sink: Sink) -> Suggestion | None:
    """A --grep or --lines read of --pages (pages, sections, cells, chapters) cut by a bound goes on at its next line,
    those lines being counted in the same parts' text (None: the engine's own, for a whole read). A step by
    parts instead would read the cut part again from its start: its matches said twice."""
    stop = sink.stop_line
    if not req.pages or stop is None or (sink.grep is None and not sink.lines):
        return None
    end = sink.window.last if sink.window is not None else OPEN_END
    spans, lines = ",".join(span_text(span) for span in req.pages), f"{stop}-" if end == OPEN_END else f"{stop}-{end}"
    if sink.grep is None:  # `pages` takes no --lines
        return ("extract", FILE, "--pages", spans, "--lines", f"{stop}-{min(end, stop + sink.lines - 1)}")
    return ("pages", FILE, spans, "--lines", lines)  # the engine says it with extract and the grep
