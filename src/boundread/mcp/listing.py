"""``list_zip``: an archive's listing as one tool's reply, its body whole entry lines within the server's cap, its
next page going on from the first entry the cut left out."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from boundread import api, render
from boundread.contract.model import Listing, Request
from boundread.core import naming
from boundread.mcp import calls, text
from boundread.mcp.config import Config
from boundread.mcp.reply import Reply, Target, calls_for, envelope, limits, save, size, unaliased
from boundread.mcp.slices import FIT_TRIES, RESERVE, shrunk
from boundread.ranges import parse_span
from boundread.render.listing import listing_next

LEAST_LISTING = 200  # characters of a listing's body a fit keeps at least: a line or two


def list_zip(config: Config, target: Target, *, max_entries: int = 500, password: str | None = None,
             entries: str | None = None, match: str | None = None) -> Reply:
    listed = api.list_archive(target.real, password=password, limits=limits(config, max_entries=max_entries),
                              entries=entries, match=match)
    src, listing = listed.source, listed.listing
    # the page the call asked for, as the listing's own next page is worked out from it (a cut body's next page)
    req = Request(limits=limits(config, max_entries=max_entries), entries=parse_span(entries, "entries") if entries
                  else None, match=match)
    lines = text.listing_lines(target.shown, listing)
    whole, name, cap = "\n".join(lines) + "\n", naming.listing_name(target.shown), config.max_chars
    budget = cap if cap < 2 * RESERVE else cap - RESERVE - cap // 25
    for _ in range(FIT_TRIES):  # the reply, its envelope and link within the cap, as a slice's (see slices.fitted)
        reply = _listing_reply(target, src, listing, lines, whole, budget, req, name)
        if cap < 2 * RESERVE or reply.size <= cap or budget <= LEAST_LISTING:
            break
        budget = max(LEAST_LISTING, shrunk(budget, reply.size, cap))  # an entry's JSON is ~5x its line
    return reply


def _listing_reply(target: Target, src: Any, listing: Listing, lines: list[str], whole: str, budget: int,
                   req: Request, name: str) -> Reply:
    """A listing's reply with a body of at most ``budget`` characters (whole entry lines)."""
    body, cut = _bounded(whole, budget)
    listing, unshown = _cut_listing(listing, lines, len(body), req) if cut else (listing, None)
    first = next((e.name for e in listing.entries if not e.is_dir and not e.warnings), None)
    steps = calls_for(listing_next(src, listing), target)  # the next page first, then a member
    steps += [calls.render("extract", {"path": target.shown, "member": first})] if first else []

    def said(saved: Path | None, warning: str | None) -> Reply:
        tail = [f"saved: {saved}" if saved else f"saved: nowhere ({warning})"]
        tail += ["cut: the listing is longer than max_chars" + (f"; {unshown}" if unshown else "")] if cut else []
        tail += [f"next: {step}" for step in steps] or ["next: none - the archive has no member to read"]
        data = {**render.listing_dict(src, listing), "path": target.shown, "resolved": target.resolved,
                "output": str(saved) if saved else None, "next_calls": steps}
        return Reply(body + "\n" + "\n".join(tail), envelope("list-zip", data), saved)

    def finish() -> Reply:
        return said(*save(target, body, name))

    return Reply("", {}, pending=finish, size=size(unaliased(said(target.out_dir / name, None), target)))


def _cut_listing(listing: Listing, lines: list[str], kept: int, req: Request) -> tuple[Listing, str | None]:
    """The listing as far as the cut body shows it (``lines``: its header, then one line per entry): its
    entries those whose line is whole in the first ``kept`` characters, its next page from the first not shown
    (past an entry whose line alone is longer than the cap, so each next call makes progress), and words for
    what the cut left out; the listing as it is when every entry is shown."""
    from boundread.formats.archives.common import next_page

    shown, used = 0, len(lines[0]) + 1
    for line in lines[1:1 + len(listing.entries)]:
        used += len(line) + 1
        if used > kept:
            break
        shown += 1
    if shown == len(listing.entries):
        return listing, None
    number = listing.first + shown
    words = f"entries {listing.first:,}-{number - 1:,} shown" if shown else f"entry {number:,} does not fit"
    page = next_page(listing, max(shown, 1), req)
    goes_on = f"; the next call goes on from entry {number + (0 if shown else 1):,}" if page is not None else ""
    return replace(listing, entries=listing.entries[:shown], truncated=True, resume=page), words + goes_on


def _bounded(body: str, max_chars: int) -> tuple[str, bool]:
    if len(body) <= max_chars:
        return body, False
    return body[:max_chars].rsplit("\n", 1)[0] + "\n", True
