"""SQLite: ``info`` lists the tables and views (row counts within a time budget, columns, the schema);
``extract``/``sheets`` read a table's rows in rowid (or primary-key) order as a workbook's sheet, ``--rows A-B``
bounded; ``extract --sql 'SELECT ...'`` runs one read-only statement, rows and cells bounded.

Nothing is written: see ``connect``. BLOB cells are shown as their size, TEXT cells cut in SQL (``cells``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from boundread.contract.model import FILE, Details, Outcome, Request, Source, Suggestion
from boundread.contract.sink import Sink
from boundread.errors import UsageError
from boundread.formats._rows import RowFormatter
from boundread.formats.database import catalog, cells, longtext, query
from boundread.formats.database.catalog import Table
from boundread.formats.database.connect import Opened, interrupted, opened
from boundread.limits import Deadline

KINDS: tuple[str, ...] = ("sqlite",)


def info(src: Source, req: Request) -> Details:
    try:
        return _info(src, req)
    except UnicodeDecodeError as exc:  # an error message quoting bytes that are not UTF-8
        raise_damaged(src, exc)
        raise


def _info(src: Source, req: Request) -> Details:
    seconds = req.limits.timeout
    with opened(src, Deadline(None if seconds is None else seconds * 0.9)) as db:
        found, more = catalog.tables(db)
        catalog.count(db, found)
        page_size, pages = (db.conn.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_size", "page_count"))
        chars = catalog.text_chars(db, found, src.size)
        details = Details(fields={"tables": sum(t.type == "table" for t in found),
                                  "views": sum(t.type == "view" for t in found),
                                  "page_size": page_size, "pages": pages,
                                  "schema": catalog.schema_line(found),
                                  "sheets": [t.as_dict() for t in found]},
                          est_chars=chars, estimated=True, warnings=list(db.warnings))
    if more:
        details.warnings.append(f"more than {catalog.MAX_TABLES} tables and views: the first "
                                f"{catalog.MAX_TABLES} listed (--sql 'SELECT name FROM sqlite_schema' lists all)")
    for table in found:
        if table.problem:
            details.warnings.append(f"{table.type} '{table.name}' cannot be read here: {table.problem}")
        elif table.estimated == "unknown":
            details.warnings.append(f"table '{table.name}': rows not counted in {catalog.COUNT_SECONDS:g} s "
                                    "and no estimate (no sqlite_stat1, no rowid)")
        elif table.estimated:
            details.warnings.append(f"table '{table.name}': ~{table.rows:,} rows (estimated from "
                                    f"{table.estimated}; COUNT(*) did not finish in the time budget)")
    readable = [t for t in found if not t.problem]
    details.next.extend(table_step(t.name, ("--rows", "1-50")) for t in readable[:2])
    if readable:
        details.next.append(("extract", FILE, "--sql", f"SELECT * FROM {cells.ident(readable[0].name)} LIMIT 20"))
    return details


def table_step(name: str, options: Suggestion) -> Suggestion:
    """``sheets F TABLE OPTIONS`` (a name that starts with ``-`` after ``--``)."""
    return ("sheets", FILE, *options, "--", name) if name.startswith("-") else ("sheets", FILE, name, *options)


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    outcome = Outcome(unit="rows")
    with opened(src, sink.deadline) as db:
        outcome.warnings.extend(db.warnings)
        try:
            if req.sql is not None:
                _query(db, req, sink, outcome)
            else:
                _tables(db, req, sink, outcome)
        except UnicodeDecodeError as exc:  # an error message quoting bytes that are not UTF-8
            raise_damaged(src, exc)
        except sqlite3.DatabaseError as exc:
            if not interrupted(exc):
                raise_damaged(src, exc)
            sink.expire()  # SQLite stopped inside a statement: the same read again, with twice the time
            outcome.done = outcome.done or "no rows before the timeout"
            seconds = sink.deadline.seconds or 0.5
            outcome.resume = (*_again(req), "--timeout", f"{max(seconds * 2, 1):g}")
            outcome.more = []
        if db.bad_text:
            outcome.warnings.append(f"{db.bad_text:,} TEXT values are not UTF-8: shown with U+FFFD")
    return outcome


def _again(req: Request) -> Suggestion:
    """The command that makes this read again."""
    rows = ("--rows", f"{req.rows.first}-{req.rows.last}") if req.rows else ()
    if req.sql is not None:
        return ("extract", FILE, "--sql", req.sql, *rows)
    if len(req.sheets) == 1:
        return table_step(req.sheets[0], rows)
    return ("extract", FILE, *(w for name in req.sheets for w in ("--sheet", name)), *rows)


def raise_damaged(src: Source, exc: sqlite3.DatabaseError | UnicodeDecodeError) -> None:
    from boundread.formats.database.connect import damaged

    raise damaged(src, exc) from None


def _window(req: Request) -> tuple[int, int]:
    """First row and how many: ``--rows A-B`` within --max-rows."""
    first = max(req.rows.first, 1) if req.rows else 1
    width = min(req.rows.last - first + 1, req.limits.max_rows) if req.rows else req.limits.max_rows
    return first, max(width, 1)


def _tables(db: Opened, req: Request, sink: Sink, outcome: Outcome) -> None:
    found, _ = catalog.tables(db)
    chosen = _select(found, req.sheets)
    outcome.totals["sheets"] = len(found)
    done: list[str] = []
    steps: list[Suggestion] = []
    for table in chosen:
        if table.problem:
            outcome.warnings.append(f"{table.type} '{table.name}' cannot be read here: {table.problem}")
            continue
        words, resume = _table(db, table, req, sink, outcome)
        done.append(words)
        if resume is not None:
            steps.append(resume)
        if sink.full:
            break
    outcome.done = "; ".join(done) or "no tables"
    if steps:
        outcome.resume, *outcome.more = steps


def _select(found: list[Table], wanted: Sequence[str]) -> list[Table]:
    if not wanted:
        return [t for t in found if t.type == "table"]
    chosen: list[Table] = []
    for want in wanted:
        match = next((t for t in found if t.name == want), None) \
            or next((t for t in found if t.name.lower() == want.lower()), None)
        if match is None and want.isdigit() and 1 <= int(want) <= len(found):
            match = found[int(want) - 1]
        if match is None:
            names = ", ".join(repr(t.name) for t in found[:10]) + (", ..." if len(found) > 10 else "")
            raise UsageError(f"no table or view named {want!r} (there are: {names or 'none'})",
                             "`boundread sheets FILE` lists them")
        chosen.append(match)
    return chosen


def _table(db: Opened, table: Table, req: Request, sink: Sink, outcome: Outcome) -> tuple[str, Suggestion | None]:
    first, width = _window(req)
    catalog.count(db, [table])
    names = [n for n, _ in table.columns][:cells.width(req.limits.max_cols)]
    if len(table.columns) > len(names):
        outcome.warnings.append(f"table '{table.name}': columns after {len(names)} not shown "
                                "(raise --max-cols, or --sql to pick them)")
    lazy = longtext.Reader(db, table.name, names) if longtext.usable(db, table.rowid) else None
    listed = longtext.select_list(names) if lazy is not None else cells.select_list(names)
    cursor = db.conn.execute(f"SELECT {listed} FROM {cells.ident(table.name)}{table.order}"
                             f" LIMIT {width + 1} OFFSET {first - 1}")
    fmt = RowFormatter(req.fmt, len(names))
    end = first + width - 1 if table.rows is None or table.estimated else min(first + width - 1, table.rows)
    total = _total(table)
    # the span as a workbook's marker writes it (no thousands separators): the chunker reads it
    shown = f"rows {first}-{end} of {total}" if end >= first else f"no rows from {first:,} of {total}"
    if not sink.write(f"--- sheet '{table.name}' ({shown}, {table.order_words}) ---\n") \
            or not sink.write(fmt.line(names)):
        return f"no rows of '{table.name}'", table_step(table.name, ("--rows", f"{first}-{first + width - 1}"))
    cut = cells.Cut()
    written = 0
    more = False  # rows after the last one written: the next window reads them
    try:
        for values in iter(cursor.fetchone, None):
            more = True
            if written == width:
                reason = f"max_rows {req.limits.max_rows} reached"
                if (req.rows is None or req.rows.last - first + 1 > width) and reason not in outcome.truncated:
                    outcome.truncated.append(reason)  # the row bound ended it, not the range asked for
                break
            where = f"row {first + written:,}"
            row = lazy.row_texts(values, cut, where) if lazy is not None else cells.row_texts(values, names, cut, where)
            if not sink.write(fmt.line(row)):
                break
            written += 1
            more = False
    except sqlite3.DatabaseError as exc:
        if interrupted(exc) or not written:
            raise
        outcome.warnings.append(f"table '{table.name}': stopped at a damaged page after row {first + written - 1:,} "
                                f"({exc}); the rows after it are not shown")
    cursor.close()
    outcome.warnings.extend(f"table '{table.name}': {w}" for w in cut.warnings())
    last = first + written - 1
    words = f"table '{table.name}' rows {first:,}-{last:,}" if written else f"no rows of '{table.name}' from {first:,}"
    return words, table_step(table.name, ("--rows", f"{last + 1}-{last + width}")) if more else None


def _total(table: Table) -> str:
    if table.rows is None:
        return "?"
    return f"~{table.rows:,}" if table.estimated else f"{table.rows:,}"


def _query(db: Opened, req: Request, sink: Sink, outcome: Outcome) -> None:
    if req.sheets:
        raise UsageError("--sql names its own tables: --sheet does not apply with it",
                         "drop --sheet, or read the table with `boundread sheets FILE TABLE --rows A-B`")
    sql = query.statement(req.sql or "")
    names = query.check(db.conn, sql)
    first, width = _window(req)
    shown = names[:cells.width(req.limits.max_cols)]
    if len(names) > len(shown):
        outcome.warnings.append(f"columns after {len(shown)} not shown (raise --max-cols, or select fewer)")
    cursor = db.conn.execute(f"SELECT {cells.select_list(shown)} FROM ({sql}) LIMIT {width + 1} OFFSET {first - 1}")
    fmt = RowFormatter(req.fmt, len(shown))
    sink.write(fmt.line(shown))
    cut = cells.Cut()
    written = 0
    capped = req.rows is None or req.rows.last - first + 1 > width  # the row bound, not the range, ends it
    resume: Suggestion | None = None
    for values in iter(cursor.fetchone, None):
        if written == width or not sink.write(fmt.line(cells.row_texts(values, shown, cut,
                                                                        f"result row {first + written:,}"))):
            if written == width and capped:
                outcome.truncated.append(f"max_rows {req.limits.max_rows} reached")
            resume = ("extract", FILE, "--sql", req.sql or "", "--rows",
                      f"{first + written}-{first + written + width - 1}")
            break
        written += 1
    cursor.close()
    outcome.resume = resume
    outcome.warnings.extend(cut.warnings())
    outcome.done = f"query rows {first:,}-{first + written - 1:,}" if written else f"query: no rows from {first:,}"
