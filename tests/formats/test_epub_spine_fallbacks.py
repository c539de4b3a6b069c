"""A foreign resource in an EPUB's spine (JSON, an image) is read through the manifest's ``fallback`` chain to
its content document, as EPUB 3 readers do; a chain that loops or ends nowhere reads the item as it is, at once."""

from __future__ import annotations

import zipfile
from pathlib import Path

from tests.formats.test_epub_chapters_as_pages import CONTAINER
from tests.helpers import run_json


def _book(tmp_path: Path, items: str, spine: str, files: dict[str, str]) -> Path:
    path = tmp_path / "book.epub"
    opf = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
           '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title></metadata>'
           f"<manifest>{items}</manifest><spine>{spine}</spine></package>")
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/epub+zip")
        zf.writestr("META-INF/container.xml", CONTAINER)
        zf.writestr("OEBPS/content.opf", opf)
        for name, text in files.items():
            zf.writestr(f"OEBPS/{name}", text)
    return path


def _page(word: str) -> str:
    return f'<html xmlns="http://www.w3.org/1999/xhtml"><body><p>{word}</p></body></html>'


def test_a_foreign_spine_item_is_read_through_its_fallback_chain(tmp_path: Path) -> None:
    items = ('<item id="data" href="data.json" media-type="application/json" fallback="pic"/>'
             '<item id="pic" href="pic.png" media-type="image/png" fallback="page"/>'
             '<item id="page" href="page.xhtml" media-type="application/xhtml+xml"/>')
    path = _book(tmp_path, items, '<itemref idref="data"/>',
                 {"data.json": '{"FOREIGN_JSON": 1}', "pic.png": "PNG", "page.xhtml": _page("FALLBACK_TEXT")})
    code, data = run_json("extract", str(path), "--stdout")
    assert code == 0 and "FALLBACK_TEXT" in data["text"] and "FOREIGN_JSON" not in data["text"], data


def test_a_fallback_loop_reads_the_item_as_it_is(tmp_path: Path) -> None:
    items = ('<item id="a" href="a.json" media-type="application/json" fallback="b"/>'
             '<item id="b" href="b.json" media-type="application/json" fallback="a"/>')
    path = _book(tmp_path, items, '<itemref idref="a"/>', {"a.json": '{"ITEM_A": 1}', "b.json": '{"ITEM_B": 1}'})
    code, data = run_json("extract", str(path), "--stdout")
    assert code == 0 and "ITEM_A" in data["text"], data
