"""Issue 22 item 2: a PDF form's data is text. A filled AcroForm's values come after their page's text as
``name: value`` lines; an XFA form's datasets come after its last page (its pages are only a shell); where they are
not read (another engine, a read that stops before the end, a packet that is not XML) a warning says so."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.helpers import tiny_pdf

from boundread import api
from boundread.limits import Limits


def _stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"


def acroform(path: Path) -> Path:
    """One page with its own text and three fields: a filled text field, a ticked box, an empty field."""
    widget = b"<< /Type /Annot /Subtype /Widget /P 3 0 R /F 4 "
    path.write_bytes(tiny_pdf([
        b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R 6 0 R 7 0 R] /DA (/Helv 0 Tf 0 g) >> >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 8 0 R >> >> /Annots [5 0 R 6 0 R 7 0 R] >>",
        _stream(b"BT /F1 12 Tf 72 720 Td (Application form) Tj ET"),
        widget + b"/FT /Tx /T (full_name) /V (Alice Example) /Rect [72 600 300 620] >>",
        widget + b"/FT /Btn /T (agree) /V /Yes /AS /Yes /Rect [72 560 90 578]"
                 b" /AP << /N << /Yes 9 0 R /Off 9 0 R >> >> >>",
        widget + b"/FT /Tx /T (left_empty) /Rect [72 520 300 540] >>",
        FONT,
        _stream(b"", b"/Type /XObject /Subtype /Form /BBox [0 0 18 18]"),
    ]))
    return path


def xfa(path: Path, datasets: bytes, pages: int = 1) -> Path:
    """An XFA form (NeedsRendering) of ``pages`` shell pages and a datasets packet."""
    kids = b" ".join(b"%d 0 R" % (6 + n) for n in range(pages))
    shells = [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R"
              b" /Resources << /Font << /F1 5 0 R >> >> >>"] * pages
    path.write_bytes(tiny_pdf([
        b"<< /Type /Catalog /Pages 2 0 R /NeedsRendering true /AcroForm << /Fields [] /XFA [(datasets) 4 0 R] >> >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, pages),
        _stream(b"BT /F1 12 Tf 72 720 Td (Please wait...) Tj ET"),
        _stream(datasets),
        FONT,
        *shells,
    ]))
    return path


DATASETS = (b'<xfa:datasets xmlns:xfa="http://www.xfa.org/schema/xfa-data/1.0/"><xfa:data><form1><applicant>'
            b"<name>Bob Builder</name><city>Lyon</city></applicant><total>1234.50</total><blank/></form1>"
            b"</xfa:data></xfa:datasets>")


def _read(path: Path, **options: object) -> tuple[str, list[str]]:
    result = api.extract(path, output=path.with_suffix(".txt"), **options)  # type: ignore[arg-type]
    return Path(result.output).read_text(encoding="utf-8"), list(result.warnings)


def test_filled_acroform_values_follow_their_page_s_text(tmp_path: Path) -> None:
    text, warnings = _read(acroform(tmp_path / "form.pdf"))
    assert text.index("Application form") < text.index("[form fields]")
    assert "full_name: Alice Example\n" in text and "agree: Yes\n" in text
    assert "left_empty" not in text and warnings == []


def test_another_engine_says_the_values_were_not_read(tmp_path: Path) -> None:
    text, warnings = _read(acroform(tmp_path / "form.pdf"), engine="pdfminer")
    assert "Application form" in text and "Alice Example" not in text
    assert any("form" in warning and "drop --engine" in warning for warning in warnings), warnings


def test_an_xfa_form_s_data_comes_after_its_shell_pages(tmp_path: Path) -> None:
    text, warnings = _read(xfa(tmp_path / "xfa.pdf", DATASETS))
    assert text.index("Please wait...") < text.index("--- form data (XFA) ---")
    assert ("form1.applicant.name: Bob Builder\nform1.applicant.city: Lyon\nform1.total: 1234.50\n") in text
    assert "blank" not in text and warnings == []


def test_a_read_that_stops_before_the_end_names_the_page_with_the_data(tmp_path: Path) -> None:
    text, warnings = _read(xfa(tmp_path / "xfa.pdf", DATASETS, pages=3), pages="1-2")
    assert "Bob Builder" not in text
    assert any("XFA form" in warning and "read to page 3" in warning for warning in warnings), warnings


@pytest.mark.parametrize(("datasets", "said"), [(b"<not xml", "could not be read"),
                                                (b"<xfa:datasets xmlns:xfa='x'><xfa:data/></xfa:datasets>",
                                                 "no filled values")])
def test_xfa_data_it_cannot_give_is_a_warning(tmp_path: Path, datasets: bytes, said: str) -> None:
    text, warnings = _read(xfa(tmp_path / "xfa.pdf", datasets))
    assert "Please wait..." in text and "form data" not in text
    assert any(said in warning for warning in warnings), warnings


def test_the_values_count_against_the_char_bound(tmp_path: Path) -> None:
    text, _ = _read(xfa(tmp_path / "xfa.pdf", DATASETS), limits=Limits(max_chars=60))
    assert len(text) <= 60
