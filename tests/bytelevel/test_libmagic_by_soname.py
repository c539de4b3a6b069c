"""libmagic is opened by its soname: the same answers as python-magic, without ``ldconfig -p`` or python-magic."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from boundread.bytelevel import libmagic


def _samples(folder: Path) -> list[Path]:
    text = folder / "notes.txt"
    text.write_text("sentinel-7 plain words\n", encoding="utf-8")
    pdf = folder / "doc.pdf"
    pdf.write_bytes(b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
    png = folder / "dot.png"
    png.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 32)
    archive = folder / "a.zip"
    with zipfile.ZipFile(archive, "w") as out:
        out.writestr("x.txt", "x")
    empty = folder / "empty"
    empty.write_bytes(b"")
    odd = folder / "naïve ünïcode.csv"
    odd.write_text("a,b\n1,2\n", encoding="utf-8")
    return [text, pdf, png, archive, empty, odd]


def test_answers_as_python_magic_on_binary_formats(tmp_path: Path) -> None:
    """The same answer as python-magic wherever it names a binary format; text (whose checks are off) is
    application/octet-stream, which detection reads as vague, as it read text/plain."""
    magic = pytest.importorskip("magic")
    if libmagic._by_soname() is None:
        pytest.skip("no libmagic soname opens here: python-magic answers itself")
    executable = Path(sys.executable).resolve()
    for path in [*_samples(tmp_path), executable]:
        theirs, ours = magic.from_file(str(path), mime=True), libmagic.mime_type(path)
        if theirs.startswith("text/") or theirs == "application/csv":
            assert ours == "application/octet-stream", path
        else:
            assert ours == theirs, path
    assert libmagic.mime_type(executable) != "application/octet-stream"  # a binary format really was named
    text_pdf = tmp_path / "odd.txt"  # a PDF after a line break: found by its rule, not by the text checks
    text_pdf.write_bytes(b"\n%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF\n")
    assert libmagic.mime_type(text_pdf) == magic.from_file(str(text_pdf), mime=True) == "application/pdf"


def test_a_missing_file_is_none_not_a_type(tmp_path: Path) -> None:
    assert libmagic.mime_type(tmp_path / "absent.bin") is None
    assert libmagic.mime_type(tmp_path) is None  # a folder cannot be opened as a file


def test_loading_runs_no_subprocess_and_skips_python_magic(tmp_path: Path) -> None:
    """ctypes.util.find_library runs `ldconfig -p`; the soname load must not, nor import python-magic."""
    if libmagic._by_soname() is None:
        pytest.skip("no libmagic soname opens here")
    sample = tmp_path / "s.txt"
    sample.write_text("hello\n", encoding="utf-8")
    probe = (
        "import subprocess, sys\n"
        "def refuse(*a, **k):\n    raise AssertionError('subprocess started: ' + repr(a[:1]))\n"
        "subprocess.Popen.__init__ = refuse\n"
        "from pathlib import Path\nfrom boundread.core.detect import libmagic_mime\n"
        f"print(libmagic_mime(Path({str(sample)!r})))\n"
        "print('magic' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["application/octet-stream", "False"]


def test_falls_back_to_python_magic_when_no_soname_opens(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    magic = pytest.importorskip("magic")
    monkeypatch.setattr(libmagic, "SONAMES", ("libmagic-that-is-not-there.so.9",))
    libmagic._lookup.cache_clear()
    try:
        sample = _samples(tmp_path)[1]
        assert libmagic._lookup() is libmagic._python_magic
        assert libmagic.mime_type(sample) == magic.from_file(str(sample), mime=True)
    finally:
        libmagic._lookup.cache_clear()
