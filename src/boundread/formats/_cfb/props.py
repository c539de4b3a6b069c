"""A message storage's MAPI properties (MS-OXMSG), read bounded from its compound file.

A message, an attachment or a recipient is a storage. Its variable-length properties are streams named
``__substg1.0_XXXXYYYY`` (XXXX the property id, YYYY the type: 001F UTF-16LE, 001E 8-bit text, 0102 binary,
000D an object - a storage: an attached message or OLE document); its fixed-size ones are 16-byte records in
``__properties_version1.0`` after a header of 32 bytes (the message), 24 (an attached message) or 8 (an
attachment, a recipient). Attachments and recipients are the storages ``__attach_version1.0_#N`` and
``__recip_version1.0_#N``. Nothing is read until asked for, and then at most ``limit`` bytes.
"""

from __future__ import annotations

import struct
from datetime import datetime, timedelta, timezone

from boundread.formats._cfb.reader import Compound, Node

UNICODE, STRING8, BINARY, OBJECT = 0x001F, 0x001E, 0x0102, 0x000D
LONG, BOOLEAN, SYSTIME = 0x0003, 0x000B, 0x0040
MESSAGE_HEADER, EMBEDDED_HEADER, CHILD_HEADER = 32, 24, 8
#: fixed-size property records read at most (a message has a few hundred)
MAX_FIXED = 65_536
TEXT_LIMIT = 1 << 20  # a header property read at most, in bytes
_CODEPAGE, _INTERNET_CPID = 0x3FFD, 0x3FDE
MV_UNICODE = 0x101F
#: Named properties (MS-OXMSG 2.2.3): this storage of the file's root maps the ids 0x8000-0xFFFE to a property set
#: and a number (LID) or a name, for the message and every message attached to it
_NAMEID = "__nameid_version1.0"
PS_MAPI = "00020328-0000-0000-c000-000000000046"
PS_PUBLIC_STRINGS = "00020329-0000-0000-c000-000000000046"
PSETID_APPOINTMENT = "00062002-0000-0000-c000-000000000046"
_MAX_NAMED = 32_767  # entries at most: one per id from 0x8000 to 0xFFFE


class Props:
    """The properties of one storage: a message, an attachment or a recipient."""

    def __init__(self, cfb: Compound, storage: Node, header: int, codepage: str | None = None) -> None:
        self.cfb, self.storage = cfb, storage
        self.streams: dict[tuple[int, int], Node] = {}
        self.values: dict[tuple[int, int], list[tuple[int, Node]]] = {}  # a multi-valued property's value streams
        self.attachments: list[Node] = []
        self.recipients: list[Node] = []
        self.fixed: dict[int, tuple[int, bytes]] = {}
        fixed: Node | None = None
        for node in cfb.children(storage):
            name = node.name
            if name.startswith("__substg1.0_") and len(name) == 20:
                try:
                    tag = int(name[12:], 16)
                except ValueError:
                    continue
                self.streams[(tag >> 16, tag & 0xFFFF)] = node
            elif name.startswith("__substg1.0_") and len(name) == 29 and name[20] == "-" and not node.is_storage:
                try:
                    tag, index = int(name[12:20], 16), int(name[21:], 16)
                except ValueError:
                    continue
                self.values.setdefault((tag >> 16, tag & 0xFFFF), []).append((index, node))
            elif name == "__properties_version1.0" and not node.is_storage:
                fixed = node
            elif name.startswith("__attach_version1.0_#") and node.is_storage:
                self.attachments.append(node)
            elif name.startswith("__recip_version1.0_#") and node.is_storage:
                self.recipients.append(node)
        self.attachments.sort(key=lambda n: n.name)
        self.recipients.sort(key=lambda n: n.name)
        if fixed is not None:
            raw = cfb.read(fixed, header + 16 * MAX_FIXED)
            for at in range(header, len(raw) - 15, 16):
                tag = int.from_bytes(raw[at:at + 4], "little")
                self.fixed[tag >> 16] = (tag & 0xFFFF, raw[at + 8:at + 16])
        self.codepage = codepage or self._codepage()

    def _codepage(self) -> str:
        number = self.long(_CODEPAGE) or self.long(_INTERNET_CPID) or 1252
        name = "utf-8" if number == 65001 else f"cp{number}"
        try:
            b"".decode(name)
        except LookupError:
            return "cp1252"
        return name

    def has(self, pid: int) -> bool:
        return any((pid, kind) in self.streams for kind in (UNICODE, STRING8, BINARY, OBJECT))

    def size(self, pid: int) -> int | None:
        """The bytes a variable-length property holds (its stream's size)."""
        node = next((self.streams[(pid, k)] for k in (BINARY, UNICODE, STRING8) if (pid, k) in self.streams), None)
        return None if node is None else node.size

    def text(self, pid: int, limit: int = TEXT_LIMIT) -> str | None:
        """A string property (UTF-16 or 8-bit in the message's code page), at most ``limit`` bytes of it."""
        if (node := self.streams.get((pid, UNICODE))) is not None:
            raw = self.cfb.read(node, limit)
            return raw[: len(raw) // 2 * 2].decode("utf-16-le", "replace").rstrip("\x00")
        if (node := self.streams.get((pid, STRING8))) is not None:
            return self.cfb.read(node, limit).decode(self.codepage, "replace").rstrip("\x00")
        return None

    def binary(self, pid: int, limit: int) -> bytes | None:
        node = self.streams.get((pid, BINARY))
        return None if node is None else self.cfb.read(node, limit)

    def object(self, pid: int) -> Node | None:
        """An object property's storage (an attached message or OLE document)."""
        node = self.streams.get((pid, OBJECT))
        return node if node is not None and node.is_storage else None

    def long(self, pid: int) -> int | None:
        kind, value = self.fixed.get(pid, (0, b""))
        return int.from_bytes(value[:4], "little", signed=True) if kind in (LONG, BOOLEAN) else None

    def time(self, pid: int) -> datetime | None:
        kind, value = self.fixed.get(pid, (0, b""))
        ticks = int.from_bytes(value, "little") if kind == SYSTIME else 0
        if not ticks:
            return None
        try:
            return datetime(1601, 1, 1, tzinfo=timezone.utc) + timedelta(microseconds=ticks // 10)
        except OverflowError:
            return None


def named(cfb: Compound) -> dict[tuple[str, int | str], int]:
    """(property set GUID, LID or name) -> the property id (0x8000 + its index) that this file gives it; empty
    when the file keeps no named properties. Each of the three streams is read bounded."""
    storage = next((n for n in cfb.children(cfb.root) if n.name == _NAMEID and n.is_storage), None)
    if storage is None:
        return {}
    streams = {node.name: node for node in cfb.children(storage) if not node.is_storage}

    def read(name: str, limit: int) -> bytes:
        node = streams.get(name)
        return b"" if node is None else cfb.read(node, limit)

    guids = read("__substg1.0_00020102", 16 * _MAX_NAMED)
    entries = read("__substg1.0_00030102", 8 * _MAX_NAMED)
    strings = read("__substg1.0_00040102", 1 << 20)
    found: dict[tuple[str, int | str], int] = {}
    for at in range(0, len(entries) - 7, 8):
        ident, packed = struct.unpack_from("<II", entries, at)
        guid_index = packed >> 1 & 0x7FFF
        guid = PS_MAPI if guid_index == 1 else PS_PUBLIC_STRINGS if guid_index == 2 else _guid(guids, guid_index - 3)
        if guid is None:
            continue
        key: int | str = ident
        if packed & 1:  # a name: its length, then UTF-16LE, at ``ident`` in the string stream
            if ident + 4 > len(strings):
                continue
            length = int.from_bytes(strings[ident:ident + 4], "little")
            key = strings[ident + 4:ident + 4 + min(length, 512)].decode("utf-16-le", "replace")
        found.setdefault((guid, key), 0x8000 + (packed >> 16))
    return found


def _guid(guids: bytes, index: int) -> str | None:
    """The GUID stream's ``index``-th GUID in its usual spelling (no uuid module: it is loaded for this alone)."""
    raw = guids[16 * index:16 * index + 16] if index >= 0 else b""
    if len(raw) != 16:
        return None
    first, second, third = struct.unpack_from("<IHH", raw)
    return f"{first:08x}-{second:04x}-{third:04x}-{raw[8:10].hex()}-{raw[10:].hex()}"


def texts(props: Props, pid: int, most: int = 64, limit: int = 4096) -> list[str]:
    """A multi-valued string property (PT_MV_UNICODE): its values, each kept in a stream of its own
    (``__substg1.0_XXXX101F-0000000N``), at most ``most`` of them and ``limit`` bytes of each."""
    out = []
    for _index, node in sorted(props.values.get((pid, MV_UNICODE), []), key=lambda found: found[0])[:most]:
        raw = props.cfb.read(node, limit)
        out.append(raw[: len(raw) // 2 * 2].decode("utf-16-le", "replace").rstrip("\x00"))
    return [value for value in out if value]
