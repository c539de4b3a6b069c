"""A compound file (MS-CFB version 4, 4,096-byte sectors) written from a tree of storages and streams.

Used to hand one storage of a file on as a file of its own: an Outlook message attached to another message
(``--member forward.msg``) is a storage inside it, read again by the same handler once it is a file. A tree is a
dict: a name to bytes (a stream) or to another dict (a storage). Streams under 4,096 bytes go to the mini stream,
as readers expect. Written in memory: the caller bounds what it puts in.
"""

from __future__ import annotations

import struct

from boundread.errors import Refused
from boundread.formats._cfb.reader import (
    ENDOFCHAIN,
    FREESECT,
    MAGIC,
    MINI_SECTOR,
    NOSTREAM,
    ROOT,
    STORAGE,
    STREAM,
    Compound,
    Node,
)

Tree = dict[str, "bytes | Tree"]
SECTOR = 4096
CUTOFF = 4096
_FATSECT = 0xFFFFFFFD
#: storages nested deeper than this are not copied (an attached message is two levels: its attachment, its object)
MAX_DEPTH = 64


def _pad(data: bytes, unit: int) -> bytes:
    return data + b"\x00" * (-len(data) % unit)


def _key(name: str) -> tuple[int, str]:
    return len(name), name.upper()  # the directory's order: shorter names first, then case-blind


class _Dir:
    """The directory entries, numbered breadth first, each storage's children a balanced binary tree."""

    def __init__(self) -> None:
        self.rows: list[list[object]] = []  # name, type, left, right, child, start, size

    def add(self, name: str, kind: int) -> int:
        self.rows.append([name, kind, NOSTREAM, NOSTREAM, NOSTREAM, ENDOFCHAIN, 0])
        return len(self.rows) - 1

    def tree(self, ids: list[int]) -> int:
        """Link ``ids`` (sorted) into a balanced tree; its root."""
        if not ids:
            return NOSTREAM
        mid = len(ids) // 2
        row = self.rows[ids[mid]]
        row[2], row[3] = self.tree(ids[:mid]), self.tree(ids[mid + 1:])
        return ids[mid]

    def pack(self) -> bytes:
        out = bytearray()
        for name, kind, left, right, child, start, size in self.rows:
            raw = str(name).encode("utf-16-le")[:62]
            out += _pad(raw + b"\x00\x00", 64)[:64]
            out += struct.pack("<HBBIII16sIQQIQ", len(raw) + 2, kind, 1, left, right, child, b"", 0, 0, 0, start,
                               size)
        return _pad(bytes(out), SECTOR)


def write(tree: Tree) -> bytes:
    """The compound file holding ``tree`` under its root storage."""
    directory = _Dir()
    root = directory.add("Root Entry", ROOT)
    big: list[tuple[int, bytes]] = []
    mini = bytearray()
    minifat: list[int] = []
    queue: list[tuple[int, Tree]] = [(root, tree)]
    while queue:
        parent, storage = queue.pop(0)
        ids = []
        for name in sorted(storage, key=_key):
            value = storage[name]
            if isinstance(value, dict):
                ids.append(directory.add(name, STORAGE))
                queue.append((ids[-1], value))
                continue
            ids.append(directory.add(name, STREAM))
            row = directory.rows[ids[-1]]
            row[6] = len(value)
            if len(value) >= CUTOFF:
                big.append((ids[-1], value))
            elif value:
                first = len(mini) // MINI_SECTOR
                count = -(-len(value) // MINI_SECTOR)
                minifat.extend([*range(first + 1, first + count), ENDOFCHAIN])
                row[5] = first
                mini += _pad(value, MINI_SECTOR)
        directory.rows[parent][4] = directory.tree(ids)
    # the sectors: directory, mini FAT, mini stream, the big streams, then the FAT
    blobs: list[tuple[int | None, bytes]] = [(None, directory.pack())]
    blobs.append((None, _pad(struct.pack(f"<{len(minifat)}I", *minifat), SECTOR)) if minifat else (None, b""))
    blobs.append((root, _pad(bytes(mini), SECTOR)))
    blobs.extend((sid, _pad(data, SECTOR)) for sid, data in big)
    directory.rows[root][6] = len(mini)
    fat: list[int] = []
    starts: list[int] = []
    for sid, blob in blobs:
        count = len(blob) // SECTOR
        first = len(fat) if count else ENDOFCHAIN
        starts.append(first)
        fat.extend([*range(len(fat) + 1, len(fat) + count), ENDOFCHAIN] if count else [])
        if sid is not None:
            directory.rows[sid][5] = first
    data_sectors = len(fat)
    fat_count = 1
    while data_sectors + fat_count > fat_count * (SECTOR // 4):
        fat_count += 1
    if fat_count > 109:
        raise ValueError("more than 109 FAT sectors: the writer does not write a DIFAT")
    fat.extend([_FATSECT] * fat_count)
    fat.extend([FREESECT] * (fat_count * (SECTOR // 4) - len(fat)))
    blobs[0] = (None, directory.pack())  # the starts are known now
    difat = [data_sectors + i for i in range(fat_count)] + [FREESECT] * (109 - fat_count)
    header = struct.pack("<8s16sHHHHH6sIIIIIIIII", MAGIC, b"", 0x3E, 4, 0xFFFE, 12, 6, b"",
                         len(blobs[0][1]) // SECTOR, fat_count, starts[0], 0, CUTOFF,
                         starts[1] if minifat else ENDOFCHAIN, len(blobs[1][1]) // SECTOR, ENDOFCHAIN, 0)
    header += struct.pack("<109I", *difat)
    body = b"".join(blob for _, blob in blobs)
    return _pad(header, SECTOR) + body + struct.pack(f"<{len(fat)}I", *fat)


def subtree(cfb: Compound, storage: Node, limit: int, embedded: bool = False) -> Tree:
    """The storages and streams under ``storage`` as a tree, at most ``limit`` bytes of streams and
    ``MAX_DEPTH`` storages deep, walked without recursion. ``embedded``: it is an attached Outlook message,
    whose property stream has the 24-byte header of one; as a file of its own it gets the message's 32."""
    tree: Tree = {}
    total = 0
    stack: list[tuple[Node, Tree, int]] = [(storage, tree, 0)]
    while stack:
        node, into, depth = stack.pop()
        if depth >= MAX_DEPTH:
            raise Refused(f"{cfb.name} nests storages more than {MAX_DEPTH} deep (a bomb?)",
                          "read the attachments of the outer messages only")
        for child in cfb.children(node):
            if child.is_storage:
                inner: Tree = {}
                into[child.name] = inner
                stack.append((child, inner, depth + 1))
                continue
            total += child.size
            if total > limit:
                raise Refused(f"{cfb.name}: the attachment holds more than {limit:,} bytes",
                              "raise --max-member-mb if you trust it")
            data = cfb.read(child)
            if embedded and depth == 0 and child.name == "__properties_version1.0":
                data = data[:24] + bytes(8) + data[24:]
            into[child.name] = data
    return tree
