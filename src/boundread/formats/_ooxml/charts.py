"""Chart parts (DrawingML ``c:chartSpace``, in pptx, docx and xlsx alike) as one marked line of text.

``Chart: Sales - series North, South; categories Q1, Q2; axes Quarter, Revenue``: the title, the series
names, the first series' category labels and the axis titles, which is the text a reader sees on the chart
(the plotted numbers are left out, as a picture of the chart would show them only as bars). Chartex parts
(``cx:chartSpace``: waterfall, treemap, histogram...) give the same from their ``cx:data`` labels. The part is
streamed and its elements dropped as they end, so a chart with a huge number cache stays flat in memory; a
part over CHART_CAP is not read and the caller gets a warning naming it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from boundread.errors import Corrupt, Refused
from boundread.formats._ooxml.package import Package
from boundread.formats._xml import attr, local

CHART_CAP = 8 * 1024 * 1024  # uncompressed bytes of a chart part read at most
MAX_LABELS = 50  # category labels shown per chart; the rest are counted


@dataclass
class ChartText:
    title: str = ""
    series: list[str] = field(default_factory=list)
    categories: list[str] = field(default_factory=list)
    more_categories: int = 0
    axes: list[str] = field(default_factory=list)
    count: int = 0  # series in all, named or not

    def label(self, text: str) -> None:
        """One category label: kept up to MAX_LABELS, counted past it."""
        if len(self.categories) < MAX_LABELS:
            self.categories.append(text)
        else:
            self.more_categories += 1

    def line(self) -> str:
        """The marked line; a chart with no text at all still says it is there (and how many series)."""
        parts: list[str] = []
        unnamed = self.count - len(self.series)
        if self.series or unnamed > 0:
            names = [*self.series, f"{unnamed} unnamed"] if unnamed > 0 else self.series
            parts.append("series " + ", ".join(names))
        if self.categories:
            more = f" (and {self.more_categories:,} more)" if self.more_categories else ""
            parts.append("categories " + ", ".join(self.categories) + more)
        if self.axes:
            parts.append("axes " + ", ".join(self.axes))
        head = f"Chart: {self.title or '(untitled)'}"
        return head + " - " + "; ".join(parts) if parts else head


def _clean(text: str) -> str:
    return " ".join(text.split())


def read_chart(pkg: Package, part: str) -> ChartText:
    """The text of one chart part. Refused when it is over CHART_CAP; Corrupt when it is damaged."""
    if pkg.size(part) > CHART_CAP:
        raise Refused(f"{pkg.name}: chart {part} is {pkg.size(part):,} bytes", f"charts over {CHART_CAP:,} bytes "
                      "are not read")
    out = ChartText()
    names: list[str] = []
    runs: list[str] = []  # a:t text inside the title or axis title being read
    data = 0  # chartex: the cx:data blocks seen (its categories are those of the first)
    cat_dim = False  # chartex: inside a cx:strDim type="cat"
    for event, elem in pkg.iterparse(part):
        name = local(elem.tag)
        name = "ser" if name == "series" else name  # chartex (cx:series) as DrawingML charts (c:ser)
        if event == "start":
            names.append(name)
            if name == "title":
                runs = []
            elif name == "ser":
                out.count += 1
            elif name == "data":
                data += 1
            elif name == "strDim":
                cat_dim = attr(elem, "type") == "cat" and data == 1
            continue
        names.pop()
        if name == "t" and "title" in names:
            runs.append(elem.text or "")
        elif name == "p" and "title" in names:
            runs.append(" ")
        elif name == "v" and "ser" in names:
            text = _clean(elem.text or "")
            if "tx" in names[names.index("ser"):] and "cat" not in names:
                if text and len(out.series) < out.count:  # a series name cached over several cells: the first
                    out.series.append(text)
            elif "cat" in names and out.count == 1 and text:
                out.label(text)
        elif name == "pt" and cat_dim and "lvl" in names and elem.text and elem.text.strip():
            out.label(_clean(elem.text))
        elif name == "strDim":
            cat_dim = False
        elif name == "v" and "tx" in names and "title" in names:
            runs.append(elem.text or "")  # a title that refers to a cell: its cached text
        elif name == "title":
            text = _clean("".join(runs))
            where = names[-1] if names else ""
            if text and where == "chart" and not out.title:
                out.title = text
            elif text and (where.endswith("Ax") or where == "axis"):
                out.axes.append(text)
        elem.clear()  # its text is taken: keep memory flat however big the number caches are
    return out


def chart_line(pkg: Package, part: str, warnings: list[str]) -> str:
    """The chart's marked line, or "" with a warning saying why it was not read."""
    try:
        return read_chart(pkg, part).line()
    except (Refused, Corrupt) as exc:
        warnings.append(f"chart {part} not read: {exc.what}")
        return ""
