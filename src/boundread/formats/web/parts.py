"""Which numbered parts a read asks for (a notebook's cells, a book's chapters), as pages are asked for: the
``--pages`` spans in file order, clamped to the parts there are with a warning, a span wholly past them refused."""

from __future__ import annotations

from boundread.contract.model import Request
from boundread.errors import UsageError


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
