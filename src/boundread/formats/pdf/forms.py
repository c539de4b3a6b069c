"""A PDF form's data is text: the filled values of its AcroForm fields, page by page, and an XFA form's datasets.

A filled form keeps its values in the fields, not in the page's content stream, so a text layer alone loses them
(pdftotext prints them; PDFium's text page does not). Each page's widgets give ``name: value`` lines after the
page's text, under a ``[form fields]`` line: text fields and choices with their value, a ticked check box or a
chosen radio button as its export value; empty fields are left out. A field drawn on several pages (or a radio
group's buttons) is given once per page. A form filled without fields, by typing onto the page (text boxes:
FreeText annotations), gives the typed text under a ``[text boxes]`` line.

An XFA form (``/NeedsRendering``: the layout and the data live in XML packets, and a reader without XFA shows only
a shell page, "Please wait...") has its filled values in the ``datasets`` packet: they are read as
``path.to.field: value`` lines, at most :data:`MAX_PACKET` bytes of it, through defusedxml.
"""

from __future__ import annotations

import ctypes
from typing import Any

from boundread.formats.pdf import binding

MAX_PACKET = 16 << 20  # bytes of an XFA datasets packet read (its filled values; thousands of fields are ~1 MB)
MAX_VALUE = 2000  # characters of one value shown
FIELDS_HEADER = "[form fields]"
XFA_HEADER = "[XFA form data]"
BOXES_HEADER = "[text boxes]"


def page_fields(formenv: Any, page: Any) -> list[tuple[str, str]]:
    """(name, value) of each filled field on ``page`` (raw PDFium handles), in annotation order, once each."""
    c = binding.pdfium()

    found: dict[str, str] = {}
    for index in range(c.FPDFPage_GetAnnotCount(page)):
        annot = c.FPDFPage_GetAnnot(page, index)
        if not annot:
            continue
        try:
            if c.FPDFAnnot_GetSubtype(annot) != binding.FPDF_ANNOT_WIDGET:
                continue
            name = binding.utf16(c.FPDFAnnot_GetFormFieldName, formenv, annot)
            kind = c.FPDFAnnot_GetFormFieldType(formenv, annot)
            if kind in (binding.FPDF_FORMFIELD_CHECKBOX, binding.FPDF_FORMFIELD_RADIOBUTTON):
                if not c.FPDFAnnot_IsChecked(formenv, annot):
                    continue
                value = binding.utf16(c.FPDFAnnot_GetFormFieldValue, formenv, annot) or "checked"
                value = "checked" if value == "Off" else value
            else:
                value = binding.utf16(c.FPDFAnnot_GetFormFieldValue, formenv, annot)
            if name and value.strip() and name not in found:
                found[name] = value
        finally:
            c.FPDFPage_CloseAnnot(annot)
    return list(found.items())


def fields_text(fields: list[tuple[str, str]]) -> str:
    """The lines a page's filled fields add after its text ("" for none)."""
    if not fields:
        return ""
    lines = [f"{name}: {' '.join(value.split())[:MAX_VALUE]}" for name, value in fields]
    return "\n".join([FIELDS_HEADER, *lines]) + "\n"


def text_boxes(page: Any) -> str:
    """The text typed onto ``page`` (a raw PDFium page) in text boxes - FreeText annotations, what a typewriter or
    "Add text" tool writes where a form has no fields - as lines under :data:`BOXES_HEADER` ("" for none). PDFium's
    text page leaves annotations out; pdftotext prints them from their appearance."""
    c = binding.pdfium()

    found: list[str] = []
    for index in range(c.FPDFPage_GetAnnotCount(page)):
        annot = c.FPDFPage_GetAnnot(page, index)
        if not annot:
            continue
        try:
            if c.FPDFAnnot_GetSubtype(annot) != binding.FPDF_ANNOT_FREETEXT:
                continue
            typed = binding.utf16(c.FPDFAnnot_GetStringValue, annot, b"Contents")
            typed = " ".join(typed.split())[:MAX_VALUE]
            if typed and typed not in found:
                found.append(typed)
        finally:
            c.FPDFPage_CloseAnnot(annot)
    return boxes_text(found)


def boxes_text(found: list[str]) -> str:
    """The lines a page's text boxes add after its text ("" for none)."""
    return "\n".join([BOXES_HEADER, *found]) + "\n" if found else ""


def miner_text_boxes(page: Any) -> str:
    """:func:`text_boxes` of a pdfminer ``PDFPage``: its FreeText annotations' contents."""
    from pdfminer.pdftypes import resolve1
    from pdfminer.psparser import PSLiteral
    from pdfminer.utils import decode_text

    found: list[str] = []
    annots = resolve1(page.annots) if page.annots is not None else None
    for ref in annots if isinstance(annots, list) else []:
        annot = resolve1(ref)
        subtype = annot.get("Subtype") if isinstance(annot, dict) else None
        if not isinstance(subtype, PSLiteral) or subtype.name != "FreeText":
            continue
        contents = resolve1(annot.get("Contents"))
        typed = " ".join(decode_text(contents).split())[:MAX_VALUE] if isinstance(contents, bytes) else ""
        if typed and typed not in found:
            found.append(typed)
    return boxes_text(found)


def xfa_datasets(doc: Any) -> str | None:
    """An XFA form's filled values as ``path: value`` lines under :data:`XFA_HEADER` ("" when the form holds none),
    or None when the document has no datasets packet (or it cannot be read)."""
    c = binding.pdfium()

    for index in range(c.FPDF_GetXFAPacketCount(doc)):
        if _utf16_name(doc, index) != "datasets":
            continue
        size = ctypes.c_ulong(0)
        if not c.FPDF_GetXFAPacketContent(doc, index, None, 0, ctypes.byref(size)):
            return None
        wanted = min(size.value, MAX_PACKET)
        buffer = ctypes.create_string_buffer(max(wanted, 1))
        if not c.FPDF_GetXFAPacketContent(doc, index, buffer, wanted, ctypes.byref(size)):
            return None
        return _datasets_text(buffer.raw[:wanted], cut=size.value > wanted)
    return None


def _utf16_name(doc: Any, index: int) -> str:
    c = binding.pdfium()

    size = c.FPDF_GetXFAPacketName(doc, index, None, 0)
    if size <= 1:
        return ""
    buffer = ctypes.create_string_buffer(size)
    c.FPDF_GetXFAPacketName(doc, index, buffer, size)
    return buffer.raw[: size - 1].decode("utf-8", errors="replace")


def _datasets_text(xml: bytes, cut: bool) -> str | None:
    """The leaves under ``xfa:data`` as dotted paths and values."""
    from xml.etree.ElementTree import ParseError

    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring

    from boundread.formats._xml import local

    try:
        root = fromstring(xml)
    except (ParseError, DefusedXmlException, ValueError):
        return None
    data = next((elem for elem in root.iter() if local(elem.tag) == "data"), root)
    lines: list[str] = []
    todo = [(child, local(child.tag)) for child in reversed(list(data))]
    while todo:
        elem, path = todo.pop()
        children = list(elem)
        if children:
            todo.extend((child, f"{path}.{local(child.tag)}") for child in reversed(children))
        elif elem.text and elem.text.strip():
            lines.append(f"{path}: {' '.join(elem.text.split())[:MAX_VALUE]}")
    if cut:
        lines.append(f"(the datasets packet is over {MAX_PACKET >> 20} MB: its first {MAX_PACKET >> 20} MB were read)")
    return "\n".join([XFA_HEADER, *lines]) + "\n" if lines else ""
