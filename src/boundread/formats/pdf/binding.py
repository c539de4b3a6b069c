"""The PDFium functions boundread calls, declared through ctypes on the library that pypdfium2 ships.

pypdfium2's own bindings declare all 4,500 names of PDFium's headers, and its helper classes track every object
they open: importing them costs ~100 ms of CPU, two thirds of the start-up of ``boundread extract F.pdf``.
The ~40 functions the text engine calls cost ~1 ms to declare. Handles are plain ``c_void_p`` (an int, None
for NULL), so pypdfium2's objects (their ``_as_parameter_``) pass through them too: the tests and the OCR
rendering (pdfium.py), which keeps pypdfium2's ``render``, mix both freely. tests/formats/test_pdf_binding.py
holds each declaration to pypdfium2's own.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
from pathlib import Path

TYPE_CHECKING = False  # typing for mypy only: it costs a read's start-up
if TYPE_CHECKING:
    from typing import Any

FORMTYPE_ACRO_FORM, FORMTYPE_XFA_FULL, FORMTYPE_XFA_FOREGROUND = 1, 2, 3
FPDF_ERR_PASSWORD, FPDF_ERR_SECURITY = 4, 5
FPDF_ANNOT_FREETEXT, FPDF_ANNOT_WIDGET = 3, 20
FPDF_FORMFIELD_CHECKBOX, FPDF_FORMFIELD_RADIOBUTTON = 2, 3
FPDF_PAGEOBJ_TEXT, FPDF_PAGEOBJ_FORM = 1, 5
#: FPDF_GetLastError's codes as pypdfium2 words them (their words reach the user: "could not open the file (...)")
ERRORS = {0: "Success", 1: "Unknown error", 2: "File access error", 3: "Data format error",
          4: "Incorrect password error", 5: "Unsupported security scheme error", 6: "Page not found or content error"}


class PdfiumError(Exception):
    """PDFium could not do it (load a page, its text); the message says what, as pypdfium2 words it."""


class FS_RECTF(ctypes.Structure):
    _fields_ = (("left", ctypes.c_float), ("top", ctypes.c_float), ("right", ctypes.c_float),
                ("bottom", ctypes.c_float))


class FormFillInfo(ctypes.Structure):
    """FPDF_FORMFILLINFO, version 2: every callback NULL (nothing is shown, nothing is typed)."""

    _fields_ = (("version", ctypes.c_int), *((f"callback{i}", ctypes.c_void_p) for i in range(15)),
                ("m_pJsPlatform", ctypes.c_void_p), ("xfa_disabled", ctypes.c_int),
                *((f"callback{i}", ctypes.c_void_p) for i in range(15, 32)))


class LibraryConfig(ctypes.Structure):
    """FPDF_LIBRARY_CONFIG, version 2 (later versions add fields at its end)."""

    _fields_ = (("version", ctypes.c_int), ("m_pUserFontPaths", ctypes.c_void_p), ("m_pIsolate", ctypes.c_void_p),
                ("m_v8EmbedderSlot", ctypes.c_uint))


_H, _I, _U, _UL = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint, ctypes.c_ulong  # a handle or buffer, the numbers
_S = ctypes.c_char_p
#: name: (result, *arguments)
SIGNATURES: dict[str, tuple[Any, ...]] = {
    "FPDF_InitLibraryWithConfig": (None, _H),
    "FPDF_LoadDocument": (_H, _S, _S),
    "FPDF_LoadMemDocument64": (_H, _H, ctypes.c_size_t, _S),
    "FPDF_GetLastError": (_UL,),
    "FPDF_CloseDocument": (None, _H),
    "FPDF_GetPageCount": (_I, _H),
    "FPDF_GetSecurityHandlerRevision": (_I, _H),
    "FPDF_GetFormType": (_I, _H),
    "FPDF_GetFileVersion": (_I, _H, ctypes.POINTER(_I)),
    "FPDF_GetMetaText": (_UL, _H, _S, _H, _UL),
    "FPDF_GetPageLabel": (_UL, _H, _I, _H, _UL),
    "FPDFDOC_InitFormFillEnvironment": (_H, _H, ctypes.POINTER(FormFillInfo)),
    "FPDFDOC_ExitFormFillEnvironment": (None, _H),
    "FORM_OnAfterLoadPage": (None, _H, _H),
    "FORM_OnBeforeClosePage": (None, _H, _H),
    "FPDF_LoadPage": (_H, _H, _I),
    "FPDF_ClosePage": (None, _H),
    "FPDFText_LoadPage": (_H, _H),
    "FPDFText_ClosePage": (None, _H),
    "FPDFText_CountChars": (_I, _H),
    "FPDFText_GetText": (_I, _H, _I, _I, _H),
    "FPDFText_GetTextIndexFromCharIndex": (_I, _H, _I),
    "FPDFText_GetUnicode": (_U, _H, _I),
    "FPDFText_HasUnicodeMapError": (_I, _H, _I),
    "FPDFText_GetLooseCharBox": (_I, _H, _I, ctypes.POINTER(FS_RECTF)),
    "FPDFPage_CountObjects": (_I, _H),
    "FPDFPage_GetObject": (_H, _H, _I),
    "FPDFPageObj_GetType": (_I, _H),
    "FPDFFormObj_CountObjects": (_I, _H),
    "FPDFFormObj_GetObject": (_H, _H, _UL),
    "FPDFPage_GetAnnotCount": (_I, _H),
    "FPDFPage_GetAnnot": (_H, _H, _I),
    "FPDFPage_CloseAnnot": (None, _H),
    "FPDFAnnot_GetSubtype": (_I, _H),
    "FPDFAnnot_GetFormFieldName": (_UL, _H, _H, _H, _UL),
    "FPDFAnnot_GetFormFieldType": (_I, _H, _H),
    "FPDFAnnot_GetFormFieldValue": (_UL, _H, _H, _H, _UL),
    "FPDFAnnot_IsChecked": (_I, _H, _H),
    "FPDFAnnot_GetStringValue": (_UL, _H, _S, _H, _UL),
    "FPDF_GetXFAPacketCount": (_I, _H),
    "FPDF_GetXFAPacketName": (_UL, _H, _I, _H, _UL),
    "FPDF_GetXFAPacketContent": (_I, _H, _I, _H, _UL, ctypes.POINTER(_UL)),
}
_NAMES = ("libpdfium.so", "libpdfium.dylib", "pdfium.dll")


def _library() -> Any:
    """pypdfium2's PDFium, found next to its package without importing it; where it is elsewhere (a system
    build), the library pypdfium2's bindings loaded."""
    from boundread.finder import package_folders

    for folder in package_folders("pypdfium2_raw"):
        for name in _NAMES:
            if (Path(folder) / name).is_file():
                return ctypes.CDLL(str(Path(folder) / name))
    import importlib

    return importlib.import_module("pypdfium2_raw.bindings")._libs["pdfium"]


@functools.cache
def pdfium() -> Any:
    """PDFium's functions (``pdfium().FPDF_LoadPage(...)``), the library initialised once per process (a second
    init, pypdfium2's, does nothing)."""
    lib = _library()
    for name, (result, *arguments) in SIGNATURES.items():
        function = getattr(lib, name)
        function.restype, function.argtypes = result, arguments
    lib.FPDF_InitLibraryWithConfig(ctypes.byref(LibraryConfig(version=2)))
    _keep_heap()
    return lib


HEAP_PAD = 4 << 20  # bytes glibc's heap grows by beyond each request, and keeps when its top is freed


def _keep_heap() -> None:
    """Let the C heap keep :data:`HEAP_PAD` bytes at its top. PDFium builds each page's text in buffers that it
    frees when the page closes; with glibc's defaults (128 KB) the heap shrinks back after every page and grows
    again for the next, each new page of memory a fault: 14,740 minor faults for a 103-page PDF's text, 1,770
    with the pad, the same peak RSS, and PDFium's text loop 20-25% faster in a fresh process (bench/pdf_text.py).
    glibc only (``mallopt``); elsewhere nothing changes."""
    with contextlib.suppress(AttributeError, OSError):
        ctypes.CDLL(None).mallopt(-2, HEAP_PAD)  # M_TOP_PAD


def page_text(c: Any, textpage: int) -> str:
    """All the text of a text page, as pypdfium2's ``get_text_range()`` gives it: characters that PDFium leaves
    out of its text at either end are not asked for (https://crbug.com/pdfium/2079)."""
    count = c.FPDFText_CountChars(textpage)
    if count == -1:
        raise PdfiumError("Failed to get character count.")
    first, last = 0, count - 1
    while first <= last and c.FPDFText_GetTextIndexFromCharIndex(textpage, first) == -1:
        first += 1
    while first <= last and c.FPDFText_GetTextIndexFromCharIndex(textpage, last) == -1:
        last -= 1
    if first > last:
        return ""
    start = c.FPDFText_GetTextIndexFromCharIndex(textpage, first)
    end = c.FPDFText_GetTextIndexFromCharIndex(textpage, last)
    buffer = (ctypes.c_ushort * (end + 2 - start))()
    got = c.FPDFText_GetText(textpage, first, last - first + 1, buffer)
    return memoryview(buffer)[: max(got - 1, 0)].tobytes().decode("utf-16-le", errors="ignore")


def utf16(call: Any, *args: Any) -> str:
    """A PDFium string getter's answer (UTF-16LE, asked twice: its size in bytes, then its text)."""
    size = call(*args, None, 0)
    if size <= 2:
        return ""
    buffer = ctypes.create_string_buffer(size)
    call(*args, buffer, size)
    return buffer.raw[: size - 2].decode("utf-16-le", errors="replace")
