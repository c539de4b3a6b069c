"""What either engine's document is (:class:`PdfDoc`), and what both need: the failure to open that lets the
other engine try, text cleaned the same way, the file's own header and end."""

from __future__ import annotations

import re
from collections.abc import Iterator

from boundread.contract.model import Source
from boundread.errors import Encrypted
from boundread.formats.pdf.page import Page

TYPE_CHECKING = False  # typing for mypy only: it costs a read's start-up
if TYPE_CHECKING:
    from typing import Any, Protocol

XFA_FULL = 2  # PDFium's FORMTYPE_XFA_FULL: the form's pages are a shell, its values in the datasets packet
TRUNCATED = "the file ends early (no %%EOF marker at its end: truncated?)"
TAIL = 1 << 16  # bytes at the end of a file searched for its %%EOF marker: complete PDFs often carry trailing
# bytes after it (padding, a signature block, a mail client's or a scanner's junk), rarely more than a few kB
_CONTROLS = dict.fromkeys([*range(9), 11, 12, *range(14, 32), 0xFFFE, 0xFEFF])
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\ufeff]")  # what _CONTROLS drops (\r is gone by then)


if TYPE_CHECKING:
    class PdfDoc(Protocol):
        engine: str
        pages: int
        encrypted: bool
        form: int  # PDFium's form type: 0 none, 1 AcroForm, 2 XFA (its pages a shell), 3 XFA over an AcroForm

        def read(self, first: int, last: int, layout: bool) -> Iterator[Page]: ...
        def meta(self) -> dict[str, Any]: ...
        def close(self) -> None: ...
else:
    class PdfDoc:
        """Either engine's document: a Protocol for mypy, a name at run time (typing is not loaded)."""


class OpenFailed(Exception):
    """An engine could not open the file; the other engine may still read it."""


def locked(src: Source, password: str | None) -> Encrypted:
    if password:
        return Encrypted(f"{src.name} is encrypted and the password is wrong", "pass the right --password")
    return Encrypted(f"{src.name} is encrypted", "pass --password")


def clean(text: str) -> str:
    """Unix newlines, no control characters, a final newline when there is text."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if _CONTROL.search(text) is not None:  # str.translate costs ~20 us a page; the search, a tenth of it
        text = text.translate(_CONTROLS)
    return text if not text or text.endswith("\n") else text + "\n"


def header_version(src: Source) -> str | None:
    with src.open() as stream:
        found = re.search(rb"%PDF-(\d\.\d)", stream.read(1024))
    return found.group(1).decode() if found else None


def cut_short(src: Source) -> bool:
    """The file ends early: no ``%%EOF`` anywhere in its last :data:`TAIL` bytes, as when a download or a copy
    stopped part way. A marker followed by other bytes is a complete file with trailing data, not a cut one."""
    with src.open() as stream:
        stream.seek(max(src.size - TAIL, 0))
        return b"%%EOF" not in stream.read(TAIL)
