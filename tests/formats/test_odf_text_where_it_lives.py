"""ODF text (odt) and presentations (odp): embedded charts (``Object N/content.xml``) come out as ``Chart:``
lines where they stand, slide annotations as ``Comment (author):`` lines, and an embedded object that is no
chart is a warning naming it, never silence."""

from __future__ import annotations

from typing import Any

import pytest
from tests.formats.office_parts import odf_chart, odf_object_frame, odf_package

from boundread.contract.model import Request, Source
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes
from boundread.formats._ooxml import charts
from boundread.formats.office import docx, odp
from boundread.formats.office.odf_objects import object_part
from boundread.limits import Limits

ODT = "application/vnd.oasis.opendocument.text"
ODP = "application/vnd.oasis.opendocument.presentation"
CHART = odf_chart("ODF-CHART", ["SER-A", "SER-B"], ["CAT-1", "CAT-2"], ("AX-X", "AX-Y"))
LINE = "Chart: ODF-CHART - series SER-A, SER-B; categories CAT-1, CAT-2; axes AX-X, AX-Y"
FORMULA = (b'<?xml version="1.0"?><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mi>x</mi>'
           b"</semantics></math>")


def run(src: Source, limits: Limits | None = None) -> tuple[str, Any]:
    sink = Sink(limits or Limits())
    outcome = (odp if src.kind == "odp" else docx).extract(src, Request(limits=limits or Limits()), sink)
    sink.close()
    return sink.text(), outcome


def odt(chart: bytes = CHART) -> bytes:
    body = (f"<text:p>ODT-BEFORE</text:p><text:p>{odf_object_frame('Object 1')}</text:p>"
            f"<text:p>{odf_object_frame('Object 2')}</text:p><text:p>ODT-AFTER</text:p>")
    return odf_package(ODT, body, "text", {"Object 1/content.xml": chart, "Object 2/content.xml": FORMULA})


def odp_deck() -> bytes:
    page = ('<draw:page draw:name="p1"><draw:frame presentation:class="title"><draw:text-box><text:p>ODP-TITLE'
            f"</text:p></draw:text-box></draw:frame>{odf_object_frame('Object 1')}<officeooo:annotation "
            'xmlns:officeooo="http://openoffice.org/2009/office"><dc:creator>Ann Author</dc:creator>'
            "<dc:date>2024-01-01T00:00:00</dc:date><text:p>ODP-COMMENT fix the axis</text:p>"
            "</officeooo:annotation></draw:page>")
    return odf_package(ODP, page, "presentation", {"Object 1/content.xml": CHART})


def test_odt_chart_where_it_stands_and_other_objects_warned() -> None:
    text, outcome = run(source_for_bytes("a.odt", odt()))
    assert text == f"ODT-BEFORE\n\n{LINE}\n\nODT-AFTER\n\n"
    assert outcome.warnings == ["embedded object Object 2 is not a chart: its content was not read"]


def test_odp_chart_and_annotation() -> None:
    text, outcome = run(source_for_bytes("a.odp", odp_deck()))
    assert text == f"--- slide 1 / 1 ---\n# ODP-TITLE\n{LINE}\nComment (Ann Author): ODP-COMMENT fix the axis\n\n"
    assert outcome.warnings == []


def test_oversized_odf_chart_is_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(charts, "CHART_CAP", 100)
    text, outcome = run(source_for_bytes("a.odt", odt()))
    assert "ODF-CHART" not in text and "ODT-AFTER" in text
    assert outcome.warnings[0].startswith("chart Object 1/content.xml not read: ")


def test_damaged_odf_chart_is_a_warning() -> None:
    text, outcome = run(source_for_bytes("a.odt", odt(chart=b"<office:document-content")))
    assert "ODT-AFTER" in text
    assert any(w.startswith("chart Object 1/content.xml not read") for w in outcome.warnings)


@pytest.mark.parametrize(("href", "part"), [
    ("./Object 1", "Object 1/content.xml"), ("Object 2", "Object 2/content.xml"),
    ("../escape", None), ("http://example.com/x", None), ("", None),
])
def test_object_part(href: str, part: str | None) -> None:
    assert object_part(href) == part
