"""Text inside the run wrappers mammoth ignores (w:fldSimple, w:ruby, w:dir, w:bdo) is kept on both docx paths
(converted and streamed), ruby reads "base (reading)" in docx and odt, and an element mammoth would drop with its
text sends the document to the streamed reader with a warning, never to silence (issue 22)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from tests.formats.office_parts import odf_package

from boundread.contract.model import Request, Source
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes
from boundread.formats.office import docx

WRAPPERS = (
    '<w:fldSimple w:instr="REF figure1"><w:r><w:t>Cross reference tapir</w:t></w:r></w:fldSimple>',
    '<w:r><w:rPr><w:b/></w:rPr><w:ruby><w:rubyPr/><w:rt><w:r><w:t>かんじ</w:t></w:r></w:rt><w:rubyBase><w:r>'
    "<w:t>漢字</w:t></w:r></w:rubyBase></w:ruby></w:r><w:r><w:t xml:space=\"preserve\"> ocelot</w:t></w:r>",
    '<w:dir w:val="rtl"><w:r><w:t>مرحبا بالعالم jackal</w:t></w:r></w:dir>',
    '<w:bdo w:val="rtl"><w:fldSimple w:instr="MERGEFIELD x"><w:r><w:t>שלום עולם vulture</w:t></w:r></w:fldSimple>'
    "</w:bdo>",
)
EXPECTED = ("Cross reference tapir", "漢字 (かんじ) ocelot", "مرحبا بالعالم jackal", "שלום עולם vulture")


def wrapped(tmp_path: Path, inner: tuple[str, ...] = WRAPPERS) -> bytes:
    import docx as python_docx
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    doc = python_docx.Document()
    doc.add_paragraph("Plain albatross")
    doc.add_heading("Wrapped heading", level=1)
    for xml in inner:
        doc.element.body.insert(len(doc.element.body) - 1, parse_xml(f"<w:p {nsdecls('w')}>{xml}</w:p>"))
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def run(src: Source) -> tuple[str, Any]:
    sink = Sink(Request().limits)
    outcome = docx.extract(src, Request(), sink)
    sink.close()
    return sink.text(), outcome


@pytest.mark.parametrize("threshold", [docx.MAMMOTH_MAX, 0], ids=["converted", "streamed"])
def test_wrapped_runs_keep_their_words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, threshold: int) -> None:
    monkeypatch.setattr(docx, "MAMMOTH_MAX", threshold)
    text, outcome = run(source_for_bytes("w.docx", wrapped(tmp_path)))
    lines = [line for line in text.splitlines() if line]
    assert lines[:2] == ["Plain albatross", "# Wrapped heading"]  # markdown kept on both paths
    assert lines[2:6] == list(EXPECTED)
    assert outcome.warnings == []


def test_unknown_element_that_mammoth_drops_goes_streamed_with_a_warning(tmp_path: Path) -> None:
    """An element mammoth does not know (here a made-up w:futureWrapper) costs formatting, never its words."""
    data = wrapped(tmp_path, ("<w:futureWrapper><w:r><w:t>Future marmot</w:t></w:r></w:futureWrapper>",))
    text, outcome = run(source_for_bytes("w.docx", data))
    assert "Future marmot" in text
    assert "Wrapped heading" in text
    assert len(outcome.warnings) == 1
    assert "w:futureWrapper" in outcome.warnings[0] and "read the XML directly" in outcome.warnings[0]


def test_textless_elements_mammoth_skips_keep_the_converted_markdown(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """w:permStart / w:permEnd (an editable range) hold no text: mammoth's skipping them is no reason to stream."""
    data = wrapped(tmp_path, ('<w:permStart w:id="1" w:edGrp="everyone"/><w:r><w:t>Editable lemur</w:t></w:r>'
                              '<w:permEnd w:id="1"/>', '<w:r><w:t xml:space="preserve">see </w:t></w:r><w:hyperlink '
                              'w:anchor="x"><w:r><w:t>the anchor</w:t></w:r></w:hyperlink>'))

    def streamed(*args: object) -> None:
        raise AssertionError("the body was streamed, not converted")

    monkeypatch.setattr(docx, "_write_blocks", streamed)
    text, outcome = run(source_for_bytes("w.docx", data))
    assert "Editable lemur" in text and "see the anchor" in text
    assert outcome.warnings == []


def test_odt_ruby_reads_base_then_reading() -> None:
    body = ("<text:p>Before <text:ruby><text:ruby-base>漢字</text:ruby-base><text:ruby-text>かんじ</text:ruby-text>"
            "</text:ruby> after jaguar</text:p><text:p><text:ruby><text:ruby-base>base</text:ruby-base>"
            "<text:ruby-text/></text:ruby> koala</text:p>")
    src = source_for_bytes("r.odt", odf_package("application/vnd.oasis.opendocument.text", body, "text", {}))
    text, outcome = run(src)
    assert text == "Before 漢字 (かんじ) after jaguar\n\nbase koala\n\n"
    assert outcome.warnings == []


def test_odp_ruby_reads_base_then_reading() -> None:
    from boundread.formats.office import odp

    page = ('<draw:page draw:name="p1"><draw:frame><draw:text-box><text:p><text:ruby><text:ruby-base>東京'
            "</text:ruby-base><text:ruby-text>とうきょう</text:ruby-text></text:ruby> tapir</text:p></draw:text-box>"
            "</draw:frame></draw:page>")
    src = source_for_bytes("r.odp", odf_package("application/vnd.oasis.opendocument.presentation", page,
                                                "presentation", {}))
    sink = Sink(Request().limits)
    odp.extract(src, Request(), sink)
    sink.close()
    assert "東京 (とうきょう) tapir" in sink.text()


def test_ods_cell_ruby_reads_base_then_reading() -> None:
    from boundread.formats.sheets import handler as sheets

    cell = ('<table:table-row><table:table-cell office:value-type="string"><text:p><text:ruby><text:ruby-base>'
            "大阪</text:ruby-base><text:ruby-text>おおさか</text:ruby-text></text:ruby> gecko</text:p>"
            "</table:table-cell></table:table-row>")
    body = f'<table:table table:name="Cities">{cell}</table:table>'
    src = source_for_bytes("r.ods", odf_package("application/vnd.oasis.opendocument.spreadsheet", body,
                                                "spreadsheet", {}))
    sink = Sink(Request().limits)
    sheets.extract(src, Request(), sink)
    sink.close()
    assert "大阪 (おおさか) gecko" in sink.text()
