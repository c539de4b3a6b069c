"""A listing page in words and its next command: shared by the JSON envelope and the human view."""

from __future__ import annotations

from boundread.contract.model import Listing, Source


def listing_next(src: Source, listing: Listing) -> list[str]:
    from boundread.core.engine import command_line

    return [] if listing.resume is None else [command_line(listing.resume, src.name)]


def listing_words(listing: Listing) -> str | None:
    """What a page of a listing holds: ``listed 500 of 1,200 entries (1-500)``, ``no entries in 1300-1400 of
    1,200``, ``no attachments``; None for a whole listing (nothing cut, no range, no pattern) of some entries."""
    shown, first, total = len(listing.entries), listing.first, listing.total_entries
    if listing.match is None:
        pool = f"{total:,} entries"
    else:
        pool = f"{listing.matching or 0:,} matching {listing.match!r} of {total:,} entries"
    count = total if listing.matching is None else listing.matching
    if shown:
        last = first + shown - 1
        if listing.truncated and count <= last:  # the walk stopped at the page: how many follow is unknown
            which = "entries" if listing.match is None else f"matching {listing.match!r}"
            return f"listed {shown:,} {which} ({first}-{last}); more follow"
        if not listing.truncated and first == 1 and listing.match is None:
            return None
        return f"listed {shown:,} of {pool} ({first}-{last})"
    if listing.timed_out:
        return f"no entries listed: the listing ran out of time before entry {first:,} (see the warnings)"
    if listing.match is not None and first == 1 and listing.last is None:
        return f"no entries matching {listing.match!r} of {total:,}"
    if total == 0 and first == 1 and listing.match is None:  # not "no entries in 1- of 0 entries"
        return "no attachments" if listing.format in ("eml", "msg") else "no entries: the archive is empty"
    return f"no entries in {first}-{listing.last or ''} of {pool}"
