"""The stream names in an OLE compound file (CFB): old Office files and password-protected OOXML.

Standard library only, reading the header, the FAT sectors it names and the directory chain, each
bounded; the streams themselves are never read.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    import contextlib
    from typing import IO

    Container = str | os.PathLike[str] | IO[bytes]

MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def stream_names(path: Container, max_sectors: int = 4096) -> set[str]:
    """Names in an OLE compound file's directory, following at most ``max_sectors`` sectors."""
    names: set[str] = set()
    try:
        with _open(path) as fh:
            size = fh.seek(0, os.SEEK_END)
            fh.seek(0)
            header = fh.read(512)
            if len(header) < 512 or not header.startswith(MAGIC):
                return names
            shift = int.from_bytes(header[30:32], "little")
            if shift not in (9, 12):
                return names
            sector = 1 << shift
            fat_ids = [int.from_bytes(header[76 + 4 * i: 80 + 4 * i], "little") for i in range(109)]
            fat: list[int] = []
            for fat_id in fat_ids[: int.from_bytes(header[44:48], "little")]:
                if len(fat) // (sector // 4) >= max_sectors or (fat_id + 1) * sector >= size + sector:
                    break
                fh.seek((fat_id + 1) * sector)
                raw = fh.read(sector)
                fat.extend(int.from_bytes(raw[i: i + 4], "little") for i in range(0, len(raw) - 3, 4))
            current = int.from_bytes(header[48:52], "little")
            seen: set[int] = set()
            while current < 0xFFFFFFFA and current not in seen and len(seen) < max_sectors:
                seen.add(current)
                fh.seek((current + 1) * sector)
                block = fh.read(sector)
                for off in range(0, len(block) - 127, 128):
                    length = int.from_bytes(block[off + 64: off + 66], "little")
                    if 2 <= length <= 64:
                        names.add(block[off: off + length - 2].decode("utf-16-le", "replace"))
                current = fat[current] if current < len(fat) else 0xFFFFFFFE
    except OSError:
        return names
    return names


def _open(container: Container) -> contextlib.AbstractContextManager[IO[bytes]]:
    import contextlib

    if isinstance(container, (str, os.PathLike)):
        return open(container, "rb")
    container.seek(0)
    return contextlib.nullcontext(container)
