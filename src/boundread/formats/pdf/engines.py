"""The two PDF text engines behind one small interface (doc.py's :class:`PdfDoc`): PDFium (pdfium.py: fast, the
default) and pdfminer.six (miner.py).

``open_pdf`` opens a document with the engine asked for and falls back to the other one when the
first cannot open the file. A document yields :class:`Page` objects for a 1-based page range; a
page that fails carries its error instead of text, so the caller can warn and go on.
"""

from __future__ import annotations

from boundread.contract.model import Source
from boundread.errors import Corrupt
from boundread.formats.pdf.doc import TRUNCATED, OpenFailed, PdfDoc, cut_short
from boundread.formats.pdf.pdfium import PdfiumDoc

TYPE_CHECKING = False  # not typing's: its import is ~4 ms of a start-up
if TYPE_CHECKING:
    from boundread.formats.pdf.miner import MinerDoc


def open_pdf(src: Source, password: str | None, engine: str) -> tuple[PdfDoc, list[str]]:
    """Open with the engine asked for (auto means PDFium); fall back to the other if it cannot."""
    order = ["pdfium", "pdfminer"]
    if engine == "pdfminer":
        order.reverse()
    failed: list[tuple[str, str]] = []
    for name in order:
        try:
            doc: PdfDoc = PdfiumDoc(src, password) if name == "pdfium" else _miner()(src, password)
        except OpenFailed as exc:
            failed.append((name, str(exc)))
            continue
        warnings = [f"{name} could not open the file ({why}): read with {doc.engine}" for name, why in failed]
        return doc, warnings
    reasons = "; ".join(f"{name}: {why}" for name, why in failed).replace(" - ", ": ")  # " - " opens the fix
    if cut_short(src):
        raise Corrupt(f"{src.name} is not a readable PDF: {TRUNCATED} ({reasons})",
                      "get the whole file again (download or copy it anew)")
    raise Corrupt(f"{src.name} is not a readable PDF ({reasons})", "check the file; `boundread info` shows what it is")


def _miner() -> type[MinerDoc]:
    """pdfminer.six's document class, imported when PDFium cannot open a file or is not asked to."""
    from boundread.formats.pdf.miner import MinerDoc

    return MinerDoc
