"""Vertical CJK keeps its reading order (issue 22 item 6): columns right to left, each read top to bottom - by
PDFium (whose own text runs the columns left to right), pdfminer and the layout grid alike, on a generated page set
with an Identity-V font (tests/formats/pdf_vertical_fixtures.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.formats.pdf_vertical_fixtures import COLUMNS, vertical_pdf

from boundread.contract.model import Request
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes, source_for_path
from boundread.formats.pdf import handler
from boundread.formats.pdf.judge import VERTICAL
from boundread.formats.pdf.layout import Glyph, grid_text, reading_text
from boundread.formats.pdf.pdfium import PdfiumDoc
from boundread.limits import Limits

TIERED = (*COLUMNS, "一二三四五六七八九十", "春夏秋冬東西南北上下")
OPTIONS = [{}, {"layout": True}, {"engine": "pdfium"}, {"engine": "pdfium", "layout": True}, {"engine": "pdfminer"},
           {"engine": "pdfminer", "layout": True}]


def _lines(data: bytes, **fields: object) -> tuple[list[str], list[str]]:
    """The page's non-blank lines, stripped, and the warnings."""
    sink = Sink(Limits())
    outcome = handler.extract(source_for_bytes("vertical.pdf", data), Request(**fields), sink)  # type: ignore[arg-type]
    sink.close()
    body = sink.text().split("\n", 1)[1]
    return [line.strip() for line in body.splitlines() if line.strip()], outcome.warnings


def test_pdfium_own_text_runs_the_columns_the_wrong_way() -> None:
    # the reason for the fix: PDFium's text of the page starts with the leftmost column, the last one to read
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(vertical_pdf())
    try:
        text = doc[0].get_textpage().get_text_range()
    finally:
        doc.close()
    assert text.splitlines()[0] == COLUMNS[-1]


@pytest.mark.parametrize("fields", OPTIONS)
def test_columns_read_right_to_left_and_down(fields: dict[str, object]) -> None:
    lines, warnings = _lines(vertical_pdf(), **fields)
    assert lines == list(COLUMNS)
    assert warnings == []


@pytest.mark.parametrize("fields", [{}, {"engine": "pdfium"}, {"engine": "pdfminer"}])
def test_an_indented_column_keeps_its_place(fields: dict[str, object]) -> None:
    lines, _ = _lines(vertical_pdf(drops=(0, 3, 1, 0)), **fields)
    assert lines == list(COLUMNS)


@pytest.mark.parametrize("fields", [{}, {"engine": "pdfium"}, {"engine": "pdfminer"}])
def test_tiers_are_read_one_after_the_other(fields: dict[str, object]) -> None:
    # the top half's three columns right to left, then the bottom half's: never a line across both tiers
    lines, _ = _lines(vertical_pdf(TIERED, tiers=2, drops=(0, 0, 0, 0, 4, 2)), **fields)
    assert lines == list(TIERED)


def test_the_page_is_judged_vertical_and_says_it() -> None:
    doc = PdfiumDoc(source_for_bytes("vertical.pdf", vertical_pdf()), None)
    try:
        page = next(iter(doc.read(1, 1, layout=False)))
    finally:
        doc.close()
    assert page.doubt == VERTICAL


def test_the_same_text_set_in_rows_is_not_turned() -> None:
    doc = PdfiumDoc(source_for_bytes("rows.pdf", vertical_pdf(horizontal=True)), None)
    try:
        page = next(iter(doc.read(1, 1, layout=False)))
    finally:
        doc.close()
    assert page.doubt is None
    assert page.text.splitlines() == list(COLUMNS)


def test_reading_text_of_rows_is_the_rows() -> None:
    glyphs = [(char, 10.0 * i, 700.0 - 20 * row, 10.0 * i + 10, 712.0 - 20 * row)
              for row, text in enumerate(["abc", "def"]) for i, char in enumerate(text)]
    assert reading_text(glyphs) == "abc\ndef\n"
    assert reading_text([]) == ""


@pytest.mark.corpus
@pytest.mark.parametrize("engine", ["auto", "pdfium"])
def test_corpus_vertical_japanese_opens_with_its_first_column(corpus_dir: Path, engine: str) -> None:
    sink = Sink(Limits())
    handler.extract(source_for_path(corpus_dir / "pdf-jo-japanese-vertical.pdf"), Request(engine=engine), sink)
    sink.close()
    text = sink.text().replace(" ", "").replace("\u3000", "")
    if engine == "auto":  # pdfminer reads the page (PDFium drops most of its glyphs): the poem line by line
        assert [line for line in text.splitlines()[1:6] if line] == [
            "序", "わたくしといふ現象は", "假定された有機交流電燈の", "ひとつの青い照明です",
            "（あらゆる透明な幽霊の複合体）"]
    # what PDFium keeps of the page comes column by column from the right: the poem's opening before its end
    assert text.index("風景やみんなといっしょに") < text.index("そのとほりの心象スケッチです")


_GLYPH = st.tuples(st.sampled_from("縦書きの文字abc1"), st.floats(0, 600), st.floats(0, 800),
                   st.floats(1, 30)).map(lambda g: (g[0], g[1], g[2], g[1] + g[3], g[2] + g[3]))


@pytest.mark.parametrize("place", [reading_text, grid_text])
@given(glyphs=st.lists(_GLYPH, max_size=60))
def test_no_glyph_is_lost(place: Callable[[list[Glyph]], str], glyphs: list[Glyph]) -> None:
    # every glyph drawn (once per spot) is in the text, whatever the order found: nothing dropped in silence
    drawn = sorted({(g[0], round(g[1]), round(g[2])): g[0] for g in glyphs}.values())
    assert sorted("".join(place(glyphs).split())) == drawn


def _columns(columns: tuple[str, ...]) -> list[Glyph]:
    """Glyph boxes of ``columns`` set vertically, right to left, 20-point glyphs from y=740 down."""
    return [(char, 520.0 - 30 * c, 720.0 - 20 * k, 540.0 - 30 * c, 740.0 - 20 * k)
            for c, column in enumerate(columns) for k, char in enumerate(column)]


def _across(text: str, x: float, y: float) -> list[Glyph]:
    return [(char, x + 12 * i, y, x + 12 * i + 12, y + 12) for i, char in enumerate(text)]


def test_a_running_head_and_a_folio_are_read_across_in_their_places() -> None:
    glyphs = _across("第一章春", 250, 790) + _columns(COLUMNS) + _across("二十", 280, 60)
    assert reading_text(glyphs).split("\n\n") == ["第一章春", "\n".join(COLUMNS), "二十\n"]


def test_two_digits_set_across_inside_a_column_stay_in_it() -> None:
    # tate-chu-yoko: "12" side by side within the first column, between its 3rd and 4th glyphs
    first = [(char, 520.0, 720.0 - 20 * k, 540.0, 740.0 - 20 * k) for k, char in enumerate("吾輩は")]
    digits = [("1", 520.0, 660.0, 530.0, 680.0), ("2", 530.0, 660.0, 540.0, 680.0)]
    rest = [(char, 520.0, 640.0 - 20 * k, 540.0, 660.0 - 20 * k) for k, char in enumerate("猫である")]
    text = reading_text(first + digits + rest + _columns(("", *COLUMNS[1:])))
    assert text.split("\n")[0] == "吾輩は12猫である"  # with its column, read across, not a block of its own
    assert "\n\n" not in text
