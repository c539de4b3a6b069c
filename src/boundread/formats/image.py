"""Images: size and format from the header alone; ``extract`` reads the text by OCR (Tesseract, when installed)."""

from __future__ import annotations

import struct

from boundread.contract.model import FILE, Details, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.errors import NoText, Refused, Unsupported
from boundread.formats import ocr
from boundread.units import human_bytes

KINDS: tuple[str, ...] = ("image",)

HEADER_BYTES = 256 * 1024  # JPEG puts its size in a SOF segment, after EXIF; this is plenty


def info(src: Source, req: Request) -> Details:
    with src.open() as fh:
        head = fh.read(HEADER_BYTES)
    fmt = src.sniffed.subtype or "image"
    size = _dimensions(fmt, head)
    details = Details(fields={"format": fmt}, est_chars=0, estimated=False)
    if size:
        details.fields.update(width=size[0], height=size[1])
    else:
        details.warnings.append("image size not found in its header: the file may be damaged")
    if fmt == "png" and head[12:16] == b"CgBI":
        details.fields["variant"] = "apple-cgbi"
        details.warnings.append("Apple CgBI PNG (iPhone-optimised): standard decoders cannot display it")
    details.warnings.append("an image has no text layer: `boundread extract` reads it by OCR (Tesseract)")
    details.next.append(("info", FILE))
    return details


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    details = info(src, req)
    w, h = details.fields.get("width"), details.fields.get("height")
    shape = f"a {w}x{h} " if w and h else "an "
    what = f"{src.name} is {shape}{details.fields['format'].upper()} image"
    if req.ocr == "never":
        raise Unsupported(f"{what} with no text to extract", "view it with your image tool, or drop --ocr never")
    why = ocr.missing(req.ocr_lang)
    if why is not None:
        raise NoText(f"{what}: no text layer, and {why}", ocr.INSTALL)
    with src.open() as fh:
        data = fh.read(req.limits.max_member_bytes + 1)
    if len(data) > req.limits.max_member_bytes:
        raise Refused(f"{what} of over {human_bytes(req.limits.max_member_bytes)}",
                      "too large to OCR: crop or shrink it")
    image = ocr.open_image(data, src.name)
    del data
    reader = ocr.Reader(req.ocr_lang)
    try:
        remaining = sink.deadline.remaining
        text = reader.read(image, None if remaining is None else max(remaining - 0.3, 0.001))
    finally:
        reader.close()
    if text is None:
        sink.expire()
        return Outcome(unit="lines", done="no text (the time limit ran out during OCR)")
    if not text.strip():
        raise NoText(f"{what}: OCR found no text in it", "view it with your image tool")
    sink.write(text.strip() + "\n")
    return Outcome(unit="lines", done=f"OCR of {shape}image", totals={"engines": {"tesseract": "1"}})


def _dimensions(fmt: str, head: bytes) -> tuple[int, int] | None:
    try:
        return _READERS[fmt](head) if fmt in _READERS else None
    except (struct.error, IndexError, ValueError):
        return None


def _png(head: bytes) -> tuple[int, int] | None:
    at = head.find(b"IHDR")
    if at < 0:
        return None
    width, height = struct.unpack(">II", head[at + 4: at + 12])
    return width, height


def _gif(head: bytes) -> tuple[int, int]:
    width, height = struct.unpack("<HH", head[6:10])
    return width, height


def _bmp(head: bytes) -> tuple[int, int]:
    width, height = struct.unpack("<ii", head[18:26])
    return width, abs(height)


def _webp(head: bytes) -> tuple[int, int] | None:
    chunk = head[12:16]
    if chunk == b"VP8 ":
        width, height = struct.unpack("<HH", head[26:30])
        return width & 0x3FFF, height & 0x3FFF
    if chunk == b"VP8L":
        bits = int.from_bytes(head[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8X":
        return int.from_bytes(head[24:27], "little") + 1, int.from_bytes(head[27:30], "little") + 1
    return None


def _jpeg(head: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 9 < len(head):
        if head[at] != 0xFF:
            return None
        marker = head[at + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            at += 2
            continue
        length = struct.unpack(">H", head[at + 2: at + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            height, width = struct.unpack(">HH", head[at + 5: at + 9])
            return width, height
        at += 2 + length
    return None


def _tiff(head: bytes) -> tuple[int, int] | None:
    order = "<" if head[:2] == b"II" else ">"
    offset = struct.unpack(order + "I", head[4:8])[0]
    count = struct.unpack(order + "H", head[offset: offset + 2])[0]
    found: dict[int, int] = {}
    for i in range(min(count, 64)):
        tag, kind = struct.unpack(order + "HH", head[offset + 2 + 12 * i: offset + 6 + 12 * i])
        raw = head[offset + 10 + 12 * i: offset + 14 + 12 * i]
        value = struct.unpack(order + ("H" if kind == 3 else "I"), raw[:2] if kind == 3 else raw)[0]
        found[tag] = value
    return (found[256], found[257]) if 256 in found and 257 in found else None


_READERS = {"png": _png, "gif": _gif, "bmp": _bmp, "webp": _webp, "jpeg": _jpeg, "tiff": _tiff}
