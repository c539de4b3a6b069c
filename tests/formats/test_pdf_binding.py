"""boundread declares the PDFium functions it calls itself (formats/pdf/binding.py) instead of importing pypdfium2's
bindings (~100 ms of CPU at every start): each declaration must be the one pypdfium2 generates from PDFium's
headers, or a call would pass or read the wrong bytes; and reading a PDF must not import pypdfium2 after all."""

from __future__ import annotations

import ctypes
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fpdf import FPDF

from boundread.contract.source import source_for_path
from boundread.formats.pdf import binding
from boundread.formats.pdf.pdfium import PdfiumDoc

POINTERS = (ctypes.c_void_p, ctypes.c_char_p, ctypes._Pointer, ctypes._CFuncPtr)  # type: ignore[attr-defined]


def _shape(kind: Any, struct: bool) -> tuple[str, int]:
    """What crosses the call: a pointer (with ``struct``, the size of the struct it points to), or an integer of
    a size and signedness (its struct code)."""
    if kind is None:
        return "void", 0
    if issubclass(kind, ctypes._Pointer):  # type: ignore[attr-defined]
        return "pointer", ctypes.sizeof(kind._type_) if struct else 0
    if issubclass(kind, POINTERS):
        return "pointer", 0
    return kind._type_, ctypes.sizeof(kind)


@pytest.mark.parametrize("name", sorted(binding.SIGNATURES))
def test_each_declaration_is_pypdfium2s(name: str) -> None:
    import pypdfium2.raw as theirs

    ours = getattr(binding.pdfium(), name)
    generated = getattr(theirs, name)
    kinds = (ours.restype, *ours.argtypes)
    # a handle is a pointer either way (ours c_void_p, theirs a pointer to an opaque struct); where ours points to
    # a struct (a rectangle, the form callbacks), it is the size of theirs
    structs = [isinstance(kind, type) and issubclass(kind, ctypes._Pointer) for kind in kinds]  # type: ignore[attr-defined]
    assert [_shape(kind, struct) for kind, struct in zip(kinds, structs, strict=True)] == \
        [_shape(kind, struct) for kind, struct in zip((generated.restype, *generated.argtypes), structs, strict=True)]


def test_constants_and_structures_are_pypdfium2s() -> None:
    import pypdfium2.raw as theirs

    names = [name for name in dir(binding) if name.startswith(("FORMTYPE_", "FPDF_"))]
    assert len(names) == 11
    assert {name: getattr(binding, name) for name in names} == {name: getattr(theirs, name) for name in names}
    assert ctypes.sizeof(binding.FormFillInfo) == ctypes.sizeof(theirs.FPDF_FORMFILLINFO)
    for field in ("version", "m_pJsPlatform", "xfa_disabled"):
        assert getattr(binding.FormFillInfo, field).offset == getattr(theirs.FPDF_FORMFILLINFO, field).offset
    assert ctypes.sizeof(binding.FS_RECTF) == ctypes.sizeof(theirs.FS_RECTF)
    for field, *_ in binding.LibraryConfig._fields_:  # version 2's fields: what PDFium reads of a version 2 config
        assert getattr(binding.LibraryConfig, field).offset == getattr(theirs.FPDF_LIBRARY_CONFIG, field).offset
    from pypdfium2.internal.consts import ErrorToStr

    assert dict(ErrorToStr) == binding.ERRORS  # its words reach the user: "pdfium could not open the file (...)"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pdf = FPDF()
    for number in range(1, 4):
        pdf.add_page()
        pdf.set_font("Helvetica", size=11)
        pdf.multi_cell(0, 6, f"SENTINEL-PAGE-{number}\tcolumns\tapart. " * 20 + "\nCafé, naïve, 50 %.")
    path = tmp_path_factory.mktemp("binding") / "report.pdf"
    pdf.output(str(path))
    return path


def test_page_text_is_pypdfium2s_get_text_range(report: Path) -> None:
    import pypdfium2 as pdfium

    theirs = pdfium.PdfDocument(str(report))
    try:
        expected = [theirs[i].get_textpage().get_text_range() for i in range(len(theirs))]
    finally:
        theirs.close()
    c = binding.pdfium()
    doc = PdfiumDoc(source_for_path(report), None)
    try:
        got = []
        for index in range(doc.pages):
            page = c.FPDF_LoadPage(doc.doc, index)
            textpage = c.FPDFText_LoadPage(page)
            got.append(binding.page_text(c, textpage))
            c.FPDFText_ClosePage(textpage)
            c.FPDF_ClosePage(page)
    finally:
        doc.close()
    assert got == expected and "SENTINEL-PAGE-3" in got[2] and "naïve, 50 %" in got[2]


def test_reading_a_pdf_imports_no_pypdfium2(report: Path) -> None:
    probe = (
        "import sys\n"
        "from boundread.contract.model import Request\nfrom boundread.contract.sink import Sink\n"
        "from boundread.contract.source import source_for_path\nfrom boundread.formats.pdf import handler\n"
        "from boundread.limits import Limits\n"
        f"sink = Sink(Limits())\nout = handler.extract(source_for_path({str(report)!r}), Request(), sink)\n"
        "sink.close()\nassert 'SENTINEL-PAGE-3' in sink.text(), sink.text()\n"
        "handler.info(source_for_path(sys.argv[1]), Request())\n"
        "print(sorted(m for m in sys.modules if m.startswith('pypdfium2')))"
    )
    out = subprocess.run([sys.executable, "-c", probe, str(report)], capture_output=True, text=True, timeout=60,
                         check=True)
    assert out.stdout.strip() == "[]"
