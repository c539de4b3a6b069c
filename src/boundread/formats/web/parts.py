"""Which numbered parts a read asks for (a notebook's cells, a book's chapters), as pages are asked for: the
``--pages`` spans in file order, clamped to the parts there are with a warning, a span wholly past them refused."""

from __future__ import annotations

from boundread.contract.model import FILE, Entry, Listing, Request, Span
from boundread.errors import UsageError
from boundread.ranges import OPEN_END


def select(req: Request, total: int, name: str, unit: str, whole: str) -> tuple[list[int], list[str]]:
    """The part numbers ``req.pages`` asks for (all without it) and the clamping warnings; ``unit`` names a part
    ("cell"), ``whole`` the file ("notebook")."""
    if not req.pages:
        return list(range(1, total + 1)), []
    chosen: set[int] = set()
    warnings: list[str] = []
    for span in req.pages:
        if span.first > total or span.last < 1:
            raise UsageError(f"{unit}s {span}: {name} has {total:,} {unit}{'s' * (total != 1)}",
                             f"ask for {unit}s 1-{total}" if total > 1 else
                             f"ask for {unit} 1" if total else f"it has no {unit}s to read")
        if span.last > total:
            warnings.append(f"{unit}s {span} cut to {span.first}-{total}: the {whole} has {total:,} {unit}s")
        chosen.update(range(max(span.first, 1), min(span.last, total) + 1))
    return sorted(chosen), warnings


def attachments(fmt: str, named: list[tuple[str, int]], warnings: list[str], req: Request) -> Listing:
    """A message's attachments (``(name, size)`` in order) as ``list-zip`` pages them: ``--entries``, ``--match``
    and ``--max-entries`` applied, and the ``list-zip`` step that goes on when a page is cut. One listing for .eml
    and .msg alike."""
    from fnmatch import fnmatchcase

    span = req.entries or Span(1, OPEN_END)
    kept = [one for one in named if req.match is None or fnmatchcase(one[0], req.match)]
    page = kept[span.first - 1:span.last][:req.limits.max_entries]
    lst = Listing(format=fmt, entries=[Entry(name, size, None, None) for name, size in page],
                  total_entries=len(named), total_size=sum(size for _, size in named),
                  largest=max((size for _, size in named), default=0), warnings=list(warnings),
                  first=span.first, last=None if span.last == OPEN_END else span.last, match=req.match,
                  matching=len(kept) if req.match is not None else None)
    end = span.first - 1 + len(page)
    lst.truncated = end < min(len(kept), span.last)
    if lst.truncated:
        words = ("--match", req.match) if req.match else ()
        lst.resume = ("list-zip", FILE, *words, "--entries", f"{end + 1}-{end + req.limits.max_entries}")
    return lst


def unique_name(name: str, seen: set[str]) -> str:
    """``name``, or ``name (2).ext``, ``(3)``... when a message's earlier attachment took it; recorded in ``seen``."""
    stem, dot, ext = name.rpartition(".") if "." in name else (name, "", "")
    candidate, k = name, 1
    while candidate in seen:
        k += 1
        candidate = f"{stem} ({k}){dot}{ext}"
    seen.add(candidate)
    return candidate
