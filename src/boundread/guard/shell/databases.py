"""What database clients print (``sqlite3``, ``litecli``), and the SQL an interpreter runs on a SQLite file.

A ``.dump`` prints every row of the tables it names (all of them by default); a ``SELECT`` prints its result,
however many rows that is. Both are sized on the database itself, opened read-only and immutable (nothing is
written, no lock is taken) with a deadline inside the check's: the rows a query returns (``count(*)`` of it)
times the length of its first rows as the client prints them. Over the cap it is a made-up output
(madeup.py), refused unless a bound follows, with a ``LIMIT`` form to run instead. A query that does not finish
in time is taken as big. Anything else (``.tables``, ``.schema``, a write) prints no table, or is not modelled.
"""

# os.path on purpose, not pathlib: this runs on the hook path (guard-check), where pathlib costs start-up.
from __future__ import annotations

import os

from boundread.guard.shell import madeup
from boundread.guard.shell.state import UNKNOWN, Env, Stream, small_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    import sqlite3

    from boundread.guard.shell.state import Ctx

#: The database clients this module judges.
PROGRAMS = frozenset({"sqlite3", "litecli", "sqlite-utils", "duckdb"})
#: sqlite3's options that take a value.
_VALUES = frozenset({"-separator", "-newline", "-nullvalue", "-cmd", "-init", "-vfs", "-maxsize", "-mmap",
                     "-lookaside", "-pagecache", "-heap", "-A", "--separator", "--newline", "--nullvalue", "--cmd",
                     "--init", "--vfs", "--maxsize", "--mmap"})
_LITECLI_VALUES = frozenset({"-D", "--database", "-R", "--prompt", "-l", "--logfile", "--auto-vertical-output"})
#: Seconds the database may take to answer, at most (and never past the check's deadline).
SECONDS = 0.3
#: Rows sampled for the printed length of a row.
_SAMPLE = 50
_HEADER = b"SQLite format 3\x00"
_SQL_WORDS = frozenset({"select", "with", "values"})


def run(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """The stdout of a database client: the tables and query results it prints, sized on the database."""
    if name == "duckdb":
        return _duckdb(args, env)
    database, commands = _litecli(args) if name == "litecli" else _utils(args) if name == "sqlite-utils" \
        else _sqlite3(args)
    if not database or UNKNOWN in database:
        return Stream()
    if not commands:  # `sqlite3 app.db <<< 'select ...'`, `printf '.dump' | sqlite3 app.db`
        commands = [small_text(stdin)]
    from boundread.guard.reason import quote

    shown = " ".join(quote(word) for word in [name, *args])
    return statements(env, ctx, database, commands, shown if len(shown) <= 120 else shown[:117] + "...")


def _sqlite3(args: list[str]) -> tuple[str, list[str]]:
    """(the database, the SQL and dot-commands given as words: ``-cmd`` values first, then the operands)."""
    first: list[str] = []
    operands: list[str] = []
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in _VALUES:
            if arg.lstrip("-") == "cmd" and k + 1 < len(args):
                first.append(args[k + 1])
            k += 2
            continue
        if not arg.startswith("-") or arg == "-":
            operands.append(arg)
        k += 1
    return (operands[0] if operands else ""), first + operands[1:]


#: duckdb's output modes that print every row (its default, duckbox, prints 40 at most).
_DUCK_ALL = frozenset({"-csv", "-json", "-jsonlines", "-line", "-list", "-markdown", "-ascii", "-html", "-quote",
                       "-tabs", "-table", "-box", "-column", "-separator", "-newline"})


def _duckdb(args: list[str], env: Env) -> Stream:
    """``duckdb -csv -c "select * from 'data.csv'"``: a query over a file prints the file's rows (in any mode but
    its default, which shows 40) - unless it counts, aggregates or has a LIMIT. A ``.duckdb`` file's tables
    are not sized."""
    from boundread.guard.shell.codewords import REDUCED, literals
    from boundread.guard.shell.reads import files

    sql = [args[k + 1] for k, arg in enumerate(args[:-1]) if arg in ("-c", "-s")]
    sql += [arg for arg in args[1:] if not arg.startswith("-") and " " in arg and arg not in sql]
    every = any(arg in _DUCK_ALL for arg in args) or any(".mode" in text or ".maxrows" in text for text in sql)
    if not every or not sql or any(REDUCED.search(text) for text in sql):
        return Stream()
    return files(env, [name for text in sql for name in literals(text) if os.path.isfile(env.path(name))],
                 "duckdb")


def _utils(args: list[str]) -> tuple[str, list[str]]:
    """sqlite-utils: ``rows DB TABLE`` (all of them unless ``--limit``), ``query DB SQL`` (also ``DB SQL``),
    ``dump DB``; its other commands print no rows."""
    if any(arg in ("--limit", "--offset") or arg.startswith("--limit=") for arg in args):
        return "", []
    words = [arg for arg in args if not arg.startswith("-")]
    sub, rest = (words[0], words[1:]) if words else ("", [])
    if sub == "rows" and len(rest) >= 2:
        return rest[0], [f'select * from "{_quoted(rest[1])}"']
    if sub == "query" and len(rest) >= 2:
        return rest[0], rest[1:2]
    if sub == "dump" and rest:
        return rest[0], [".dump"]
    if sub not in ("rows", "query", "dump") and rest and _SQL_WORDS.intersection(rest[0].lower().split()[:1]):
        return sub, rest[:1]  # `sqlite-utils app.db "select ..."`: query is the default command
    return "", []


def _litecli(args: list[str]) -> tuple[str, list[str]]:
    database, commands = "", []
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in ("-e", "--execute") and k + 1 < len(args):
            commands.append(args[k + 1])
            k += 1
        elif arg in ("-D", "--database") and k + 1 < len(args):
            database = args[k + 1]
            k += 1
        elif arg in _LITECLI_VALUES:
            k += 1
        elif not arg.startswith("-") and not database:
            database = arg
        k += 1
    return database, commands


def statements(env: Env, ctx: Ctx, database: str, commands: list[str], program: str) -> Stream:
    """What running ``commands`` (SQL and dot-commands, as the client's words or script) on ``database`` prints
    of its tables: a made-up output when that is big."""
    if database.startswith("file:"):  # a URI filename: `sqlite3 'file:app.db?mode=ro'`
        database = database[5:].split("?", 1)[0].removeprefix("//")
    path = env.path(database)
    if UNKNOWN in "".join(commands):
        return Stream()
    lines = _split(commands)
    imported = _imported(env, lines, program)
    if imported is not None:
        return imported
    if not _is_database(path):
        return Stream()
    from time import monotonic

    deadline = min(ctx.deadline - 0.2, monotonic() + SECONDS)
    wanted: list[tuple[str, str]] = []  # (a query, the table it reads) or ("", table) for a dump of it
    for line in lines:
        words = line.split()
        head = words[0].lower() if words else ""
        if head in (".output", ".once", ".o") and words[1:] not in ([], ["stdout"], ["/dev/stdout"]):
            break  # what follows goes to a file
        if head == ".dump":
            wanted.extend(("", table.strip("'\"")) for table in words[1:]) if words[1:] else wanted.append(("", "*"))
        elif head.split("(")[0] in ("select", "with", "values", "table"):
            wanted.append((line.rstrip(";"), ""))
    if not wanted:
        return Stream()
    found = _size(path, wanted, deadline)
    if found is None:
        return Stream()
    size, what, table = found
    if size <= madeup.OUTPUT_MAX:
        return Stream()
    from boundread.guard.reason import quote

    # boundread's bounded reads first (the tables with their sizes, then rows of the one the output was mostly
    # made of, cells cut), the client's own LIMIT form last; madeup.reason shows one a line
    instead = "  or  ".join((f"boundread info {quote(database)}",
                             f"boundread sheets {quote(database)} {quote(table)} --rows 1-50",
                             f"sqlite3 {quote(database)} {quote(f'select * from {table} limit 50')}"))
    what = f"{what} of {database}"
    return Stream([madeup.flow(size, what, instead, program)])


def _imported(env: Env, lines: list[str], program: str) -> Stream | None:
    """Of the client's ``lines`` (_split): ``.import [--csv] FILE TABLE``, then a query of TABLE that neither
    filters, counts nor limits (``select * from t``) or a ``.dump`` of it prints the file's rows again, so the file
    is what prints; None when no such query follows an import."""
    import re

    from boundread.guard.shell.codewords import REDUCED
    from boundread.guard.shell.reads import files

    tables: dict[str, str] = {}
    printed: list[str] = []
    for line in lines:
        words = line.split()
        head = words[0].lower() if words else ""
        if head == ".import":
            operands = [word.strip("'\"") for word in words[1:] if not word.startswith("-")]
            if len(operands) >= 2:
                tables[operands[-1].lower()] = operands[-2]
        elif head in (".output", ".once", ".o") and words[1:] not in ([], ["stdout"], ["/dev/stdout"]):
            break  # what follows goes to a file
        elif head == ".dump" and tables:
            named = [word.strip("'\"").lower() for word in words[1:]] or list(tables)
            printed += [tables[name] for name in named if name in tables]
        elif head.startswith("select") and not REDUCED.search(line) and not re.search(r"\bwhere\b", line, re.I):
            read = re.search(r"\bfrom\s+[\"'`\[]?(\w+)", line, re.I)
            if read is not None and read.group(1).lower() in tables:
                printed.append(tables[read.group(1).lower()])
    return files(env, printed, program) if printed else None


def _split(commands: list[str]) -> list[str]:
    """Each dot-command (a line) and each SQL statement (to its ``;``) of the client's words and scripts."""
    found: list[str] = []
    for text in commands:
        sql: list[str] = []
        for line in text.replace("\\n", "\n").splitlines():
            if line.lstrip().startswith(".") and not sql:
                found.append(line.strip())
            else:
                sql.append(line)
        found.extend(part.strip() for part in " ".join(sql).split(";") if part.strip())
    return found


def _is_database(path: str) -> bool:
    """A regular file that starts as a SQLite database does (never a FIFO: it would block)."""
    import stat

    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        with open(path, "rb") as fh:
            return fh.read(16) == _HEADER
    except (OSError, ValueError):
        return False


def _size(path: str, wanted: list[tuple[str, str]], deadline: float) -> tuple[int, str, str] | None:
    """(the bytes printed, what they are, the table to name in a bounded form) of the dumps and queries; out of
    time: as big as the database file. None when the database cannot be opened."""
    import sqlite3
    from time import monotonic
    from urllib.parse import quote

    try:
        con = sqlite3.connect(f"file:{quote(path)}?mode=ro&immutable=1", uri=True, timeout=0.05,
                              check_same_thread=False)
    except sqlite3.Error:
        return None
    con.set_progress_handler(lambda: int(monotonic() > deadline), 1000)
    total, what, table = 0, "", ""
    try:
        tables = [row[0] for row in con.execute("select name from sqlite_master where type = 'table'")]
        for query, dumped in wanted:
            if query:
                total += _query_bytes(con, query)
                what = what or "the rows of a query"
                table = table or _table(query, tables)
                continue
            names = tables if dumped == "*" else [t for t in tables if t == dumped]
            for name in names:
                total += _query_bytes(con, f'select * from "{_quoted(name)}"') + 64  # + its `INSERT INTO ... VALUES`
            what = what or ("every row" if dumped == "*" else f"every row of {dumped}")
            table = table or _biggest(con, names)
    except sqlite3.OperationalError as exc:
        if "interrupt" not in str(exc):
            return None  # a query the database refuses prints an error
        total = max(total, os.path.getsize(path))
        what = what or "a query result"
    except sqlite3.Error:
        return None
    finally:
        con.close()
    return total, what, table or (tables[0] if tables else "TABLE")


def _query_bytes(con: sqlite3.Connection, query: str) -> int:
    """The rows ``query`` returns times the printed length of its first rows (``|``-separated values)."""
    rows = con.execute(f"select count(*) from ({query})").fetchone()[0]
    if not rows:
        return 0
    sample = con.execute(f"select * from ({query}) limit {_SAMPLE}").fetchall()
    length = sum(len("|".join("" if v is None else str(v) for v in row)) + 1 for row in sample)
    return int(rows * length / max(len(sample), 1))


def _table(query: str, tables: list[str]) -> str:
    """The table a query reads first (the word after its first FROM), as the database spells it."""
    words = query.replace(",", " ").split()
    for k, word in enumerate(words[:-1]):
        if word.lower() == "from":
            name = words[k + 1].strip('"`[]')
            return next((t for t in tables if t.lower() == name.lower()), "")
    return ""


def _biggest(con: sqlite3.Connection, names: list[str]) -> str:
    counts = [(con.execute(f'select count(*) from "{_quoted(name)}"').fetchone()[0], name)
              for name in names]
    return max(counts)[1] if counts else ""


def _quoted(name: str) -> str:
    return name.replace('"', '""')
