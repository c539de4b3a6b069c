"""Charts and SmartArt a word-processing body draws, and objects an ODF text embeds: the "graphic" blocks of
:mod:`.wordstream` read from the parts they name, as the marked text :mod:`.charts`, :mod:`.diagrams` and
:mod:`.odf_objects` make of them."""

from __future__ import annotations

from boundread.contract.sink import Sink
from boundread.errors import Corrupt
from boundread.formats._ooxml.charts import chart_line
from boundread.formats._ooxml.diagrams import diagram_lines
from boundread.formats._ooxml.package import Package
from boundread.formats.office.odf_objects import object_lines
from boundread.formats.office.wordstream import Block, blocks

GRAPHIC_KINDS = frozenset({"chart", "chartEx", "diagramData"})


def graphic_rels(pkg: Package, part: str) -> dict[str, tuple[str, str]]:
    """The part's relationships to charts and SmartArt data ({} for a document with neither)."""
    return {rid: (kind, target) for rid, (kind, target) in pkg.rels(part).items()
            if kind in GRAPHIC_KINDS and pkg.has(target)}


def graphic_text(pkg: Package, rels: dict[str, tuple[str, str]], block: Block, warnings: list[str]) -> str:
    """A graphic block as markdown text ("" when it names no chart or SmartArt part)."""
    kind, target = rels.get(block.note_id, ("", ""))
    if block.container in ("chart", "diagram") and not kind:
        what = "chart" if block.container == "chart" else "SmartArt"
        warnings.append(f"{what} {block.note_id} not read: the part it names is missing")
        return ""
    if block.container == "chart" and kind in ("chart", "chartEx"):
        line = chart_line(pkg, target, warnings)
        return line + "\n\n" if line else ""
    if block.container == "object":
        lines = object_lines(pkg, block.note_id, warnings)
        return "\n".join(lines) + "\n\n" if lines else ""
    if block.container == "diagram" and kind == "diagramData":
        lines = diagram_lines(pkg, target, warnings)
        return "\n".join(lines) + "\n\n" if lines else ""
    return ""


def graphics_after(
    pkg: Package, part: str, drawn: dict[str, tuple[str, str]], sink: Sink, warnings: list[str]
) -> None:
    """The converter drops charts and SmartArt: their text follows the body, in document order, and a warning
    says they are not where they stand."""
    written = 0
    try:
        for block in (b for b in blocks(pkg, part) if b.kind == "graphic"):
            text = graphic_text(pkg, drawn, block, warnings)
            if text and not sink.write(text):
                break
            written += bool(text)
    except Corrupt as exc:
        warnings.append(f"{exc.what}: charts and SmartArt after it could not be read")
    if written:
        warnings.append(f"{written} chart{'s' * (written != 1)}/SmartArt printed after the body, not where "
                        "they stand in it (the converter drops them)")
