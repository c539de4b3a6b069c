"""Zip archives, and every file that is a zip inside (docx, xlsx, pptx, odt, jar...).

The listing comes from the central directory only, read lazily through :mod:`boundread.bytelevel.zipdir`:
the first ``max_entries`` records become entries, the rest are only counted (up to a cap), so a
300,000-entry zip costs its records, never a parsed copy of its whole directory. A stored or
deflated member is read from its local header and inflated to at most its declared size (a size
lie ends as Corrupt, not a flood); encrypted members and other methods go through ``zipfile``.
Either way a member is held in memory only up to ``Limits.max_member_bytes``.
"""

from __future__ import annotations

import re
import shlex
import zlib

from boundread.bytelevel import zipdir
from boundread.contract.model import Entry, Listing, Request, Source
from boundread.errors import Corrupt, Encrypted, Refused, Unsupported
from boundread.formats.archives.common import (
    NAMELESS,
    NO_NAME,
    Collector,
    is_nested,
    iso_from_tuple,
    make_entry,
    no_member,
    not_a_file,
    read_capped,
    same_text,
    too_big,
)
from boundread.record import replace

TYPE_CHECKING = False  # typing for mypy only: an --member read loads no typing (8 ms)
if TYPE_CHECKING:
    from typing import IO

_AES = 99  # WinZip AES: compress_type 99; stdlib zipfile raises NotImplementedError
#: Records walked for the totals after the kept entries; past it (or half the timeout) totals are partial.
TOTALS_CAP = 1_000_000
#: Records walked one by one where a block of them cannot be counted at once (then blocks are tried again).
WALK_STRETCH = 4096
#: An entry whose header name is empty and that has no Unicode Path field (issue 22) is listed under a made-up
#: name by its place in the directory, flagged; ``--member`` takes that name.
_NO_NAME = re.compile(r"\(entry ([1-9][0-9]*), no name\)")


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return (text[:1].lower() + text[1:])[:120]


def _broken(src: Source, exc: BaseException) -> Corrupt:
    quoted = shlex.quote(src.name)
    return Corrupt(
        f"{src.name} is a damaged zip ({_reason(exc)})",
        f"repair a copy with `zip -FF {quoted} --out fixed.zip`, or run `boundread info {quoted}`",
    )


def _entry(rec: zipdir.Record, req: Request, name: str) -> Entry:
    entry = make_entry(name, rec.size, rec.compressed, iso_from_tuple(rec.date_time), req.limits,
                      encrypted=rec.encrypted, is_dir=rec.is_dir, is_symlink=rec.is_symlink,
                      unlocked=req.password is not None, name_encoding=rec.name_encoding)
    return entry if rec.name else replace(entry, warnings=(*entry.warnings, NAMELESS))


def _plain(rec: zipdir.Record, max_ratio: float) -> bool:
    """No warning can apply (cheap test): such a record past max_entries is only counted."""
    name = rec.name
    return not (
        rec.flags & 0x1 or rec.name_encoding is not None  # counted for the "decoded by a guess" warning
        or ".." in name or name[:1] in ("", "/", "\\") or name[1:2] == ":"
        or (rec.compressed and rec.size / rec.compressed > max_ratio)
        or ("." in name[-5:] and not name.endswith("/") and is_nested(name))
    )


def listing(src: Source, req: Request) -> Listing:
    """The records of the page asked for are kept; the rest are counted: those before it all (the walk to
    the page is bounded by the timeout), those after it up to ``TOTALS_CAP`` (a block at a time, see
    :mod:`.ziptally`, where no pattern needs every name)."""
    limits = req.limits
    collector = Collector("zip", req)
    lst = collector.listing
    compressed = walked = 0
    full_at: int | None = None  # records walked when the page was complete
    partial = False
    with src.open() as fh:
        try:
            end = zipdir.end_record(fh)
            for rec in zipdir.records(fh, end):
                name = rec.name or NO_NAME.format(walked + 1)
                if full_at is None or req.match is not None:  # past the page, only a pattern needs the name
                    keep = collector.take(name)
                else:
                    keep, lst.truncated = False, True
                if keep or not _plain(rec, limits.max_ratio):
                    collector.record(_entry(rec, req, name), keep)
                else:
                    collector.count(rec.size)
                compressed += rec.compressed
                walked += 1
                if full_at is None:
                    if collector.full:
                        full_at = walked
                        if req.match is None:
                            walked, more, partial = _totals(fh, end, rec.end_at, collector, walked)
                            compressed += more
                            break
                    elif walked % 4096 == 0 and collector.late(0.8):
                        collector.out_of_time(walked, end.count)
                        partial = True
                        break
                elif walked - full_at >= TOTALS_CAP or (walked % 4096 == 0 and collector.late(0.5)):
                    partial = lst.truncated = True  # names after it may match: a next page
                    break
        except (zipdir.BadZip, OSError, EOFError) as exc:
            raise _broken(src, exc) from None
    collector.finish(total_compressed=compressed)
    if partial:
        lst.total_entries = max(end.count, walked)
        lst.truncated = True
        lst.warnings.append(
            f"totals (sizes, warnings) cover the first {walked:,} of {lst.total_entries:,} entries "
            "the directory declares: it is too long to walk whole"
        )
    return lst


def _totals(fh: IO[bytes], end: zipdir.End, at: int, collector: Collector, walked: int) -> tuple[int, int, bool]:
    """Count the records from file offset ``at`` (after the page) to the directory's end, up to ``TOTALS_CAP`` of
    them and half the timeout: a block at a time where :mod:`.ziptally` can, else record by record. Returns the
    records walked in all, their compressed bytes, and whether the count stopped before the end."""
    from boundread.bytelevel import ziptally

    req, stop, left, compressed = collector.req, end.start + end.size, TOTALS_CAP, 0
    if at < stop:
        collector.listing.truncated = True
    while at < stop:
        if left <= 0 or collector.late(0.5):
            return walked, compressed, True
        try:
            tally = ziptally.blocks(fh, end, at, left, req.limits.max_ratio)
        except ziptally.Walk:  # this stretch record by record, then the blocks again
            rest = zipdir.End(end.count, stop - at, at, end.concat)
            for count, rec in enumerate(zipdir.records(fh, rest), 1):
                name = rec.name or NO_NAME.format(walked + 1)
                if _plain(rec, req.limits.max_ratio):
                    collector.count(rec.size)
                else:
                    collector.record(_entry(rec, req, name), False)
                compressed += rec.compressed
                walked, left, at = walked + 1, left - 1, rec.end_at
                if count >= WALK_STRETCH or left <= 0:
                    break
            continue
        collector.count_many(tally.entries, tally.size, tally.largest)
        for place, rec in tally.odd:
            collector.record(_entry(rec, req, rec.name or NO_NAME.format(walked + place + 1)), False)
        compressed += tally.compressed
        walked, left, at = walked + tally.records, left - tally.records, tally.next_at
    return walked, compressed, False


def _find(fh: IO[bytes], name: str) -> zipdir.Record | None:
    """The first record named ``name``: searched for in the directory's bytes (:mod:`.zipfind`), else walked
    to, the directory read only up to it; else the first whose name reads the same in NFC (the whole directory
    read). ``(entry N, no name)`` is the Nth record when it has no name."""
    from boundread.bytelevel import zipfind

    alike: zipdir.Record | None = None
    place = _NO_NAME.fullmatch(name)
    if place is None:
        try:
            return zipfind.find(fh, name)
        except zipfind.Unsure:
            pass
    for number, rec in enumerate(zipdir.records(fh), 1):
        if rec.name == name or (place is not None and not rec.name and number == int(place.group(1))):
            return rec
        if alike is None and same_text(rec.name, name):
            alike = rec
    return alike


def read_member(src: Source, name: str, req: Request) -> bytes:
    """One member's bytes, at most ``max_member_bytes`` of them, never written to disk."""
    limits = req.limits
    cap = limits.max_member_bytes
    quoted = shlex.quote(src.name)
    with src.open() as fh:
        try:
            rec = _find(fh, name)
        except (zipdir.BadZip, OSError, EOFError) as exc:
            raise _broken(src, exc) from None
        if rec is None:
            raise no_member(src.name, name)
        if rec.is_dir:
            raise not_a_file(src.name, name)
        ratio = rec.size / rec.compressed if rec.compressed else None
        if rec.size > cap:
            raise too_big(src.name, name, cap, ratio, limits)
        if rec.method == _AES:
            raise Unsupported(
                f"{name} is AES-encrypted, which Python's zipfile cannot read",
                f"extract it with `7z x -p {quoted}` and read the file",
            )
        if rec.encrypted and req.password is None:
            raise Encrypted(f"{name} is encrypted", "pass --password")
        if rec.method in (0, 8) and not rec.flags & 0x61:  # plain stored/deflated: no zipfile needed
            try:
                return zipdir.read_data(fh, rec)
            except (zipdir.BadZip, OSError, EOFError) as exc:
                raise _damaged(src, name, exc, False) from None
        return _with_zipfile(src, fh, rec, req, ratio)


def _with_zipfile(src: Source, fh: IO[bytes], rec: zipdir.Record, req: Request, ratio: float | None) -> bytes:
    """Encrypted (ZipCrypto), bzip2, lzma and other methods: zipfile reads them (its whole directory)."""
    import zipfile

    limits, name, quoted = req.limits, rec.name, shlex.quote(src.name)
    cap = limits.max_member_bytes
    encrypted = rec.encrypted
    pwd = req.password.encode("utf-8") if encrypted and req.password is not None else None
    try:
        with zipfile.ZipFile(fh) as zf:
            info = next((i for i in zf.infolist() if i.header_offset == rec.header_offset), None)
            if info is None:
                raise zipfile.BadZipFile("the directory changed while reading it")
            with zf.open(info, pwd=pwd) as member:
                return read_capped(member, cap, lambda: too_big(src.name, name, cap, ratio, limits))
    except RuntimeError as exc:  # zipfile's "password required" / "Bad password for file"
        if "password" not in str(exc).lower():
            raise
        raise Encrypted(f"{name} is encrypted and the password is wrong", "check --password") from None
    except NotImplementedError as exc:
        raise Unsupported(
            f"{name} uses a compression method Python cannot read ({_reason(exc)})",
            f"extract it with `7z x {quoted}` and read the file",
        ) from None
    except zipfile.BadZipFile as exc:
        if "zip bomb" in str(exc):
            raise Refused(f"{name}: {_reason(exc)}", "do not extract this archive") from None
        raise _damaged(src, name, exc, encrypted) from None
    except (zlib.error, EOFError, OSError, ValueError) as exc:
        raise _damaged(src, name, exc, encrypted) from None


def _damaged(src: Source, name: str, exc: BaseException, encrypted: bool) -> Encrypted | Corrupt:
    if encrypted:  # ZipCrypto's one-byte check lets 1 wrong password in 256 through to a CRC error
        return Encrypted(f"{name} is encrypted and the password is wrong", "check --password")
    return Corrupt(f"{name} in {src.name} is damaged ({_reason(exc)})", "pick another member")
