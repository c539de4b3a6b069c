"""formats/web/page.py, the handler of a saved web page (kind ``html``): the readable text in the page's declared
charset, scripts and chrome out, bounded by the sink, and an unclosed tag of megabytes streamed to the bound
rather than held."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from boundread.bytelevel.sniff import Sniffed
from boundread.contract.model import Request, Source
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_path
from boundread.formats.web import page
from boundread.limits import Limits


def _source(path: Path) -> Source:
    src = source_for_path(path)
    return replace(src, sniffed=Sniffed("html", "text/html", encoding=src.sniffed.encoding))


def test_a_page_in_koi8r_is_its_text_without_scripts(tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_bytes('<html><head><meta charset="koi8-r"><title>Страница</title><script>SCRIPT()</script></head>'
                     "<body><nav>МЕНЮ</nav><h1>Заголовок</h1><p>Текст абзаца.</p><footer>ПОДВАЛ</footer></body>"
                     "</html>".encode("koi8-r"))
    src = _source(path)
    details = page.info(src, Request())
    assert details.fields["title"] == "Страница" and details.fields["encoding"] == "koi8-r"
    assert details.fields["sections"] == 1 and details.fields["contents"] == ["1 # Заголовок (75 B)"]
    sink = Sink(Limits())
    outcome = page.extract(src, Request(), sink)
    text = sink.text()
    assert text.startswith("--- section 1 ---\n# Заголовок\n\nТекст абзаца.")
    assert outcome.done == "the page's text"
    assert "SCRIPT" not in text and "МЕНЮ" not in text and "ПОДВАЛ" not in text


def test_an_unclosed_tag_of_megabytes_streams_to_the_bound(tmp_path: Path) -> None:
    path = tmp_path / "open.html"
    path.write_bytes(b"<html><body><p>START " + b"word " * 2_000_000)  # 10 MB, never closed
    sink = Sink(Limits(max_chars=5_000))
    page.extract(_source(path), Request(), sink)
    assert sink.chars <= 5_000 and sink.truncated
    details = page.info(_source(path), Request())
    assert details.estimated and details.est_chars is not None and details.est_chars > 9_000_000
