"""``extract BIG --grep P``: its rg started as soon as the command line is read, before the engine is imported, so
that the search runs on the other core while this process loads what the read needs.

A grep of a big log is rg's search plus boundread's start-up: the search of a 1 GB log takes 0.1-0.3 s, and the
start-up up to rg's spawn was ~40 ms (Python's own start, then the engine's imports and its look at the file), a
third of the ratio to rg alone (issue 24 holds a grep to 1.3x). Here the rg the engine would start is started from
what the command line says and a look at the file's head, with only the pattern translation and the spawn
imported, and held (formats/_rg/early.py) until the engine's search takes it - if the engine would run the very
same command; otherwise it is killed and the engine starts its own. A wrong guess (a file the engine reads in
another encoding, or as something other than plain text) costs a kill, never a wrong answer.

Only a search worth it starts early: a regular file of at least :data:`EARLY_MIN` bytes that sniffs as plain
UTF-8 text (no BOM, not named as a table, JSON or a web page), a pattern rg can take, and no window or tail (those
read by lines; cli/fast.py leaves them out)."""

from __future__ import annotations

import os

from boundread.formats._rg import early
from boundread.formats._rg.proc import around_lines, base_argv, binary, child_path, spawn

EARLY_MIN = 64 << 20  # bytes: a smaller file's search ends within a few ms, before the start-up it would hide


def start(file: str, grep: str, *, ignore_case: bool, context: int) -> None:
    """Start rg for ``extract FILE --grep PATTERN`` when the guess is cheap and likely right (see the module's doc);
    anything unexpected (an unreadable file, a pattern ``re`` refuses, no rg) starts nothing - the engine then
    meets it and says what it is, as it always has."""
    try:
        argv = _argv(file, grep, ignore_case, context)
        if argv is not None:
            early.hold(argv, spawn(argv, out=True))
    except (OSError, ValueError, RecursionError):
        return


def _argv(file: str, grep: str, ignore_case: bool, context: int) -> list[str] | None:
    import stat

    st = os.stat(file)
    if not stat.S_ISREG(st.st_mode) or st.st_size < EARLY_MIN:
        return None
    from boundread.bytelevel import sniff
    from boundread.core import detect

    sniffed = sniff.sniff_path(file)
    if (sniffed.kind != sniff.TEXT or sniffed.subtype or sniffed.encoding != "utf-8"
            or detect.by_name(file, sniffed) is not None):
        return None
    rg = binary()
    if rg is None:
        return None
    from boundread.formats._rg import pattern

    regex = None if ignore_case else pattern.quick(grep)  # the common kind, without loading re
    if regex is None:
        import re

        try:
            compiled = re.compile(grep, re.IGNORECASE if ignore_case else 0)
        except re.error:  # the engine says what is wrong with it
            return None
        regex = pattern.translate(compiled, "utf-8")
        if regex is None:
            return None
    return [*base_argv(rg), "-b", *around_lines(context), "-e", regex, "--", child_path(file)]
