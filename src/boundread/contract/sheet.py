"""One sheet of a workbook, as ``boundread.sheet_list`` returns it: a TypedDict of its own, so typing (~4 ms) loads
with this type and not with every read (``boundread.api`` hands it out on first use)."""

from __future__ import annotations

from typing import TypedDict


class Sheet(TypedDict):
    """One sheet as the workbook declares it (what ``boundread sheets F`` lists)."""

    index: int  # 1-based, in workbook order
    name: str
    rows: int | None
    cols: int | None
    hidden: bool
    state: str  # visible | hidden | veryHidden
    type: str  # worksheet | chartsheet | dialogsheet | macrosheet
    dimension: str | None
    xml_bytes: int | None
