"""An OLE compound file (MS-CFB) read bounded: the header, the FAT, the mini FAT, the directory, one stream.

Nothing is read whole. The FAT (4 bytes a sector) is the one table held in memory, and it is no longer than the
file needs; the directory is read a sector at a time as entries are asked for; a stream is read up to the bytes
asked for. Damage is one :class:`~boundread.errors.Corrupt` naming it: a chain that loops, a sector past the end
of the file, a size larger than the file, a directory tree that loops; too many entries is
:class:`~boundread.errors.Refused`.
"""

from __future__ import annotations

import struct
import sys
from array import array
from dataclasses import dataclass
from typing import IO

from boundread.errors import Corrupt, Refused

MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ENDOFCHAIN = 0xFFFFFFFE
FREESECT = 0xFFFFFFFF
NOSTREAM = 0xFFFFFFFF
MAXREGSECT = 0xFFFFFFFA
STORAGE, STREAM, ROOT = 1, 2, 5
MINI_SECTOR = 64
#: directory entries visited at most in one read (a message with 10,000 attachments has ~80,000)
MAX_ENTRIES = 400_000
_ENTRY = struct.Struct("<HBxIII")  # name length, type, (colour), left, right, child
_TAIL = struct.Struct("<IQ")  # start sector, size
_FIX = "the file is damaged: ask for a fresh copy, or open it in Outlook and save it again"


@dataclass(frozen=True, slots=True)
class Node:
    """One directory entry: a storage (a folder), a stream (a file) or the root storage."""

    sid: int
    name: str
    type: int
    left: int
    right: int
    child: int
    start: int
    size: int

    @property
    def is_storage(self) -> bool:
        return self.type in (STORAGE, ROOT)


def _u32(data: bytes, at: int) -> int:
    return int.from_bytes(data[at:at + 4], "little")


def _table(raw: bytes) -> array[int]:
    table = array("I", raw[: len(raw) - len(raw) % 4])
    if sys.byteorder == "big":
        table.byteswap()
    return table


class Compound:
    """A compound file open for reading; ``name`` is what messages call it."""

    def __init__(self, fh: IO[bytes], name: str) -> None:
        self.fh, self.name = fh, name
        self.size = fh.seek(0, 2)
        fh.seek(0)
        header = fh.read(512)
        if len(header) < 512 or not header.startswith(MAGIC):
            raise Corrupt(f"{name} is not an OLE compound file (no CFB header)", _FIX)
        shift, mini_shift = int.from_bytes(header[30:32], "little"), int.from_bytes(header[32:34], "little")
        if shift not in (9, 12) or mini_shift != 6:
            raise Corrupt(f"{name}: its CFB header gives sectors of 2^{shift} bytes", _FIX)
        self.version = int.from_bytes(header[26:28], "little")
        self.sector = 1 << shift
        self.sectors = max(0, -(-self.size // self.sector) - 1)  # the header takes the first sector's room
        self.cutoff = _u32(header, 56)
        self.fat = self._read_fat(header)
        self._dir = self._chain(_u32(header, 48), self.fat, None, "the directory")
        if not self._dir:
            raise Corrupt(f"{name}: its CFB directory is empty", _FIX)
        self._cache: dict[int, bytes] = {}
        self.root = self.node(0)
        if self.root.type != ROOT:
            raise Corrupt(f"{name}: the first CFB directory entry is not the root", _FIX)
        self.minifat = _table(self._read_chain(_u32(header, 60), self.fat, None, "the mini FAT"))
        self._mini = self._chain(self.root.start, self.fat, self.root.size, "the mini stream")
        self.visited = 0

    # -- the tables
    def _read_fat(self, header: bytes) -> array[int]:
        count = _u32(header, 44)
        per = self.sector // 4
        if count > self.sectors:
            raise Corrupt(f"{self.name} declares {count:,} FAT sectors, more than the file's {self.sectors:,}",
                          _FIX)
        ids = [_u32(header, 76 + 4 * i) for i in range(min(count, 109))]
        difat, seen = _u32(header, 68), set()
        while len(ids) < count and difat <= MAXREGSECT:
            if difat in seen or difat >= self.sectors:
                raise Corrupt(f"{self.name}: its DIFAT chain {'loops' if difat in seen else 'runs past the end'}",
                              _FIX)
            seen.add(difat)
            block = self._sector(difat)
            ids.extend(_u32(block, 4 * i) for i in range(per - 1))
            difat = _u32(block, self.sector - 4)
        fat: array[int] = array("I")
        for sid in ids[:count]:
            if sid >= self.sectors:
                raise Corrupt(f"{self.name}: a FAT sector ({sid:,}) lies past the end of the file", _FIX)
            fat.extend(_table(self._sector(sid)))
        return fat

    def _sector(self, sid: int) -> bytes:
        self.fh.seek((sid + 1) * self.sector)
        return self.fh.read(self.sector)

    def _chain(self, start: int, table: array[int], size: int | None, what: str, mini: bool = False) -> list[int]:
        """The sector numbers of a chain: as many as ``size`` bytes need, or to its end when it has no size."""
        unit = MINI_SECTOR if mini else self.sector
        bound = len(table) if mini else self.sectors
        wanted = None if size is None else -(-size // unit)
        chain: list[int] = []
        current = start
        while current != ENDOFCHAIN and (wanted is None or len(chain) < wanted):
            if current >= bound or current >= len(table):
                if current == FREESECT and wanted is None and not chain:
                    break  # an absent table (no mini FAT)
                raise Corrupt(f"{self.name}: {what} runs past the end of the file (sector {current:,})", _FIX)
            if len(chain) >= bound:
                raise Corrupt(f"{self.name}: the sector chain of {what} loops", _FIX)
            chain.append(current)
            current = table[current]
        if wanted is not None and len(chain) < wanted:
            raise Corrupt(f"{self.name}: {what} is cut short ({len(chain) * unit:,} of {size:,} bytes)", _FIX)
        return chain

    def _read_chain(self, start: int, table: array[int], size: int | None, what: str) -> bytes:
        data = b"".join(self._sector(sid) for sid in self._chain(start, table, size, what))
        return data if size is None else data[:size]

    # -- the directory
    def node(self, sid: int) -> Node:
        per = self.sector // 128
        index = sid // per
        if index >= len(self._dir):
            raise Corrupt(f"{self.name}: directory entry {sid:,} lies past the directory's end", _FIX)
        block = self._cache.get(index)
        if block is None:
            if len(self._cache) > 256:
                self._cache.clear()
            block = self._cache[index] = self._sector(self._dir[index])
        raw = block[(sid % per) * 128:(sid % per + 1) * 128]
        if len(raw) < 128:
            raise Corrupt(f"{self.name}: directory entry {sid:,} is cut short", _FIX)
        length, kind, left, right, child = _ENTRY.unpack_from(raw, 64)
        start, size = _TAIL.unpack_from(raw, 116)
        if self.version == 3:
            size &= 0xFFFFFFFF  # version 3 files may leave garbage in the high half
        return Node(sid, raw[:max(min(length, 64) - 2, 0)].decode("utf-16-le", "replace"), kind, left, right, child,
                    start, size)

    def children(self, storage: Node) -> list[Node]:
        """A storage's entries in directory order (the red-black tree walked without recursion)."""
        out: list[Node] = []
        seen: set[int] = set()
        stack: list[Node] = []
        current = storage.child
        while stack or current != NOSTREAM:
            while current != NOSTREAM:
                if current in seen:
                    raise Corrupt(f"{self.name}: its directory tree loops (entry {current:,})", _FIX)
                seen.add(current)
                self.visited += 1
                if self.visited > MAX_ENTRIES:
                    raise Refused(f"{self.name} has more than {MAX_ENTRIES:,} directory entries (a bomb?)",
                                  "it is not read; ask its sender for the attachments on their own")
                stack.append(self.node(current))
                current = stack[-1].left
            node = stack.pop()
            if node.type in (STORAGE, STREAM):
                out.append(node)
            current = node.right
        return out

    def total(self, storage: Node, depth: int = 64) -> int:
        """The bytes of the streams under ``storage``, at most ``depth`` storages down (walked without recursion)."""
        total = 0
        stack = [(storage, 0)]
        while stack:
            node, level = stack.pop()
            for child in self.children(node):
                if not child.is_storage:
                    total += child.size
                elif level + 1 < depth:
                    stack.append((child, level + 1))
        return total

    # -- streams
    def read(self, node: Node, limit: int | None = None) -> bytes:
        """A stream's bytes, at most ``limit`` of them (all without one)."""
        size = node.size if limit is None else min(node.size, limit)
        if node.size > self.size and node.size >= self.cutoff:
            raise Corrupt(f"{self.name}: stream {node.name!r} declares {node.size:,} bytes, more than the file's "
                          f"{self.size:,}", _FIX)
        if node.size >= self.cutoff:
            return self._read_chain(node.start, self.fat, size, f"stream {node.name!r}")
        chunks = []
        for mini in self._chain(node.start, self.minifat, size, f"stream {node.name!r}", mini=True):
            where, skip = divmod(mini * MINI_SECTOR, self.sector)
            if where >= len(self._mini):
                raise Corrupt(f"{self.name}: stream {node.name!r} lies past the end of the mini stream", _FIX)
            chunks.append(self._sector(self._mini[where])[skip:skip + MINI_SECTOR])
        return b"".join(chunks)[:size]
