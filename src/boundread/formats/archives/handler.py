"""Archives: zip (and any zip-based file), 7z, tar (plain or compressed), gz/bz2/xz single files.

The dispatcher for the per-format backends (:mod:`.zipfiles`, :mod:`.sevenz`, :mod:`.tarfiles`,
:mod:`.single`). Besides ``info`` and ``extract`` it offers ``listing`` (the table of contents
from the directory only, never extracting) and ``read_member`` (one member into memory through a
capped stream). Member names are never used as paths on disk; hostile names, links, ratios,
nested archives and encryption become warnings, not exceptions.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from boundread.bytelevel.sniff import kind_from_name
from boundread.contract import kinds
from boundread.contract.model import FILE, Details, Entry, Listing, Outcome, Request, Source, Suggestion
from boundread.contract.sink import Sink
from boundread.errors import Encrypted, Unsupported, UsageError
from boundread.formats.archives.common import ENCRYPTED, NESTED, display, next_page

KINDS: tuple[str, ...] = kinds.ARCHIVES

#: Kinds whose bytes are a zip: ``list-zip`` shows their parts when asked.
_ZIP_BASED = frozenset({"zip", "docx", "xlsx", "pptx", "odt", "ods", "odp"})
_SINGLE = frozenset({"gz", "bz2", "xz"})


class _Backend:
    """An archive format's two reads. (A plain class: dataclasses, with inspect, was 22 ms of an --member read.)"""

    __slots__ = ("listing", "read_member")

    def __init__(self, listing: Callable[[Source, Request], Listing],
                 read_member: Callable[[Source, str, Request], bytes]) -> None:
        self.listing = listing
        self.read_member = read_member


def _rar() -> Unsupported:
    return Unsupported("RAR archives are not supported", "convert it to zip or 7z, or use `unrar l`")


def _is_zip(src: Source) -> bool:
    with src.open() as fh:
        return fh.read(4) in (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")


def _backend(src: Source) -> _Backend:
    kind = src.kind
    if kind == "rar":
        raise _rar()
    if kind == "7z":
        from boundread.formats.archives import sevenz

        return _Backend(sevenz.listing, sevenz.read_member)
    if kind == "tar":
        from boundread.formats.archives import tarfiles

        return _Backend(tarfiles.listing, tarfiles.read_member)
    if kind in _SINGLE:
        from boundread.formats.archives import single

        return _Backend(single.listing, single.read_member)
    if kind in _ZIP_BASED and _is_zip(src):
        from boundread.formats.archives import zipfiles

        return _Backend(zipfiles.listing, zipfiles.read_member)
    raise UsageError(f"{src.name} is not an archive (it is {kind})",
                     f"run `boundread info {shlex.quote(src.name)}`")


def listing(src: Source, req: Request) -> Listing:
    """The table of contents, at most ``max_entries`` entries, from the archive's directory only."""
    return _backend(src).listing(src, req)


def read_member(src: Source, name: str, req: Request) -> bytes:
    """One member's bytes, read through a stream capped at ``max_member_bytes``; never to disk."""
    return _backend(src).read_member(src, name, req)


def _first_readable(lst: Listing, req: Request) -> str | None:
    """The member to suggest: readable, within the cap, and by its name a document or text if any is."""
    readable = [
        entry.name for entry in lst.entries
        if not (entry.is_dir or entry.is_symlink or entry.link_target is not None)
        and not (entry.encrypted and req.password is None)
        and not (entry.size is not None and entry.size > req.limits.max_member_bytes)
    ]
    wordy = (name for name in readable if kind_from_name(name) not in (None, "binary", "image"))
    return next(wordy, readable[0] if readable else None)


def _member_suggestion(lst: Listing, req: Request) -> Suggestion | None:
    """Extract the first readable member; failing that, the first encrypted one with a password."""
    if (first := _first_readable(lst, req)) is not None:
        needs = req.password is not None and any(e.encrypted for e in lst.entries if e.name == first)
        return ("extract", FILE, "--member", first, *(("--password", "PASSWORD") if needs else ()))
    locked = next((e.name for e in lst.entries if e.encrypted and not e.is_dir), None)
    return None if locked is None else ("extract", FILE, "--member", locked, "--password", "PASSWORD")


def info(src: Source, req: Request) -> Details:
    if src.kind == "rar":
        err = _rar()
        return Details(fields={"format": "rar", "size": src.size}, warnings=[f"{err.what} - {err.fix}"])
    if src.kind in _SINGLE:
        from boundread.formats.archives import single

        return single.info(src, req)
    try:
        lst = listing(src, req)
    except Encrypted as exc:
        return Details(fields={"format": src.kind, "headers_encrypted": True}, encrypted=True,
                       warnings=[f"{exc.what}: the listing needs the password - {exc.fix}"],
                       next=[("list-zip", FILE, "--password", "PASSWORD")])
    ratio = round(lst.total_size / lst.total_compressed, 1) if lst.total_compressed else None
    fields: dict[str, object] = {
        "format": lst.format,
        "entries": lst.total_entries,
        "total_size": lst.total_size,
        "compressed": lst.total_compressed,
        "largest": lst.largest,
        "ratio": ratio,
        "encrypted_entries": lst.encrypted_entries,
        "solid": lst.solid,
        "nested_archives": sum(NESTED in e.warnings for e in lst.entries),
    }
    if lst.truncated:
        fields["listing_truncated"] = True
    if lst.solid:
        lst.warnings.append("solid archive: reading one member decompresses everything before it")
    unlocked = req.password is not None and lst.encrypted_entries > 0
    suggestions: list[Suggestion] = [("list-zip", FILE, "--password", "PASSWORD") if unlocked else ("list-zip", FILE)]
    if (member := _member_suggestion(lst, req)) is not None:
        suggestions.append(member)
    return Details(fields=dict(fields), encrypted=lst.encrypted_entries > 0, est_chars=None,
                   warnings=lst.warnings, next=suggestions)


def entry_line(entry: Entry) -> str:
    """One line of the text listing: size, modified, name, flags."""
    size = "-" if entry.size is None else f"{entry.size:,}"
    flags = []
    if entry.is_dir:
        flags.append("[dir]")
    if entry.link_target is not None:
        flags.append(f"-> {display(entry.link_target)}")
    if entry.encrypted:
        flags.append("[encrypted]")
    flags.extend(f"[! {w}]" for w in entry.warnings if w != ENCRYPTED)
    tail = "  " + " ".join(flags) if flags else ""
    return f"{size:>14}  {entry.modified or '-':<25}  {display(entry.name)}{tail}\n"


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    """Without ``--member``: the listing as text (one line per entry); gz/bz2/xz: the decompressed text."""
    if src.kind in _SINGLE:
        from boundread.formats.archives import single

        return single.extract(src, req, sink)
    lst = listing(src, req)
    packed = "" if lst.total_compressed is None else f", {lst.total_compressed:,} compressed"
    header = f"# {lst.format}: {lst.total_entries:,} entries, {lst.total_size:,} bytes uncompressed{packed}\n"
    written = 0
    if sink.write(header):
        for entry in lst.entries:
            if not sink.write(entry_line(entry)):
                break
            written += 1
    outcome = Outcome(unit="entries", warnings=list(lst.warnings))
    outcome.done = f"entries 1-{written} of {lst.total_entries:,}" if written else "no entries"
    outcome.totals = {"entries": lst.total_entries, "total_size": lst.total_size}
    if lst.truncated:
        full = len(lst.entries) >= req.limits.max_entries
        outcome.truncated.append(f"max_entries {req.limits.max_entries:,} reached" if full
                                 else f"listing stopped after {len(lst.entries):,} entries (see warnings)")
    member = _member_suggestion(lst, req)
    # the listing's next page first (a member held in memory has no path that list-zip could name), then a member
    page = None if src.path is None else lst.resume if written == len(lst.entries) else next_page(lst, written, req)
    outcome.resume = page or member
    outcome.more = [member] if page is not None and member is not None else []
    return outcome
