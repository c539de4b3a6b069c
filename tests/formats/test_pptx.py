"""Presentations: slide order, shapes, tables, notes, slide ranges, resumes and hostile files."""

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
from boundread.errors import Corrupt, Encrypted, UsageError
from boundread.formats.office import odp, pptx
from boundread.limits import Limits


@cache
def make_pptx(slides: int = 3, hide_second: bool = False) -> bytes:
    import pptx as pypptx
    from pptx.util import Inches

    prs = pypptx.Presentation()
    prs.core_properties.title = "Deck Title"
    for n in range(1, slides + 1):
        slide = prs.slides.add_slide(prs.slide_layouts[5])  # title only
        slide.shapes.title.text = f"Title {n}"
        box = slide.shapes.add_textbox(Inches(1), Inches(2), Inches(4), Inches(1))
        box.text_frame.text = f"BODY-{n}-SENTINEL"
        if n == 1:
            group = slide.shapes.add_group_shape()
            inner = group.shapes.add_textbox(Inches(1), Inches(3), Inches(2), Inches(1))
            inner.text_frame.text = "GROUPED-SENTINEL"
            table = slide.shapes.add_table(2, 2, Inches(1), Inches(4), Inches(4), Inches(1)).table
            for r in range(2):
                for c in range(2):
                    table.cell(r, c).text = f"t{r}{c}"
            slide.notes_slide.notes_text_frame.text = "NOTES-SENTINEL"
    if hide_second and slides > 1:
        prs.slides[1]._element.set("show", "0")
    # move the last slide first: presentation order is sldIdLst, not part names
    ids = prs.slides._sldIdLst
    last = ids[-1]
    ids.remove(last)
    ids.insert(0, last)
    buf = io.BytesIO()
    prs.save(buf)
    return buf.getvalue()


def run(src: Source, limits: Limits | None = None, **req: Any) -> tuple[str, Any]:
    sink = Sink(limits or Limits())
    handler = odp if src.kind == "odp" else pptx
    outcome = handler.extract(src, Request(limits=limits or Limits(), **req), sink)
    sink.close()
    return sink.text(), outcome


def test_slides_in_presentation_order_with_shapes() -> None:
    text, outcome = run(source_for_bytes("deck.pptx", make_pptx()))
    assert text.startswith("--- slide 1 / 3 ---\n# Title 3\nBODY-3-SENTINEL\n")
    assert "--- slide 2 / 3 ---\n# Title 1\nBODY-1-SENTINEL\nGROUPED-SENTINEL\n| t00 | t01 |\n| --- | --- |\n" in text
    assert "| t10 | t11 |\nNotes: NOTES-SENTINEL\n" in text
    assert text.index("slide 3 / 3") > text.index("BODY-1-SENTINEL")
    assert outcome.unit == "slides" and outcome.done == "slides 1-3 of 3"
    assert outcome.totals == {"slides": 3} and outcome.resume is None


def test_info() -> None:
    details = pptx.info(source_for_bytes("deck.pptx", make_pptx(slides=4, hide_second=True)), Request())
    assert details.fields["slides"] == 4 and details.fields["title"] == "Title 4"
    assert details.fields["notes"] == 1 and details.fields["hidden_slides"] == 1
    assert details.fields["macros"] is False and details.est_chars
    assert details.next == [("pages", FILE, "1-4"), ("extract", FILE)]


def test_page_window_and_resume() -> None:
    src = source_for_bytes("deck.pptx", make_pptx(slides=7))
    text, outcome = run(src, pages=(Span(2, 3),))
    assert "--- slide 2 / 7 ---" in text and "--- slide 3 / 7 ---" in text and "slide 1 /" not in text
    assert "slide 4 /" not in text
    assert outcome.done == "slides 2-3 of 7" and outcome.resume == ("pages", FILE, "4-5")
    _, last = run(src, pages=(Span(6, 7),))
    assert last.resume is None


def test_clamp_and_usage_error() -> None:
    src = source_for_bytes("deck.pptx", make_pptx())
    text, outcome = run(src, pages=(Span(2, 9),))
    assert "slide 3 / 3" in text and any("9" in w for w in outcome.warnings)
    with pytest.raises(UsageError, match="3 slides") as err:
        run(src, pages=(Span(5, 6),))
    assert "1-3" in err.value.fix


def test_truncated_mid_slide_resumes_there() -> None:
    src = source_for_bytes("deck.pptx", make_pptx(slides=6))
    text, outcome = run(src, Limits(max_chars=150))
    assert len(text) == 150
    cut = outcome.done.split("slide ")[-1].split(" cut")[0]
    assert outcome.resume is not None and outcome.resume[:2] == ("pages", FILE)
    assert outcome.resume[2].startswith(f"{cut}-")
    assert f"--- slide {int(cut) + 1} /" not in text


def test_hostile_files() -> None:
    locked = Source(name="l.pptx", sniffed=Sniffed("pptx", "x", encrypted=True), size=4, data=b"\xd0\xcf\x11\xe0")
    with pytest.raises(Encrypted):
        run(locked)
    bad = Source(name="bad.pptx", sniffed=Sniffed("pptx", "x"), size=10, data=b"PK\x03\x04broken")
    with pytest.raises(Corrupt):
        run(bad)
    with pytest.raises(Corrupt):
        pptx.info(bad, Request())


def make_odp() -> bytes:
    page = (
        '<draw:page draw:name="p{n}"><draw:frame presentation:class="title"><draw:text-box>'
        "<text:p>ODP title {n}</text:p></draw:text-box></draw:frame>"
        "<draw:frame><draw:text-box><text:p>ODP-BODY-{n}</text:p></draw:text-box></draw:frame>"
        "<presentation:notes><draw:frame><draw:text-box><text:p>odp note {n}</text:p></draw:text-box>"
        "</draw:frame></presentation:notes></draw:page>"
    )
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
        'xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0">'
        "<office:body><office:presentation>"
        + "".join(page.format(n=n) for n in (1, 2, 3))
        + "</office:presentation></office:body></office:document-content>"
    )
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.presentation")
        zf.writestr("content.xml", content)
    return buf.getvalue()


def test_odp_best_effort() -> None:
    src = source_for_bytes("a.odp", make_odp())
    assert src.kind == "odp"
    assert odp.info(src, Request()).fields["slides"] == 3
    text, outcome = run(src, pages=(Span(2, 2),))
    assert text == "--- slide 2 / 3 ---\n# ODP title 2\nODP-BODY-2\nNotes: odp note 2\n\n"
    assert outcome.resume == ("pages", FILE, "3-3")


@pytest.mark.corpus
def test_corpus_pptx_test(corpus_dir: Path, manifest: dict[str, Any]) -> None:
    assert "pptx-test.pptx" in manifest
    src = source_for_path(corpus_dir / "pptx-test.pptx")
    assert pptx.info(src, Request()).fields["slides"] == 6
    text, outcome = run(src)
    assert outcome.totals == {"slides": 6}
    slides = text.split("--- slide ")[1:]
    assert len(slides) == 6
    assert "AutoGen: Enabling Next-Gen LLM Applications via Multi-Agent Conversation" in slides[0]
    assert "| ColA | ColB | ColC | ColD | ColE | ColF |" in slides[2] and "| 1 | 2 | 3 | 4 | 5 | 6 |" in slides[2]
    assert "a3f6004b-6f4f-4ea8-bee3-3741f4dc385f" in slides[3]
    assert "Nested Shape" in slides[4] and "This is a nested shape with content in 2 shapes" in slides[4]
    assert "These Test Strings are in the Image!" in slides[5]


@pytest.mark.corpus
def test_corpus_pptx_notes(corpus_dir: Path) -> None:
    src = source_for_path(corpus_dir / "pptx-prs-notes.pptx")
    text, _ = run(src)
    assert "Notes: Notes" in text
    assert "Notes: 1" not in text and "\n1\n" not in text  # the slide-number placeholder
    assert pptx.info(src, Request()).fields["notes"] == 1


@pytest.mark.corpus
def test_corpus_pptm_macros(corpus_dir: Path) -> None:
    src = source_for_path(corpus_dir / "pptm-act-props.pptm")
    details = pptx.info(src, Request())
    assert details.fields["slides"] == 5 and details.fields["macros"] is True
    text, outcome = run(src)
    slides = text.split("--- slide ")[1:]
    assert [s.splitlines()[1] for s in (slides[0], slides[1], slides[3], slides[4])] == [
        "First",
        "Previous",
        "Next",
        "Last",
    ]
    assert "run\nmacro" in slides[2] and "run\nprogram" in slides[2]
    assert outcome.done == "slides 1-5 of 5"


def test_damaged_bytes_never_raise_unhandled() -> None:
    from boundread.errors import BoundreadError

    data = make_pptx()
    for n, at in enumerate(range(100, len(data), max(1, len(data) // 25))):
        bad = bytearray(data)
        bad[at : at + 8] = bytes((n * 37 + i) % 256 for i in range(8))
        src = Source(name="bad.pptx", sniffed=Sniffed("pptx", "x"), size=len(bad), data=bytes(bad))
        with contextlib.suppress(BoundreadError):
            run(src)
        with contextlib.suppress(BoundreadError):
            pptx.info(src, Request())


def test_info_counts_the_notes_that_hold_text(tmp_path: Path) -> None:
    """Issue 22: "notes 3" of a deck where one notes page has text - PowerPoint makes an empty notes page whenever
    a slide's notes pane is opened; info counts what extract would give."""
    from pptx import Presentation

    deck = Presentation()
    for number in range(3):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        notes = slide.notes_slide  # made, empty, for every slide
        if number == 1:
            notes.notes_text_frame.text = "Speaker note on two"
    path = tmp_path / "deck.pptx"
    deck.save(str(path))
    assert pptx.info(source_for_path(path), Request()).fields["notes"] == 1
