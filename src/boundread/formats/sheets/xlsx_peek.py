"""The cheap look at an xlsx: sheet names, states and declared sizes, without parsing one cell.

``xl/workbook.xml`` and its rels name the sheets; each sheet part is parsed with "start" events
only up to ``<dimension>`` or the start of ``<sheetData>``. XML goes through defusedxml.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator

from boundread import record as rec
from boundread.formats._xml import local

TYPE_CHECKING = False  # typing for mypy only: it costs a read's start-up
if TYPE_CHECKING:
    import zipfile
    from typing import Any

HUGE_CELLS = 10_000_000  # a declared size above this is reported but flagged

_REF = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d{1,7})$")


class SheetMeta(rec.Record, frozen=True):
    """One sheet as the workbook declares it (xlsx) or as calamine reports it (xls, ods)."""

    index: int  # 1-based, in workbook order
    name: str
    state: str = "visible"  # visible | hidden | veryHidden
    type: str = "worksheet"  # worksheet | chartsheet | dialogsheet | macrosheet
    rows: int | None = None
    cols: int | None = None
    dimension: str | None = None
    xml_bytes: int | None = None
    part: str | None = None  # the zip member of an xlsx sheet

    @property
    def hidden(self) -> bool:
        return self.state != "visible"

    def as_dict(self) -> dict[str, Any]:
        return {
            "index": self.index, "name": self.name, "rows": self.rows, "cols": self.cols,
            "hidden": self.hidden, "state": self.state, "type": self.type,
            "dimension": self.dimension, "xml_bytes": self.xml_bytes,
        }


class Workbook(rec.Record, frozen=True):
    sheets: tuple[SheetMeta, ...]
    date1904: bool = False
    macros: bool = False
    strings_part: str | None = None
    strings_bytes: int = 0
    styles_part: str | None = None
    #: <calcPr fullCalcOnLoad="1">: the writer asks for every formula to be computed on open (xlsxwriter,
    #: which saves 0 for each formula's value unless told the value)
    full_calc: bool = False


def iterparse(stream: Any, events: tuple[str, ...]) -> Iterator[tuple[str, Any]]:
    from defusedxml.ElementTree import iterparse as safe_iterparse

    return safe_iterparse(stream, events=events)  # type: ignore[no-any-return]


def column_number(letters: str) -> int:
    number = 0
    for ch in letters.upper():
        number = number * 26 + ord(ch) - 64
    return number


def cell_position(ref: str) -> tuple[int, int] | None:
    """"B3" -> (row 3, column 2); None when it is not a cell reference."""
    match = _REF.match(ref.strip())
    if not match:
        return None
    return int(match.group(2)), column_number(match.group(1))


def members(zf: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    """Zip members by lower-cased name: some writers disagree with the rels about case."""
    return {info.filename.lower().lstrip("/"): info for info in zf.infolist()}


def read_workbook(zf: zipfile.ZipFile) -> Workbook:
    """Sheets (with dimensions), the date system, macros and the shared-strings part."""
    parts = members(zf)
    if "xl/workbook.xml" not in parts:
        raise KeyError("xl/workbook.xml")
    targets, special = _relationships(zf, parts)
    raw: list[tuple[str, str, str | None]] = []
    date1904 = full_calc = False
    with zf.open(parts["xl/workbook.xml"]) as stream:
        for _event, elem in iterparse(stream, ("end",)):
            name = local(elem.tag)
            if name == "workbookPr":
                date1904 = elem.get("date1904", "0").lower() in ("1", "true")
            elif name == "calcPr":
                full_calc = elem.get("fullCalcOnLoad", "0").lower() in ("1", "true")
            elif name == "sheet":
                rid = next((v for k, v in elem.attrib.items() if local(k) == "id"), None)
                raw.append((elem.get("name", ""), elem.get("state", "visible"), rid))
    sheets = []
    for index, (name, state, rid) in enumerate(raw, start=1):
        part, kind = targets.get(rid or "", (None, "worksheet"))
        info = parts.get(part) if part else None
        dim = _dimension(zf, info) if info is not None and kind == "worksheet" else None
        position = _extent(dim)
        sheets.append(SheetMeta(
            index=index, name=name, state=state if state in ("hidden", "veryHidden") else "visible",
            type=kind, rows=position[0] if position else None, cols=position[1] if position else None,
            dimension=dim, xml_bytes=info.file_size if info is not None else None,
            part=info.filename if info is not None else None,
        ))
    strings = parts.get(special.get("sharedStrings", "xl/sharedstrings.xml"))
    styles = parts.get(special.get("styles", "xl/styles.xml"))
    return Workbook(
        sheets=tuple(sheets), date1904=date1904, full_calc=full_calc,
        macros=any(key.endswith("vbaproject.bin") for key in parts),
        strings_part=strings.filename if strings else None,
        strings_bytes=strings.file_size if strings else 0,
        styles_part=styles.filename if styles else None,
    )


def _relationships(
    zf: zipfile.ZipFile, parts: dict[str, zipfile.ZipInfo]
) -> tuple[dict[str, tuple[str, str]], dict[str, str]]:
    """rId -> (lower-cased part, sheet type), and type -> part for sharedStrings and styles."""
    targets: dict[str, tuple[str, str]] = {}
    special: dict[str, str] = {}
    info = parts.get("xl/_rels/workbook.xml.rels")
    if info is None:
        return targets, special
    with zf.open(info) as stream:
        for _event, elem in iterparse(stream, ("end",)):
            if local(elem.tag) != "Relationship":
                continue
            target = elem.get("Target", "")
            kind = elem.get("Type", "").rsplit("/", 1)[-1]
            path = target.lstrip("/") if target.startswith("/") else posixpath.join("xl", target)
            path = posixpath.normpath(path).lower()
            if kind in ("worksheet", "chartsheet", "dialogsheet", "xlMacrosheet"):
                targets[elem.get("Id", "")] = (path, "macrosheet" if kind == "xlMacrosheet" else kind)
            elif kind in ("sharedStrings", "styles"):
                special[kind] = path
    return targets, special


def _dimension(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> str | None:
    """The <dimension ref>, reading only the sheet's head (stops at <sheetData>)."""
    with zf.open(info) as stream:
        for _event, elem in iterparse(stream, ("start",)):
            name = local(elem.tag)
            if name == "dimension":
                ref = elem.get("ref")
                return ref.upper() if ref else None
            if name == "sheetData":
                return None
    return None


def _extent(ref: str | None) -> tuple[int, int] | None:
    """The last row and column a dimension reaches: "A1:K2" -> (2, 11)."""
    if not ref:
        return None
    return cell_position(ref.split(":")[-1])
