"""Text typed onto a PDF page in text boxes (FreeText annotations: a typewriter or "Add text" tool, the way a form
without fields is filled) is text: PDFium's text page leaves annotations out, so boundread reads their contents
and gives them after the page's text, under ``[text boxes]``; pdftotext prints them too."""

from __future__ import annotations

import pytest
from tests.helpers import tiny_pdf

from boundread.contract.model import Request
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes
from boundread.formats.pdf import handler
from boundread.formats.pdf.forms import BOXES_HEADER
from boundread.limits import Limits

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def _stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n%s\nendstream" % (len(data), extra, data)


def _typed(boxes: list[bytes], *, subtype: bytes = b"FreeText") -> bytes:
    """One page of text with ``boxes`` typed on it (each an annotation with its appearance)."""
    annots = b" ".join(b"%d 0 R" % (6 + i) for i in range(len(boxes)))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >>"
        b" /Annots [" + annots + b"] >>",
        _stream(b"BT /F1 12 Tf 72 720 Td (Customs declaration: sender name) Tj ET"),
        FONT,
    ]
    for i, box in enumerate(boxes):
        objects.append(b"<< /Type /Annot /Subtype /" + subtype + b" /Rect [72 %d 300 %d] /Contents (" % (600 - 50 * i,
                       640 - 50 * i) + box + b") /DA (/Helv 12 Tf 0 g) >>")
    return tiny_pdf(objects)


def _extract(data: bytes, engine: str = "auto") -> tuple[str, list[str]]:
    sink = Sink(Limits())
    outcome = handler.extract(source_for_bytes("typed.pdf", data), Request(engine=engine), sink)
    sink.close()
    return sink.text(), outcome.warnings


@pytest.mark.parametrize("engine", ["auto", "pdfminer"])
def test_typed_text_follows_the_page_text(engine: str) -> None:
    text, warnings = _extract(_typed([b"Bartholomew Quince", b"42 Orchard Lane"]), engine)
    assert text.splitlines()[1:] == ["Customs declaration: sender name", BOXES_HEADER, "Bartholomew Quince",
                                     "42 Orchard Lane"]
    assert warnings == []


@pytest.mark.parametrize("engine", ["auto", "pdfminer"])
def test_a_box_typed_twice_is_given_once_and_empty_ones_not_at_all(engine: str) -> None:
    text, _ = _extract(_typed([b"Quince", b"Quince", b"   "]), engine)
    assert text.splitlines()[1:] == ["Customs declaration: sender name", BOXES_HEADER, "Quince"]


@pytest.mark.parametrize("engine", ["auto", "pdfminer"])
def test_other_annotations_are_not_text_boxes(engine: str) -> None:
    text, _ = _extract(_typed([b"a sticky note"], subtype=b"Text"), engine)
    assert BOXES_HEADER not in text and "sticky" not in text
