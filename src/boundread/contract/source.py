"""Turn a path (or archive member bytes) into a :class:`Source`, refusing what is not a file."""

from __future__ import annotations

import os
import stat

from boundread.bytelevel.sniff import sniff_data, sniff_path
from boundread.contract.model import Source
from boundread.errors import NotFound


def source_for_path(path: str | os.PathLike[str]) -> Source:
    """A Source for a regular file on disk; symlinks are followed. FIFOs and devices are refused. Its path is
    kept as the string given (no pathlib at start-up): ``Source.path`` makes the Path when asked."""
    name = os.fspath(path)
    try:
        st = os.stat(name)
    except FileNotFoundError:
        raise NotFound(f"{name}: no such file", "check the path (ls the folder)") from None
    except PermissionError:
        raise NotFound(f"{name}: permission denied", "check the file's permissions") from None
    except OSError as exc:
        raise NotFound(f"{name}: cannot open ({exc.strerror})", "check the path") from None
    except ValueError:  # an embedded NUL: Path.stat raised it, and is_dir() then answered False
        raise NotFound(f"{name}: cannot open (embedded null byte)", "check the path") from None
    if stat.S_ISDIR(st.st_mode):
        raise NotFound(f"{name} is a directory", "name a file inside it (ls it)")
    if not stat.S_ISREG(st.st_mode):
        raise NotFound(f"{name} is not a regular file (FIFO, socket or device)", "name a regular file")
    try:
        sniffed = sniff_path(name)
    except PermissionError:
        raise NotFound(f"{name}: permission denied", "check the file's permissions") from None
    except OSError as exc:
        raise NotFound(f"{name}: cannot read ({exc.strerror})", "check the file") from None
    return Source(name=name, sniffed=sniffed, size=st.st_size, path=name)  # type: ignore[arg-type] # see model._path


def source_for_bytes(name: str, data: bytes) -> Source:
    """A Source for bytes already in memory (an archive member read through a capped stream)."""
    return Source(name=name, sniffed=sniff_data(data, name), size=len(data), data=data)
