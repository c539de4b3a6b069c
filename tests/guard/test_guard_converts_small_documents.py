"""A converter's print of a small Word or PowerPoint file is allowed; of a big one, or of a spreadsheet, refused.

``pandoc small.docx -t plain`` (a one-page memo) was refused as "a whole read floods the context": every whole
print of a Word document was, by its kind. The fresh2 command set found it. The text a converter prints is now
bounded by the XML of the parts that hold it (guard/doctext.py): within a quarter of the text cap, the print is
allowed. The documents are made here; the big one holds 400 KB of text, the small one a paragraph and a table
beside 350 KB of styles (the XML that holds no text must not count).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import docx
import pptx
import pytest

from boundread.bytelevel import sniff
from boundread.guard import check_command, doctext

CAP = 256 * 1024


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("docs")
    memo = docx.Document()
    memo.add_paragraph("A one-page memo: the payment service is back.")
    table = memo.add_table(rows=3, cols=2)
    table.cell(0, 0).text = "region"
    memo.save(str(root / "memo.docx"))
    _pad_styles(root / "memo.docx")
    report = docx.Document()
    for n in range(4000):
        report.add_paragraph(f"Paragraph {n}: " + "the order service retried the payment " * 2)
    report.save(str(root / "report.docx"))
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[1])
    slide.shapes.title.text = "Quarterly numbers"
    deck.save(str(root / "deck.pptx"))
    big = pptx.Presentation()
    for n in range(300):
        shape = big.slides.add_slide(big.slide_layouts[1]).shapes
        shape.title.text = f"Slide {n}"
        shape.placeholders[1].text = "the order service retried the payment " * 20
    big.save(str(root / "big.pptx"))
    return root


def _pad_styles(path: Path) -> None:
    """350 KB of styles in the memo, as a real template has: XML that holds no text."""
    with zipfile.ZipFile(path) as old:
        items = [(info, old.read(info)) for info in old.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as new:
        for info, data in items:
            if info.filename == "word/styles.xml":
                data = data.replace(b"</w:styles>", b"<!--" + b"s" * 350_000 + b"--></w:styles>")
            new.writestr(info, data)


@pytest.mark.parametrize("command", [
    "pandoc memo.docx -t plain",
    "pandoc -t markdown memo.docx",
    "docx2txt memo.docx",
    "markitdown memo.docx",
    "markitdown deck.pptx",
    "pandoc memo.docx -o memo.txt && cat memo.txt",
])
def test_a_small_document_converted_whole_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


@pytest.mark.parametrize("command", [
    "pandoc report.docx -t plain",
    "markitdown big.pptx",
    "pandoc report.docx -o report.txt && cat report.txt",
    "cat memo.docx",  # the zip's bytes, not the text
    "pandoc memo.docx --embed-resources -t html",  # images inline: not bounded by the text
])
def test_a_big_document_or_a_raw_one_is_refused(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert "boundread" in decision.reason


def test_the_bound_is_the_text_parts_xml_and_more_than_the_text(work: Path) -> None:
    memo = str(work / "memo.docx")
    bound = doctext.most(memo, sniff.sniff_path(memo).kind, CAP)
    assert bound is not None and bound < 10_000  # the body alone, not the 350 KB of styles
    with zipfile.ZipFile(memo) as zf:
        assert bound == zf.getinfo("word/document.xml").file_size
    report = str(work / "report.docx")
    assert doctext.most(report, sniff.sniff_path(report).kind, CAP) is None


def test_a_part_that_inflates_past_its_declared_size_is_not_measured(work: Path, tmp_path: Path) -> None:
    """The directory's sizes are a file's say-so: a body declared small that inflates big is not believed."""
    liar = tmp_path / "liar.docx"
    with zipfile.ZipFile(work / "memo.docx") as old, zipfile.ZipFile(liar, "w", zipfile.ZIP_DEFLATED) as new:
        for info in old.infolist():
            data = old.read(info)
            if info.filename == "word/document.xml":
                data = data.replace(b"</w:body>", b"<w:p><w:r><w:t>" + b"x" * 500_000 + b"</w:t></w:r></w:p></w:body>")
            new.writestr(info, data)
    with zipfile.ZipFile(liar) as zf:
        assert zf.getinfo("word/document.xml").file_size > 500_000
    raw = bytearray(liar.read_bytes())
    at = raw.find(b"PK\x01\x02")  # the central directory's records, one after another
    while raw[at + 46:at + 46 + int.from_bytes(raw[at + 28:at + 30], "little")] != b"word/document.xml":
        at = raw.find(b"PK\x01\x02", at + 4)
    raw[at + 24:at + 28] = (1000).to_bytes(4, "little")  # its declared uncompressed size: 1,000 bytes
    liar.write_bytes(bytes(raw))
    assert doctext.most(str(liar), "docx", CAP) is None
    assert check_command(f"pandoc {liar} -t plain", cwd=tmp_path).decision == "deny"


def test_spreadsheets_are_not_measured_by_their_xml(work: Path, tmp_path: Path) -> None:
    """A cell that points at a shared string prints it each time: a sheet's XML does not bound its CSV."""
    import xlsxwriter

    path = tmp_path / "small.xlsx"
    book = xlsxwriter.Workbook(str(path))
    book.add_worksheet().write(0, 0, "a")
    book.close()
    assert doctext.most(str(path), sniff.sniff_path(str(path)).kind, CAP) is None
    assert check_command("xlsx2csv small.xlsx", cwd=tmp_path).decision == "deny"
