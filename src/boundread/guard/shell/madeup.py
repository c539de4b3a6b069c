"""An output that no file on disk holds: a database's rows (``sqlite3 app.db .dump``), a diff or a history
(``git diff``, ``git log -p``). The walk sizes it where it is made, and a big one flows on as a made-up "file".

Such a flow's path is ``MARK`` + its estimated size, what it is and the bounded command to run instead, each on
a line of its own. The path holds ``UNKNOWN``, so a bounding stage after it (``| head -n 200``) lets it through
as it lets through a name a capped listing left unchecked, and a whole print of it is refused (decide.py);
``reason`` words that refusal with the bounded form, for decide to use. (Noting it as the check's cap would
word it too, but a cap next to any other whole print denies: ``git diff > p; cat README.md``.)

Only an output over ``OUTPUT_MAX`` (the default text cap) flows on: the size is an estimate, from counts asked of
git or of the database within the hook's time.
"""

from __future__ import annotations

from boundread.guard.shell.state import UNKNOWN

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Flow

MARK = UNKNOWN + "output\n"
#: Bytes of made-up output above which it flows on (guard-check's default ``text_max_bytes``).
OUTPUT_MAX = 256 * 1024


def flow(size: int, what: str, instead: str, program: str) -> Flow:
    """The made-up file of an output of ``size`` bytes: ``what`` it is ("every row of app.db's 3 tables"),
    the bounded command to run ``instead``, credited to ``program`` (the command as a reason shows it)."""
    return (f"{MARK}{size}\n{what}\n{instead}", (), program)


def parse(path: str) -> tuple[int, str, str] | None:
    """(size, what, instead) of a made-up file's path; None for any other path."""
    if not path.startswith(MARK):
        return None
    size, _, rest = path[len(MARK):].partition("\n")
    what, _, instead = rest.partition("\n")
    return (int(size) if size.isdigit() else 0), what, instead


def shown_size(size: int) -> str:
    """'about 2.4 MB'; 'over 262.1 kB' for a count cut just past OUTPUT_MAX (git's output is read no further)."""
    from boundread.guard.config import shown_size as cap_size
    from boundread.units import human_bytes

    if OUTPUT_MAX < size <= OUTPUT_MAX + 65536:
        return f"over {cap_size(OUTPUT_MAX)}"
    return f"about {human_bytes(size)}"


def reason(path: str, program: str) -> str | None:
    """The refusal of a whole print of a made-up file, for decide.py; None for any other path."""
    parsed = parse(path)
    if parsed is None:
        return None
    from boundread.guard.reason import OPENING

    size, what, instead = parsed
    lines = "".join(f"  {one}\n" for one in instead.split("  or  "))
    return (f"{OPENING} - `{program}` would print {what} ({shown_size(size)}): over the text cap, and "
            f"made by the command, so no file to read in parts.\nRun instead:\n{lines}"
            "Print less at a time (a LIMIT, a path, a line range), or ask the user which part they need.")
