"""formats/web/html.py (the HTML reader of email bodies and EPUB chapters): scripts, styles and page chrome out,
headings as #, list items as -, table rows as | a | b |, links as their text; fed in pieces it gives the same
text, and no input (unclosed tags, stray brackets, random markup) raises."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundread.formats.web.html import blocks, to_text


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
    assert "\n\n".join(blocks(iter(pieces))) == whole and "x1()" not in whole


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["<p>", "</p>", "<script>", "</script>", "<table>", "<tr>", "<td>", "</td>",
                                 "<li>", "<h1>", "</h1>", "<pre>", "</pre>", "<", ">", "&amp;", "&#x;", "text ",
                                 "<!--", "-->", "<![CDATA[", "<a href='", "'>", "</nav>", "<nav>"]), max_size=60))
def test_no_markup_raises(parts: list[str]) -> None:
    html = "".join(parts)
    text = to_text(html)
    assert len(text) <= len(html) + 10 * html.count("<")
