"""Converters print a file's content in another form: they are judged as a print of the file they read.

``pandoc f.docx``, ``xlsx2csv``, csvkit, ``mlr``, ``mutool draw``, ``pdftohtml -stdout``... print a document's
text as about as much text; one told to write a file prints nothing, and a later read of that file is the
same print. Summaries (``csvstat``, ``mlr count``), filters and a converter's bounded part stay allowed.
Files are made in the test: a 600 KB CSV, a PDF (the package's sample) and a Word document of 400 KB of text.
"""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from boundread.guard import check_command

SAMPLE = Path(__file__).resolve().parents[2] / "src" / "boundread" / "data" / "sample-report.pdf"
#: 400 KB of text: a small document's whole text is allowed (test_guard_converts_small_documents.py)
_DOCX_XML = ('<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/'
             'main"><w:body>' + '<w:p><w:r><w:t>sentinel paragraph of the report</w:t></w:r></w:p>' * 13_000
             + '</w:body></w:document>')
_TYPES = ('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.'
          'wordprocessingml.document.main+xml"/></Types>')


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("converters")
    (root / "data.csv").write_text("id,name,email\n" + "".join(f"{n},name {n},u{n}@example.org\n"
                                                               for n in range(20_000)))
    (root / "small.csv").write_text("id,name\n1,a\n")
    shutil.copy(SAMPLE, root / "report.pdf")
    with zipfile.ZipFile(root / "report.docx", "w") as docx:
        docx.writestr("[Content_Types].xml", _TYPES)
        docx.writestr("word/document.xml", _DOCX_XML)
    (root / "out").mkdir()
    (root / "style.xsl").write_text("<xsl:stylesheet/>")
    return root


DUMPS = [
    ("pandoc report.docx -t plain", "report.docx"),
    ("pandoc --to=markdown report.docx -o -", "report.docx"),
    ("pandoc data.csv -t markdown | less", "data.csv"),
    ("csvlook data.csv", "data.csv"),
    ("csvcut -c name,email data.csv", "data.csv"),
    ("csvjson data.csv | jq .", "data.csv"),
    ("cat data.csv | csvlook", "data.csv"),
    ("docx2txt report.docx", "report.docx"),
    ("markitdown report.docx", "report.docx"),
    ("libreoffice --headless --cat report.docx", "report.docx"),
    ("mutool draw -F txt report.pdf", "report.pdf"),
    ("pdftohtml -i -stdout -noframes report.pdf", "report.pdf"),
    ("mlr --icsv --ojson cat data.csv", "data.csv"),
    ("qsv table data.csv", "data.csv"),
    ("textutil -cat txt -stdout report.docx", "report.docx"),
    ("unoconv --stdout -f txt report.docx", "report.docx"),
    # written to a file, then read back: the same text
    ("pandoc report.docx -t plain -o out/r.txt; cat out/r.txt", "report.docx"),
    ("pdftotext report.pdf out/r.txt && cat out/r.txt", "report.pdf"),
    ("pdftotext -layout report.pdf && less report.txt", "report.pdf"),
    ("in2csv data.csv > out/d.csv; head -c 2000000 out/d.csv", "data.csv"),
    ("libreoffice --convert-to txt --outdir out report.docx && cat out/report.txt", "report.docx"),
    ("cmark data.csv", "data.csv"),
    ("marked -o out/d.html data.csv && cat out/d.html", "data.csv"),
    ("lynx -dump data.csv", "data.csv"),
    ("xsltproc style.xsl data.csv", "data.csv"),
    ("csvtk pretty data.csv", "data.csv"),
    ("tsv-pretty data.csv", "data.csv"),
]

ALLOWED = [
    "pandoc report.docx -o out/report.md",  # written, not read back
    "pdftotext report.pdf out/r.txt",
    "csvcut -n data.csv",  # the column names
    "csvstat data.csv",  # a summary
    "csvgrep -c email -m u123@ data.csv",  # the rows that match
    "csvlook --max-rows 20 data.csv",
    "csvlook small.csv",
    "mlr --icsv --opprint head -n 4 data.csv",
    "mlr --icsv --opprint count-distinct -f name then head data.csv",
    "qsv count data.csv",
    "pdftohtml report.pdf out/r",  # files next to it, not stdout
    "pandoc data.csv -t markdown | head -n 20",
    "lynx data.csv",  # a person's browser
    "marked -o out/d.html data.csv",
    "yq . small.csv | head -n 20",
    "csvtk nrow data.csv",
    "xan count data.csv",
]


@pytest.mark.parametrize(("command", "name"), DUMPS)
def test_a_converter_is_judged_as_its_input(work: Path, command: str, name: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", (command, decision)
    assert name in decision.reason and "boundread " in decision.reason, decision.reason


@pytest.mark.parametrize("command", ALLOWED)
def test_a_part_a_summary_or_a_written_file_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


def test_the_reason_names_the_bounded_reader(work: Path) -> None:
    reason = check_command("xlsx2csv data.csv | cat", cwd=work).reason
    assert "`xlsx2csv` would print data.csv" in reason
    assert "boundread sheets data.csv data --rows 1-" in reason  # rows with the header: --lines can cut a record
