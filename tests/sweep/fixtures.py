"""Generated files, one or more per class issue 22 names, each with the reference tool that reads it.

Every file carries words of its own in the script its class is about (Cyrillic for KOI8-R, Greek for
ISO-8859-7, Han for GB2312, kana for Shift-JIS, ...), so a reader that garbles or drops a part loses words the
reference keeps. Nothing here is checked in: each builder writes into the test's tmp folder.
"""

from __future__ import annotations

import io
import struct
import tarfile
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.helpers import tiny_pdf
from tests.sweep import references

RU = "Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация южных губерний."
EL = "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. Το ελληνικό αλφάβητο χρησιμοποιείται για τη γραφή της γλώσσας."
ZH = "我能吞下玻璃而不伤身体。中华人民共和国是世界上人口最多的国家之一，首都是北京。"
JA = "いろはにほへと　ちりぬるを　わかよたれそ　つねならむ。日本語の文章を書きます。東京は日本の首都です。"
PL = "Zażółć gęślą jaźń. Pchnąć w tę łódź jeża lub ośm skrzyń fig. Źródło świeżej wody płynęło obok łąki."
FR = "Voix ambiguë d'un cœur qui, au zéphyr, préfère les jattes de kiwis. Où est la forêt? Été, hôtel, garçon."
DE = "Größe über Straße. Die Bürger ärgern sich über hohe Gebühren. Ça coûte très cher, señor."
KO = "다람쥐 헌 쳇바퀴에 타고파. 키스의 고유조건은 입술끼리 만나야 하고 특별한 기술은 필요치 않다."
TW = "我能吞下玻璃而不傷身體。臺灣的首都是臺北，這裡有許多美麗的風景與傳統的廟宇。"
EN = "The quick brown fox jumps over the lazy dog while seven wizards quietly judge boxing matches."


@dataclass(frozen=True)
class Case:
    """One file to sweep: its ``name``, its class (``cls``, the key of the threshold), how to build it into a
    folder, and how the reference tool reads it. ``member``: compare that archive member, not the listing.
    ``strict``: a warning does not excuse missing words (a generated file of a class issue 22 calls fixed).
    ``xfail``: a known loss another engineer is fixing (the reason names the owner); the test is a strict xfail."""

    name: str
    cls: str
    build: Callable[[Path], Path]
    reference: Callable[[Path], str]
    member: str | None = None
    strict: bool = True
    xfail: str = ""


def _lines(text: str, n: int = 12) -> str:
    return "".join(f"{i} {text}\n" for i in range(1, n + 1))


def _text(name: str, text: str, codec: str, end: str = "\n") -> Callable[[Path], Path]:
    def build(folder: Path) -> Path:
        path = folder / name
        lines = _lines(text).splitlines()
        ends = ("\r\n", "\r", "\n") if end == "mixed" else (end,)
        path.write_bytes("".join(line + ends[n % len(ends)] for n, line in enumerate(lines)).encode(codec))
        return path
    return build


#: (file name, text, Python codec that writes it, line end - "mixed": CRLF, CR and LF in turn -, iconv's name)
TEXTS = (
    ("koi8r.txt", RU, "koi8-r", "\n", "KOI8-R"),
    ("cp1251.txt", RU, "cp1251", "\r\n", "CP1251"),
    ("greek.txt", EL, "iso-8859-7", "\n", "ISO-8859-7"),
    ("gb2312.txt", ZH, "gb2312", "\n", "GB2312"),
    ("sjis-cr.txt", JA, "shift_jis", "\r", "SHIFT_JIS"),
    ("cp1250-polish.txt", PL, "cp1250", "\r\n", "CP1250"),
    ("cp1252-french.txt", FR, "cp1252", "\r\n", "CP1252"),
    ("cp866-dos.txt", RU, "cp866", "\r\n", "CP866"),
    ("cp850-dos.txt", DE, "cp850", "\r\n", "CP850"),
    ("euckr.txt", KO, "euc-kr", "\n", "EUC-KR"),
    ("big5.txt", TW, "big5", "\n", "BIG5"),
    ("eucjp.txt", JA, "euc-jp", "\n", "EUC-JP"),
    ("iso2022jp.txt", JA, "iso2022_jp", "\n", "ISO-2022-JP"),
    ("iso2022kr.txt", KO, "iso2022_kr", "\n", "ISO-2022-KR"),
    ("ja-utf16be-nobom.txt", JA, "utf-16-be", "\n", "UTF-16BE"),
    ("mixed-ends.txt", EN + " " + FR, "utf-8", "mixed", "UTF-8"),
    ("utf16-bom.txt", RU + " " + EN, "utf-16", "\n", "UTF-16"),
    ("utf16le-nobom.txt", EL + " " + EN, "utf-16-le", "\r\n", "UTF-16LE"),
    ("utf16be-nobom.txt", EN, "utf-16-be", "\n", "UTF-16BE"),
    ("utf32le-nobom.txt", RU + " " + EN, "utf-32-le", "\n", "UTF-32LE"),
    ("utf32be-nobom.txt", ZH + " " + EN, "utf-32-be", "\n", "UTF-32BE"),
)


def declared(folder: Path) -> Path:
    """An XML file whose prolog names its legacy encoding."""
    path = folder / "declared.xml"
    body = "".join(f"<line>{line}</line>\n" for line in _lines(RU).splitlines())
    path.write_bytes(f'<?xml version="1.0" encoding="windows-1251"?>\n<doc>\n{body}</doc>\n'.encode("cp1251"))
    return path


def html_meta(folder: Path) -> Path:
    """An HTML page whose meta names KOI8-R: a heading, paragraphs, a list and a table (kind html, its text)."""
    path = folder / "page.html"
    body = "".join(f"<p>{line}</p>\n" for line in _lines(RU).splitlines())
    items = "".join(f"<li>{word}</li>" for word in RU.split()[:4])
    path.write_bytes(f'<html><head><meta charset="koi8-r"><title>Страница</title></head><body>\n<h1>Заголовок</h1>'
                     f"{body}<ul>{items}</ul><table><tr><td>Север</td><td>Юг</td></tr></table></body></html>\n"
                     .encode("koi8-r"))
    return path


def gzipped_koi8r(folder: Path) -> Path:
    import gzip

    path = folder / "koi8r.txt.gz"
    path.write_bytes(gzip.compress(_lines(RU).encode("koi8-r")))
    return path


def legacy_member_zip(folder: Path) -> Path:
    """A zip whose text member is in Windows-1251, as a Russian Windows tool writes it."""
    path = folder / "legacy-member.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("report.txt", _lines(RU).replace("\n", "\r\n").encode("cp1251"))
    return path


def _stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def acroform(folder: Path) -> Path:
    """One page of text and three filled text fields, each with the appearance stream a filling tool writes
    (pdftotext prints what the appearance shows), and one field with a value but no appearance."""
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    values = (b"Aurelia Quistgaard", b"Marmalade Street", b"Vexillology")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [5 0 R 6 0 R 7 0 R 12 0 R] /DA (/Helv 0 Tf 0 g) >> >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R"
        b" /Resources << /Font << /F1 8 0 R >> >> /Annots [5 0 R 6 0 R 7 0 R 12 0 R] >>",
        _stream(b"BT /F1 12 Tf 72 720 Td (Membership application: please complete every field) Tj ET"),
    ]
    for n, (field_name, value) in enumerate(zip((b"applicant", b"street", b"hobby"), values, strict=True)):
        y = 600 - 40 * n
        objects.append(b"<< /Type /Annot /Subtype /Widget /P 3 0 R /F 4 /FT /Tx /T (%s) /V (%s)"
                       b" /Rect [72 %d 400 %d] /AP << /N %d 0 R >> >>" % (field_name, value, y, y + 20, 9 + n))
    objects.append(font)  # 8
    for value in values:  # 9, 10, 11 - the appearances
        objects.append(_stream(b"/Tx BMC BT /F1 10 Tf 2 6 Td (%s) Tj ET EMC" % value,
                               b"/Type /XObject /Subtype /Form /BBox [0 0 328 20] /Resources << /Font << /F1 8 0 R"
                               b" >> >>"))
    objects.append(b"<< /Type /Annot /Subtype /Widget /P 3 0 R /F 4 /FT /Tx /T (unseen) /V (Quokka)"
                   b" /Rect [72 400 400 420] >>")
    path = folder / "acroform.pdf"
    path.write_bytes(tiny_pdf(objects))  # 12: the field with no appearance
    return path


def typewriter_pdf(folder: Path) -> Path:
    """A PDF filled in by typing on it (Acrobat's typewriter / "Add text" tool, the way a form with no fields is
    filled): the page's own text and a FreeText annotation with its appearance stream, which pdftotext prints."""
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    path = folder / "typewriter.pdf"
    path.write_bytes(tiny_pdf([
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >>"
        b" /Annots [6 0 R] >>",
        _stream(b"BT /F1 12 Tf 72 720 Td (Customs declaration: sender name) Tj ET"),
        font,
        b"<< /Type /Annot /Subtype /FreeText /Rect [72 600 300 640] /Contents (Bartholomew Quince)"
        b" /DA (/Helv 12 Tf 0 g) /AP << /N 7 0 R >> >>",
        _stream(b"BT /F1 12 Tf 2 10 Td (Bartholomew Quince) Tj ET",
                b"/Type /XObject /Subtype /Form /BBox [0 0 228 40] /Resources << /Font << /F1 5 0 R >> >>"),
    ]))
    return path


def prose_pdf(folder: Path) -> Path:
    from fpdf import FPDF

    doc = FPDF()
    for page in range(3):
        doc.add_page()
        doc.set_font("Helvetica", size=11)
        doc.multi_cell(0, 6, f"Page {page + 1}. " + EN + " Sentinel zebracorn appears on every page.")
    path = folder / "prose.pdf"
    doc.output(str(path))
    return path


def docx(folder: Path) -> Path:
    import docx as python_docx

    doc = python_docx.Document()
    doc.add_heading("Quarterly herpetology digest", 1)
    doc.add_paragraph(EN)
    doc.add_paragraph(RU)
    table = doc.add_table(rows=2, cols=2)
    for i, word in enumerate(("salamander", "axolotl", "caecilian", "newt")):
        table.cell(i // 2, i % 2).text = word
    path = folder / "digest.docx"
    doc.save(str(path))
    return path


def commented_docx(folder: Path) -> Path:
    import docx as python_docx

    doc = python_docx.Document()
    para = doc.add_paragraph("The survey counted marmots along the ridge. " + EN)
    doc.add_comment(para.runs, text="Reviewer asks whether the capybara estimate is sourced.", author="Rita")
    path = folder / "commented.docx"
    doc.save(str(path))
    return path


def wrapped_docx(folder: Path) -> Path:
    """Body text inside the run wrappers Word writes: a simple field's result (a cross-reference, MERGEFIELD),
    ruby (furigana over Japanese), right-to-left runs (w:dir, w:bdo in Arabic and Hebrew documents), next to the
    wrappers every reader handles (an insertion, a content control, a hyperlink)."""
    import docx as python_docx
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    doc = python_docx.Document()
    doc.add_paragraph("Plain paragraph about the albatross")
    w = nsdecls("w")
    for inner in (
        '<w:ins w:id="1" w:author="a" w:date="2020-01-01T00:00:00Z"><w:r><w:t>Inserted walrus</w:t></w:r></w:ins>',
        "<w:sdt><w:sdtPr/><w:sdtContent><w:r><w:t>Content control narwhal</w:t></w:r></w:sdtContent></w:sdt>",
        '<w:hyperlink w:anchor="x"><w:r><w:t>Hyperlinked okapi</w:t></w:r></w:hyperlink>',
        '<w:fldSimple w:instr="REF figure1"><w:r><w:t>Cross reference tapir</w:t></w:r></w:fldSimple>',
        "<w:r><w:ruby><w:rubyPr/><w:rt><w:r><w:t>ふりがな</w:t></w:r></w:rt><w:rubyBase><w:r><w:t>漢字 ocelot</w:t>"
        "</w:r></w:rubyBase></w:ruby></w:r>",
        '<w:dir w:val="rtl"><w:r><w:t>مرحبا بالعالم jackal</w:t></w:r></w:dir>',
        '<w:bdo w:val="rtl"><w:r><w:t>שלום עולם vulture</w:t></w:r></w:bdo>',
    ):
        doc.element.body.insert(len(doc.element.body) - 1, parse_xml(f"<w:p {w}>{inner}</w:p>"))
    path = folder / "wrapped.docx"
    doc.save(str(path))
    return path


def charted_pptx(folder: Path) -> Path:
    from pptx import Presentation
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Harvest report"
    data = CategoryChartData()
    data.categories = ["Apricots", "Blueberries", "Cherries", "Черешня"]
    data.add_series("Tonnage", (3, 5, 7, 9))
    chart = slide.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(1), Inches(1.5), Inches(6), Inches(4),
                                   data).chart  # type: ignore[attr-defined]
    chart.has_title = True
    chart.chart_title.text_frame.text = "Orchard yield by fruit"
    path = folder / "chart.pptx"
    deck.save(str(path))
    return path


def smartart_pptx(folder: Path) -> Path:
    """A deck whose second slide's only text is a SmartArt diagram (its data part, as PowerPoint writes it)."""
    from tests.formats.office_parts import REL, add_rels, diagram_data, insert_before, rezip, smartart_frame

    base = folder / "base.pptx"
    from pptx import Presentation

    deck = Presentation()
    deck.slides.add_slide(deck.slide_layouts[5]).shapes.title.text = "Process overview"
    deck.slides.add_slide(deck.slide_layouts[6])  # blank: the diagram is all there is
    deck.save(str(base))
    with zipfile.ZipFile(base) as zf:
        slide, rels = zf.read("ppt/slides/slide2.xml"), zf.read("ppt/slides/_rels/slide2.xml.rels")
    tree = [("A", "Gather requirements", "D", 0), ("A1", "Interview stakeholders", "A", 0),
            ("B", "Prototype gondola", "D", 1), ("C", "Ship Погрузка", "D", 2)]
    path = folder / "smartart.pptx"
    path.write_bytes(rezip(base.read_bytes(), {
        "ppt/slides/slide2.xml": insert_before(slide, "</p:spTree>", smartart_frame("rIdDgm")),
        "ppt/slides/_rels/slide2.xml.rels": add_rels(rels, ("rIdDgm", f"{REL}/diagramData", "../diagrams/data1.xml")),
        "ppt/diagrams/data1.xml": diagram_data(tree),
    }))
    return path


def pptx(folder: Path) -> Path:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    for n, words in enumerate((EN, RU, EL)):
        slide = deck.slides.add_slide(deck.slide_layouts[5])
        slide.shapes.title.text = f"Slide about lighthouses {n}"
        box = slide.shapes.add_textbox(Inches(1), Inches(2), Inches(6), Inches(2))
        box.text_frame.text = words
        group = slide.shapes.add_group_shape()
        group.shapes.add_textbox(Inches(1), Inches(5), Inches(3), Inches(1)).text_frame.text = f"grouped pelican {n}"
        table = slide.shapes.add_table(2, 2, Inches(5), Inches(5), Inches(3), Inches(1)).table
        table.cell(0, 0).text, table.cell(1, 1).text = "cormorant", "albatross"
        slide.notes_slide.notes_text_frame.text = f"Speaker notes mention the petrel {n}"
    path = folder / "lighthouses.pptx"
    deck.save(str(path))
    return path


def xlsx(folder: Path) -> Path:
    import xlsxwriter

    path = folder / "ledger.xlsx"
    book = xlsxwriter.Workbook(str(path))
    for title, words in (("Inventory", EN), ("Склад", RU)):
        sheet = book.add_worksheet(title)
        for row, word in enumerate(words.split()):
            sheet.write(row, 0, word)
            sheet.write(row, 1, row * 1.5)
    book.close()
    return path


_ODF_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
           'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
           'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" '
           'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
           'xmlns:dc="http://purl.org/dc/elements/1.1/"')
_MIME = {"odt": "application/vnd.oasis.opendocument.text",
         "ods": "application/vnd.oasis.opendocument.spreadsheet",
         "odp": "application/vnd.oasis.opendocument.presentation"}


def _odf(folder: Path, kind: str, body: str) -> Path:
    """An ODF package written by hand: mimetype first and stored, content.xml, an empty styles.xml, a manifest."""
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_ODF_NS} office:version="1.2">'
               f"<office:body>{body}</office:body></office:document-content>")
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:'
                'opendocument:xmlns:manifest:1.0" manifest:version="1.2"><manifest:file-entry manifest:full-path="/"'
                f' manifest:media-type="{_MIME[kind]}"/><manifest:file-entry manifest:full-path="content.xml"'
                ' manifest:media-type="text/xml"/></manifest:manifest>')
    path = folder / f"generated.{kind}"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), _MIME[kind], compress_type=zipfile.ZIP_STORED)
        zf.writestr("content.xml", content)
        zf.writestr("styles.xml", f'<?xml version="1.0" encoding="UTF-8"?><office:document-styles {_ODF_NS} '
                                  'office:version="1.2"><office:styles/></office:document-styles>')  # pandoc needs it
        zf.writestr("META-INF/manifest.xml", manifest)
    return path


def odt(folder: Path) -> Path:
    paras = "".join(f"<text:p>{line}</text:p>" for line in (EN, RU, EL, "Sentinel okapi in an ODF text"))
    return _odf(folder, "odt", f"<office:text><text:h>Expedition notes</text:h>{paras}</office:text>")


def ods(folder: Path) -> Path:
    rows = "".join(f'<table:table-row><table:table-cell office:value-type="string"><text:p>{word}</text:p>'
                   f'</table:table-cell><table:table-cell office:value-type="float" office:value="{n}">'
                   f"<text:p>{n}</text:p></table:table-cell></table:table-row>"
                   for n, word in enumerate((EN + " " + RU).split()))
    return _odf(folder, "ods", f'<office:spreadsheet><table:table table:name="Expenses">{rows}</table:table>'
                               "</office:spreadsheet>")


def escaped_xlsx(folder: Path) -> Path:
    """Shared strings with OOXML's ``_xHHHH_`` escapes inside words (as some writers store accented letters and
    line breaks): a reader that prints them as written loses the words ("caf_x00E9_" is not "café")."""
    import xlsxwriter

    from tests.formats.office_parts import rezip

    plain = folder / "plain.xlsx"
    book = xlsxwriter.Workbook(str(plain))
    sheet = book.add_worksheet("Menu")
    for row, text in enumerate(("Naïve café résumé déjà vu", "Crème brûlée", "Fenêtre éclairée")):
        sheet.write(row, 0, text)
    book.close()
    with zipfile.ZipFile(plain) as zf:
        strings = zf.read("xl/sharedStrings.xml")
    for letter in "éïêè":
        strings = strings.replace(letter.encode(), f"_x{ord(letter):04X}_".encode())
    path = folder / "escaped.xlsx"
    path.write_bytes(rezip(plain.read_bytes(), {"xl/sharedStrings.xml": strings}))
    return path


def commented_xlsx(folder: Path) -> Path:
    import xlsxwriter

    path = folder / "commented.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Ledger")
    for row, (value, comment) in enumerate((("Invoice 1042", "Customer disputes the shipping surcharge"),
                                            ("Invoice 1044", "Paid twice: refund pending approval"))):
        sheet.write(row, 0, value)
        sheet.write_comment(row, 0, comment)
    book.close()
    return path


def commented_ods(folder: Path) -> Path:
    """A sheet whose cells carry comments (office:annotation, what LibreOffice's Insert > Comment writes)."""
    def cell(text: str, comment: str = "") -> str:
        note = (f"<office:annotation><dc:creator>Rita</dc:creator><text:p>{comment}</text:p></office:annotation>"
                if comment else "")
        return f'<table:table-cell office:value-type="string">{note}<text:p>{text}</text:p></table:table-cell>'

    rows = "".join(f"<table:table-row>{cell(value, comment)}</table:table-row>" for value, comment in (
        ("Invoice 1042", "Customer disputes the shipping surcharge"), ("Invoice 1043", ""),
        ("Invoice 1044", "Paid twice: refund pending approval")))
    return _odf(folder, "ods", f'<office:spreadsheet><table:table table:name="Ledger">{rows}</table:table>'
                               "</office:spreadsheet>")


def odp(folder: Path) -> Path:
    notes = ("<presentation:notes><draw:frame><draw:text-box><text:p>Speaker reminder: thank the {n} sponsors"
             "</text:p></draw:text-box></draw:frame></presentation:notes>")
    pages = "".join(f'<draw:page draw:name="p{n}"><draw:frame><draw:text-box><text:p>{line}</text:p>'
                    f"</draw:text-box></draw:frame>{notes.format(n=word)}</draw:page>"
                    for n, (line, word) in enumerate(((EN, "seven"), (RU, "eleven"), ("narwhal tusk", "twelve"))))
    return _odf(folder, "odp", f"<office:presentation>{pages}</office:presentation>")


def _unicode_path(header: bytes, real: str) -> bytes:
    encoded = real.encode()
    return struct.pack("<HHBI", 0x7075, 5 + len(encoded), 1, zlib.crc32(header)) + encoded


#: Member names of the archives: Cyrillic, Greek, Han, accented Latin.
NAMES = ("отчёт-квартальный.txt", "γράμματα/επιστολή.txt", "资料/说明文件.txt", "café-crème.txt")


def unicode_path_zip(folder: Path) -> Path:
    """Names in the Info-ZIP Unicode Path extra field behind placeholders, as old Windows tools wrote them."""
    path = folder / "unicode-path.zip"
    with zipfile.ZipFile(path, "w") as zf:
        for n, real in enumerate(NAMES):
            header = f"placeholder{n}.txt".encode()
            info = zipfile.ZipInfo(header.decode())
            info.extra = _unicode_path(header, real)
            zf.writestr(info, f"{EN}\n{real}\n")
    return path


def pax_tar(folder: Path) -> Path:
    path = folder / "pax-names.tar"
    with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as tf:
        for real in NAMES:
            data = f"{RU}\n{real}\n".encode()
            info = tarfile.TarInfo(real)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return path


def sevenz(folder: Path) -> Path:
    import py7zr

    path = folder / "names.7z"
    with py7zr.SevenZipFile(path, "w") as archive:
        for real in NAMES:
            archive.writestr(f"{EL}\n{real}\n".encode(), real)
    return path


def cases() -> list[Case]:
    out = [Case(name, "text", _text(name, text, codec, end),
                lambda path, enc=iconv: references.text(path, enc))  # type: ignore[misc]
           for name, text, codec, end, iconv in TEXTS]
    out += [
        Case("declared.xml", "text", declared, lambda path: references.text(path, "CP1251")),
        Case("page.html", "html", html_meta, lambda path: references.html(path, "KOI8-R")),
        Case("koi8r.txt.gz", "text", gzipped_koi8r, lambda path: references.gunzipped(path, "KOI8-R")),
        Case("legacy-member.zip member", "archive-member", legacy_member_zip,
             lambda path: references.recoded(references.member(path, "report.txt"), "CP1251"), member="report.txt"),
        Case("prose.pdf", "pdf", prose_pdf, references.pdf),
        Case("acroform.pdf", "pdf-form", acroform, references.pdf),
        Case("typewriter.pdf", "pdf-form", typewriter_pdf, references.pdf),
        Case("digest.docx", "docx", docx, references.pandoc),
        Case("generated.odt", "odt", odt, references.pandoc),
        Case("commented.docx", "docx", commented_docx, references.pandoc_comments),
        Case("wrapped.docx", "docx", wrapped_docx, references.docx_xml),
        Case("lighthouses.pptx", "pptx", pptx, references.pptx),
        Case("chart.pptx", "pptx", charted_pptx, references.pptx),
        Case("smartart.pptx", "pptx", smartart_pptx, references.pptx_with_smartart),
        Case("generated.odp", "odp", odp, references.odp),
        Case("ledger.xlsx", "sheet", xlsx, references.workbook),
        Case("generated.ods", "sheet", ods, references.workbook),
        Case("commented.xlsx", "sheet", commented_xlsx, references.workbook_comments),
        Case("escaped.xlsx", "sheet", escaped_xlsx, references.workbook),
        Case("commented.ods", "sheet", commented_ods, references.odf_xml),
    ]
    for build in (unicode_path_zip, pax_tar, sevenz):
        label = build.__name__
        out.append(Case(f"{label} listing", "archive", build, references.listing))
        out.append(Case(f"{label} member", "archive-member", build,
                        lambda path: references.member(path, NAMES[0]).decode("utf-8", "replace"), member=NAMES[0]))
    return out
