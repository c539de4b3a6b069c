"""Zips written byte by byte for the central-directory tests: any raw name, flags, declared size, Unicode Path
field (0x7075) or comment, which ``zipfile`` will not write."""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass


@dataclass(frozen=True)
class Member:
    name: bytes
    data: bytes = b""
    flags: int = 0  # bit 0: encrypted; bit 11: the name is UTF-8
    unicode: bytes | None = None  # the UTF-8 name of a Unicode Path field, its CRC right
    comment: bytes = b""
    size: int | None = None  # the uncompressed size the directory declares (default: the data's)


def record(member: Member, offset: int) -> tuple[bytes, bytes]:
    """A stored member's local header + data, and its central record."""
    name, data = member.name, member.data
    extra = b""
    if member.unicode is not None:
        body = b"\x01" + struct.pack("<L", zlib.crc32(name)) + member.unicode
        extra = struct.pack("<HH", 0x7075, len(body)) + body
    size = len(data) if member.size is None else member.size
    fields = struct.pack("<HHHHIIIH", member.flags, 0, 0, 0x21, zlib.crc32(data), len(data), size, len(name))
    local = b"PK\x03\x04" + struct.pack("<H", 20) + fields + struct.pack("<H", 0) + name + data
    central = (b"PK\x01\x02" + struct.pack("<BBH", 20, 0, 20) + fields
               + struct.pack("<HHHHII", len(extra), len(member.comment), 0, 0, 0, offset) + name + extra
               + member.comment)
    return local, central


def build(members: list[Member]) -> bytes:
    locals_, centrals, offset = [], [], 0
    for member in members:
        local, central = record(member, offset)
        locals_.append(local)
        centrals.append(central)
        offset += len(local)
    cd = b"".join(centrals)
    return b"".join(locals_) + cd + b"PK\x05\x06" + struct.pack("<4H2LH", 0, 0, len(members), len(members),
                                                                 len(cd), offset, 0)
