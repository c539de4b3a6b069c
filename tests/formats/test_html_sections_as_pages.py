"""A web page's sections are its pages (issue 25 item 5: "bounded by sections/headings"): ``info`` lists them (h1-h3,
the text before the first heading, a long one in parts) with their sizes; ``pages page.html 3-5`` reads those
sections alone and ``next`` goes on to the following ones; ``extract`` writes them all behind their markers, and
``chunks`` cuts between them. A --grep converts sections only until its last match, and a page of megabytes of
unfinished markup holds a bounded amount of memory."""

from __future__ import annotations

import re
import shlex
import tracemalloc
from dataclasses import replace
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers import run_json

from boundread.bytelevel.sniff import Sniffed
from boundread.contract.model import Request, Source
from boundread.contract.sink import MAX_LINE, Sink
from boundread.contract.source import source_for_path
from boundread.formats.web import page, sections
from boundread.limits import Limits
from boundread.ranges import parse_span

PAGE = ("<html><head><title>Guide</title><script>var s = '<h2>SCRIPTHEAD</h2>';</script></head><body>"
        "<header><h1>SITE NAME</h1></header><nav><h2>MENU</h2></nav>"
        "<p>Intro words.</p><!-- <h2>COMMENTED</h2> -->"
        "<h1>Install</h1><p>Install text.</p><h4>Minor</h4><p>still install</p>"
        "<h2>Use &amp; abuse</h2><p>Use text.</p>"
        "<H3 class='x'>Details <code>f()</code></H3><p>Detail text.</p>"
        "<aside><h2>RELATED</h2></aside>"
        "<h2>End</h2><p>End text.</p><footer><h3>FOOTER</h3></footer></body></html>")


def _write(folder: Path, text: str, name: str = "page.html") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _source(path: Path) -> Source:
    src = source_for_path(path)
    return replace(src, sniffed=Sniffed("html", "text/html", encoding=src.sniffed.encoding))


def test_info_lists_the_sections_the_reader_shows(tmp_path: Path) -> None:
    code, data = run_json("info", str(_write(tmp_path, PAGE)))
    assert code == 0 and data["fields"]["sections"] == 5
    listed = [entry.rsplit(" (", 1)[0] for entry in data["fields"]["contents"]]
    assert listed == ["1 (top of the page)", "2 # Install", "3 ## Use & abuse", "4 ### Details f()", "5 ## End"]
    assert data["next"][0] == f"boundread pages {tmp_path / 'page.html'} 1-5"


def test_pages_reads_those_sections_and_next_goes_on(tmp_path: Path) -> None:
    path = _write(tmp_path, PAGE)
    code, data = run_json("pages", str(path), "2-3", "--stdout")
    assert code == 0
    text = data["text"]
    assert text.startswith("--- section 2 ---\n# Install\n\nInstall text.")
    assert "#### Minor" in text and "--- section 3 ---\n## Use & abuse\n\nUse text." in text
    for other in ("Intro words", "Detail text", "End text", "SCRIPTHEAD", "MENU", "COMMENTED", "RELATED"):
        assert other not in text
    assert data["done"] == "sections 2-3"  # the walk stopped at section 4: the count is info's
    step = shlex.split(data["next"][0])
    assert step[1:] == ["pages", str(path), "4-5"]
    code, more = run_json(*step[1:], "--stdout")
    assert code == 0 and more["text"].startswith("--- section 4 ---\n### Details f()")
    assert "End text." in more["text"] and more["next"] == [] and more["done"] == "sections 4-5 of 5"


def test_extract_writes_every_section_behind_its_marker(tmp_path: Path) -> None:
    code, data = run_json("extract", str(_write(tmp_path, PAGE)), "--stdout")
    assert code == 0 and data["done"] == "the page's text"
    text = data["text"]
    assert text.startswith("--- section 1: top of the page ---\nIntro words.") and data["totals"] == {"sections": 5}
    markers = [line for line in text.splitlines() if line.startswith("--- section")]
    assert len(markers) == 5 and text.index("Install text.") < text.index("Use text.") < text.index("End text.")
    code, pages = run_json("pages", str(tmp_path / "page.html"), "1-5", "--stdout")
    assert pages["text"] == text  # a section reads the same whichever command reads it


def test_a_page_without_headings_is_read_in_parts_of_its_markup(tmp_path: Path) -> None:
    paragraphs = [f"<p>paragraph {n:05d} " + "word " * 40 + "</p>\n" for n in range(1, 1_201)]  # ~270 kB
    path = _write(tmp_path, "<html><body>" + "".join(paragraphs) + "</body></html>")
    with path.open("rb") as fh:
        found = list(sections.walk(fh, path.stat().st_size, "utf-8"))
    assert len(found) >= 4 and all(s.end - s.start <= sections.CUT + 300 for s in found)
    assert [s.part for s in found] == list(range(1, len(found) + 1)) and found[0].head == -1
    code, data = run_json("pages", str(path), f"2-{len(found)}", "--stdout", "--max-chars", "1000000")
    assert data["done"] == f"sections 2-{len(found)} of {len(found)}"
    assert code == 0 and data["text"].startswith("--- section 2: top of the page (part 2) ---")
    code, whole = run_json("extract", str(path), "--stdout", "--max-chars", "1000000")
    numbers = [line.split()[1] for line in whole["text"].splitlines() if line.startswith("paragraph ")]
    assert numbers == [f"{n:05d}" for n in range(1, 1_201)]  # each paragraph once, whole, in order


def test_a_heading_inside_a_long_section_still_starts_one(tmp_path: Path) -> None:
    body = "<p>" + "filler " * 20_000 + "</p><h2>Late heading</h2><p>after</p>"  # 140 kB before it
    path = _write(tmp_path, "<html><body>" + body + "</body></html>")
    code, data = run_json("info", str(path))
    assert code == 0 and data["fields"]["contents"][-1].startswith(f"{data['fields']['sections']} ## Late heading")


def test_utf16_is_one_section(tmp_path: Path) -> None:
    path = tmp_path / "wide.html"
    path.write_bytes(b"\xff\xfe" + "<html><body><h1>A</h1><p>x</p><h2>B</h2></body></html>".encode("utf-16-le"))
    with path.open("rb") as fh:
        assert [s.number for s in sections.walk(fh, path.stat().st_size, "utf-16")] == [1]


def test_a_grep_converts_sections_only_until_its_last_match(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path, "<html><body>" + "".join(f"<h2>Part {n}</h2><p>text {n} NEEDLE</p>"
                                                     for n in range(1, 2_001)) + "</body></html>")
    converted: list[int] = []
    real = page._text

    def counting(fh: object, section: sections.Section, *args: object) -> object:
        converted.append(section.number)
        return real(fh, section, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(page, "_text", counting)
    sink = Sink(Limits(max_matches=3), grep=re.compile("NEEDLE"))
    page.extract(_source(path), Request(), sink)
    assert sink.matches == 3 and converted == [1, 2, 3]
    assert "text 3 NEEDLE" in sink.text() and "text 5" not in sink.text()


def test_pages_past_the_end_are_refused_and_clamped(tmp_path: Path) -> None:
    path = _write(tmp_path, PAGE)
    sink = Sink(Limits())
    outcome = page.extract(_source(path), Request(pages=(parse_span("4-9", "pages"),)), sink)
    assert outcome.done == "sections 4-5 of 5" and any("cut to 4-5" in w for w in outcome.warnings)
    code, data = run_json("pages", str(path), "7-9")
    assert code != 0 and "page.html has 5 sections" in data["error"]["message"]


def test_chunks_cut_between_sections(tmp_path: Path) -> None:
    path = _write(tmp_path, "<html><body>" + "".join(f"<h2>Chapter {n}</h2>" + "<p>sentence here. </p>" * 60
                                                     for n in range(1, 41)) + "</body></html>")
    code, data = run_json("chunks", str(path), "--tokens", "1000", "-o", str(tmp_path / "c"))
    assert code == 0 and data["complete"] is True
    spans = [chunk["span"] for chunk in data["chunks"]]
    assert len(spans) > 3 and all(span.startswith("section") for span in spans)
    second = (tmp_path / "c" / data["chunks"][1]["file"]).read_text(encoding="utf-8")
    assert second.startswith("--- section ")


def test_an_unclosed_paragraph_of_megabytes_is_read_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "open.html"
    path.write_bytes(b"<html><body><div class='x' " + b"attr " * 300_000 + b"><p>START " + b"word " * 1_200_000
                     + b"<p>LAST")  # a 1.5 MB tag, then a 6 MB paragraph, never closed
    sink = Sink(Limits(max_chars=3 * MAX_LINE), grep=re.compile("^START|^LAST"))
    tracemalloc.start()
    try:
        page.extract(_source(path), Request(), sink)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert sink.matches == 2 and sink.text().endswith(":LAST\n")
    assert peak < 3 * MAX_LINE + 24 * 2**20  # the matched line (cut at MAX_LINE), and ~14 MB for the long tag


_BITS = ["<h1>", "</h1>", "<H2 id=x>", "<h3>", "<p>", "</p>", "text ", "<nav>", "</nav>", "<script>", "</script>",
         "<!--", "-->", "<header>", "</header>", "<div ", ">", "&amp;", "\n", "<h2", "é", "<style>", "</style>",
         "<table><tr><td>", "<pre>", "<article>", "</article>", "<footer>", "</footer>", "<section>", "</main>"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(_BITS), max_size=80), st.integers(1, 3))
def test_sections_tile_the_page_and_read_the_same_one_by_one(tmp_path: Path, bits: list[str], repeat: int) -> None:
    path = tmp_path / "fuzz.html"
    path.write_bytes("".join(bits * repeat).encode("utf-8"))
    size = path.stat().st_size
    with path.open("rb") as fh:
        found = list(sections.walk(fh, size, "utf-8"))
    assert [s.number for s in found] == list(range(1, len(found) + 1))
    assert found[-1].end == size and all(a.end == b.start for a, b in pairwise(found))
    assert all(s.start < s.end for s in found) or size == 0
    whole = Sink(Limits(max_chars=10**7))
    page.extract(_source(path), Request(), whole)
    one_by_one = ""
    for section in found:
        sink = Sink(Limits(max_chars=10**7))
        page.extract(_source(path), Request(pages=(parse_span(str(section.number), "pages"),)), sink)
        one_by_one += sink.text()
    assert one_by_one == whole.text()


def test_the_mcp_pages_tool_reads_sections(tmp_path: Path) -> None:
    from boundread.mcp import tools

    path = _write(tmp_path, PAGE)
    config = tools.Config(roots=(str(tmp_path),), out_dir=str(tmp_path / "out"))
    target = tools.Target(real=path, shown="page.html", out_dir=tmp_path / "out")
    reply = tools.settle(tools.pages(config, target, "3"))
    assert not reply.is_error and reply.text.startswith("--- section 3 ---\n## Use & abuse")
    assert reply.envelope["next_calls"] == ['pages(path="page.html", range="4")']


def test_an_articles_own_header_starts_its_section(tmp_path: Path) -> None:
    path = _write(tmp_path, "<body><header><h1>SITE</h1></header><article><header><h1>Article title</h1>"
                            "<p>By someone</p></header><p>Body.</p><section><h2>Part</h2><p>More.</p>"
                            "<footer>Posted in news</footer></section></article><footer><h3>COPYRIGHT</h3></footer>")
    code, data = run_json("info", str(path))
    assert [e.rsplit(" (", 1)[0] for e in data["fields"]["contents"]] == ["1 # Article title", "2 ## Part"]
    code, data = run_json("pages", str(path), "2", "--stdout")
    assert code == 0 and data["text"] == "--- section 2 ---\n## Part\n\nMore.\n\nPosted in news\n\n"  # in the article


def test_info_on_a_huge_page_counts_the_start_and_scales(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _write(tmp_path, "<body>" + "".join(f"<h2>S{n}</h2><p>{'x' * 90}</p>" for n in range(1, 1_001)))
    monkeypatch.setattr(page, "COUNTED", 20_000)  # as info does past 32 MB: ~1/5 of this 110 kB page
    details = page.info(_source(path), Request())
    counted = details.fields["sections_counted"]
    assert isinstance(counted, int) and 150 < counted < 250
    assert details.fields["sections"] == pytest.approx(1_000, rel=0.05)
    assert any("an estimate" in warning for warning in details.warnings)


def test_a_cut_grep_of_some_sections_goes_on_in_those_sections(tmp_path: Path) -> None:
    path = _write(tmp_path, "<body>" + "".join(f"<h2>Part {n}</h2><p>hit {n}</p><p>miss</p>" for n in range(1, 40)))
    code, first = run_json("extract", str(path), "--pages", "5-30", "--grep", "hit", "--max-matches", "3", "--stdout")
    assert code == 0 and [line.split(":")[1] for line in first["text"].splitlines()] == ["hit 5", "hit 6", "hit 7"]
    step = shlex.split(first["next"][0])
    assert step[1:5] == ["extract", str(path), "--pages", "5-30"] and "--lines" in step
    code, more = run_json(*step[1:], "--stdout")
    assert code == 0 and more["text"].splitlines()[0].endswith(":hit 8")  # on in the same text, nothing twice

    code, window = run_json("extract", str(path), "--pages", "5-30", "--lines", "1-60", "--max-chars", "100",
                            "--stdout")
    step = shlex.split(window["next"][0])
    assert step[1:5] == ["extract", str(path), "--pages", "5-30"] and step[5] == "--lines"
    code, rest = run_json(*step[1:], "--stdout")
    seen = {line for line in window["text"].splitlines()[:-1] if line.startswith(("hit", "---"))}  # last: cut
    again = {line for line in rest["text"].splitlines() if line.startswith(("hit", "---"))}
    assert code == 0 and seen and again and not seen & again
