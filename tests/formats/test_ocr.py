"""OCR: scanned PDF pages and images through Tesseract in `--ocr auto`, and what happens without it.

The scans are made here: a sentinel line drawn by PIL, put into an image-only PDF by fpdf2.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from tests.helpers import run

from boundread.contract.model import FILE, Request, Span
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_path
from boundread.formats import ocr
from boundread.formats.pdf import handler as pdf
from boundread.limits import Deadline, Limits

SENTINEL = "QUOKKA"
needs_tesseract = pytest.mark.skipif(ocr.missing("eng") is not None, reason="Tesseract (tesserocr + eng) missing")


def _scan_png(text: str) -> bytes:
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("L", (1700, 400), 255)
    ImageDraw.Draw(image).text((80, 140), text, fill=0, font=ImageFont.load_default(size=72))
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def _scan_pdf(lines: list[str | None]) -> bytes:
    """One page per line: an image of the line (a scan), or a text page when the line starts with 'text:'."""
    from fpdf import FPDF

    doc = FPDF()
    doc.set_font("Helvetica", size=12)
    for line in lines:
        doc.add_page()
        if line is None:
            continue
        if line.startswith("text:"):
            doc.cell(0, 10, line[5:])
        else:
            doc.image(io.BytesIO(_scan_png(line)), x=10, y=20, w=190)
    return bytes(doc.output())


@pytest.fixture
def scans(tmp_path: Path) -> dict[str, Path]:
    files = {
        "scan.pdf": _scan_pdf([f"{SENTINEL} page one 4821", f"{SENTINEL} page two 7305"]),
        "mixed.pdf": _scan_pdf(["text:Typed page WOMBAT", f"{SENTINEL} scanned 1234"]),
        "three.pdf": _scan_pdf([f"{SENTINEL} {n} lorem ipsum dolor" for n in range(1, 4)]),
        "photo.png": _scan_png(f"{SENTINEL} in a photo 5150"),
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    return {name: tmp_path / name for name in files}


@pytest.fixture
def no_tesseract(monkeypatch: pytest.MonkeyPatch) -> None:
    """The binding cannot be imported, as on a machine without `boundread[ocr]`."""
    monkeypatch.setitem(sys.modules, "tesserocr", None)


def _json(*args: str) -> tuple[int, dict[str, object]]:
    result = run(*args, "--json")
    assert result.stderr == ""
    return result.exit_code, json.loads(result.stdout)


@needs_tesseract
def test_auto_ocrs_a_scanned_pdf(scans: dict[str, Path], tmp_path: Path) -> None:
    code, data = _json("pages", str(scans["scan.pdf"]), "1-2", "-o", str(tmp_path / "out.txt"))
    assert code == 0, data
    text = (tmp_path / "out.txt").read_text(encoding="utf-8")
    assert text.count(SENTINEL) == 2 and "4821" in text and "7305" in text
    assert text.startswith("--- page 1 / 2 ---\n")
    assert data["totals"] == {"pages": 2, "engines": {"tesseract": "1-2"}}


@needs_tesseract
def test_auto_ocrs_only_the_pages_without_text(scans: dict[str, Path], tmp_path: Path) -> None:
    code, data = _json("extract", str(scans["mixed.pdf"]), "-o", str(tmp_path / "out.txt"))
    assert code == 0
    text = (tmp_path / "out.txt").read_text(encoding="utf-8")
    assert "WOMBAT" in text and SENTINEL in text
    assert data["totals"]["engines"] == {"pdfium": "1", "tesseract": "2"}


@needs_tesseract
def test_force_ocrs_text_pages_too(scans: dict[str, Path]) -> None:
    result = run("pages", str(scans["mixed.pdf"]), "1", "--ocr", "force", "--stdout")
    assert result.exit_code == 0 and "WOMBAT" in result.stdout


def test_never_keeps_the_markers_only(scans: dict[str, Path], tmp_path: Path) -> None:
    code, data = _json("pages", str(scans["scan.pdf"]), "1-2", "--ocr", "never", "-o", str(tmp_path / "o.txt"))
    assert code == 0
    assert (tmp_path / "o.txt").read_text(encoding="utf-8") == "--- page 1 / 2 ---\n--- page 2 / 2 ---\n"
    assert data["totals"]["no_text"] == "1-2"


@pytest.mark.usefixtures("no_tesseract")
def test_auto_without_tesseract_says_no_text_and_how_to_install(scans: dict[str, Path]) -> None:
    code, data = _json("pages", str(scans["scan.pdf"]), "1-2")
    assert code == 4
    error = data["error"]
    assert isinstance(error, dict) and error["code"] == "no_text" and error["exit_code"] == 4
    assert "pages 1-2 have no text layer" in error["message"]
    assert "apt-get install tesseract-ocr" in error["message"] and "boundread[ocr]" in error["message"]
    human = run("extract", str(scans["scan.pdf"]))
    assert human.exit_code == 4 and "brew install tesseract" in human.stderr and human.stdout == ""


@pytest.mark.usefixtures("no_tesseract")
def test_auto_without_tesseract_on_a_mixed_file_warns(scans: dict[str, Path], tmp_path: Path) -> None:
    code, data = _json("extract", str(scans["mixed.pdf"]), "-o", str(tmp_path / "o.txt"))
    assert code == 0
    assert data["totals"]["no_text"] == "2" and data["totals"]["engines"] == {"pdfium": "1"}
    assert any("page 2" in w and "apt-get install tesseract-ocr" in w for w in data["warnings"])  # type: ignore[attr-defined]


@pytest.mark.usefixtures("no_tesseract")
def test_force_without_tesseract_is_refused_before_reading(scans: dict[str, Path]) -> None:
    code, data = _json("extract", str(scans["mixed.pdf"]), "--ocr", "force")
    assert code == 4 and "--ocr force" in data["error"]["message"]  # type: ignore[index]


def test_bad_mode_and_language_are_usage_errors(scans: dict[str, Path]) -> None:
    assert run("extract", str(scans["scan.pdf"]), "--ocr", "sometimes").exit_code == 2
    if ocr.missing("eng") is None:
        result = run("extract", str(scans["scan.pdf"]), "--ocr-lang", "xx_nope")
        assert result.exit_code == 2 and "no Tesseract language pack for xx_nope" in result.stderr


@needs_tesseract
def test_char_cap_bounds_ocr(scans: dict[str, Path]) -> None:
    sink = Sink(Limits(max_chars=40))
    outcome = pdf.extract(source_for_path(scans["three.pdf"]), Request(), sink)
    sink.close()
    assert sink.chars <= 40 and sink.truncated
    assert outcome.resume is not None and outcome.resume[:2] == ("pages", FILE)


@needs_tesseract
def test_time_limit_bounds_ocr(scans: dict[str, Path]) -> None:
    limits = Limits(timeout=0.2)  # under the margin kept for Tesseract: no page can be OCR'd in time
    sink = Sink(limits, Deadline(limits.timeout))
    outcome = pdf.extract(source_for_path(scans["three.pdf"]), Request(limits=limits, pages=(Span(1, 3),)), sink)
    sink.close()
    assert sink.timed_out and SENTINEL not in sink.text()
    assert outcome.resume == ("pages", FILE, "1-3")


@needs_tesseract
def test_time_limit_stops_between_pages(scans: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    limits = Limits(timeout=60)
    sink = Sink(limits, Deadline(limits.timeout))
    src = source_for_path(scans["three.pdf"])
    # the second page finds the deadline gone: it is not written and the resume starts there
    original = pdf.Rereader.page

    def slow(self: pdf.Rereader, page: pdf.Page) -> pdf.Page:
        if page.number == 2:
            sink.deadline = Deadline(0.0)
            self.deadline = sink.deadline
        return original(self, page)

    monkeypatch.setattr(pdf.Rereader, "page", slow)
    outcome = pdf.extract(src, Request(limits=limits), sink)
    sink.close()
    assert sink.timed_out and sink.text().count(SENTINEL) == 1
    assert outcome.done == "pages 1 of 3" and outcome.resume == ("pages", FILE, "2")


@needs_tesseract
def test_image_is_ocrd_in_auto(scans: dict[str, Path], tmp_path: Path) -> None:
    code, data = _json("extract", str(scans["photo.png"]), "-o", str(tmp_path / "o.txt"))
    assert code == 0, data
    assert SENTINEL in (tmp_path / "o.txt").read_text(encoding="utf-8")
    assert data["totals"] == {"engines": {"tesseract": "1"}}


def test_image_with_ocr_never_keeps_exit_4(scans: dict[str, Path]) -> None:
    result = run("extract", str(scans["photo.png"]), "--ocr", "never")
    assert result.exit_code == 4 and "no text to extract" in result.stderr


@pytest.mark.usefixtures("no_tesseract")
def test_image_without_tesseract_names_the_install(scans: dict[str, Path]) -> None:
    code, data = _json("extract", str(scans["photo.png"]))
    assert code == 4 and "apt-get install tesseract-ocr" in data["error"]["message"]  # type: ignore[index]


@needs_tesseract
def test_api_takes_the_ocr_options(scans: dict[str, Path]) -> None:
    import boundread

    assert SENTINEL in (boundread.pages(scans["scan.pdf"], "1", stdout=True).text or "")
    assert SENTINEL not in (boundread.pages(scans["scan.pdf"], "1", stdout=True, ocr="never").text or "")


def test_ocr_binding_is_not_imported_by_text_work(scans: dict[str, Path]) -> None:
    import subprocess

    code = ("import sys, boundread; boundread.pages(sys.argv[1], '1', stdout=True, ocr='never');"
            "print('tesserocr' in sys.modules, 'PIL' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code, str(scans["mixed.pdf"])], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["False", "False"]


@needs_tesseract
@pytest.mark.corpus
def test_corpus_scans_read_by_ocr(corpus_dir: Path) -> None:
    sink = Sink(Limits())
    outcome = pdf.extract(source_for_path(corpus_dir / "pdf-MEDRPT_medical_report_scan.pdf"), Request(), sink)
    sink.close()
    text = sink.text()
    for needle in ("SEATTLE GENERAL HOSPITAL", "COMPREHENSIVE MEDICAL REPORT", "MEDRPT-2024-PAT-3847"):
        assert needle in text
    assert outcome.totals["engines"] == {"tesseract": "1-3"}


def test_info_counts_the_pages_without_text(scans: dict[str, Path]) -> None:
    details = pdf.info(source_for_path(scans["mixed.pdf"]), Request())
    assert details.fields["pages_without_text"] == 1 and details.fields["text_layer"] is True
    assert any("1 of the 2 pages has no text layer" in w for w in details.warnings)


@pytest.mark.usefixtures("no_tesseract")
def test_info_without_tesseract_names_the_install(scans: dict[str, Path]) -> None:
    details = pdf.info(source_for_path(scans["scan.pdf"]), Request())
    assert details.fields["pages_without_text"] == 2 and details.next == []
    assert any("2 of the 2 pages have no text layer" in w and "apt-get install tesseract-ocr" in w
               for w in details.warnings)


@needs_tesseract
def test_summary_says_the_text_came_from_ocr(scans: dict[str, Path], tmp_path: Path) -> None:
    result = run("pages", str(scans["scan.pdf"]), "1-2", "-o", str(tmp_path / "o.txt"))
    assert result.exit_code == 0 and "  read by: tesseract (OCR) pages 1-2\n" in result.stdout


def test_without_pillow_an_image_is_one_error_line_not_a_traceback(scans: dict[str, Path],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """tesserocr's wheels do not bring Pillow, which decodes the image: its absence is 'OCR is not installed'."""
    monkeypatch.setitem(sys.modules, "PIL", None)
    assert ocr.missing("eng") == "OCR is not installed"
    result = run("extract", str(scans["photo.png"]), "--stdout")
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("boundread: error: ") and "OCR is not installed" in lines[0]
    assert "pip install 'boundread[ocr]'" in lines[0]
