"""Word and ODF text: the mammoth path, the streaming path, notes, limits and hostile files."""

from __future__ import annotations

import contextlib
import io
import zipfile
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from boundread.bytelevel.sniff import Sniffed
from boundread.contract.model import FILE, Request, Source, Span
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes, source_for_path
from boundread.errors import Corrupt, Encrypted, Refused, UsageError
from boundread.formats.office import docx
from boundread.limits import Limits


@cache
def make_docx(paragraphs: int = 0, table: bool = True) -> bytes:
    import docx as pydocx

    doc = pydocx.Document()
    doc.core_properties.title = "Sentinel Title"
    doc.add_heading("Intro HEADING-SENTINEL", level=1)
    doc.add_paragraph("Body text ALPHA-SENTINEL.")
    doc.add_paragraph("first item", style="List Bullet")
    doc.add_paragraph("second item", style="List Bullet")
    if table:
        grid = doc.add_table(rows=2, cols=2)
        for r, row in enumerate(grid.rows):
            for c, cell in enumerate(row.cells):
                cell.text = f"cell{r}{c}"
    doc.add_heading("Second heading", level=2)
    for n in range(paragraphs):
        doc.add_paragraph(f"Paragraph number {n} with a few more words to make it longer.")
    doc.add_paragraph("OMEGA-SENTINEL the end.")
    doc.sections[0].header.paragraphs[0].text = "HEADER-SENTINEL"
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def run(src: Source, limits: Limits | None = None, **req: Any) -> tuple[str, Any]:
    sink = Sink(limits or Limits())
    outcome = docx.extract(src, Request(limits=limits or Limits(), **req), sink)
    sink.close()
    return sink.text(), outcome


def test_mammoth_path_markdown() -> None:
    text, outcome = run(source_for_bytes("a.docx", make_docx()))
    assert "# Intro HEADING-SENTINEL" in text
    assert "## Second heading" in text
    assert "- first item\n- second item\n" in text
    assert "| cell00 | cell01 |\n| --- | --- |\n| cell10 | cell11 |" in text
    assert text.index("ALPHA-SENTINEL") < text.index("cell00") < text.index("OMEGA-SENTINEL")
    assert "Header: HEADER-SENTINEL" in text
    assert outcome.unit == "paragraphs" and outcome.totals["paragraphs"] >= 6
    assert outcome.resume is None


@pytest.fixture
def no_mammoth(monkeypatch: pytest.MonkeyPatch) -> None:
    import mammoth

    def boom(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("mammoth must not run above the threshold")

    monkeypatch.setattr(mammoth, "convert_to_html", boom)


@pytest.mark.usefixtures("no_mammoth")
def test_streaming_path_above_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docx, "MAMMOTH_MAX", 1000)
    text, outcome = run(source_for_bytes("a.docx", make_docx(paragraphs=50)))
    assert "# Intro HEADING-SENTINEL" in text and "## Second heading" in text
    assert "- first item\n- second item\n" in text
    assert "| cell00 | cell01 |\n| --- | --- |\n| cell10 | cell11 |" in text
    assert "OMEGA-SENTINEL" in text and "Header: HEADER-SENTINEL" in text
    assert outcome.totals == {"paragraphs": 56}
    assert not outcome.warnings


@pytest.mark.usefixtures("no_mammoth")
def test_streaming_stops_when_sink_is_full() -> None:
    # document.xml is far over 20 bytes per asked-for character: streamed without patching anything
    limits = Limits(max_chars=2000)
    text, outcome = run(source_for_bytes("big.docx", make_docx(paragraphs=3000)), limits)
    assert len(text) == 2000
    assert "OMEGA-SENTINEL" not in text and "Header:" not in text
    assert outcome.totals == {} and "cut" in outcome.done and not outcome.warnings
    assert outcome.resume is None


def test_mammoth_path_is_bounded_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docx, "XML_PER_CHAR", 10**6)
    limits = Limits(max_chars=500)
    text, outcome = run(source_for_bytes("big.docx", make_docx(paragraphs=200)), limits)
    assert len(text) == 500 and "OMEGA-SENTINEL" not in text
    assert "paragraphs" not in outcome.totals


def test_info_counts_and_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    details = docx.info(source_for_bytes("a.docx", make_docx(paragraphs=40)), Request())
    f = details.fields
    assert f["title"] == "Sentinel Title"
    assert f["headings"] == ["Intro HEADING-SENTINEL", "Second heading"]
    assert f["paragraphs"] == 46 and f["tables"] == 1 and f["macros"] is False
    assert f["counts_estimated"] is False and details.estimated is False
    assert details.next == [("extract", FILE)]
    monkeypatch.setattr(docx, "SAMPLE", 4096)
    big = docx.info(source_for_bytes("big.docx", make_docx(paragraphs=3000)), Request())
    assert big.fields["counts_estimated"] is True and big.estimated
    assert 1500 < big.fields["paragraphs"] < 6000
    assert ("extract", FILE, "--max-chars", "20000") in big.next


def test_pages_are_a_usage_error() -> None:
    with pytest.raises(UsageError, match="no pages"):
        run(source_for_bytes("a.docx", make_docx()), pages=(Span(1, 2),))


def test_encrypted_docx() -> None:
    src = Source(name="locked.docx", sniffed=Sniffed("docx", "x", encrypted=True), size=4, data=b"\xd0\xcf\x11\xe0")
    with pytest.raises(Encrypted, match="password-protected"):
        run(src)
    assert docx.info(src, Request()).encrypted


def test_corrupt_zip() -> None:
    src = Source(name="bad.docx", sniffed=Sniffed("docx", "x"), size=20, data=b"PK\x03\x04 not really a zip")
    with pytest.raises(Corrupt):
        run(src)
    with pytest.raises(Corrupt):
        docx.info(src, Request())


def _rezip(data: bytes, replace: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            zout.writestr(item.filename, replace.get(item.filename, zin.read(item.filename)))
    return out.getvalue()


BOMB = (
    b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>\n'
    b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
    b"<w:body><w:p><w:r><w:t>&lol2;</w:t></w:r></w:p></w:body></w:document>"
)


@pytest.mark.parametrize("threshold", [docx.MAMMOTH_MAX, 10])
def test_xml_bomb_refused(monkeypatch: pytest.MonkeyPatch, threshold: int) -> None:
    monkeypatch.setattr(docx, "MAMMOTH_MAX", threshold)
    src = source_for_bytes("bomb.docx", _rezip(make_docx(), {"word/document.xml": BOMB}))
    with pytest.raises(Refused):
        run(src)
    with pytest.raises(Refused):
        docx.info(src, Request())


def test_truncated_docx_is_corrupt_not_a_traceback() -> None:
    data = make_docx(paragraphs=100)
    with pytest.raises(Corrupt):
        run(Source(name="cut.docx", sniffed=Sniffed("docx", "x"), size=2000, data=data[:2000]))


def make_odt() -> bytes:
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/"><office:body><office:text>'
        '<text:h text:outline-level="2">ODT heading</text:h>'
        '<text:p>Hello<text:s text:c="2"/>ODT-SENTINEL<text:note text:id="n1">'
        "<text:note-citation>1</text:note-citation>"
        "<text:note-body><text:p>Note body text</text:p></text:note-body></text:note>.</text:p>"
        "<text:list><text:list-item><text:p>item one</text:p></text:list-item></text:list>"
        "<table:table><table:table-row><table:table-cell><text:p>A1</text:p></table:table-cell>"
        "<table:table-cell><text:p>B1</text:p></table:table-cell></table:table-row></table:table>"
        "<text:p>after<office:annotation><dc:creator>Ann</dc:creator>"
        "<text:p>A remark</text:p></office:annotation></text:p>"
        "</office:text></office:body></office:document-content>"
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.text", compress_type=zipfile.ZIP_STORED)
        zf.writestr("content.xml", content)
    return buf.getvalue()


def test_odt_best_effort() -> None:
    src = source_for_bytes("a.odt", make_odt())
    assert src.kind == "odt"
    text, outcome = run(src)
    assert "## ODT heading" in text
    assert "Hello  ODT-SENTINEL[^1]." in text
    assert "- item one" in text and "| A1 | B1 |" in text
    assert "[^1]: Note body text" in text and "Comment (Ann): A remark" in text
    assert outcome.totals == {"paragraphs": 4}
    assert docx.info(src, Request()).fields["headings"] == ["ODT heading"]


CORPUS_DOCX: list[tuple[str, list[str], list[str]]] = [
    ("docx-tables.docx", ["Above", "| Top left | Top right |", "| Bottom left | Bottom right |", "Below"], []),
    ("docx-footnotes.docx", ["Ouch", "A tachyon walks into a bar.", "Fin."], []),
    (
        "docx-comments.docx",
        ["Ouch.", "Comment (Michael Williamson): A tachyon walks into a bar.", "Comment (Michael Williamson): Fin."],
        [],
    ),
    ("docx-strict-format.docx", ["Test"], []),
    (
        "docx-doc-odd-even-hdrs.docx",
        ["First Page.", "Second Page.", "Header: Even page header.", "Header: Odd page header."],
        [],
    ),
]


@pytest.mark.corpus
@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(("name", "must", "must_not"), CORPUS_DOCX)
def test_corpus_docx(
    corpus_dir: Path,
    manifest: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    must: list[str],
    must_not: list[str],
    stream: bool,
) -> None:
    assert name in manifest
    if stream:
        monkeypatch.setattr(docx, "MAMMOTH_MAX", 0)
    src = source_for_path(corpus_dir / name)
    text, outcome = run(src)
    for needle in must:
        assert needle in text, (needle, text)
    for needle in must_not:
        assert needle not in text
    if name == "docx-tables.docx":
        assert text.index("Above") < text.index("Top left") < text.index("Bottom right") < text.index("Below")
    if name == "docx-footnotes.docx":
        assert "[^1]: A tachyon walks into a bar." in text and "[^2]: Fin." in text
    assert not outcome.warnings
    assert docx.info(src, Request()).fields["paragraphs"] >= 1


@pytest.mark.corpus
def test_corpus_docx_empty(corpus_dir: Path) -> None:
    src = source_for_path(corpus_dir / "docx-empty.docx")
    text, outcome = run(src)
    assert text.strip() == "" and not outcome.warnings
    details = docx.info(src, Request())
    assert details.fields["paragraphs"] == 0 and details.est_chars == 0


@pytest.mark.corpus
def test_corpus_docx_info_flags(corpus_dir: Path) -> None:
    assert docx.info(source_for_path(corpus_dir / "docx-comments.docx"), Request()).fields["has_comments"]
    notes = docx.info(source_for_path(corpus_dir / "docx-footnotes.docx"), Request()).fields
    assert notes["has_footnotes"] and not notes["has_comments"]
    hdrs = docx.info(source_for_path(corpus_dir / "docx-doc-odd-even-hdrs.docx"), Request()).fields
    assert not hdrs["has_footnotes"] and hdrs["headers_footers"] > 0


def test_html2md_shapes() -> None:
    from boundread.formats.office.html2md import convert

    html = (
        "<h2>Head</h2><p>Para with <a href='http://x'>link text</a><img src='data:x'/> and<br />break</p>"
        "<ol><li>one<ul><li>inner</li></ul></li><li>two</li></ol><p>after</p>"
        "<table><tr><th>A|1</th><td><p>B</p><p>C</p></td></tr><tr><td>x</td><td>y</td></tr></table>"
    )
    text = "".join(block for block, _ in convert(html))
    assert text.startswith("## Head\n\nPara with link text and\nbreak\n\n")
    assert "1. one\n  - inner\n2. two\n\nafter\n\n" in text
    assert "| A\\|1 | B C |\n| --- | --- |\n| x | y |\n" in text
    assert "data:" not in text and "http" not in text
    assert sum(counted for _, counted in convert(html)) == 6


def test_mammoth_done_counts_written_paragraphs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(docx, "XML_PER_CHAR", 10**6)
    _, outcome = run(source_for_bytes("big.docx", make_docx(paragraphs=200)), Limits(max_chars=500))
    written = int(outcome.done.split("-")[1].split(" ")[0])
    assert 1 <= written < 20 and "cut" in outcome.done


def test_damaged_bytes_never_raise_unhandled() -> None:
    from boundread.errors import BoundreadError

    data = make_docx()
    for n, at in enumerate(range(100, len(data), max(1, len(data) // 25))):
        bad = bytearray(data)
        bad[at : at + 8] = bytes((n * 37 + i) % 256 for i in range(8))
        src = Source(name="bad.docx", sniffed=Sniffed("docx", "x"), size=len(bad), data=bytes(bad))
        with contextlib.suppress(BoundreadError):
            run(src)
        with contextlib.suppress(BoundreadError):
            docx.info(src, Request())
