"""What every archive backend shares: the safety checks on names, links and ratios, the bounded
listing collector, and the capped read that keeps a member in memory only up to the limit.

Member names are only ever inspected as strings here; nothing is joined onto a path on disk.
"""

from __future__ import annotations

import fnmatch
import re
import shlex
import time
import unicodedata
from collections.abc import Callable

from boundread.bytelevel.names import ESCAPED
from boundread.contract.model import FILE, Entry, Listing, Request, Span, Suggestion
from boundread.errors import Refused, UsageError
from boundread.limits import Limits
from boundread.ranges import OPEN_END, span_text
from boundread.units import human_bytes

TYPE_CHECKING = False  # typing and datetime load when used: an --member read needs neither (15 ms)
if TYPE_CHECKING:
    from typing import Protocol

CHUNK = 1 << 16


if TYPE_CHECKING:
    class Readable(Protocol):
        def read(self, size: int, /) -> bytes: ...


ENCRYPTED = "encrypted"
NESTED = "nested archive"
NAMELESS = "no name in the zip"
TAR_NAMELESS = "no name in the tar"
#: How an entry with no name is listed, by its place; --member takes it.
NO_NAME = "(entry {}, no name)"
_DRIVE = re.compile(r"^[A-Za-z]:")
_NESTED_SUFFIXES = (
    ".zip", ".7z", ".tar", ".gz", ".tgz", ".bz2", ".tbz2", ".xz", ".txz", ".rar", ".jar", ".war", ".ear",
    ".apk", ".whl", ".epub", ".cab", ".iso", ".zst", ".docx", ".docm", ".xlsx", ".xlsm", ".pptx", ".pptm",
    ".odt", ".ods", ".odp",
)


def escape_reason(name: str) -> str | None:
    """Why ``name`` would land outside the folder it is extracted into, or None when it stays inside."""
    if "\x00" in name:
        return "escapes the folder (NUL byte in the name)"
    slashed = name.replace("\\", "/")
    how = " (backslash traversal)" if "\\" in name else ""
    if _DRIVE.match(slashed):
        return f"escapes the folder (drive letter){how}"
    if slashed.startswith("/"):
        return f"escapes the folder (absolute path){how}"
    if _climbs(slashed.split("/"), 0):
        return f"escapes the folder (../){how}"
    return None


def link_escape(name: str, target: str, *, hard: bool = False) -> str | None:
    """Why a link ``name -> target`` points outside the archive root. A symlink's target is relative
    to the link's folder; a tar hard link names another member from the root."""
    slashed = target.replace("\\", "/")
    if slashed.startswith("/") or _DRIVE.match(slashed):
        return f"link points outside the archive ({target!r} is absolute)"
    folder = [] if hard else [p for p in name.replace("\\", "/").split("/")[:-1] if p not in ("", ".")]
    if _climbs(slashed.split("/"), len(folder)):
        return f"link points outside the archive ({target!r} climbs above it)"
    return None


def _climbs(parts: list[str], depth: int) -> bool:
    for part in parts:
        if part == "..":
            depth -= 1
            if depth < 0:
                return True
        elif part not in ("", "."):
            depth += 1
    return False


def is_nested(name: str) -> bool:
    return name.lower().rstrip("/").endswith(_NESTED_SUFFIXES)


def make_entry(
    name: str, size: int | None, compressed: int | None, modified: str | None, limits: Limits, *,
    encrypted: bool = False, is_dir: bool = False, is_symlink: bool = False,
    link_target: str | None = None, hard_link: bool = False, unlocked: bool = False,
    name_encoding: str | None = None,
) -> Entry:
    """An Entry with its warnings worked out from what the directory says.

    ``unlocked``: a password was given, so an encrypted entry is only flagged, not warned about.
    """
    warnings: list[str] = []
    if (escape := escape_reason(name)) is not None:
        warnings.append(escape)
    if link_target is not None and (bad := link_escape(name, link_target, hard=hard_link)) is not None:
        warnings.append(bad)
    if size is not None and compressed and size / compressed > limits.max_ratio:
        warnings.append(f"ratio {size / compressed:,.0f}x: possible zip bomb")
    if not is_dir and is_nested(name):
        warnings.append(NESTED)
    if encrypted and not unlocked:
        warnings.append(ENCRYPTED)
    return Entry(name, size, compressed, modified, encrypted, is_dir, is_symlink, link_target,
                 tuple(warnings), name_encoding)


class Collector:
    """Counts every entry it is given, keeps those of the page asked for (``Request.entries``, among the names
    ``Request.match`` keeps; at most ``max_entries``) and summarises the warnings of all of them.

    Entries before the page are counted, never kept: memory stays at the page.
    """

    def __init__(self, fmt: str, req: Request) -> None:
        self.req = req
        self.limits = req.limits
        self.span = req.entries or Span(1, OPEN_END)
        last = None if self.span.last == OPEN_END else self.span.last
        self.listing = Listing(format=fmt, first=self.span.first, last=last, match=req.match)
        self.matched = 0  # entries whose names match (all of them without a pattern), so far
        self.stopped = False  # a hard stop (a bomb, damage): a later page would stop at the same place
        self.timed_out = False  # the walk ran out of time (see :meth:`out_of_time`)
        self._flagged: dict[str, list[str]] = {}
        self._guessed: dict[str, int] = {}  # encoding -> names decoded with it by a guess
        self._started = time.monotonic()

    @property
    def full(self) -> bool:
        """The page is complete: what follows is only counted."""
        return len(self.listing.entries) >= self.limits.max_entries or self.matched >= self.span.last

    def late(self, share: float) -> bool:
        """More than ``share`` of the timeout has gone (never without a timeout)."""
        timeout = self.limits.timeout
        return timeout is not None and time.monotonic() - self._started > timeout * share

    def take(self, name: str) -> bool:
        """Count an entry named ``name`` into the page arithmetic; True when it is to be kept."""
        if self.req.match is not None and not fnmatch.fnmatchcase(name, self.req.match):
            return False
        self.matched += 1
        if self.matched < self.span.first:
            return False
        if self.matched <= self.span.last and len(self.listing.entries) < self.limits.max_entries:
            return True
        self.listing.truncated = True
        return False

    def add(self, entry: Entry) -> None:
        self.record(entry, self.take(entry.name))

    def count(self, size: int) -> None:
        """An entry no warning applies to, already :meth:`take`-n and not kept: only its size counts."""
        lst = self.listing
        lst.total_entries += 1
        lst.total_size += size
        lst.largest = max(lst.largest, size)

    def count_many(self, entries: int, size: int, largest: int) -> None:
        """``entries`` entries no warning applies to, past the page, counted at once."""
        lst = self.listing
        lst.total_entries += entries
        lst.total_size += size
        lst.largest = max(lst.largest, largest)

    def record(self, entry: Entry, keep: bool) -> None:
        """An entry already :meth:`take`-n: its totals and warnings, and the entry itself when ``keep``."""
        lst = self.listing
        self.count(entry.size or 0)
        lst.encrypted_entries += entry.encrypted
        if keep:
            lst.entries.append(entry)
        if entry.name_encoding is not None:
            self._guessed[entry.name_encoding] = self._guessed.get(entry.name_encoding, 0) + 1
        for warning in entry.warnings:
            key = warning.split(" (", 1)[0].split(":", 1)[0]
            key = "ratio" if key.startswith("ratio ") else key
            self._flagged.setdefault(key, []).append(entry.name)

    def out_of_time(self, walked: int, of: int | None = None) -> None:
        """The walk stopped after ``walked`` entries (of ``of`` declared) to stay inside the timeout."""
        lst = self.listing
        self.timed_out = lst.timed_out = lst.truncated = True
        if not lst.entries and self.matched < self.span.first:
            declared = f" of {of:,}" if of is not None else ""
            lst.warnings.append(f"the listing ran out of time after {walked:,} entries{declared}, before entry "
                                f"{self.span.first:,}: none of {span_text(self.span)} is listed")

    def finish(self, *, total_compressed: int | None = None, solid: bool | None = None) -> Listing:
        lst = self.listing
        lst.total_compressed = total_compressed
        lst.solid = solid
        lst.matching = self.matched if self.req.match is not None else None
        for key, names in self._flagged.items():
            lst.warnings.append(_summary(key, names, self.limits))
        escaped = self._guessed.get(ESCAPED, 0)
        guessed = {enc: count for enc, count in self._guessed.items() if enc != ESCAPED}
        if escaped:
            lst.warnings.append(f"{escaped:,} name(s) hold bytes that are not valid UTF-8, "
                                "shown as \\xNN (name such a member as shown)")
        if guessed:
            used = ", ".join(f"{count:,} as {enc}" for enc, count in guessed.items())
            lst.warnings.append(f"names not marked UTF-8 were decoded by a guess ({used}); "
                                "each entry's name_encoding says which")
        if total_compressed and lst.total_size / total_compressed > self.limits.max_ratio:
            lst.warnings.append(
                f"the archive expands {lst.total_size / total_compressed:,.0f}x "
                f"(above {self.limits.max_ratio:g}x): possible zip bomb"
            )
        if lst.truncated and len(lst.entries) >= self.limits.max_entries <= self.span.last - self.span.first:
            lst.warnings.append(f"listing stopped at max_entries {self.limits.max_entries:,}")
        if not self.stopped:
            lst.resume = next_page(lst, len(lst.entries), self.req, timed_out=self.timed_out)
        return lst


def next_page(lst: Listing, shown: int, req: Request, *, timed_out: bool = False) -> Suggestion | None:
    """The ``list-zip`` command for the entries after the first ``shown`` of the page ``lst`` holds (the same
    page with twice the time when the walk ran out of it before the page); None when nothing follows."""
    span = req.entries or Span(1, OPEN_END)
    width = req.limits.max_entries
    if timed_out and shown == 0:
        timeout = req.limits.timeout or 30.0
        pages = ["--entries", span_text(span)] if req.entries else []
        return _list_words(pages, req, more_time=max(timeout * 2, 1))
    if not lst.truncated and shown >= len(lst.entries):
        return None
    start = span.first + shown
    if start > span.last:  # the range is all listed: the next one as wide
        width = min(width, span.last - span.first + 1)
        return _list_words(["--entries", f"{start}-{start + width - 1}"], req)
    return _list_words(["--entries", f"{start}-{min(start + width - 1, span.last)}"], req)


def _list_words(pages: list[str], req: Request, *, more_time: float | None = None) -> Suggestion:
    words = ["list-zip", FILE, *pages]
    if req.match is not None:
        words += ["--match", req.match]
    if req.limits.max_entries != Limits().max_entries:
        words += ["--max-entries", str(req.limits.max_entries)]
    if req.password is not None:
        words += ["--password", "PASSWORD"]
    if more_time is not None:
        words += ["--timeout", f"{more_time:g}"]
    return tuple(words)


def _summary(key: str, names: list[str], limits: Limits) -> str:
    count = len(names)
    shown = ", ".join(repr(n if len(n) <= 60 else n[:28] + "..." + n[-28:]) for n in names[:3])
    more = f" and {count - 3} more" if count > 3 else ""
    plural = "entry" if count == 1 else "entries"
    texts = {
        "escapes the folder": f"{count} {plural} would escape the folder if extracted (zip slip)",
        "link points outside the archive": f"{count} link{'s point' if count != 1 else ' points'} outside the archive",
        "ratio": f"{count} {plural} expand more than {limits.max_ratio:g}x (possible zip bomb)",
        NESTED: f"{count} nested archive{'s' * (count != 1)}",
        ENCRYPTED: f"{count} encrypted {plural} (pass --password to read them)",
        NAMELESS: f"{count} {plural} with no name in the zip (an empty name and no Unicode Path field), listed by "
                  "place: --member takes the name shown",
        TAR_NAMELESS: f"{count} {plural} with no name in the tar (an empty header name), listed by place: --member "
                      "takes the name shown",
    }
    return f"{texts.get(key, f'{count} {plural}: {key}')}: {shown}{more}"


def iso_from_tuple(date_time: tuple[int, int, int, int, int, int]) -> str | None:
    import datetime  # a listing's dates only

    try:
        return datetime.datetime(*date_time).isoformat()
    except (ValueError, TypeError):
        return None


def iso_from_epoch(seconds: float) -> str | None:
    import datetime

    try:
        return datetime.datetime.fromtimestamp(seconds, tz=datetime.timezone.utc).isoformat()
    except (ValueError, OverflowError, OSError):
        return None


def too_big(
    src_name: str, member: str, cap: int, ratio: float | None = None, limits: Limits | None = None,
) -> Refused:
    if ratio is not None and limits is not None and ratio > limits.max_ratio:
        return Refused(f"{member} expands to more than {human_bytes(cap)} (ratio {ratio:,.0f}x: possible zip bomb)",
                       f"list it with `boundread list-zip {shlex.quote(src_name)}` and pick a smaller member")
    return Refused(f"{member} expands to more than {human_bytes(cap)}",
                   f"raise --max-member-mb if you trust it, or list it with "
                   f"`boundread list-zip {shlex.quote(src_name)}` and pick a smaller member")


def same_text(a: str, b: str) -> bool:
    """Two member names that read the same: equal in NFC (a zip made on macOS often stores ``Ärger.txt``
    decomposed, as ``A`` + a combining diaeresis, while a name typed elsewhere is composed)."""
    return a == b or unicodedata.normalize("NFC", a) == unicodedata.normalize("NFC", b)


def no_member(src_name: str, member: str) -> UsageError:
    return UsageError(f"no member {member!r} in {src_name}",
                      f"run `boundread list-zip {shlex.quote(src_name)}`")


def not_a_file(src_name: str, member: str, what: str = "a folder") -> UsageError:
    return UsageError(f"{member} is {what} in {src_name}",
                      f"pick a file: run `boundread list-zip {shlex.quote(src_name)}`")


def read_capped(stream: Readable, cap: int, refuse: Callable[[], Refused]) -> bytes:
    """Read ``stream`` to its end into memory, refusing as soon as it produces more than ``cap`` bytes."""
    buf = bytearray()
    while True:
        chunk = stream.read(min(CHUNK, cap + 1 - len(buf)))
        if not chunk:
            return bytes(buf)
        buf += chunk
        if len(buf) > cap:
            raise refuse()


def display(name: str) -> str:
    """A member name on one line: control characters shown escaped."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in name)
