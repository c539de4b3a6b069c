"""Plain text in any encoding: logs, CSV, JSON, source. Streamed; never decoded whole."""

from __future__ import annotations

import io

from boundread.bytelevel import charset
from boundread.contract.model import FILE, Details, Outcome, Request, Source
from boundread.contract.sink import Sink

KINDS: tuple[str, ...] = ("text",)

SAMPLE_BYTES = 2_000_000  # info reads at most this much (2 MB); above it figures are estimates
CHUNK_CHARS = 64 * 1024


def _choice(src: Source, req: Request) -> charset.Choice:
    """The encoding, decided once per file from its first ``charset.SAMPLE_BYTES`` (one read, whatever the
    size); the user's ``--encoding`` wins over any guess."""
    with src.open() as fh:
        sample = fh.read(charset.SAMPLE_BYTES)
    return charset.decide(sample, src.sniffed.encoding, req.encoding, complete=len(sample) >= src.size)


def info(src: Source, req: Request) -> Details:
    if src.size == 0:
        return Details(fields={"encoding": None, "lines": 0}, est_chars=0, estimated=False,
                       warnings=["empty file: nothing to read"])
    with src.open() as fh:
        sample = fh.read(SAMPLE_BYTES)
    exact = len(sample) >= src.size
    choice = _choice(src, req)
    text = _lines_of(sample.decode(choice.encoding, errors="replace"))
    scale = 1.0 if exact else src.size / max(len(sample), 1)
    lines = text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    longest = max(map(len, text.split("\n")))
    fields: dict[str, object] = {
        "encoding": choice.encoding,
        "encoding_from": choice.how,
        "lines": round(lines * scale),
        "lines_estimated": not exact,
        "longest_line": longest,
    }
    fields.update(_table_shape(text))
    if choice.confidence is not None:
        fields["encoding_confidence"] = round(choice.confidence, 2)
    details = Details(fields=fields, est_chars=round(len(text) * scale), estimated=not exact)
    details.warnings.extend(choice.warnings())
    if not exact:
        details.warnings.append(f"figures estimated from the first {SAMPLE_BYTES // 1_000_000} MB")
    if longest > 100_000:
        details.warnings.append(f"a line of {longest:,} characters: use --max-chars or --grep, not --lines")
    window = _window(len(text), lines, req)
    details.next.append(("extract", FILE, "--lines", f"1-{window}"))
    if round(lines * scale) > window:  # more than one window: a log's end is read from the end (O(N), any size)
        details.next.append(("extract", FILE, "--tail", str(window)))
    details.next.append(("extract", FILE, "--grep", "PATTERN", "--context", "2"))
    if req.encoding:  # the steps read in the encoding this description used
        details.next = [(*step, "--encoding", req.encoding) for step in details.next]
    return details


def _lines_of(text: str) -> str:
    """``text`` with every line end (CRLF, a lone CR, LF) as ``\\n``, as the extract's universal newlines read it."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _window(chars: int, lines: int, req: Request) -> int:
    """How many lines fit in one output file (max_chars), as a round number, at most 1,000."""
    per_line = max(chars / max(lines, 1), 1.0)
    fits = int(req.limits.max_chars / per_line)
    for step in (1000, 500, 200, 100, 50, 20, 10, 1):
        if fits >= step:
            return min(step, lines) if lines else step
    return 1


def _table_shape(text: str) -> dict[str, object]:
    """CSV/TSV: the delimiter, columns and header, when the first lines agree on them."""
    head = [line for line in text.split("\n", 21)[:20] if line.strip()]
    if len(head) < 2:
        return {}
    for delimiter, name in ((",", "csv"), ("\t", "tsv"), (";", "csv")):
        counts = {line.count(delimiter) for line in head}
        if len(counts) == 1 and counts.pop() > 0:
            return {"format": name, "columns": head[0].count(delimiter) + 1, "header": head[0][:300]}
    return {}


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    choice = _choice(src, req)
    outcome = _extract(src, req, sink, choice.encoding)
    outcome.warnings.extend(choice.warnings())
    return outcome


def _extract(src: Source, req: Request, sink: Sink, encoding: str) -> Outcome:
    # tail and scan (with the grep engines) load for --tail, --lines and --grep only: an info or a whole read of a
    # small file starts without them (~0.4x of Python's own start, typing included)
    if req.tail is not None:
        from boundread.formats.text import tail

        return tail.tail(src, req, sink, encoding)
    if sink.filtering:
        from boundread.formats.text import scan

        if scan.codec(encoding) is not None:  # --lines / --grep over byte blocks
            scan.scan(src, sink, encoding)
            return Outcome(unit="lines", totals={"bytes": src.size})
    with src.open() as raw:
        reader = io.TextIOWrapper(raw, encoding=encoding, errors="replace", newline=None)
        sink.progress.start(src.size, "bytes")
        while chunk := reader.read(CHUNK_CHARS):
            sink.progress.done = raw.tell()
            if not sink.write(chunk):
                break
        complete = not sink.full
        reader.detach()
    outcome = Outcome(unit="lines", totals={"bytes": src.size})
    if complete and not sink.filtering:
        # ends_line, not sink.text(): a streamed read keeps no text (it said a line more), and a kept one is joined
        outcome.done = f"all {sink.lines + (0 if sink.ends_line or not sink.chars else 1):,} lines"
    return outcome
