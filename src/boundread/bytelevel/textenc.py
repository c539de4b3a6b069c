"""Which text encoding a sample is in, or that it is not text. Standard library only, no imports."""

from __future__ import annotations

_BOMS: tuple[tuple[bytes, str], ...] = (
    (b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"),
)
_TEXT_CONTROLS = frozenset(b"\t\n\r\f\v\x1b\x08")
_SHIFTS = frozenset(b"\x0e\x0f")  # SO and SI: text once ESC $ ) has named the set they shift to


def guess_encoding(sample: bytes) -> str:
    """The text encoding of ``sample``, or "" when it does not look like text.

    BOMs first, then UTF-8 (a multi-byte character cut at the end of the sample is fine), then
    Shift-JIS (cp932) when it decodes cleanly into mostly Japanese, then cp1252 / latin-1.
    """
    for bom, name in _BOMS:
        if sample.startswith(bom):
            return name
    if not sample:
        return "utf-8"
    if b"\x00" in sample:
        return _bomless_utf16(sample)
    allowed = _TEXT_CONTROLS | _SHIFTS if b"\x1b$)" in sample else _TEXT_CONTROLS  # ISO-2022-KR shifts in and out
    controls = sum(1 for byte in sample if byte < 32 and byte not in allowed)
    if controls > max(2, len(sample) // 100):
        return ""
    try:
        sample.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as exc:
        if exc.start >= len(sample) - 3 and exc.reason in ("unexpected end of data", "invalid continuation byte"):
            try:
                sample[: exc.start].decode("utf-8")
                return "utf-8"
            except UnicodeDecodeError:
                pass
    if _looks_cp932(sample):
        return "cp932"
    if any(0x80 <= byte <= 0x9F for byte in sample):
        try:
            sample.decode("cp1252")
            return "cp1252"
        except UnicodeDecodeError:
            return "latin-1"
    return "latin-1"


#: Characters a text in UTF-16/32 holds, besides the printable ones: the line and tab controls.
_UNIT_CONTROLS = frozenset("\t\n\r\f\x1b")


def _bomless_utf16(sample: bytes) -> str:
    """UTF-32 or UTF-16 without a BOM, or "" (binary). Each of the four readings that decodes strictly into
    printable characters (no NUL, no other control, no private-use or unassigned-looking surrogates) is a
    candidate (spaces beyond ASCII count as printable: Japanese text is full of U+3000); the one with the most
    ASCII characters wins: the zero bytes that sent us here are the high
    halves of ASCII characters in the right reading, and stray characters U+XX00 in the wrong one."""
    best, best_ascii = "", 0
    for name, unit in (("utf-32-le", 4), ("utf-32-be", 4), ("utf-16-le", 2), ("utf-16-be", 2)):
        cut = len(sample) - len(sample) % unit
        if unit == 2 and cut >= 2:  # a surrogate pair cut at the sample's end
            high = sample[cut - 1] if name == "utf-16-le" else sample[cut - 2]
            cut -= 2 if 0xD8 <= high <= 0xDB else 0
        try:
            text = sample[:cut].decode(name)
        except UnicodeDecodeError:
            continue
        if not text or not all(ch.isprintable() or ch in _UNIT_CONTROLS or (ch > "\x7f" and ch.isspace())
                               for ch in text):
            continue
        ascii_chars = sum(1 for ch in text if ch < "\x80")
        if ascii_chars > best_ascii:
            best, best_ascii = name, ascii_chars
    return best


def _looks_cp932(sample: bytes) -> bool:
    try:
        text = sample[:-1].decode("cp932") if sample[-1] >= 0x80 else sample.decode("cp932")
    except UnicodeDecodeError:
        return False
    wide = sum(1 for ch in text if ord(ch) > 0x7F)
    japanese = sum(1 for ch in text if "\u3000" <= ch <= "\u30ff" or "\u4e00" <= ch <= "\u9fff")
    return wide > 0 and japanese >= 0.6 * wide
