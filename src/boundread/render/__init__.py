"""The only place that draws: human views and the versioned JSON envelope of every result.

Human output goes to stdout; with ``--stdout`` the text owns stdout and the summary moves to stderr.
Errors are one line on stderr, or a JSON object on stdout in ``--json`` mode. Tables (rich) live in
:mod:`boundread.render.views`, loaded only by the commands that draw them.
"""

from __future__ import annotations

import sys

from boundread.record import as_dict as fields_of

TYPE_CHECKING = False  # not typing's, and json only for --json: a one-line info's start-up (issue 24)
if TYPE_CHECKING:
    import contextlib
    from typing import Any, TextIO

    from boundread.contract.model import ExtractResult, InfoResult, Listing, Source
    from boundread.contract.sink import Sink
    from boundread.errors import BoundreadError

SCHEMA = 1


# ---- JSON -------------------------------------------------------------------------------------

def envelope(command: str, payload: dict[str, Any]) -> str:
    import json

    return json.dumps({"schema": SCHEMA, "command": command, **payload}, ensure_ascii=False, default=str)


def as_dict(result: InfoResult | ExtractResult) -> dict[str, Any]:
    data = fields_of(result)
    if data.get("text") is None:
        data.pop("text", None)
    return data


def listing_dict(src: Source, listing: Listing) -> dict[str, Any]:
    """The listing as JSON: its fields, ``listed`` (what the page holds, in words, or None for a whole
    listing) and ``next`` (the command for the next page, as the other commands' ``next``)."""
    data = fields_of(listing)
    for entry, raw in zip(data["entries"], listing.entries, strict=True):
        entry["ratio"] = None if raw.ratio is None else round(raw.ratio, 1)
    del data["resume"]
    from boundread.render.listing import listing_next, listing_words

    return {"path": src.name, "kind": src.kind, "bytes": src.size, **data, "listed": listing_words(listing),
            "next": listing_next(src, listing)}


def print_json(command: str, payload: dict[str, Any]) -> None:
    sys.stdout.write(envelope(command, payload) + "\n")


def print_error(exc: BoundreadError, *, as_json: bool) -> None:
    if as_json:
        import json

        error = {"code": exc.code, "message": str(exc), "exit_code": int(exc.exit_code)}
        sys.stdout.write(json.dumps({"schema": SCHEMA, "error": error}, ensure_ascii=False) + "\n")
    else:
        sys.stderr.write(f"boundread: error: {exc}\n")


# ---- human views --------------------------------------------------------------------------------

def print_info(result: InfoResult) -> None:
    """The info view: plain lines where rich would draw them the same (not a terminal), else rich's."""
    from boundread.render import plain

    lines = plain.info_lines(result) if plain.plain_stream(sys.stdout) else None
    if lines is not None:
        sys.stdout.write("\n".join(lines) + "\n")
        return
    from boundread.render import views

    views.print_info(result)


def print_listing(src: Source, listing: Listing) -> None:
    """The listing: plain lines where rich would draw them the same (not a terminal), else rich's."""
    from boundread.render import plain

    lines = plain.listing_lines(src, listing) if plain.plain_stream(sys.stdout) else None
    if lines is not None:
        sys.stdout.write("\n".join(lines) + "\n")
        return
    from boundread.render import views

    views.print_listing(src, listing)


def progress(sink: Sink) -> contextlib.AbstractContextManager[None]:
    """A transient progress line on stderr for long work (rich, loaded only when a person watches)."""
    from boundread.render import views

    return views.progress(sink)


def plural(n: int, word: str) -> str:
    """``plural(1, "line")`` -> ``1 line``; ``plural(2_000, "line")`` -> ``2,000 lines``."""
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def print_extract(result: ExtractResult, *, to_stderr: bool = False, replaced: str | None = None,
                  stream: TextIO | None = None, heading: str | None = None) -> None:
    """The summary of an extraction: plain lines (agents read them; no rich needed). ``replaced``: what ``-o``
    wrote over (``replaced out.txt (1.2 KB)``). ``stream``: where to, instead of stdout or stderr (the pager
    of ``view``, after the text); ``heading``: its first line, instead of where the text was written."""
    subject = f"{result.path}:{result.member}" if result.member else result.path
    facts = [result.kind, *([result.done] if result.done else [])]
    facts += [plural(result.chars, "char"), plural(result.lines, "line"), "~" + plural(result.est_tokens, "token")]
    lines = [heading or f"wrote {result.output or 'the text to stdout'}", *([f"  {replaced}"] if replaced else []),
             f"  {subject}: " + " · ".join(facts),
             "  truncated: " + ("; ".join(result.truncated_reasons) if result.truncated else "no")]
    engines = result.totals.get("engines") or {}
    if set(engines) - {"pdfium"}:  # say when the text is not PDFium's: OCR may misread, pdfminer took over
        lines.append("  read by: " + ", ".join(f"{name}{' (OCR)' * (name == 'tesseract')} pages {pages}"
                                               for name, pages in engines.items()))
    lines += [f"  warning: {warning}" for warning in result.warnings]
    if result.next:
        lines += ["next:", *(f"  {command}" for command in result.next)]
    if result.output and result.chars:
        lines.append(f"read it in parts: {result.output} (grep it, or read ranges of lines)")
    if "interrupted" in result.truncated_reasons:
        lines.append("interrupted (Ctrl-C): kept what was read" + (" - `next` goes on from there" if result.next
                                                                   else ""))
    out = stream or (sys.stderr if to_stderr else sys.stdout)
    out.write("\n".join(fold(lines, out)) + "\n")


def fold(lines: list[str], stream: TextIO) -> list[str]:
    """On a terminal, long lines wrap at its width between words, continued under their first word; piped
    (agents), or a command to copy (``  boundread ...``), a line stays whole."""
    if not stream.isatty():
        return lines
    import shutil  # a terminal's width and wrapping: not on the piped path (shutil imports bz2 and lzma)
    import textwrap

    width = shutil.get_terminal_size().columns
    folded = []
    for line in lines:
        if len(line) <= width or line.lstrip().startswith("boundread "):
            folded.append(line)
            continue
        head = len(line) - len(line.lstrip())
        folded += textwrap.wrap(line, width, subsequent_indent=" " * (head + 2), break_long_words=False,
                                break_on_hyphens=False)
    return folded

