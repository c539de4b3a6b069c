"""A big notebook, email, web page or EPUB denied whole (Read, ``cat``) is pointed at its structure: a notebook's cells
(``pages F 1-10``, outputs summarised instead of base64), an email's text and attachment list, an EPUB's
chapters - not a window of lines that cuts base64 or MIME parts. Each suggestion runs and is bounded."""

from __future__ import annotations

import shlex
import zipfile
from pathlib import Path

import pytest
from tests.formats.mail_fixtures import message, write
from tests.formats.nb_fixtures import PNG, code, display, markdown, notebook
from tests.helpers import run_json

from boundread.guard import check_read
from boundread.guard.command import check_command
from boundread.guard.config import GuardConfig

SMALL_CAP = GuardConfig(text_max_bytes=4_096)


def _suggested(reason: str) -> list[list[str]]:
    return [shlex.split(line.strip())[1:] for line in reason.splitlines() if line.strip().startswith("boundread ")]


@pytest.fixture
def files(tmp_path: Path) -> Path:
    notebook(tmp_path, [markdown(f"cell {n}") if n % 2 else code("plot()", display({"image/png": PNG}))
                        for n in range(30)], "nb.ipynb")
    mail = message()
    mail.add_attachment(b"\x00" * 50_000, maintype="application", subtype="octet-stream", filename="blob.bin")
    write(tmp_path, mail)
    with zipfile.ZipFile(tmp_path / "book.epub", "w") as zf:
        zf.writestr("mimetype", "application/epub+zip")
        zf.writestr("META-INF/container.xml", '<container><rootfiles><rootfile full-path="c.opf"/></rootfiles>'
                    "</container>")
        zf.writestr("c.opf", '<package><manifest><item id="a" href="a.xhtml"/></manifest><spine>'
                    '<itemref idref="a"/></spine></package>')
        zf.writestr("a.xhtml", "<html><body><p>" + "words " * 20_000 + "</p></body></html>")
    sections = "".join(f"<h2>Part {n}</h2><p>{'text ' * 300}</p>" for n in range(40))  # one line of markup
    (tmp_path / "page.html").write_text(f"<html><body>{sections}</body></html>", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("name", "must"), [
    ("nb.ipynb", "boundread pages nb.ipynb 1-10 --max-chars 20000"),
    ("mail.eml", "boundread list-zip mail.eml --max-entries 200"),
    ("page.html", "boundread pages page.html 1-5 --max-chars 20000"),  # sections by headings
])
def test_a_big_notebook_or_email_is_pointed_at_its_structure(files: Path, name: str, must: str) -> None:
    for decision in (check_read(str(files / name), cwd=files, config=SMALL_CAP),
                     check_command(f"cat {name}", cwd=files, config=SMALL_CAP)):
        assert decision.decision == "deny"
        assert must in decision.reason, decision.reason
        assert "--lines 1-" not in decision.reason
    for words in _suggested(decision.reason):
        if "NAME" in words:
            continue
        code_, data = run_json(*[str(files / w) if w == name else w for w in words])
        assert code_ == 0, words
        if words[0] in ("extract", "pages"):
            assert data["chars"] <= 20_000


def test_an_epub_is_pointed_at_its_chapters(files: Path) -> None:
    decision = check_read(str(files / "book.epub"), cwd=files, config=SMALL_CAP)
    assert decision.decision == "deny" and "boundread pages book.epub 1-3" in decision.reason, decision.reason
    code_, data = run_json("pages", str(files / "book.epub"), "1-3", "--max-chars", "20000")
    assert code_ == 0 and data["chars"] <= 20_000 and data["truncated"]
