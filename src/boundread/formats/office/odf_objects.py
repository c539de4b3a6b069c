"""Objects embedded in ODF documents (odt, odp): a chart as its ``Chart:`` line, anything else a warning.

A ``draw:object`` names a sub-document of the package (``./Object 1`` -> ``Object 1/content.xml``). A chart
sub-document (``office:chart``) holds its title, subtitle and axis titles as ``text:p``, and its series names
and category labels in a small local table (header row: series; first column: categories). Other embedded
objects (formulas, nested documents) are not read, and the warning names them. The part is streamed and
its elements dropped as they end; one over CHART_CAP is not read (a warning).
"""

from __future__ import annotations

import posixpath

from boundread.errors import Corrupt, Refused
from boundread.formats._ooxml import charts
from boundread.formats._ooxml.charts import ChartText
from boundread.formats._ooxml.package import Package
from boundread.formats._xml import local, odf_text


def object_part(href: str) -> str | None:
    """``./Object 1`` -> ``Object 1/content.xml``; None for an external or odd reference."""
    path = posixpath.normpath(href.strip().removeprefix("./"))
    if not href.strip() or ":" in href or path.startswith(("..", "/")):
        return None
    return posixpath.join(path, "content.xml")


def _chart(pkg: Package, part: str) -> ChartText | None:
    """The chart's text, or None when the object is no chart."""
    if pkg.size(part) > charts.CHART_CAP:
        raise Refused(f"{pkg.name}: chart {part} is {pkg.size(part):,} bytes",
                      f"charts over {charts.CHART_CAP:,} bytes are not read")
    out = ChartText()
    names: list[str] = []
    is_chart = False
    row: list[str] = []
    header = False
    for event, elem in pkg.iterparse(part):
        name = local(elem.tag)
        if event == "start":
            names.append(name)
            is_chart = is_chart or name == "chart"
            row = [] if name == "table-row" else row
            header = header or name == "table-header-rows"
            continue
        names.pop()
        if name in ("title", "subtitle") and names and names[-1] in ("chart", "axis"):
            text = " ".join(odf_text(p) for p in elem.iter() if local(p.tag) == "p").strip()
            if text and names[-1] == "axis":
                out.axes.append(text)
            elif text and name == "title" and not out.title:
                out.title = text
            elif text and name == "subtitle":
                out.title = f"{out.title} ({text})" if out.title else text
        elif name == "series":
            out.count += 1
        elif name == "table-cell" and "table" in names:
            row.append(" ".join(odf_text(p) for p in elem.iter() if local(p.tag) == "p").strip())
        elif name == "table-row" and "table-header-rows" in names:
            out.series.extend(cell for cell in row[1:] if cell)
        elif name == "table-row" and row and row[0]:
            out.label(row[0])
        if name in ("table-row", "series", "title", "subtitle"):
            elem.clear()  # read: keep memory flat however many rows the local table has
    if not header:
        out.series = []
    out.count = max(out.count, len(out.series))
    out.series = out.series[: out.count]
    return out if is_chart else None


def object_lines(pkg: Package, href: str, warnings: list[str]) -> list[str]:
    """The text of the embedded object ``href``: a chart's marked line, or [] with a warning."""
    part = object_part(href)
    if part is None or not pkg.has(part):
        return []  # a linked (external) object or a replacement image only: nothing embedded to read
    try:
        chart = _chart(pkg, part)
    except (Refused, Corrupt) as exc:
        warnings.append(f"chart {part} not read: {exc.what}")
        return []
    if chart is None:
        warnings.append(f"embedded object {posixpath.dirname(part)} is not a chart: its content was not read")
        return []
    return [chart.line()]

