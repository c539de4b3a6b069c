"""Office text that lives outside the body - SmartArt data parts, chart labels, slide comments - is read where
it lives and marked (``SmartArt:``, ``Chart: ...``, ``Comment (author): ...``), or a warning names what was
skipped. Fixtures are python-pptx / python-docx files with the minimal parts PowerPoint and Word write added."""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.formats.office_parts import (
    add_rels,
    chart_frame_inline,
    chart_xml,
    diagram_data,
    empty_rels,
    graphic_paragraph,
    insert_before,
    rezip,
    smartart_frame,
    smartart_graphic,
    text_box_paragraph,
)

from boundread.contract.model import Request, Source
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes, source_for_path
from boundread.formats._ooxml import charts, diagrams
from boundread.formats.office import docx, pptx
from boundread.limits import Limits

REL_T = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
TREE = [("A", "Plan SMART-ONE", "D", 0), ("A1", "Budget SMART-CHILD", "A", 0), ("B", "Build SMART-TWO", "D", 1),
        ("C", "Ship SMART-THREE", "D", 2)]
SMARTART = "SmartArt:\n- Plan SMART-ONE\n  - Budget SMART-CHILD\n- Build SMART-TWO\n- Ship SMART-THREE\n"
LEGACY_COMMENTS = (
    b'<?xml version="1.0"?><p:cmLst xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main">'
    b'<p:cm authorId="0" dt="2024-01-01T00:00:00" idx="1"><p:pos x="10" y="10"/>'
    b"<p:text>LEGACY-COMMENT check the figures</p:text></p:cm></p:cmLst>"
)
LEGACY_AUTHORS = (
    b'<?xml version="1.0"?><p:cmAuthorLst xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main">'
    b'<p:cmAuthor id="0" name="Ada Lovelace" initials="AL" lastIdx="1" clrIdx="0"/></p:cmAuthorLst>'
)
P188 = "http://schemas.microsoft.com/office/powerpoint/2018/8/main"
MODERN_COMMENTS = (
    f'<?xml version="1.0"?><p188:cmLst xmlns:p188="{P188}" xmlns:a="http://schemas.openxmlformats.org/drawingml/'
    f'2006/main"><p188:cm id="{{C1}}" authorId="{{AU-1}}" created="2024-01-01T00:00:00"><p188:replyLst>'
    f'<p188:reply id="{{R1}}" authorId="{{AU-2}}"><p188:txBody><a:bodyPr/><a:p><a:r><a:t>MODERN-REPLY agreed'
    f"</a:t></a:r></a:p></p188:txBody></p188:reply></p188:replyLst><p188:txBody><a:bodyPr/><a:p><a:r><a:t>"
    f"MODERN-COMMENT move this up</a:t></a:r></a:p></p188:txBody></p188:cm></p188:cmLst>"
).encode()
MODERN_AUTHORS = (
    f'<?xml version="1.0"?><p188:authorLst xmlns:p188="{P188}"><p188:author id="{{AU-1}}" name="Grace Hopper" '
    f'initials="GH" userId="g" providerId="None"/><p188:author id="{{AU-2}}" name="Alan Turing" initials="AT" '
    f'userId="a" providerId="None"/></p188:authorLst>'
).encode()


def _deck() -> bytes:
    import pptx as pypptx
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    prs = pypptx.Presentation()
    first = prs.slides.add_slide(prs.slide_layouts[5])
    first.shapes.title.text = "Process"
    second = prs.slides.add_slide(prs.slide_layouts[6])
    data = CategoryChartData()
    data.categories = ["CAT-Q1", "CAT-Q2", "CAT-Q3"]
    data.add_series("SERIES-North", (1, 2, 3))
    data.add_series("SERIES-South", (3, 2, 1))
    frame = second.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(1), Inches(6), Inches(4), data)
    chart = frame.chart
    chart.has_title = True
    chart.chart_title.text_frame.text = "CHART-TITLE Sales"
    chart.category_axis.axis_title.text_frame.text = "AXIS-Quarter"
    chart.value_axis.axis_title.text_frame.text = "AXIS-Revenue"
    third = prs.slides.add_slide(prs.slide_layouts[6])
    third.shapes.add_textbox(Inches(1), Inches(1), Inches(3), Inches(1)).text_frame.text = "THIRD-BODY"
    buf = io.BytesIO()
    prs.save(buf)
    return buf.getvalue()


@cache
def deck() -> bytes:
    """Slide 1: a title and SmartArt only. Slide 2: a chart. Slide 3: legacy and modern comments."""
    import zipfile

    base = _deck()
    with zipfile.ZipFile(io.BytesIO(base)) as zf:
        slide1, rels1 = zf.read("ppt/slides/slide1.xml"), zf.read("ppt/slides/_rels/slide1.xml.rels")
        rels3 = zf.read("ppt/slides/_rels/slide3.xml.rels")
    slide1 = insert_before(slide1, "</p:spTree>", smartart_frame("rIdDgm"))
    rels1 = add_rels(rels1, ("rIdDgm", f"{REL_T}/diagramData", "../diagrams/data1.xml"))
    rels3 = add_rels(rels3, ("rIdCm1", f"{REL_T}/comments", "../comments/comment1.xml"),
                     ("rIdCm2", "http://schemas.microsoft.com/office/2018/10/relationships/comments",
                      "../comments/modernComment_100_ABC.xml"))
    return rezip(base, {
        "ppt/slides/slide1.xml": slide1, "ppt/slides/_rels/slide1.xml.rels": rels1,
        "ppt/diagrams/data1.xml": diagram_data(TREE), "ppt/slides/_rels/slide3.xml.rels": rels3,
        "ppt/comments/comment1.xml": LEGACY_COMMENTS, "ppt/commentAuthors.xml": LEGACY_AUTHORS,
        "ppt/comments/modernComment_100_ABC.xml": MODERN_COMMENTS, "ppt/authors.xml": MODERN_AUTHORS,
    })


def run(src: Source, limits: Limits | None = None, **req: Any) -> tuple[str, Any]:
    sink = Sink(limits or Limits())
    handler = docx if src.kind in ("docx", "odt") else pptx
    outcome = handler.extract(src, Request(limits=limits or Limits(), **req), sink)
    sink.close()
    return sink.text(), outcome


def slides_of(text: str) -> list[str]:
    return text.split("--- slide ")[1:]


def test_smartart_text_is_read_in_tree_order() -> None:
    text, outcome = run(source_for_bytes("deck.pptx", deck()))
    first = slides_of(text)[0]
    assert first == "1 / 3 ---\n# Process\n" + SMARTART + "\n"
    assert "NOT-TEXT" not in text  # presentation points and transitions are layout, not the user's text
    assert outcome.warnings == []


def test_chart_title_series_categories_and_axes() -> None:
    text, _ = run(source_for_bytes("deck.pptx", deck()))
    line = "Chart: CHART-TITLE Sales - series SERIES-North, SERIES-South; categories CAT-Q1, CAT-Q2, CAT-Q3; " \
           "axes AXIS-Quarter, AXIS-Revenue\n"
    assert slides_of(text)[1] == "2 / 3 ---\n" + line + "\n"


def test_chart_matches_python_pptx() -> None:
    """The reference: python-pptx reads the same title, series names and categories."""
    import pptx as pypptx

    prs = pypptx.Presentation(io.BytesIO(deck()))
    chart = next(s.chart for s in prs.slides[1].shapes if s.has_chart)
    text, _ = run(source_for_bytes("deck.pptx", deck()))
    expected = [chart.chart_title.text_frame.text, *(s.name for s in chart.plots[0].series),
                *chart.plots[0].categories]
    assert all(piece in slides_of(text)[1] for piece in expected)


def test_legacy_and_modern_slide_comments() -> None:
    text, _ = run(source_for_bytes("deck.pptx", deck()))
    assert slides_of(text)[2] == (
        "3 / 3 ---\nTHIRD-BODY\nComment (Ada Lovelace): LEGACY-COMMENT check the figures\n"
        "Comment (Grace Hopper): MODERN-COMMENT move this up\nComment (Alan Turing): MODERN-REPLY agreed\n\n"
    )


def test_comments_without_authors_part_say_unknown() -> None:
    data = rezip(deck(), {"ppt/commentAuthors.xml": b'<?xml version="1.0"?><x/>'})
    text, _ = run(source_for_bytes("deck.pptx", data))
    assert "Comment (unknown): LEGACY-COMMENT check the figures\n" in text


def test_oversized_diagram_and_chart_parts_are_warned_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diagrams, "DIAGRAM_CAP", 100)
    monkeypatch.setattr(charts, "CHART_CAP", 100)
    text, outcome = run(source_for_bytes("deck.pptx", deck()))
    assert "SMART-ONE" not in text and "CHART-TITLE" not in text
    assert any(w.startswith("slide 1: SmartArt ppt/diagrams/data1.xml not read") for w in outcome.warnings)
    assert any(w.startswith("slide 2: chart ppt/charts/chart") and "not read" in w for w in outcome.warnings)


def test_damaged_diagram_part_is_a_warning() -> None:
    data = rezip(deck(), {"ppt/diagrams/data1.xml": b"<dgm:dataModel"})
    text, outcome = run(source_for_bytes("deck.pptx", data))
    assert "# Process" in text and "THIRD-BODY" in text
    assert any("SmartArt ppt/diagrams/data1.xml not read" in w and "well-formed" in w for w in outcome.warnings)


def test_many_categories_are_counted_not_dropped() -> None:
    from boundread.formats._ooxml.package import Package

    cats = [f"c{n}" for n in range(charts.MAX_LABELS + 7)]
    data = rezip(deck(), {"ppt/charts/chart1.xml": chart_xml("Big", ["S"], cats)})
    import zipfile

    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        found = charts.read_chart(Package(zf, "deck.pptx"), "ppt/charts/chart1.xml")
    assert found.categories == cats[: charts.MAX_LABELS] and found.more_categories == 7
    assert found.line().endswith(f"c{charts.MAX_LABELS - 1} (and 7 more)")


def test_slide_cut_by_the_sink_keeps_the_smartart_bounded() -> None:
    text, outcome = run(source_for_bytes("deck.pptx", deck()), Limits(max_chars=40))
    assert len(text) <= 40 and outcome.resume is not None


def test_embedded_ole_object_is_a_warning() -> None:
    import zipfile

    ole = ('<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="91" name="Object 1"/><p:cNvGraphicFramePr/><p:nvPr/>'
           '</p:nvGraphicFramePr><p:xfrm><a:off x="0" y="0"/><a:ext cx="1" cy="1"/></p:xfrm><a:graphic><a:graphicData '
           'uri="http://schemas.openxmlformats.org/presentationml/2006/ole"><p:oleObj name="Worksheet" '
           'progId="Excel.Sheet.12" r:id="rIdOle"><p:embed/></p:oleObj></a:graphicData></a:graphic></p:graphicFrame>')
    with zipfile.ZipFile(io.BytesIO(deck())) as zf:
        slide, rels = zf.read("ppt/slides/slide3.xml"), zf.read("ppt/slides/_rels/slide3.xml.rels")
    slide = insert_before(slide, "</p:spTree>", ole)
    text, outcome = run(source_for_bytes("deck.pptx", rezip(deck(), {"ppt/slides/slide3.xml": slide})))
    assert "THIRD-BODY" in text
    assert outcome.warnings == ["slide 3: embedded object (Excel.Sheet.12) not read: open the slide in PowerPoint "
                                "to see it"]
    rels = add_rels(rels, ("rIdOle", f"{REL_T}/package", "../embeddings/Book1.xlsx"))
    _, outcome = run(source_for_bytes("deck.pptx", rezip(deck(), {
        "ppt/slides/slide3.xml": slide, "ppt/slides/_rels/slide3.xml.rels": rels, "ppt/embeddings/Book1.xlsx": b"PK"})))
    assert outcome.warnings == ["slide 3: embedded object (Excel.Sheet.12) not read: it is ppt/embeddings/Book1.xlsx "
                                "inside the file: unzip it and read that"]


@cache
def word_doc() -> bytes:
    """BEFORE-BODY, a text box, a chart, SmartArt, AFTER-BODY."""
    import zipfile

    import docx as pydocx

    doc = pydocx.Document()
    doc.add_paragraph("BEFORE-BODY")
    doc.add_paragraph("AFTER-BODY")
    buf = io.BytesIO()
    doc.save(buf)
    base = buf.getvalue()
    with zipfile.ZipFile(io.BytesIO(base)) as zf:
        body, rels = zf.read("word/document.xml"), zf.read("word/_rels/document.xml.rels")
    drawn = (text_box_paragraph("TEXTBOX-SENTINEL") + graphic_paragraph(chart_frame_inline("rIdCh"))
             + graphic_paragraph(smartart_graphic("rIdDg")))
    at = body.rindex(b"<w:p>", 0, body.index(b"AFTER-BODY"))
    rels = add_rels(rels, ("rIdCh", f"{REL_T}/chart", "charts/chart1.xml"),
                    ("rIdDg", f"{REL_T}/diagramData", "diagrams/data1.xml"))
    return rezip(base, {
        "word/document.xml": body[:at] + drawn.encode() + body[at:], "word/_rels/document.xml.rels": rels,
        "word/charts/chart1.xml": chart_xml("DOC-CHART", ["DOC-SERIES"], ["d1", "d2"]),
        "word/diagrams/data1.xml": diagram_data(TREE),
    })


DOC_CHART = "Chart: DOC-CHART - series DOC-SERIES; categories d1, d2\n\n"


def test_docx_streamed_reads_chart_and_smartart_where_they_stand(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docx, "MAMMOTH_MAX", 0)
    text, outcome = run(source_for_bytes("doc.docx", word_doc()))
    assert text == "BEFORE-BODY\n\nTEXTBOX-SENTINEL\n\n" + DOC_CHART + SMARTART + "\nAFTER-BODY\n\n"
    assert outcome.warnings == []


def test_docx_converted_reads_chart_and_smartart_after_the_body_and_says_so() -> None:
    text, outcome = run(source_for_bytes("doc.docx", word_doc()))
    assert text == "BEFORE-BODY\n\nTEXTBOX-SENTINEL\n\nAFTER-BODY\n\n" + DOC_CHART + SMARTART + "\n"
    assert outcome.warnings == ["2 charts/SmartArt printed after the body, not where they stand in it "
                                "(the converter drops them)"]


def test_docx_text_box_is_read_once_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Word writes a text box twice (mc:Choice and its VML mc:Fallback): one copy is read, whichever path."""
    converted, _ = run(source_for_bytes("doc.docx", word_doc()))
    monkeypatch.setattr(docx, "MAMMOTH_MAX", 0)
    streamed, _ = run(source_for_bytes("doc.docx", word_doc()))
    assert converted.count("TEXTBOX-SENTINEL") == 1 and streamed.count("TEXTBOX-SENTINEL") == 1


def test_docx_damaged_chart_part_is_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docx, "MAMMOTH_MAX", 0)
    text, outcome = run(source_for_bytes("doc.docx", rezip(word_doc(), {"word/charts/chart1.xml": b"<c:x"})))
    assert "AFTER-BODY" in text and "DOC-CHART" not in text and "SMART-ONE" in text
    assert len(outcome.warnings) == 1 and outcome.warnings[0].startswith("chart word/charts/chart1.xml not read")


def test_docx_chart_in_a_table_cell_follows_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    import zipfile

    monkeypatch.setattr(docx, "MAMMOTH_MAX", 0)
    with zipfile.ZipFile(io.BytesIO(word_doc())) as zf:
        body = zf.read("word/document.xml")
    start = body.index(b"<w:p><w:r><w:drawing><wp:inline")
    end = body.index(b"</w:p>", start) + len(b"</w:p>")
    cell = (b"<w:tbl><w:tr><w:tc><w:p><w:r><w:t>CELL-TEXT</w:t></w:r></w:p>" + body[start:end]
            + b"</w:tc></w:tr></w:tbl>")
    text, outcome = run(source_for_bytes("doc.docx", rezip(word_doc(), {
        "word/document.xml": body[:start] + cell + body[end:]})))
    assert "| CELL-TEXT |\n| --- |\n\n" + DOC_CHART in text
    assert outcome.warnings == []


def test_docx_embedded_ole_object_is_a_warning() -> None:
    import zipfile

    with zipfile.ZipFile(io.BytesIO(word_doc())) as zf:
        rels = zf.read("word/_rels/document.xml.rels")
    rels = add_rels(rels, ("rIdOle", f"{REL_T}/oleObject", "embeddings/oleObject1.bin"))
    data = rezip(word_doc(), {"word/_rels/document.xml.rels": rels, "word/embeddings/oleObject1.bin": b"\0" * 8})
    _, outcome = run(source_for_bytes("doc.docx", data))
    assert "1 embedded object (OLE: a spreadsheet, a drawing...) not read: unzip the file and read " \
        "word/embeddings/oleObject1.bin" in outcome.warnings


def test_docx_has_at_least_what_pandoc_gets(tmp_path: Path) -> None:
    import shutil
    import subprocess

    if shutil.which("pandoc") is None:
        pytest.skip("pandoc is not installed")
    path = tmp_path / "doc.docx"
    path.write_bytes(word_doc())
    ref = subprocess.run(["pandoc", "-t", "plain", str(path)], capture_output=True, text=True, check=True).stdout
    text, _ = run(source_for_path(path))
    assert ref.split() and all(word in text for word in ref.split())


@pytest.mark.corpus
def test_corpus_chart_labels(corpus_dir: Path) -> None:
    text, outcome = run(source_for_path(corpus_dir / "pptx-test.pptx"))
    assert "Chart: a3f6004b-6f4f-4ea8-bee3-3741f4dc385f - series Series 1; categories 2000, 2001, 2002, 2003\n" \
        in text
    assert outcome.warnings == []


_PART_BYTES = st.one_of(
    st.binary(max_size=300),
    st.builds(lambda cut: diagram_data(TREE)[:cut], st.integers(0, 1200)),
    st.builds(lambda cut: chart_xml("T", ["S"], ["c"])[:cut], st.integers(0, 1500)),
    st.sampled_from([b'<dgm:dataModel xmlns:dgm="d"><dgm:cxn srcId="a" destId="a" srcOrd="\xc2\xb2"/></dgm:dataModel>',
                     b'<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>']),
)


@settings(derandomize=True, max_examples=40, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(diagram=_PART_BYTES, chart=_PART_BYTES)
def test_bad_diagram_and_chart_parts_are_warnings_never_a_crash(diagram: bytes, chart: bytes) -> None:
    data = rezip(deck(), {"ppt/diagrams/data1.xml": diagram, "ppt/charts/chart1.xml": chart})
    text, outcome = run(source_for_bytes("deck.pptx", data))
    assert "THIRD-BODY" in text and text.count("--- slide ") == 3
    assert all(w.startswith(("slide 1: SmartArt", "slide 2: chart")) for w in outcome.warnings)


CHARTEX = (
    b'<?xml version="1.0"?><cx:chartSpace xmlns:cx="http://schemas.microsoft.com/office/drawing/2014/chartex" '
    b'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><cx:chartData><cx:data id="0">'
    b'<cx:strDim type="cat"><cx:f>Sheet1!$A$2:$A$4</cx:f><cx:lvl ptCount="3"><cx:pt idx="0">STEP-Start</cx:pt>'
    b'<cx:pt idx="1">STEP-Gain</cx:pt><cx:pt idx="2">STEP-End</cx:pt></cx:lvl></cx:strDim><cx:numDim type="val">'
    b'<cx:lvl ptCount="3" formatCode="General"><cx:pt idx="0">10</cx:pt><cx:pt idx="1">5</cx:pt>'
    b'<cx:pt idx="2">15</cx:pt></cx:lvl></cx:numDim></cx:data></cx:chartData><cx:chart><cx:title pos="t">'
    b"<cx:tx><cx:txData><cx:v>WATERFALL-TITLE</cx:v></cx:txData></cx:tx></cx:title><cx:plotArea><cx:plotAreaRegion>"
    b'<cx:series layoutId="waterfall"><cx:tx><cx:txData><cx:f>Sheet1!$B$1</cx:f><cx:v>FLOW-SERIES</cx:v></cx:txData>'
    b'</cx:tx><cx:dataId val="0"/></cx:series></cx:plotAreaRegion><cx:axis id="0"><cx:catScaling/><cx:title><cx:tx>'
    b"<cx:txData><cx:v>AXIS-Steps</cx:v></cx:txData></cx:tx></cx:title></cx:axis></cx:plotArea></cx:chart>"
    b"</cx:chartSpace>"
)


def test_chartex_title_series_categories_and_axis() -> None:
    import zipfile

    from boundread.formats._ooxml.package import Package

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("ppt/charts/chartEx1.xml", CHARTEX)
    with zipfile.ZipFile(buf) as zf:
        line = charts.read_chart(Package(zf, "deck.pptx"), "ppt/charts/chartEx1.xml").line()
    assert line == "Chart: WATERFALL-TITLE - series FLOW-SERIES; categories STEP-Start, STEP-Gain, STEP-End; " \
                   "axes AXIS-Steps"


def test_what_a_notes_page_skips_is_warned_too() -> None:
    import zipfile

    import pptx as pypptx

    prs = pypptx.Presentation()
    prs.slides.add_slide(prs.slide_layouts[6]).notes_slide.notes_text_frame.text = "NOTE-TEXT"
    buf = io.BytesIO()
    prs.save(buf)
    with zipfile.ZipFile(buf) as zf:
        name = next(n for n in zf.namelist() if n.startswith("ppt/notesSlides/notesSlide") and n.endswith(".xml"))
        notes, rels = zf.read(name), zf.read(name.replace("notesSlides/", "notesSlides/_rels/") + ".rels")
    data = rezip(buf.getvalue(), {
        name: insert_before(notes, "</p:spTree>", smartart_frame("rIdDgm")),
        name.replace("notesSlides/", "notesSlides/_rels/") + ".rels": add_rels(
            rels, ("rIdDgm", f"{REL_T}/diagramData", "../diagrams/data9.xml")),
        "ppt/diagrams/data9.xml": b"<broken",
    })
    text, outcome = run(source_for_bytes("deck.pptx", data))
    assert "Notes: NOTE-TEXT" in text
    assert len(outcome.warnings) == 1
    assert outcome.warnings[0].startswith("slide 1: notes: SmartArt ppt/diagrams/data9.xml not read")


def test_a_missing_chart_or_smartart_part_is_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    import zipfile

    from boundread.formats._ooxml.package import Package

    with zipfile.ZipFile(io.BytesIO(deck())) as zf:
        rid, (_kind, chart) = next(
            (k, v) for k, v in Package(zf, "deck.pptx").rels("ppt/slides/slide2.xml").items() if v[0] == "chart")
    gone = {"ppt/diagrams/data1.xml", chart}
    with zipfile.ZipFile(io.BytesIO(deck())) as zf:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as out:
            for info in zf.infolist():
                if info.filename not in gone:
                    out.writestr(info, zf.read(info))
    _, outcome = run(source_for_bytes("deck.pptx", buf.getvalue()))
    assert outcome.warnings == ["slide 1: SmartArt rIdDgm not read: the part it names (ppt/diagrams/data1.xml) is "
                                "missing", f"slide 2: chart {rid} not read: the part it names ({chart}) is missing"]
    monkeypatch.setattr(docx, "MAMMOTH_MAX", 0)
    with zipfile.ZipFile(io.BytesIO(word_doc())) as zf:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as out:
            for info in zf.infolist():
                if info.filename != "word/charts/chart1.xml":
                    out.writestr(info, zf.read(info))
    text, outcome = run(source_for_bytes("doc.docx", buf.getvalue()))
    assert "SMART-ONE" in text and outcome.warnings == ["chart rIdCh not read: the part it names is missing"]


def test_docx_vml_only_text_box_is_read_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """Word 2003-era text boxes: a w:pict VML shape and no mc:AlternateContent around it."""
    import zipfile

    with zipfile.ZipFile(io.BytesIO(word_doc())) as zf:
        body = zf.read("word/document.xml")
    vml = (b'<w:p><w:r><w:t>ANCHOR-TEXT</w:t></w:r><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml">'
           b"<v:textbox><w:txbxContent><w:p><w:r><w:t>VML-BOX-SENTINEL</w:t></w:r></w:p></w:txbxContent></v:textbox>"
           b"</v:shape></w:pict></w:r></w:p>")
    at = body.rindex(b"<w:p>", 0, body.index(b"AFTER-BODY"))
    data = rezip(word_doc(), {"word/document.xml": body[:at] + vml + body[at:]})
    converted, _ = run(source_for_bytes("doc.docx", data))
    monkeypatch.setattr(docx, "MAMMOTH_MAX", 0)
    streamed, _ = run(source_for_bytes("doc.docx", data))
    for text in (converted, streamed):
        assert text.count("VML-BOX-SENTINEL") == 1 and text.count("ANCHOR-TEXT") == 1
        assert text.index("ANCHOR-TEXT") < text.index("AFTER-BODY") and text.index("VML-BOX") < text.index("AFTER")


@pytest.mark.parametrize("streamed", [False, True])
def test_docx_chart_in_a_header_is_read_with_the_header(monkeypatch: pytest.MonkeyPatch, streamed: bool) -> None:
    import zipfile

    import docx as pydocx

    if streamed:
        monkeypatch.setattr(docx, "MAMMOTH_MAX", 0)
    doc = pydocx.Document()
    doc.sections[0].header.paragraphs[0].text = "HEADER-TEXT"
    doc.add_paragraph("BODY-TEXT")
    buf = io.BytesIO()
    doc.save(buf)
    base = buf.getvalue()
    with zipfile.ZipFile(io.BytesIO(base)) as zf:
        name = next(n for n in zf.namelist() if n.startswith("word/header") and n.endswith(".xml"))
        header = zf.read(name)
        rels_name = f"word/_rels/{name.rsplit('/', 1)[1]}.rels"
        rels = zf.read(rels_name) if rels_name in zf.namelist() else empty_rels()
    header = insert_before(header, "</w:hdr>", graphic_paragraph(chart_frame_inline("rIdHc")))
    rels = add_rels(rels, ("rIdHc", f"{REL_T}/chart", "charts/chart9.xml"))
    data = rezip(base, {name: header, rels_name: rels,
                        "word/charts/chart9.xml": chart_xml("HDR-CHART", ["HDR-SERIES"], ["h1"])})
    text, outcome = run(source_for_bytes("h.docx", data))
    assert "Header: HEADER-TEXT Chart: HDR-CHART - series HDR-SERIES; categories h1" in text
    assert outcome.warnings == []
