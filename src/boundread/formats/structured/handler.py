"""JSON and JSON Lines: ``info`` gives the shape in one bounded pass, ``extract`` a path or records, pretty.

``extract F --path P`` writes what the path selects, pretty-printed (a whole file is ``--path .``, and values one
after another are read in turn, as jq reads them); JSONL records are lines: ``--rows A-B``, ``--grep`` per record,
``--path`` applied to each record. The engine sends ``--tail`` (and, for JSON, ``--lines``/``--grep`` without
``--path``) to the text handler (``read_as``).
"""

from __future__ import annotations

import io

from boundread.contract.model import FILE, Details, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.errors import Corrupt
from boundread.formats._jsonscan import OutOfTime, Scanner
from boundread.formats.structured import jsonl, jsonpath
from boundread.formats.structured.jsonselect import Selected, Selector
from boundread.formats.structured.summary import jsonl_details, shape_details
from boundread.limits import Deadline

KINDS: tuple[str, ...] = ("json", "jsonl")
UNBOUNDED = 1 << 62


def info(src: Source, req: Request) -> Details:
    seconds = req.limits.timeout
    deadline = Deadline(None if seconds is None else seconds * 0.9)  # ours first: partial figures, not an error
    if src.kind == "jsonl":
        with src.open() as fh:
            return jsonl_details(jsonl.tally(fh, deadline), src)
    from boundread.formats.structured.jsonshape import describe

    with src.open() as fh:
        return shape_details(describe(Scanner(fh, deadline)), src)


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    if src.kind == "jsonl":
        return _records(src, req, sink)
    path = req.path or "."
    steps = jsonpath.parse(path)
    iterates = any(isinstance(s, jsonpath.Slice) and s.iterates for s in steps)
    first, last = (req.rows.first, req.rows.last) if req.rows else (1, None)
    limit = req.limits.max_rows if iterates or req.rows else UNBOUNDED
    with src.open() as fh:
        sc = Scanner(fh, sink.deadline)
        selector = Selector(sc, steps, sink.write, lambda: req.limits.max_chars - sink.chars,
                            first=first, last=last, limit=limit)
        said: list[str] = []
        try:
            got = selector.run()
            if not steps:  # values one after another (a JSON text sequence, JSON Lines named .json): each in turn
                said = _stream(sc, selector, sink)
        except OutOfTime:
            sink.expire()
            got = selector.got
    outcome = Outcome(unit="values", totals={"bytes": src.size}, done=f"{_values(got.values)} at {path}")
    _report(got, path, outcome, sink, limit)
    outcome.warnings.extend(said)
    if sc.bad_utf8 is not None:
        outcome.warnings.append(f"invalid UTF-8 in a string near byte {sc.bad_utf8:,}: shown as U+FFFD")
    return outcome


def _stream(sc: Scanner, selector: Selector, sink: Sink) -> list[str]:
    """After the top value, the values that follow it, as jq reads them (numbered on, for ``--rows``); what to
    say of them."""
    count = 1
    got = selector.got
    while not (sink.full or got.cut or got.limited) and not sc.at_end():
        at = sc.offset
        try:
            selector.run()
        except Corrupt as exc:
            return [f"not JSON after value {count:,}, at byte {at:,} ({exc.what}): read the rest as text with "
                    "--lines A-B or --grep"]
        count += 1
    return [f"{count:,} JSON values one after another, not one document: read in turn, as jq reads them "
            "(--rows A-B picks by number)"] if count > 1 else []


def iterates(path: str) -> bool:
    """Does ``path`` select values one after another (a slice or ``[]``)?"""
    return any(isinstance(s, jsonpath.Slice) and s.iterates for s in jsonpath.parse(path))


def _values(n: int) -> str:
    return f"{n:,} value" + ("" if n == 1 else "s")


def _report(got: Selected, path: str, outcome: Outcome, sink: Sink, limit: int, *, rows: bool = False) -> None:
    """Misses, cuts and the command that continues, into the outcome."""
    if got.misses and not got.values and not sink.full:
        first = next(iter(got.misses))
        outcome.warnings.append(f"--path {path} matched nothing: {first}")
    elif got.misses:
        shown = "; ".join(f"{why} ({n:,}x)" for why, n in list(got.misses.items())[:3])
        outcome.warnings.append(f"--path {path}: some values had no match: {shown}")
    words = ("--path", path) if not rows else ()
    if got.limited and limit != UNBOUNDED:
        outcome.truncated.append(f"max_rows {limit:,} reached")
    if got.resume_path is not None:
        outcome.resume = ("extract", FILE, "--path", got.resume_path)
    elif got.resume_rows is not None:
        outcome.resume = ("extract", FILE, *words, "--rows", f"{got.resume_rows}-")
    elif got.cut and not got.values:
        outcome.warnings.append(f"the value at {path} alone is longer than --max-chars: pick a part of it with "
                                "--path (`boundread info F` lists its keys), or raise --max-chars")
        if not rows and got.array and not iterates(path):  # an array goes on as its elements, 200 at a time
            outcome.resume = ("extract", FILE, "--path", f"{path}[0:]" if path != "." else ".[0:]")
        elif not rows:  # not the lines of the text written: the file's are others (a one-line JSON has one)
            outcome.resume = ("info", FILE)


def _records(src: Source, req: Request, sink: Sink) -> Outcome:
    """JSONL: records ``--rows A-B`` (bounded by --max-rows unless --grep/--lines filter), each as its line or,
    with --path, what the path selects in it."""
    first, last = (req.rows.first, req.rows.last) if req.rows else (1, None)
    steps = jsonpath.parse(req.path) if req.path else None
    limit = UNBOUNDED if sink.filtering else req.limits.max_rows
    sink.line_no = first - 1  # --grep numbers the record lines as the file does
    written = bad = cut = 0
    named: list[int] = []
    number = first - 1
    outcome = Outcome(unit="rows", totals={"bytes": src.size})
    with src.open() as fh:
        try:
            for rec in jsonl.records(fh, sink.deadline, start=first):
                if last is not None and rec.number > last:
                    break
                number = rec.number
                if written >= limit:
                    outcome.truncated.append(f"max_rows {limit:,} reached")
                    outcome.resume = ("extract", FILE, *_path_words(req), "--rows", f"{rec.number}-{last or ''}")
                    break
                cut += rec.size > jsonl.MAX_RECORD
                if not _record(rec, steps, sink, req) and rec.raw.strip():
                    bad += 1
                    if len(named) < jsonl.NAMED_BAD:
                        named.append(number)
                written += 1
                if sink.full:
                    break
        except OutOfTime:
            sink.expire()
    outcome.done = f"records {first:,}-{number:,}" if written else f"no records from {first:,}"
    if bad:
        outcome.warnings.append(f"{bad:,} invalid JSON records (lines {', '.join(map(str, named))}"
                                f"{', ...' if bad > len(named) else ''}): written as they are")
    if cut:  # their rest is in no output (--path reads the kept part too): a chunks run of it is not complete
        outcome.warnings.append(f"{cut:,} records longer than {jsonl.MAX_RECORD:,} bytes: cut there")
        outcome.truncated.append(f"{cut:,} record{'s' * (cut != 1)} cut at {jsonl.MAX_RECORD:,} bytes")
    return outcome


def _path_words(req: Request) -> tuple[str, ...]:
    return ("--path", req.path) if req.path else ()


def _record(rec: jsonl.Record, steps: tuple[jsonpath.Step, ...] | None, sink: Sink, req: Request) -> bool:
    """Write one record (or its path's values); False when it is not valid JSON."""
    whole = rec.size <= jsonl.MAX_RECORD
    try:
        text = rec.raw.decode("utf-8")
        valid = whole and _valid(text)
    except UnicodeDecodeError:
        text, valid = rec.raw.decode("utf-8", errors="replace"), False
    if steps is None or not valid:
        sink.write(text + "\n")
        return valid or not whole
    selector = Selector(Scanner(io.BytesIO(rec.raw)), steps, sink.write,
                        lambda: req.limits.max_chars - sink.chars, limit=UNBOUNDED)
    selector.run()
    return True


def _valid(text: str) -> bool:
    import json

    try:
        json.loads(text)
    except ValueError:
        return False
    return True
