"""The files redirect mode points a refused Read at (hook/redirect.py): a document's first part, an
archive's listing, each with a header that says what the original is, which part this is, what was
skipped, and the commands for the rest.

- a PDF or an Office file: the first slice that fits SLICE_CHARS, extracted in-process within DEADLINE
  (no OCR); "all of it" only when nothing was skipped or cut, and the slice's warnings in the header;
- JSON, JSON Lines, SQLite, Parquet, Arrow (hook/shapes.py): the shape ``info`` prints, then the first part of
  the read it names first (the biggest array's elements, the first records, the first table's rows);
- an archive: its listing as ``list-zip --max-entries N`` prints it to a pipe, for the largest N that
  fits SLICE_CHARS (``listing`` gives the same N to redirect's shell rewrite);
- a big text file dumped whole (``cat huge.log``): its overview (``overview``: printed by the rewritten command
  itself, no file), far smaller than a first part
  - the first and the last lines (OVERVIEW_LINES, at most OVERVIEW_CHARS of each end), how many lines, the time
  span its timestamps cover, and the commands for more from either end and for a search. Claude Code's own
  answer to such a dump is a 2 KB preview; the overview is about as small, and it says what the file spans.

A slice is cached by (real path, size, mtime_ns, cap, the path as shown) in INDEX in the output folder,
so reading the same file again costs a stat and a small JSON read, and a header's relative commands are
only ever given to a call from the folder they were written for. Nothing is written outside the output
folder (``$BOUNDREAD_OUT_DIR`` against the payload's cwd, else ``<cwd>/boundread-out``).
"""

# os.path on purpose: the guard's paths are strings (decide.py); this module is off the hot path anyway.
# ruff: noqa: PTH100, PTH108, PTH109, PTH110, PTH111, PTH113, PTH118, PTH119
from __future__ import annotations

import os

from boundread.contract import kinds
from boundread.guard import reason
from boundread.hook import shapes
from boundread.hook.shapes import shaped as shaped

#: ~4,750 tokens: with a slice file's header (_HEADER_ROOM) under every client's own limits (their modules'
#: READ_MAX_BYTES and SHELL_MAX_CHARS: Copilot CLI's view refuses a whole file over 20,480 bytes and keeps a shell
#: output over 20,400 characters in a file; Claude Code's Bash shows 30,000 characters)
SLICE_CHARS = 19_000
FIT = f" --max-chars {SLICE_CHARS}"  # the bound of every command a slice or a redirect names
DEADLINE = 5.0  # seconds for the extraction; the hooks init writes time out after 10
INDEX = ".boundread-redirect.json"
MAX_INDEX = 256  # entries kept in INDEX, the newest
_LAYOUT = 4  # of a slice file, in INDEX's keys: a boundread that writes them otherwise never reuses the old ones
#             (3: a slice of page markers only is no slice; 4: JSON and databases are their shape and first part)
_WORKBOOKS = kinds.WORKBOOKS  # a sheet's row count is its declared size: it may claim rows it lacks
STREAMS = kinds.STREAMS  # one compressed file, not an archive: its first part, not a one-row listing
_MOST_ENTRIES = SLICE_CHARS // 24  # an archive's entries listed at most: more never fit (a row is 30+ chars)
_HEADER_ROOM = 1_000  # of SLICE_CHARS, kept for a slice file's header
_ROW = 60  # characters of a listing's row but its name (sizes, ratio, time, flags, the gaps)
_MOST_WARNINGS = 5  # of an extraction's, in a slice's header
OVERVIEW_LINES = 6  # of each end of a text, at most
OVERVIEW_CHARS = 700  # of each end of a text, at most: a longer line is cut
_END = 16_384  # bytes read at each end of a text for its overview
#: A timestamp at the start of a log's line: ISO 8601 (2026-11-29T08:00:00Z, 2026-11-29 08:00:00,123) or syslog's
#: (Nov 29 08:00:00)
_STAMP = (r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?"
          r"|[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2}")


def first_part(absolute: str, given: str, cwd: str, rule: str, kind: str,
               root: str | None = None) -> tuple[str, str] | None:
    """(the slice file, the context line) for a PDF, an Office file or an archive (``rule`` "archive"), from
    the cache or made now; None when there is nothing to give (no text, damaged, out of time). ``cwd``: where
    the call runs (its paths are shown against it); ``root``: the payload's own folder, whose output folder
    the slice goes to (default ``cwd``)."""
    real = os.path.realpath(absolute)
    info = os.stat(real)
    out = _out_dir(cwd if root is None else root)
    here = os.path.abspath(cwd) if cwd else None
    shown = reason.display_path(given, os.path.abspath(absolute), here)
    # the shown path is in the key: the header's commands are relative to the folder they were written for
    key = f"{real}\0{info.st_size}\0{info.st_mtime_ns}\0{SLICE_CHARS}\0{shown}\0{_LAYOUT}"
    index = _load_index(out)
    hit = index.get(key)
    if isinstance(hit, dict) and isinstance(hit.get("file"), str) and isinstance(hit.get("context"), str):
        cached = os.path.join(out, os.path.basename(hit["file"]))
        if os.path.isfile(cached):
            return cached, hit["context"]
    about = described(absolute, kind)
    quoted = reason.quote(shown)
    if shaped(real, kind):  # JSON, a database: its shape and the first part of its first bounded read
        room = SLICE_CHARS - _HEADER_ROOM
        made = shapes.shape(real, shown, quoted, program(), FIT, room, DEADLINE)
    elif rule == "archive" and kind not in STREAMS and os.path.splitext(absolute)[1].lower() != ".epub":
        made = _listed(real, quoted)  # an EPUB is a zip whose first part is its first chapters, not a listing
    else:
        made = _extract(real, quoted, kind)
    if made is None:
        return None
    text, holds, lines, said = made
    header = _header(shown, about, f"this file holds {holds}", lines)
    context = f"boundread redirect: {shown} ({about}) was not read whole; this Read got {holds}{said}"
    from pathlib import Path

    from boundread.core import naming, output

    name = naming.first_part_name(real, _digest(real + chr(0) + shown))
    written = output.write_atomic(Path(out) / name, header + text, never=Path(real), out_folder=True)
    index[key] = {"file": written.name, "context": context}
    _save_index(out, index)
    return str(written), context


#: A slice's text, what it holds ("its first part, pages 1-12 of 40"), the header's lines after the first
#: (warnings, the next part, the search) and the same said in the context line.
_Part = tuple[str, str, list[str], str]


def _extract(real: str, quoted: str, kind: str) -> _Part | None:
    """The first slice that fits SLICE_CHARS; None when there is no text to give (scanned, encrypted,
    damaged, timed out)."""
    import shlex

    from boundread import api
    from boundread.errors import BoundreadError
    from boundread.limits import Limits

    try:
        limits = Limits(max_chars=SLICE_CHARS, timeout=DEADLINE)
        if kind == "pdf":  # no OCR in a hook: a scanned PDF keeps its deny, which names the commands
            result = api.extract(real, stdout=True, ocr="never", limits=limits)
        else:
            result = api.extract(real, stdout=True, limits=limits)
    except BoundreadError:
        return None
    if result.timed_out or result.text is None or not has_text(result.text):
        return None  # a scanned PDF's pages are markers and blanks: nothing to give, the deny names the commands
    shell = program()
    following = [shell + line.removeprefix("boundread").replace(shlex.quote(real), quoted, 1) + f"{FIT} --stdout"
                 for line in result.next if line.startswith("boundread ")]
    warnings = [_short(warning) for warning in result.warnings[:_MOST_WARNINGS]]
    if result.truncated and not following:
        warnings.append(_short("cut short: " + ", ".join(result.truncated_reasons or ("limit reached",))))
    # "all of it" only when nothing was skipped or cut; a sheet's size is what the workbook declares, and may
    # count rows it does not hold, so a workbook's part is left to say itself
    whole = not result.truncated and not following and not warnings and kind not in _WORKBOOKS
    holds = f"its first part, {result.done or 'the first part'}" + (" (all of it)" if whole else "")
    grep = search(shell, quoted)
    lines = [*(f"Warning: {w}" for w in warnings), *(f"Next part: {c}" for c in following),
             f"Search the whole document: {grep}"]
    said = ("".join(f"; warning: {w}" for w in warnings) + (f". Next part: {following[0]}" if following else "")
            + f". Search it all: {grep}")
    return result.text, holds, lines, said


def _header(shown: str, about: str, holds: str, lines: list[str]) -> str:
    return (f"[boundread redirect] {shown}: {about}. It was not read whole: {holds}.\n"
            + "".join(f"{line}\n" for line in lines) + "-" * 72 + "\n")


def overview(absolute: str, given: str, cwd: str, kind: str) -> str | None:
    """A big text's overview, its header first, to print in place of the whole (no file is written, nothing
    heavier than the hook path is loaded); None when the file is not that big (its ends meet) or has no line."""
    here = os.path.abspath(cwd) if cwd else None
    shown = reason.display_path(given, os.path.abspath(absolute), here)
    made = _overview(os.path.realpath(absolute), reason.quote(shown))
    if made is None:
        return None
    text, holds, lines, _said = made
    return _header(shown, described(absolute, kind), f"this is {holds}", lines) + text


def _overview(real: str, quoted: str) -> _Part | None:
    """A text's first and last lines, how many lines it has and the time span they show; None when the file is
    not that big (its ends meet) or holds no line."""
    import re

    from boundread.guard import facts

    with open(real, "rb") as fh:
        head = fh.read(_END)
        size = fh.seek(0, os.SEEK_END)
        if size <= 2 * _END:
            return None  # small enough for its first part
        fh.seek(size - _END)
        tail = fh.read(_END)
    first = _ends(head.split(b"\n")[:-1] or [head])
    ending = tail.rstrip(b"\r\n").split(b"\n")
    last = _ends(ending[1:][::-1])[::-1] if len(ending) > 1 else [  # the end of a line longer than _END
        "[line cut] " + ending[0].decode("utf-8", "replace").replace("\0", "")[-OVERVIEW_CHARS:]]
    if not first or not last:
        return None
    counted = facts.text_lines(real, size)
    total = counted[0] if counted else 0
    stamps = [found.group(0) for line in (*first, *last) if (found := re.match(_STAMP, line.lstrip()))]
    span = f", timestamps {stamps[0]} to {stamps[-1]}" if len(stamps) >= 2 and stamps[0] != stamps[-1] else ""
    shell = program()
    lines = [f"More from the start: {shell} extract {quoted} --lines {len(first) + 1}-{len(first) + 200}{FIT} --stdout",
             f"More from the end: {shell} extract {quoted} --tail 200{FIT} --stdout",
             f"Search it all: {search(shell, quoted)}"]
    skipped = f"[... ~{total - len(first) - len(last):,} lines not shown ...]" if total else "[... not shown ...]"
    text = "\n".join(first) + f"\n{skipped}\n" + "\n".join(last) + "\n"
    holds = f"its overview: its first {len(first)} and last {len(last)} lines{span}"
    return text, holds, lines, f". {lines[0]}. {lines[2]}"


def _ends(lines: list[bytes]) -> list[str]:
    """The lines, in order, that fit OVERVIEW_CHARS (at most OVERVIEW_LINES; a first one that alone does not is
    cut to it)."""
    kept: list[str] = []
    used = 0
    for raw in lines[:OVERVIEW_LINES]:
        line = raw.decode("utf-8", "replace").rstrip("\r").replace("\0", "")
        if used + len(line) > OVERVIEW_CHARS:
            if not kept:
                kept.append(line[:OVERVIEW_CHARS] + " [line cut]")
            break
        kept.append(line)
        used += len(line) + 1
    return kept


def has_text(text: str | None) -> bool:
    """Does ``text`` hold anything but page or slide markers (``--- page 1 / 3 ---``) and blank lines?"""
    import re

    marker = re.compile(r"--- (?:page|slide) \d+ / [^\n]* ---")
    return any(line.strip() and not marker.fullmatch(line.strip()) for line in (text or "").splitlines())


def _listed(real: str, quoted: str) -> _Part | None:
    """An archive's listing as ``list-zip`` prints it, the entries that fit SLICE_CHARS."""
    made = listing(real)
    if made is None:
        return None
    text, count, total = made
    shell = program()
    member = f"{shell} extract {quoted} --member NAME{FIT} --stdout"
    lines = [f"Read a member: {member}"]
    if count < total:
        lines.insert(0, f"Find a member among all {total:,}: {find_member(shell, quoted)}")
    holds = f"its listing, entries 1-{count:,} of {total:,}" + (" (all of them)" if count == total else "")
    return text, holds, lines, ". " + ". ".join(lines)


def find_member(shell: str, quoted: str) -> str:
    """The command that finds a member's name among all the entries: the listing of the names that match, a
    page at a time (its ``next`` gives the following page)."""
    return f"{shell} list-zip {quoted} --match '*PATTERN*' --max-entries {reason.FIT_ENTRIES}"


def search(shell: str, quoted: str) -> str:
    """The bounded grep across the whole file."""
    return f"{shell} extract {quoted} --grep PATTERN --context 2{FIT} --stdout"


def listing(real: str) -> tuple[str, int, int] | None:
    """(the listing as ``list-zip --max-entries N`` prints it to a pipe, N, the entries in all) for the
    largest N whose listing fits SLICE_CHARS; None when not one entry fits or time runs out."""
    import contextlib
    import io
    import time

    from boundread import api, render
    from boundread.contract.model import Listing, Source
    from boundread.errors import BoundreadError
    from boundread.limits import Limits

    def printed(src: Source, listing: Listing) -> str:
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):  # render's console: a pipe gets a 240-column page, as the agent's
            render.print_listing(src, listing)
        return buffer.getvalue()

    started = time.monotonic()
    room = SLICE_CHARS - _HEADER_ROOM
    try:
        listed = api.list_archive(real, limits=Limits(max_entries=_MOST_ENTRIES, timeout=DEADLINE))
        src, listing = listed.source, listed.listing
        # a first guess without rich (a table of 1,000 rows takes it most of a second): the columns but the
        # name take about _ROW characters, and a name wider than the page folds onto lines padded as wide
        used, count = _ROW * 4 + sum(len(warning) + 14 for warning in listing.warnings), 0
        for entry in listing.entries:
            width = len(entry.name) + (len(entry.link_target) + 4 if entry.link_target else 0)
            used += _ROW + width + width // 150 * _ROW
            if used > room:
                break
            count += 1
        while count:
            if count < len(listing.entries):  # listed again with that N: its own counts and warnings
                left = DEADLINE - (time.monotonic() - started)
                if left <= 0:
                    return None
                again = api.list_archive(real, limits=Limits(max_entries=count, timeout=left))
                src, shown = again.source, again.listing
            else:
                shown = listing
            text = printed(src, shown)
            if len(text) <= room:
                return text, count, listing.total_entries
            count = min(count - 1, count * room // len(text))
    except BoundreadError:
        return None
    return None


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 200 else text[:199] + "…"


def described(absolute: str, kind: str) -> str:
    """'PDF, 4.2 MB, 103 pages', as the deny reason says it."""
    from boundread.bytelevel import sniff

    subtype = sniff.sniff_path(absolute).subtype
    return reason.describe(absolute, kind, os.stat(absolute).st_size, subtype)[0]


def _out_dir(cwd: str) -> str:
    base = cwd or os.getcwd()
    chosen = os.environ.get("BOUNDREAD_OUT_DIR") or "boundread-out"
    return os.path.abspath(os.path.join(base, os.path.expanduser(chosen)))


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]


def _load_index(out: str) -> dict[str, object]:
    from boundread.guard import jsonio

    try:
        with open(os.path.join(out, INDEX), encoding="utf-8") as fh:
            data = jsonio.loads(fh.read(4 * 1024 * 1024))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save_index(out: str, index: dict[str, object]) -> None:
    import tempfile

    from boundread.guard import jsonio

    kept = dict(list(index.items())[-MAX_INDEX:])
    fd, temp = tempfile.mkstemp(prefix=".redirect-", suffix=".tmp", dir=out)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(jsonio.dumps(kept))
        os.replace(temp, os.path.join(out, INDEX))
    except OSError:
        if os.path.exists(temp):
            os.unlink(temp)


def program() -> str:
    """How the agent's shell starts this boundread: the bare name when the PATH finds this very script."""
    import shutil
    import sys

    script = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if os.path.basename(script).startswith("boundread") and os.path.isfile(script):
        found = shutil.which("boundread")
        if found and os.path.realpath(found) == os.path.realpath(script):
            return "boundread"
        return reason.quote(script)
    return "boundread"
