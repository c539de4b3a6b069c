"""EPUB: chapters in spine order are pages, each chapter's XHTML read as text without scripts or navigation;
a chapter that is a zip bomb or past the size limit is skipped with a warning; a broken package is one line."""

from __future__ import annotations

import zipfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers import run, run_json

from boundread.errors import ExitCode

CONTAINER = ('<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">'
             '<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
             "</rootfiles></container>")


def _opf(ids: list[str]) -> str:
    items = "".join(f'<item id="{i}" href="text/{i}.xhtml" media-type="application/xhtml+xml"/>' for i in ids)
    refs = "".join(f'<itemref idref="{i}"/>' for i in ids)
    return ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
            '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Book TITLE_B</dc:title>'
            f"<dc:language>en</dc:language></metadata><manifest>{items}</manifest><spine>{refs}</spine></package>")


def _chapter(n: str) -> str:
    return (f'<html xmlns="http://www.w3.org/1999/xhtml"><head><title>{n}</title><script>SCRIPT_{n}()</script>'
            f"</head><body><nav>NAV_{n}</nav><h1>Chapter {n}</h1><p>Text SENT_{n} here.</p></body></html>")


def epub(tmp_path: Path, spine: list[str], extra: dict[str, bytes] | None = None, name: str = "book.epub") -> Path:
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")
        zf.writestr("META-INF/container.xml", CONTAINER)
        zf.writestr("OEBPS/content.opf", _opf(spine))
        for n in sorted(spine):  # stored alphabetically: the spine, not the zip, gives the order
            if f"OEBPS/text/{n}.xhtml" not in (extra or {}):
                zf.writestr(f"OEBPS/text/{n}.xhtml", _chapter(n))
        for member, data in (extra or {}).items():
            zf.writestr(member, data)
    return path


def test_info_names_the_kind_and_counts_chapters(tmp_path: Path) -> None:
    code, data = run_json("info", str(epub(tmp_path, ["c3", "c1", "c2"])))
    assert code == 0 and data["kind"] == "epub"
    assert data["fields"]["chapters"] == 3 and data["fields"]["title"] == "Book TITLE_B"


def test_extract_reads_chapters_in_spine_order_without_scripts(tmp_path: Path) -> None:
    code, data = run_json("extract", str(epub(tmp_path, ["c3", "c1", "c2"])), "--stdout")
    assert code == 0
    text = data["text"]
    order = ["--- chapter 1 / 3 ---", "# Chapter c3", "SENT_c3", "--- chapter 2 / 3 ---", "SENT_c1", "SENT_c2"]
    positions = [text.index(s) for s in order]
    assert positions == sorted(positions)
    assert "SCRIPT_" not in text and "NAV_" not in text and "<p>" not in text


def test_pages_reads_only_the_chapters_asked_for(tmp_path: Path) -> None:
    code, data = run_json("pages", str(epub(tmp_path, ["a", "b", "c", "d"])), "2-3", "--stdout")
    assert code == 0 and "SENT_b" in data["text"] and "SENT_c" in data["text"]
    assert "SENT_a" not in data["text"] and "SENT_d" not in data["text"] and data["done"] == "chapters 2-3 of 4"
    result = run("pages", str(epub(tmp_path, ["a"], name="one.epub")), "5")
    assert result.exit_code == ExitCode.USAGE and "has 1 chapter" in result.stderr


def test_a_zip_bomb_chapter_is_skipped_with_a_warning(tmp_path: Path) -> None:
    bomb = b"<html><body><p>" + b"a" * 30_000_000 + b"</p></body></html>"
    path = epub(tmp_path, ["a", "bomb", "c"], {"OEBPS/text/bomb.xhtml": bomb})
    code, data = run_json("extract", str(path), "--stdout")
    assert code == 0 and "SENT_a" in data["text"] and "SENT_c" in data["text"] and data["chars"] < 10_000
    assert any("bomb.xhtml not read" in w for w in data["warnings"])


def test_an_unclosed_tag_is_read_to_the_end_bounded(tmp_path: Path) -> None:
    never_closed = b"<html><body><div><p>OPEN_START " + b"w " * 500_000
    path = epub(tmp_path, ["a", "open"], {"OEBPS/text/open.xhtml": never_closed})
    code, data = run_json("extract", str(path), "--max-chars", "5000", "--stdout")
    assert code == 0 and "OPEN_START" in data["text"] and data["chars"] <= 5000 and data["truncated"]


def test_a_package_without_container_is_one_line_and_exit_6(tmp_path: Path) -> None:
    path = tmp_path / "bad.epub"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("mimetype", "application/epub+zip")
        zf.writestr("x.txt", "hi")
    result = run("extract", str(path))
    assert result.exit_code == ExitCode.CORRUPT and "META-INF/container.xml" in result.stderr
    assert result.stderr.count("\n") == 1


def test_a_directory_of_a_million_entries_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = epub(tmp_path, ["a"])
    data = bytearray(path.read_bytes())
    at = data.rfind(b"PK\x05\x06")  # the end record: say 60,000 entries (the directory itself is unchanged)
    data[at + 8:at + 12] = (60_000).to_bytes(2, "little") * 2
    path.write_bytes(bytes(data))
    result = run("extract", str(path))
    assert result.exit_code == ExitCode.REFUSED and "declares 60,000 zip entries" in result.stderr
    assert result.stderr.count("\n") == 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_changed_bytes_never_raise(tmp_path: Path, data: st.DataObject) -> None:
    raw = bytearray(epub(tmp_path, ["a", "b"]).read_bytes())
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw) - 1))
        raw[at] = data.draw(st.integers(0, 255))
    path = tmp_path / "mutated.epub"
    path.write_bytes(bytes(raw))
    for args in (("extract", str(path), "--stdout"), ("info", str(path))):
        result = run(*args)
        assert result.exit_code in (ExitCode.OK, ExitCode.USAGE, ExitCode.UNSUPPORTED, ExitCode.ENCRYPTED,
                                    ExitCode.CORRUPT, ExitCode.REFUSED)
        assert "Traceback" not in result.stderr
        if result.exit_code:
            assert result.stderr.count("\n") == 1


def test_an_encrypted_package_file_is_said(tmp_path: Path) -> None:
    """A container.xml whose zip entry is flagged encrypted (one flipped bit, found by the test above): exit 5 and
    one line, not zipfile's RuntimeError asking for a password."""
    raw = bytearray(epub(tmp_path, ["a", "b"]).read_bytes())
    for signature in (b"PK\x03\x04", b"PK\x01\x02"):  # the local header's flags, then the directory's
        at = raw.find(signature)
        while at != -1:
            flags = at + (6 if signature == b"PK\x03\x04" else 8)
            name_at = at + (30 if signature == b"PK\x03\x04" else 46)
            if raw[name_at:name_at + 22] == b"META-INF/container.xml":
                raw[flags] |= 0x1
            at = raw.find(signature, at + 4)
    path = tmp_path / "locked.epub"
    path.write_bytes(bytes(raw))
    result = run("extract", str(path), "--stdout")
    assert result.exit_code == ExitCode.ENCRYPTED, result.stderr
    assert "container.xml" in result.stderr and "encrypted" in result.stderr
    assert result.stderr.count("\n") == 1
    code, data = run_json("info", str(path))  # info describes it, as it does an encrypted PDF
    assert code == 0 and data["encrypted"] is True and "container.xml" in data["problem"]["message"], data
