"""What keeping the words of docx run wrappers costs (formats/office/unwrap.py): the byte scan every docx on the
mammoth path pays, the rewrite only a docx with w:fldSimple / w:ruby / w:dir / w:bdo pays, and the whole
`extract` of each, for scale. Not a test: it prints a table.

    .venv/bin/python bench/docx_wrappers.py [--paragraphs N] [--repeat N]
"""

from __future__ import annotations

import argparse
import io
import time
import zipfile
from collections.abc import Callable

from boundread.contract.model import Request
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes
from boundread.formats._ooxml.package import Package
from boundread.formats.office import docx
from boundread.formats.office.unwrap import unwrapped, wrapped
from boundread.limits import Limits

FIELD = '<w:fldSimple w:instr="REF fig1"><w:r><w:t>Cross reference tapir</w:t></w:r></w:fldSimple>'


def _doc(paragraphs: int, wrappers: bool) -> bytes:
    import docx as python_docx
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    doc = python_docx.Document()
    for n in range(paragraphs):
        doc.add_paragraph(f"Paragraph {n} about the quick brown fox, who jumps over the lazy dog again.")
    if wrappers:
        doc.element.body.insert(0, parse_xml(f"<w:p {nsdecls('w')}>{FIELD}</w:p>"))
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()


def _best(call: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--paragraphs", type=int, default=12_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    limits = Limits(max_chars=10**8)
    print(f"{'docx':<16} {'document.xml':>13} {'scan ms':>8} {'rewrite ms':>11} {'extract ms':>11}")
    for label, wrappers in (("plain", False), ("with a field", True)):
        data = _doc(args.paragraphs, wrappers)
        pkg = Package(zipfile.ZipFile(io.BytesIO(data)), "b.docx")
        part = "word/document.xml"
        scan = _best(lambda: wrapped(pkg, part), args.repeat * 10)  # noqa: B023 - called in this iteration
        rewrite = _best(lambda: unwrapped(pkg, part), args.repeat) if wrappers else 0.0  # noqa: B023
        src = source_for_bytes("b.docx", data)
        whole = _best(lambda: docx.extract(src, Request(limits=limits), Sink(limits)), args.repeat)  # noqa: B023
        print(f"{label:<16} {pkg.size(part):>13,} {scan:>8.1f} {rewrite:>11.1f} {whole:>11.0f}")

if __name__ == "__main__":
    main()
