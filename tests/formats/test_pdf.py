"""The PDF handler: info fields, page ranges and markers, clamping, resume, truncation, engines, layout."""

from __future__ import annotations

import json
import os
import re
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers import run
from tests.test_verdicts import check_same_verdict

from boundread.contract.model import FILE, Outcome, Request, Source, Span
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes, source_for_path
from boundread.errors import Corrupt, Encrypted, ExitCode, UsageError
from boundread.formats import ocr
from boundread.formats.pdf import handler as pdf
from boundread.formats.pdf import parallel
from boundread.formats.pdf.judge import readable
from boundread.formats.pdf.page import Page
from boundread.formats.pdf.pdfium import PdfiumDoc
from boundread.formats.pdf.reread import Rereader
from boundread.limits import Deadline, Limits

MARKER = re.compile(r"^--- page (\d+) / (\d+) ---$", re.MULTILINE)
TABLE = [
    ("Name", "Qty", "Price"),
    ("Apple", "3", "1.25"),
    ("Banana", "12", "0.50"),
    ("Cherry", "100", "9.99"),
]


def _pdf(pages: list[list[str]], **options: Any) -> bytes:
    from fpdf import FPDF

    doc = FPDF()
    doc.set_title("Sentinel report")
    doc.set_font("Helvetica", size=12)
    for lines in pages:
        doc.add_page()
        for line in lines:
            doc.cell(0, 10, line, new_x="LMARGIN", new_y="NEXT")
    if options:
        doc.set_encryption(**options)
    return bytes(doc.output())


def _table_pdf() -> bytes:
    from fpdf import FPDF

    doc = FPDF()
    doc.set_font("Helvetica", size=11)
    doc.add_page()
    doc.cell(0, 10, "Fruit prices", new_x="LMARGIN", new_y="NEXT")
    for row in TABLE:
        for value, width in zip(row, (60, 40, 40), strict=True):
            doc.cell(width, 8, value)
        doc.ln(8)
    return bytes(doc.output())


def _sentinels(count: int) -> list[list[str]]:
    return [[f"SENTINEL-PAGE-{n}", f"Body text of page {n}, line two."] for n in range(1, count + 1)]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("pdf")
    made = {
        "twelve": _pdf(_sentinels(12)),
        "two": _pdf(_sentinels(2)),
        "blank": _pdf([[], [], [], []]),
        "table": _table_pdf(),
        "locked": _pdf(_sentinels(3), owner_password="owner", user_password="secret"),
        "open-locked": _pdf(_sentinels(2), owner_password="owner"),
    }
    paths = {}
    for name, data in made.items():
        paths[name] = root / f"{name}.pdf"
        paths[name].write_bytes(data)
    return paths


def _run(src: Source, limits: Limits | None = None, **fields: Any) -> tuple[Outcome, str, Sink]:
    sink = Sink(limits or Limits())
    outcome = pdf.extract(src, Request(**fields), sink)
    sink.close()
    return outcome, sink.text(), sink


def _by_page(text: str) -> dict[int, str]:
    parts = MARKER.split(text)
    return {int(parts[i]): parts[i + 2].removeprefix("\n") for i in range(1, len(parts), 3)}


def test_info_fields_and_suggestions(files: dict[str, Path]) -> None:
    details = pdf.info(source_for_path(files["twelve"]), Request())
    assert details.fields["pages"] == 12
    assert details.fields["title"] == "Sentinel report"
    assert details.fields["text_layer"] is True
    assert details.fields["pdf_version"]
    assert details.encrypted is False
    assert details.estimated is True and details.est_chars is not None
    one_page = len("SENTINEL-PAGE-1\nBody text of page 1, line two.\n")
    assert 8 * one_page < details.est_chars < 16 * one_page
    assert details.next == [("pages", FILE, "1-5"), ("pages", FILE, "1-5", "--layout")]
    assert details.warnings == []


def test_info_small_file_is_exact(files: dict[str, Path]) -> None:
    details = pdf.info(source_for_path(files["two"]), Request())
    assert details.estimated is False
    assert details.next[0] == ("pages", FILE, "1-2")


def test_info_scan_warns_and_suggests_nothing(files: dict[str, Path]) -> None:
    details = pdf.info(source_for_path(files["blank"]), Request())
    assert details.fields["text_layer"] is False
    assert details.next == []
    assert any("no text layer on pages 1-3" in w and "OCR" in w for w in details.warnings)


@pytest.mark.parametrize("engine", ["auto", "pdfminer"])
def test_page_range_markers_and_resume(files: dict[str, Path], engine: str) -> None:
    outcome, text, sink = _run(source_for_path(files["twelve"]), pages=(Span(3, 5),), engine=engine)
    assert [int(n) for n, _ in MARKER.findall(text)] == [3, 4, 5]
    assert text.startswith("--- page 3 / 12 ---\n")
    pages = _by_page(text)
    assert all(f"SENTINEL-PAGE-{n}" in pages[n] for n in (3, 4, 5))
    assert "SENTINEL-PAGE-2\n" not in text and "SENTINEL-PAGE-6" not in text
    name = "pdfium" if engine == "auto" else engine
    assert outcome.unit == "pages" and outcome.totals == {"pages": 12, "engines": {name: "3-5"}}
    assert outcome.done == "pages 3-5 of 12"
    flags = ("--engine", engine) if engine != "auto" else ()
    assert outcome.resume == ("pages", FILE, "6-8", *flags)
    assert not sink.truncated


def test_resume_keeps_the_options(files: dict[str, Path]) -> None:
    outcome, _, _ = _run(source_for_path(files["twelve"]), pages=(Span(1, 2),), layout=True, engine="pdfminer")
    assert outcome.resume == ("pages", FILE, "3-4", "--layout", "--engine", "pdfminer")


def test_falls_back_to_the_other_engine(files: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    from boundread.formats.pdf import engines

    def refuse(self: object, src: Source, password: str | None) -> None:
        raise engines.OpenFailed("Data format error")

    monkeypatch.setattr(engines.PdfiumDoc, "__init__", refuse)
    outcome, text, _ = _run(source_for_path(files["two"]))
    assert "SENTINEL-PAGE-2" in text
    assert outcome.warnings == ["pdfium could not open the file (Data format error): read with pdfminer"]
    assert pdf.info(source_for_path(files["two"]), Request()).fields["engine"] == "pdfminer"


def test_pages_in_the_order_asked(files: dict[str, Path]) -> None:
    _, text, _ = _run(source_for_path(files["twelve"]), pages=(Span(7, 7), Span(2, 3)))
    assert [int(n) for n, _ in MARKER.findall(text)] == [7, 2, 3]


def test_clamped_range_warns_and_ends(files: dict[str, Path]) -> None:
    outcome, text, _ = _run(source_for_path(files["twelve"]), pages=(Span(10, 200),))
    assert [int(n) for n, _ in MARKER.findall(text)] == [10, 11, 12]
    assert "asked pages 10-200 but the file has 12: clamped to 10-12" in outcome.warnings
    assert outcome.resume is None


def test_range_past_the_end_is_a_usage_error(files: dict[str, Path]) -> None:
    with pytest.raises(UsageError) as caught:
        _run(source_for_path(files["twelve"]), pages=(Span(13, 20),))
    assert caught.value.what == "pages 13-20 are past the end (12 pages)"
    assert caught.value.fix == "ask for pages 1-12"


def test_whole_file_without_pages_has_no_resume(files: dict[str, Path]) -> None:
    outcome, text, _ = _run(source_for_path(files["twelve"]))
    assert all(f"SENTINEL-PAGE-{n}\n" in text for n in range(1, 13))
    assert outcome.resume is None
    assert outcome.done == "pages 1-12 of 12"


def _chars_of_pages(src: Source, last: int) -> int:
    _, text, _ = _run(src, pages=(Span(1, last),))
    return len(text)


@pytest.mark.parametrize("asked", [(Span(1, 6),), ()])
def test_max_chars_cuts_mid_range_and_resumes_there(files: dict[str, Path], asked: tuple[Span, ...]) -> None:
    src = source_for_path(files["twelve"])
    limit = _chars_of_pages(src, 3) + 25  # the marker of page 4 fits, its text does not
    outcome, text, sink = _run(src, Limits(max_chars=limit), pages=asked)
    assert len(text) == limit and sink.truncated
    assert [int(n) for n, _ in MARKER.findall(text)] == [1, 2, 3, 4]
    assert "SENTINEL-PAGE-4" not in text
    # asked 1-6: the same width again; asked nothing: as many pages as fitted (3)
    assert outcome.resume == ("pages", FILE, "4-9" if asked else "4-6")
    assert outcome.done.startswith("pages 1-4 of 12")


def test_expired_deadline_stops_and_resumes(files: dict[str, Path]) -> None:
    sink = Sink(Limits(), Deadline(0.001, start=time.monotonic() - 1))
    outcome = pdf.extract(source_for_path(files["twelve"]), Request(pages=(Span(1, 5),)), sink)
    assert sink.timed_out and sink.text() == ""
    assert outcome.resume == ("pages", FILE, "1-5")


def test_engines_agree_on_sentinels(files: dict[str, Path]) -> None:
    src = source_for_path(files["twelve"])
    for engine in ("auto", "pdfium", "pdfminer"):
        pages = _by_page(_run(src, engine=engine)[1])
        assert sorted(pages) == list(range(1, 13)), engine
        for n, body in pages.items():
            assert f"SENTINEL-PAGE-{n}" in body, (engine, n)


@pytest.mark.parametrize("engine", ["auto", "pdfminer"])
def test_layout_keeps_a_table_row_on_one_line(files: dict[str, Path], engine: str) -> None:
    _, text, _ = _run(source_for_path(files["table"]), layout=True, engine=engine)
    lines = text.splitlines()
    header = next(line for line in lines if "Name" in line)
    for name, qty, price in TABLE[1:]:
        row = next(line for line in lines if name in line)
        assert re.search(rf"{name}\s+{qty}\s+{re.escape(price)}$", row), row
        assert abs(row.index(qty) - header.index("Qty")) <= 1, (header, row)
        assert abs(row.index(price) - header.index("Price")) <= 1, (header, row)


def test_password_protected(files: dict[str, Path]) -> None:
    src = source_for_path(files["locked"])
    details = pdf.info(src, Request())
    assert details.encrypted is True
    assert "password required: pass --password" in details.warnings
    with pytest.raises(Encrypted) as caught:
        _run(src)
    assert caught.value.fix == "pass --password"
    with pytest.raises(Encrypted, match="wrong"):
        _run(src, password="nope")
    for engine in ("auto", "pdfminer"):
        _, text, _ = _run(src, password="secret", engine=engine)
        assert "SENTINEL-PAGE-3" in text
    assert pdf.info(src, Request(password="secret")).fields["pages"] == 3


def test_empty_user_password_opens(files: dict[str, Path]) -> None:
    src = source_for_path(files["open-locked"])
    assert pdf.info(src, Request()).encrypted is True
    for engine in ("auto", "pdfminer"):
        assert "SENTINEL-PAGE-2" in _run(src, engine=engine)[1]


def test_in_memory_source(files: dict[str, Path]) -> None:
    src = source_for_bytes("bundle.zip:twelve.pdf", files["twelve"].read_bytes())
    assert pdf.info(src, Request()).fields["pages"] == 12
    for engine in ("auto", "pdfminer"):
        assert "SENTINEL-PAGE-12" in _run(src, pages=(Span(12, 12),), engine=engine)[1]


def test_garbage_is_corrupt_for_info_as_for_extract() -> None:
    src = source_for_bytes("junk.pdf", b"%PDF-1.4\n" + b"\x00garbage\xff" * 50 + b"\n%%EOF\n")
    with pytest.raises(Corrupt, match=r"junk.pdf is not a readable PDF \(pdfium: ") as extracting:
        _run(src)
    assert "ends early" not in str(extracting.value)
    with pytest.raises(Corrupt) as describing:  # the engine turns it into info's `problem`
        pdf.info(src, Request())
    assert str(describing.value) == str(extracting.value)


@pytest.mark.parametrize("cut", [0.3, 0.9, 0.99])
def test_a_truncated_pdf_has_the_same_verdict_everywhere(files: dict[str, Path], tmp_path: Path, cut: float) -> None:
    data = files["twelve"].read_bytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(data[: int(len(data) * cut)])
    check_same_verdict(path, ExitCode.CORRUPT)
    problem = json.loads(run("info", str(path), "--json").stdout)["problem"]
    assert "the file ends early (no %%EOF marker at its end: truncated?)" in problem["message"]
    assert problem["message"].endswith(" - get the whole file again (download or copy it anew)")


def test_a_pdf_that_opens_but_ends_early_says_so(files: dict[str, Path]) -> None:
    data = files["twelve"].read_bytes()
    src = source_for_bytes("tail.pdf", data[: data.rindex(b"%%EOF")])  # everything but the marker
    warning = "the file ends early (no %%EOF marker at its end: truncated?): pages past the cut may be missing"
    assert any(w.startswith(warning) for w in pdf.info(src, Request()).warnings)
    outcome, text, _ = _run(src)
    assert any(w.startswith(warning) for w in outcome.warnings) and "SENTINEL-PAGE-12" in text
    assert not any("ends early" in w for w in pdf.info(source_for_path(files["twelve"]), Request()).warnings)


@pytest.mark.parametrize("trailing", [1 << 10, 4 << 10, 60 << 10])
def test_bytes_after_the_marker_are_no_truncation(files: dict[str, Path], trailing: int) -> None:
    data = files["twelve"].read_bytes()
    src = source_for_bytes("padded.pdf", data + b"\r\n" + bytes(range(256)) * (trailing // 256))
    assert not any("ends early" in w for w in pdf.info(src, Request()).warnings)
    outcome, text, _ = _run(src)
    assert not any("ends early" in w for w in outcome.warnings) and "SENTINEL-PAGE-12" in text


@pytest.mark.parametrize("cut", [0.3, 0.6, 0.9])
@pytest.mark.parametrize("engine", ["auto", "pdfminer"])
def test_truncated_file_reads_what_it_can(files: dict[str, Path], cut: float, engine: str) -> None:
    data = files["twelve"].read_bytes()
    src = source_for_bytes("cut.pdf", data[: int(len(data) * cut)])
    verdicts = []
    for step in (lambda: pdf.info(src, Request(engine=engine)), lambda: _run(src, engine=engine)):
        try:
            step()
            verdicts.append("read")
        except Corrupt as exc:
            verdicts.append(str(exc))
    assert verdicts[0] == verdicts[1]  # info describes what extract meets (read, or the same error)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(max_chars=st.integers(1, 800), first=st.integers(1, 12), width=st.integers(0, 20))
def test_output_never_exceeds_max_chars(files: dict[str, Path], max_chars: int, first: int, width: int) -> None:
    outcome, text, _ = _run(
        source_for_path(files["twelve"]), Limits(max_chars=max_chars), pages=(Span(first, first + width),)
    )
    assert len(text) <= max_chars
    if outcome.resume is not None:
        start = int(outcome.resume[2].split("-")[0])
        assert first <= start <= 12


# --- the real-world corpus -------------------------------------------------------------------------------


@pytest.mark.corpus
@pytest.mark.parametrize("engine", ["auto", "pdfminer"])
@pytest.mark.parametrize("layout", [False, True])
def test_corpus_never_crashes(corpus_dir: Path, engine: str, layout: bool) -> None:
    for path in sorted(corpus_dir.glob("pdf-*")):
        src = source_for_path(path)
        pdf.info(src, Request(engine=engine))
        try:
            _run(src, engine=engine, layout=layout)
        except Encrypted:
            assert path.name == "pdf-aes-256-r6.pdf"


@pytest.mark.corpus
def test_corpus_page_counts(corpus_dir: Path) -> None:
    counts = {
        "pdf-MEDRPT_medical_report_scan.pdf": 3,
        "pdf-encrypted_doc_no_id.pdf": 3,
        "pdf-issue-1113-evil-xobjects.pdf": 1,
        "pdf-jo-japanese-vertical.pdf": 1,
        "pdf-pagelabels.pdf": 5,
        "pdf-toc_circular.pdf": 2,
        "pdf-with-jbig2.pdf": 1,
        "pdf-zen_of_python_corrupted.pdf": 1,
    }
    for name, pages in counts.items():
        for engine in ("auto", "pdfminer"):
            assert pdf.info(source_for_path(corpus_dir / name), Request(engine=engine)).fields["pages"] == pages


@pytest.mark.corpus
def test_corpus_aes_256_password(corpus_dir: Path) -> None:
    src = source_for_path(corpus_dir / "pdf-aes-256-r6.pdf")
    details = pdf.info(src, Request())
    assert details.encrypted and "password required: pass --password" in details.warnings
    with pytest.raises(Encrypted):
        _run(src)
    for engine in ("auto", "pdfminer"):
        assert "Hello World" in _run(src, password="usersecret", engine=engine)[1]


@pytest.mark.corpus
def test_corpus_empty_password_scan(corpus_dir: Path) -> None:
    src = source_for_path(corpus_dir / "pdf-encrypted_doc_no_id.pdf")
    details = pdf.info(src, Request())
    assert details.encrypted and details.fields["pages"] == 3 and details.fields["text_layer"] is False
    assert details.fields["producer"] == "European Patent Office"
    assert details.fields["pages_without_text"] == 1  # pages 1 and 3 are blank, page 2 is a scan
    assert any("1 of the 3 pages has no text layer" in w and "OCR" in w for w in details.warnings)
    outcome, text, _ = _run(src, ocr="never")
    assert outcome.done == "pages 1-3 of 3"
    assert MARKER.sub("", text).strip() == ""
    assert outcome.totals["no_text"] == "2" and any("--ocr never" in w for w in outcome.warnings)


@pytest.mark.corpus
@pytest.mark.parametrize(
    ("name", "engine", "expected"),
    [
        ("pdf-issue-1113-evil-xobjects.pdf", "auto", ["Hello world"]),
        ("pdf-issue-1113-evil-xobjects.pdf", "pdfminer", ["Hello world"]),
        ("pdf-toc_circular.pdf", "auto", ["Page1", "Page2"]),
        ("pdf-zen_of_python_corrupted.pdf", "auto", ["Beautiful is better than ugly."]),
        ("pdf-zen_of_python_corrupted.pdf", "pdfminer", ["Beautiful is better than ugly."]),
        ("pdf-jo-japanese-vertical.pdf", "pdfminer", ["わたくしといふ現象は", "風景やみんなといっしょに"]),
        ("pdf-pagelabels.pdf", "auto", ["Contents", "Some text here"]),
    ],
)
def test_corpus_text(corpus_dir: Path, name: str, engine: str, expected: list[str]) -> None:
    _, text, _ = _run(source_for_path(corpus_dir / name), engine=engine)
    for needle in expected:
        assert needle in text, (name, engine, needle)


@pytest.mark.corpus
@pytest.mark.parametrize("layout", [False, True])
def test_corpus_vertical_japanese_is_read_by_pdfminer_in_auto(corpus_dir: Path, layout: bool) -> None:
    # PDFium drops about 70% of this page (the opening included) and reverses its lines: auto notices
    # the vertical writing and reads the page with pdfminer, saying so
    outcome, text, _ = _run(source_for_path(corpus_dir / "pdf-jo-japanese-vertical.pdf"), layout=layout)
    assert outcome.totals["engines"] == {"pdfminer": "1"}
    body = MARKER.sub("", text).strip()
    assert body.startswith("序")
    for needle in ("わたくしといふ現象は", "風景やみんなといっしょに"):
        assert needle in text.replace(" ", "")
    assert text.index("わたくしといふ現象は") < text.index("風景やみんなといっしょに")
    assert len(re.findall(r"[\u3040-\u9fff]", text)) > 800  # ~900 CJK characters on the page


@pytest.mark.corpus
def test_corpus_vertical_japanese_pdfium_only_when_asked(corpus_dir: Path) -> None:
    outcome, _, _ = _run(source_for_path(corpus_dir / "pdf-jo-japanese-vertical.pdf"), engine="pdfium")
    assert outcome.totals["engines"] == {"pdfium": "1"}


@pytest.mark.corpus
def test_corpus_toc_circular_pages(corpus_dir: Path) -> None:
    _, text, _ = _run(source_for_path(corpus_dir / "pdf-toc_circular.pdf"))
    assert _by_page(text) == {1: "Page1\n", 2: "Page2\n"}


@pytest.mark.corpus
def test_corpus_page_labels(corpus_dir: Path) -> None:
    details = pdf.info(source_for_path(corpus_dir / "pdf-pagelabels.pdf"), Request())
    assert details.fields["pages"] == 5
    assert details.fields["page_labels"] == ["iii-iv", "1-2", "1"]  # every page's label, runs collapsed


def test_page_labels_cover_every_page() -> None:
    """Issue 22: info said "10 in all" of a document with 23 labelled pages; the runs now cover them all."""
    from boundread.formats.pdf.labels import label_runs

    labels = ["i", "ii", "iii", "iv", *(str(n) for n in range(1, 20))]
    assert label_runs(labels) == ["i-iv", "1-19"]
    assert label_runs(["A-1", "A-2", "ix", "x", "XI", "7", "9"]) == ["A-1", "A-2", "ix-x", "XI", "7", "9"]


# --- parallel workers (forked, PDFium) ------------------------------------------------------------------------

PARALLEL_PAGES = 70


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pdf-many") / "many.pdf"
    path.write_bytes(_pdf(_sentinels(PARALLEL_PAGES)))
    return path


@pytest.fixture
def workers(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """Workers on whatever machine runs the tests (two cores, no time floor); the pages each worker was dealt."""
    dealt: list[list[int]] = []
    spawn = parallel._spawn

    def counting(src: Source, password: str | None, numbers: list[int], *rest: Any) -> Any:
        dealt.append(list(numbers))
        return spawn(src, password, numbers, *rest)

    monkeypatch.setattr(parallel, "cpus", lambda: 2)
    monkeypatch.setattr(parallel, "MIN_SECONDS", 0.0)
    monkeypatch.setattr(parallel, "_spawn", counting)
    return dealt


def _sequential(monkeypatch: pytest.MonkeyPatch, src: Source, limits: Limits | None = None,
                **fields: Any) -> tuple[Outcome, str]:
    with monkeypatch.context() as patch:
        patch.setattr(parallel, "usable", lambda: False)
        outcome, text, _ = _run(src, limits, **fields)
    return outcome, text


def _no_children_left() -> bool:
    try:
        os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def test_workers_read_what_one_process_reads(many: Path, workers: list[list[int]],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    src = source_for_path(many)
    outcome, text, _ = _run(src)
    assert workers and workers[0][0] == parallel.CHUNK * 2 + 1  # chunk 1 read here, chunk 2 by the worker
    expected_outcome, expected = _sequential(monkeypatch, src)
    assert text == expected and outcome.done == expected_outcome.done == f"pages 1-{PARALLEL_PAGES} of 70"
    assert [int(n) for n, _ in MARKER.findall(text)] == list(range(1, PARALLEL_PAGES + 1))
    assert outcome.totals["engines"] == {"pdfium": f"1-{PARALLEL_PAGES}"}
    assert _no_children_left()


def test_workers_keep_the_order_asked(many: Path, workers: list[list[int]], monkeypatch: pytest.MonkeyPatch) -> None:
    asked = (Span(50, 70), Span(1, 30), Span(5, 9))
    src = source_for_path(many)
    _, text, _ = _run(src, pages=asked)
    assert workers
    order = [int(n) for n, _ in MARKER.findall(text)]
    assert order == [*range(50, 71), *range(1, 31), *range(5, 10)]
    assert text == _sequential(monkeypatch, src, pages=asked)[1]


def test_workers_stop_at_the_char_cap(many: Path, workers: list[list[int]], monkeypatch: pytest.MonkeyPatch) -> None:
    src = source_for_path(many)
    limit = _chars_of_pages(src, 40) + 25  # page 41's marker fits, its text does not
    outcome, text, sink = _run(src, Limits(max_chars=limit))
    assert workers and len(text) == limit and sink.truncated
    assert "SENTINEL-PAGE-40" in text and "SENTINEL-PAGE-41" not in text
    expected_outcome, expected = _sequential(monkeypatch, src, Limits(max_chars=limit))
    assert text == expected and outcome.resume == expected_outcome.resume == ("pages", FILE, "41-70")
    assert _no_children_left()


def test_a_small_char_cap_reads_in_one_process(many: Path, workers: list[list[int]]) -> None:
    src = source_for_path(many)
    limit = _chars_of_pages(src, 12)
    outcome, _, _ = _run(src, Limits(max_chars=limit))
    assert outcome.done == "pages 1-12 of 70" and outcome.resume == ("pages", FILE, "13-24")
    assert not workers  # a few pages past the first chunk fill it: no worker is worth its start


def test_workers_under_a_grep(many: Path, workers: list[list[int]], monkeypatch: pytest.MonkeyPatch) -> None:
    src = source_for_path(many)
    sink = Sink(Limits(), grep=re.compile(r"SENTINEL-PAGE-6\d"))
    pdf.extract(src, Request(), sink)
    sink.close()
    assert workers  # a grep cannot tell how many pages it needs: workers read on
    assert re.findall(r"SENTINEL-PAGE-\d+", sink.text()) == [f"SENTINEL-PAGE-{n}" for n in range(60, 70)]


def test_a_worker_crash_costs_one_page(many: Path, workers: list[list[int]], monkeypatch: pytest.MonkeyPatch) -> None:
    pack = parallel._pack

    def crash_on_35(page: Page) -> bytes:  # runs in the worker only: the parent never packs pages
        if page.number == 35:
            os.kill(os.getpid(), signal.SIGKILL)  # as a crash or the OOM killer would
        return pack(page)

    monkeypatch.setattr(parallel, "_pack", crash_on_35)
    outcome, text, _ = _run(source_for_path(many))
    assert workers and 35 in workers[0]
    pages = _by_page(text)
    assert sorted(pages) == list(range(1, PARALLEL_PAGES + 1))
    assert pages[35] == "" and all(f"SENTINEL-PAGE-{n}\n" in pages[n] for n in pages if n != 35)
    assert "page 35 could not be read: its reader process was killed (out of memory?)" in outcome.warnings
    assert _no_children_left()


def test_ctrl_c_in_the_reader_stops_the_workers(many: Path, workers: list[list[int]],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    page = Rereader.page

    def interrupt_at_40(self: Rereader, got: Page) -> Page:
        if got.number == 40:
            raise KeyboardInterrupt
        return page(self, got)

    monkeypatch.setattr(Rereader, "page", interrupt_at_40)
    sink = Sink(Limits())
    with pytest.raises(KeyboardInterrupt):
        pdf.extract(source_for_path(many), Request(), sink)
    assert workers and _no_children_left()
    assert "SENTINEL-PAGE-39" in sink.text() and "SENTINEL-PAGE-40" not in sink.text()


class _RunsOut:
    """A deadline that runs out when told to (``over``), with a second left for the workers' own alarm."""

    seconds = remaining = 1.0

    def __init__(self) -> None:
        self.over = False

    @property
    def expired(self) -> bool:
        return self.over


def test_the_deadline_stops_the_workers(many: Path, workers: list[list[int]],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    deadline = _RunsOut()
    page = Rereader.page

    def expire_at_40(self: Rereader, got: Page) -> Page:
        deadline.over = deadline.over or got.number == 40
        return page(self, got)

    monkeypatch.setattr(Rereader, "page", expire_at_40)
    sink = Sink(Limits(), deadline)  # type: ignore[arg-type]
    outcome = pdf.extract(source_for_path(many), Request(), sink)
    assert workers and sink.timed_out and _no_children_left()
    assert [int(n) for n, _ in MARKER.findall(sink.text())] == list(range(1, 40))  # page 40 came too late
    assert outcome.resume == ("pages", FILE, "40-70")


def test_pages_cross_the_pipe_whole() -> None:
    read, write = os.pipe()
    sent = [Page(7, "text \udcff 日本\n", drawn=False), Page(8, "", "broken"),
            Page(9, "縦\n", doubt="vertical writing")]
    with os.fdopen(write, "wb") as pipe:
        for page in sent:
            pipe.write(parallel._pack(page))
    with os.fdopen(read, "rb") as pipe:
        got = [parallel._unpack(pipe) for _ in sent]
        assert parallel._unpack(pipe) is None
    assert got == sent


def _pages_of(many: Path, room: int | None, deadline: Any = None) -> list[Page]:
    """Every page of ``many`` through parallel.read, with a caller that always has ``room`` chars left."""
    src = source_for_path(many)
    doc = PdfiumDoc(src, None)
    try:
        numbers = list(range(1, PARALLEL_PAGES + 1))
        return list(parallel.read(doc, src, None, numbers, False, lambda: room, deadline or Deadline(None)))
    finally:
        doc.close()


def _alone(many: Path) -> list[Page]:
    doc = PdfiumDoc(source_for_path(many), None)
    try:
        return list(doc.read(1, PARALLEL_PAGES, layout=False))
    finally:
        doc.close()


def test_a_worker_that_spends_its_budget_is_no_failure(many: Path, workers: list[list[int]]) -> None:
    alone = _alone(many)
    budget = sum(len(page.text) for page in alone[:24])  # worth a worker, less than the pages dealt to it
    pages = _pages_of(many, budget)
    assert workers and sum(len(page.text) for page in pages if page.number in workers[0]) > budget
    assert [page.error for page in pages] == [None] * PARALLEL_PAGES  # it stopped early: read on here
    assert pages == alone and _no_children_left()


def _open_fds() -> list[str]:
    return sorted(entry.name for entry in Path("/proc/self/fd").iterdir())


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc (Linux)")
@pytest.mark.parametrize("failing", [1, 2])
def test_a_fork_that_fails_leaks_nothing_and_reads_on(many: Path, workers: list[list[int]], failing: int,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    fork, forks = os.fork, []

    def out_of_processes() -> int:
        forks.append(len(forks) + 1)
        if len(forks) == failing:
            raise BlockingIOError(11, "Resource temporarily unavailable")
        return fork()

    monkeypatch.setattr(parallel, "cpus", lambda: 4)  # three workers are dealt chunks
    monkeypatch.setattr(os, "fork", out_of_processes)
    before = _open_fds()
    outcome, text, _ = _run(source_for_path(many))
    assert len(workers) == len(forks) == failing  # of the three dealt, none is tried after the failure
    assert _open_fds() == before and _no_children_left()
    expected_outcome, expected = _sequential(monkeypatch, source_for_path(many))
    assert text == expected and outcome.warnings == expected_outcome.warnings == []
    assert outcome.done == f"pages 1-{PARALLEL_PAGES} of {PARALLEL_PAGES}"


def test_ctrl_c_right_after_the_fork_stays_out_of_the_worker(many: Path, workers: list[list[int]],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    fork = os.fork

    def interrupted_child() -> int:  # Ctrl-C lands in the child before it has ignored SIGINT
        pid = fork()
        if pid == 0:
            try:
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.01)  # any handler due runs by now
            except KeyboardInterrupt:
                os._exit(99)  # the child would have run this process's code: its finally, the output file
        return pid

    monkeypatch.setattr(os, "fork", interrupted_child)
    outcome, text, _ = _run(source_for_path(many))
    assert workers and outcome.warnings == [] and _no_children_left()
    assert text == _sequential(monkeypatch, source_for_path(many))[1]


def test_no_workers_outside_the_main_thread(many: Path, workers: list[list[int]],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    got: list[tuple[Outcome, str, Sink]] = []
    thread = threading.Thread(target=lambda: got.append(_run(source_for_path(many))))  # as the MCP server does
    thread.start()
    thread.join()
    assert got and not workers  # a fork there could inherit a lock another thread holds
    outcome, text, _ = got[0]
    assert text == _sequential(monkeypatch, source_for_path(many))[1]
    assert outcome.done == f"pages 1-{PARALLEL_PAGES} of {PARALLEL_PAGES}"


def test_a_worker_killed_by_its_alarm_is_a_timeout(many: Path, workers: list[list[int]],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    pack = parallel._pack

    def stuck_on_35(page: Page) -> bytes:  # runs in the worker only: page 35 takes for ever
        if page.number == 35:
            time.sleep(60)
        return pack(page)

    monkeypatch.setattr(parallel, "_pack", stuck_on_35)
    deadline = _RunsOut()
    deadline.remaining = 0.0  # the worker's alarm: one second from its start
    sink = Sink(Limits(), deadline)  # type: ignore[arg-type]
    outcome = pdf.extract(source_for_path(many), Request(), sink)
    assert workers and 35 in workers[0] and _no_children_left()
    # the same report as one process whose deadline ran out on page 35
    page, alone = Rereader.page, _RunsOut()

    def expire_at_35(self: Rereader, got: Page) -> Page:
        alone.over = alone.over or got.number == 35
        return page(self, got)

    monkeypatch.setattr(Rereader, "page", expire_at_35)
    with monkeypatch.context() as patch:
        patch.setattr(parallel, "usable", lambda: False)
        one = Sink(Limits(), alone)  # type: ignore[arg-type]
        expected = pdf.extract(source_for_path(many), Request(), one)
    assert sink.timed_out and one.timed_out and sink.reasons == one.reasons == ["timeout after 1 s"]
    assert sink.text() == one.text() and [int(n) for n, _ in MARKER.findall(sink.text())] == list(range(1, 35))
    assert outcome.warnings == expected.warnings == []  # no "PDFium crashed on it (signal 14)"
    assert outcome.resume == expected.resume == ("pages", FILE, "35-68")  # as wide as what fitted
    assert outcome.done == expected.done == "pages 1-34 of 70"


@pytest.mark.parametrize("mode", ["never", "auto"])
def test_a_page_that_timed_out_is_not_read_again(many: Path, mode: str) -> None:
    src = source_for_path(many)
    doc = PdfiumDoc(src, None)
    try:
        pick = Rereader(src, Request(ocr=mode), doc, Deadline(None))
        late = Page(5, "", timed_out=True)
        assert pick.page(late) is late and pick.no_text == [] and pick.engines == {}  # not "no text layer"
    finally:
        doc.close()


# --- glyphs whose font maps them to no text ---------------------------------------------------------------------

UNMAPPED_LINE = b"ABCDEFGHIJ KLMNOPQRST abcdefghij"


def _unmapped_pdf(target: bytes = b"E041") -> bytes:
    """One page of Helvetica whose ToUnicode map sends every letter to ``target`` onwards (private use by
    default): the glyphs are drawn, their text is not there."""
    content = b"\n".join(b"BT /F1 12 Tf 72 %d Td (%s) Tj ET" % (720 - 16 * i, UNMAPPED_LINE) for i in range(30))
    cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /X def 1 begincodespacerange "
            b"<00> <FF> endcodespacerange 1 beginbfrange <41> <7A> <" + target + b"> endbfrange endcmap "
            b"CMapName currentdict /CMap defineresource pop end end")
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> "
               b"/Contents 4 0 R >>",
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(cmap), cmap)]
    out, offsets = b"%PDF-1.4\n", []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)


def test_readable_counts_text_not_stand_ins() -> None:
    assert readable("ab c\n日本") == 5
    assert readable("\ue041\ue042 \ufffd(cid:12)(cid:7)\x01") == 0


@pytest.mark.parametrize("target", [b"E041", b"FFFD"])
def test_unmapped_glyphs_make_pdfium_doubt(target: bytes) -> None:
    src = source_for_bytes("unmapped.pdf", _unmapped_pdf(target))
    doc = PdfiumDoc(src, None)
    try:
        page = next(iter(doc.read(1, 1, layout=False)))
        laid_out = next(iter(doc.read(1, 1, layout=True)))
    finally:
        doc.close()
    assert page.doubt is not None and page.doubt.startswith("little readable text (")
    assert laid_out.doubt is not None and laid_out.doubt.startswith("little readable text (")
    assert UNMAPPED_LINE.decode() not in page.text


def test_mapped_glyphs_raise_no_doubt(files: dict[str, Path], many: Path) -> None:
    for path in (files["twelve"], files["table"], many):
        doc = PdfiumDoc(source_for_path(path), None)
        try:
            assert [page.doubt for page in doc.read(1, doc.pages, layout=False)] == [None] * doc.pages
        finally:
            doc.close()


def test_unmapped_glyphs_without_ocr_say_so() -> None:
    outcome, _, _ = _run(source_for_bytes("unmapped.pdf", _unmapped_pdf()), ocr="never")
    assert outcome.totals["engines"] == {"pdfium": "1"}
    assert outcome.warnings == ["page 1: little readable text (0 of 900 glyphs), its fonts map glyphs to no text: "
                                "pdfminer reads no more and OCR is off (--ocr never)"]


@pytest.mark.skipif(ocr.missing("eng") is not None, reason="Tesseract (tesserocr + eng) missing")
def test_unmapped_glyphs_are_read_by_ocr_in_auto() -> None:
    outcome, text, _ = _run(source_for_bytes("unmapped.pdf", _unmapped_pdf()))
    assert outcome.totals["engines"] == {"tesseract": "1"} and not outcome.warnings
    assert text.count(UNMAPPED_LINE.decode()) >= 25  # 30 lines; OCR may slip on a few


def test_a_doubtful_page_read_by_a_worker_is_judged_here(many: Path, workers: list[list[int]],
                                                         tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(many))
    doc.import_pages(pdfium.PdfDocument(_unmapped_pdf()), index=39)  # page 40: glyphs without text
    mixed = tmp_path / "mixed.pdf"
    doc.save(str(mixed))
    doc.close()
    outcome, text, _ = _run(source_for_path(mixed), ocr="never")
    assert any(40 in dealt for dealt in workers)  # the doubt crossed the pipe with the page
    assert outcome.warnings == ["page 40: little readable text (0 of 900 glyphs), its fonts map glyphs to no text: "
                                "pdfminer reads no more and OCR is off (--ocr never)"]
    assert outcome.totals["engines"] == {"pdfium": f"1-{PARALLEL_PAGES + 1}"}
    assert "SENTINEL-PAGE-39" in _by_page(text)[39] and "SENTINEL-PAGE-40" in _by_page(text)[41]


@pytest.mark.corpus
def test_corpus_vertical_page_read_by_a_worker_goes_to_pdfminer(corpus_dir: Path, many: Path,
                                                                  workers: list[list[int]], tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(many))
    doc.import_pages(pdfium.PdfDocument(str(corpus_dir / "pdf-jo-japanese-vertical.pdf")), index=39)
    mixed = tmp_path / "mixed-vertical.pdf"
    doc.save(str(mixed))
    doc.close()
    outcome, text, _ = _run(source_for_path(mixed))
    assert any(40 in dealt for dealt in workers)
    assert outcome.totals["engines"] == {"pdfium": f"1-39,41-{PARALLEL_PAGES + 1}", "pdfminer": "40"}
    assert _by_page(text)[40].replace(" ", "").lstrip().startswith("序")


THREADS_READING_PDFS = """
import sys, threading
import boundread

errors = []

def work():
    for _ in range(25):
        try:
            boundread.info(sys.argv[1])
            boundread.extract(sys.argv[1], pages="1-3", stdout=True)
        except Exception as exc:
            errors.append(repr(exc))

threads = [threading.Thread(target=work) for _ in range(4)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("errors", len(errors), errors[:2])
"""


def test_threads_reading_pdfs_at_once_do_not_crash_the_process(tmp_path: Path) -> None:
    """PDFium is not thread-safe: without the process-wide lock this script died of a double free or a
    segfault within a few calls (the MCP server runs its extractions in four threads)."""
    import subprocess
    import sys
    from importlib.resources import files

    sample = tmp_path / "report.pdf"
    sample.write_bytes(files("boundread").joinpath("data/sample-report.pdf").read_bytes())
    done = subprocess.run([sys.executable, "-c", THREADS_READING_PDFS, str(sample)], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "BOUNDREAD_OUT_DIR": str(tmp_path / "out")}, check=False)
    assert (done.returncode, done.stdout.strip()) == (0, "errors 0 []"), done.stderr[-2000:]
