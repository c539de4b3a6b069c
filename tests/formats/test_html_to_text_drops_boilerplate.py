"""formats/web/html.py (the HTML reader of email bodies and EPUB chapters): scripts, styles and page chrome out,
headings as #, list items as -, table rows as | a | b |, links as their text; fed in pieces it gives the same
text, and no input (unclosed tags, stray brackets, random markup) raises."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundread.formats.web.html import PART, STUCK, Converter, text_of, to_text


@pytest.mark.parametrize(("html", "must", "must_not"), [
    ("<h2>Sub &amp; title</h2><p>Para <a href='x'>LINK</a> end</p>", ["## Sub & title", "Para LINK end"], ["href"]),
    ("<script>var S=1</script><style>.c{}</style><p>KEEP</p>", ["KEEP"], ["var S", ".c{}"]),
    ("<nav>MENU</nav><header>HEAD</header><main><p>BODY</p></main><footer>FOOT</footer><aside>SIDE</aside>",
     ["BODY"], ["MENU", "HEAD", "FOOT", "SIDE"]),
    ("<ul><li>one<li>two</ul>", ["- one", "- two"], ["<li>"]),
    ("<table><tr><th>a<th>b<tr><td>1<td>2|3</table>", ["| a | b |", "| 1 | 2\\|3 |"], []),
    ("<p>img <img src=x alt='ALT TEXT'> after</p>", ["img [ALT TEXT] after"], ["src"]),
    ("<pre>  keep\n    indent</pre>", ["  keep\n    indent"], []),
    ("<div><p>never closed <b>BOLD", ["never closed BOLD"], []),
    ("<svg><text>SVGTEXT</text></svg><p>ok</p>", ["ok"], ["SVGTEXT"]),
    # an article's own header and footer are its title and byline, not the site's chrome
    ("<header>SITE</header><main><article><header><h1>ART TITLE</h1></header><p>body</p><footer>BYLINE</footer>"
     "</article></main><footer>COPYRIGHT</footer>", ["# ART TITLE", "body", "BYLINE"], ["SITE", "COPYRIGHT"]),
])
def test_vectors(html: str, must: list[str], must_not: list[str]) -> None:
    text = to_text(html)
    for word in must:
        assert word in text, text
    for word in must_not:
        assert word not in text, text


def test_pieces_give_the_same_text_as_the_whole() -> None:
    html = "<h1>T</h1>" + "".join(f"<p>para {n} <i>it</i></p><script>x{n}()</script>" for n in range(200))
    whole = to_text(html)
    pieces = [html[i:i + 7] for i in range(0, len(html), 7)]
    assert "".join(text_of(iter(pieces))).removesuffix("\n\n") == whole and "x1()" not in whole


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["<p>", "</p>", "<script>", "</script>", "<table>", "<tr>", "<td>", "</td>",
                                 "<li>", "<h1>", "</h1>", "<pre>", "</pre>", "<", ">", "&amp;", "&#x;", "text ",
                                 "<!--", "-->", "<![CDATA[", "<a href='", "'>", "</nav>", "<nav>"]), max_size=60))
def test_no_markup_raises(parts: list[str]) -> None:
    html = "".join(parts)
    text = to_text(html)
    assert len(text) <= len(html) + 10 * html.count("<")


def _held(conv: Converter) -> int:
    """Characters the converter holds: its open block, its parser's unparsed input and what waits for it."""
    return conv.held + len(conv.rawdata) + conv._waiting_len


@pytest.mark.parametrize(("head", "shown"), [
    ("<p>START ", True),  # a block never closed: its text goes out in parts
    ("<pre>START\n", True),
    ("<table><tr><td>START ", True),  # a cell keeps PART characters
    ("<div START ", False),  # a tag never closed: skipped to its end, as a browser hides it
    ("<!-- START ", False),
    ("<script>START ", False),
    ('<a href="START ', False),
])
def test_an_unfinished_construct_of_megabytes_holds_bounded_memory(head: str, shown: bool) -> None:
    conv = Converter()
    out: list[str] = []
    most = 0
    conv.feed("<html><body>" + head)
    for _ in range(40):  # 4 MB, in pieces of 100,000 characters
        conv.feed("word " * 20_000)
        out += conv.take()
        most = max(most, _held(conv))
    out += conv.finish()
    assert most <= 2 * STUCK + 2 * PART
    text = "".join(out)
    assert ("START" in text) is shown
    if head.startswith(("<p>", "<pre>")):
        assert text.count("word") == 800_000 and "\n\n" not in text.rstrip("\n")  # one block, one line on
    if head.startswith(("<div", "<!--", "<a ")):
        assert conv.skipped == 1


def test_what_follows_a_skipped_construct_is_read() -> None:
    conv = Converter()
    conv.feed("<p>before</p><img src='data:" + "A" * (3 * STUCK))
    conv.feed("'><p>AFTER</p>")
    assert "AFTER" in "".join(conv.take() + conv.finish())
