"""Generated Outlook messages for the .msg tests: MAPI property streams in a compound file written by
formats/_cfb/writer, and the byte patches that damage one (a looping chain, a sector past the end, a lying size)."""

from __future__ import annotations

import struct
from pathlib import Path

from boundread.formats._cfb.writer import Tree, write

UNICODE, BINARY, OBJECT, LONG, SYSTIME = 0x001F, 0x0102, 0x000D, 0x0003, 0x0040


def _s(pid: int, kind: int) -> str:
    return f"__substg1.0_{pid:04X}{kind:04X}"


def fixed(records: dict[int, tuple[int, int]], header: int) -> bytes:
    """A __properties_version1.0 stream: ``header`` bytes, then one 16-byte record per (pid: (type, value))."""
    out = bytes(header)
    for pid, (kind, value) in records.items():
        out += struct.pack("<IIQ", pid << 16 | kind, 6, value)
    return out


def text(value: str) -> bytes:
    return value.encode("utf-16-le")


def lzfu(rtf: bytes) -> bytes:
    """``rtf`` as compressed RTF: a reference into the preset dictionary for its first 6 bytes ("{\\rtf1"),
    then literals, then the end marker (a reference to where the next byte would be written)."""
    assert rtf.startswith(b"{\\rtf1")
    items: list[bytes] = [struct.pack(">H", 0 << 4 | (6 - 2))]
    items += [bytes([byte]) for byte in rtf[6:]]
    items.append(struct.pack(">H", ((207 + len(rtf)) & 0xFFF) << 4))
    out = bytearray()
    for first in range(0, len(items), 8):
        run = items[first:first + 8]
        out.append(sum(1 << bit for bit, item in enumerate(run) if len(item) == 2))
        out += b"".join(run)
    return struct.pack("<III", len(out) + 12, len(rtf), 0x75465A4C) + bytes(4) + bytes(out)


def message(subject: str = "Quarterly SUBJ_MSG", body: str | None = "Hello Bob,\nBODY_PLAIN here.\n",
            html: bytes | None = None, rtf: bytes | None = None,
            attachments: list[tuple[str, bytes | Tree]] | None = None,
            header: int = 32, links: list[tuple[str, str | None, int]] | None = None) -> Tree:
    """A message storage: sender, one To and one Cc recipient, a date, a body, ``attachments`` (bytes: by value;
    a tree: an attached message), then ``links``: attachments by reference (name, the path it names, method)."""
    tree: Tree = {_s(0x0037, UNICODE): text(subject), _s(0x0C1A, UNICODE): text("Ann"),
                  _s(0x0C1F, UNICODE): text("ann@example.org"), _s(0x001A, UNICODE): text("IPM.Note")}
    if body is not None:
        tree[_s(0x1000, UNICODE)] = text(body)
    if html is not None:
        tree[_s(0x1013, BINARY)] = html
    if rtf is not None:
        tree[_s(0x1009, BINARY)] = lzfu(rtf)
    # 2026-12-02 10:00 UTC as FILETIME
    tree["__properties_version1.0"] = fixed({0x0039: (SYSTIME, 134_406_792_000_000_000)}, header)
    for n, (kind, name, address) in enumerate([(1, "Bob", "bob@example.org"), (2, "Cy", "cy@example.org")]):
        tree[f"__recip_version1.0_#{n:08X}"] = {
            _s(0x3001, UNICODE): text(name), _s(0x39FE, UNICODE): text(address),
            "__properties_version1.0": fixed({0x0C15: (LONG, kind)}, 8)}
    for n, (name, data) in enumerate(attachments or []):
        att: Tree = {_s(0x3707, UNICODE): text(name)}
        if isinstance(data, dict):
            att[_s(0x3701, OBJECT)] = data
            att["__properties_version1.0"] = fixed({0x3705: (LONG, 5)}, 8)
        else:
            att[_s(0x3701, BINARY)] = data
            att["__properties_version1.0"] = fixed({0x3705: (LONG, 1)}, 8)
        tree[f"__attach_version1.0_#{n:08X}"] = att
    for n, (name, target, method) in enumerate(links or [], len(attachments or [])):
        att = {_s(0x3707, UNICODE): text(name), "__properties_version1.0": fixed({0x3705: (LONG, method)}, 8)}
        if target is not None:
            att[_s(0x370D, UNICODE)] = text(target)
        tree[f"__attach_version1.0_#{n:08X}"] = att
    return tree


def save(tmp_path: Path, tree: Tree, name: str = "mail.msg") -> Path:
    path = tmp_path / name
    path.write_bytes(write(tree))
    return path


def sample(tmp_path: Path) -> Path:
    """Three attachments: notes.txt, data.csv, and a forwarded message."""
    forwarded = message("Forwarded FWD_SUBJ", body="FWD_BODY inside\n", header=24)
    return save(tmp_path, message(attachments=[("notes.txt", b"NOTES_SENTINEL line\n"),
                                               ("data.csv", b"name,amount\nCSV_SENTINEL,3\n"),
                                               ("Forwarded", forwarded)]))


def entry_offset(data: bytes, name: str) -> int:
    """Where the directory entry named ``name`` starts."""
    at = data.find(name.encode("utf-16-le") + b"\x00\x00")
    assert at >= 0 and at % 128 == 0
    return at


def patch_u32(data: bytes, at: int, value: int) -> bytes:
    return data[:at] + struct.pack("<I", value) + data[at + 4:]
