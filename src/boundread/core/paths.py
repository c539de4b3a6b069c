"""pathlib's answers on strings, for the paths every read names and writes: ``str(Path(p))``, its ``name``, its
``parent`` and its ``parents``, and ``/``, without importing pathlib (with urllib.parse and ipaddress, ~5 ms of a
one-line extract's start-up). POSIX rules; on Windows each asks pathlib itself.
"""

from __future__ import annotations

import os

WINDOWS = os.name == "nt"


def pure(path: str | os.PathLike[str]) -> str:
    """``str(Path(path))``: empty and ``.`` parts dropped, one ``/`` between parts (``//`` kept as a root)."""
    text = os.fspath(path)
    if WINDOWS:  # pragma: no cover - drives and backslashes
        from pathlib import Path

        return str(Path(text))
    root = "//" if text.startswith("//") and not text.startswith("///") else "/" if text.startswith("/") else ""
    return root + "/".join(part for part in text.split("/") if part and part != ".") or "."


def name(path: str | os.PathLike[str]) -> str:
    """``Path(path).name``: the last part, ``""`` for a root or ``.``."""
    text = pure(path)
    if WINDOWS:  # pragma: no cover
        from pathlib import Path

        return Path(text).name
    last = text.rpartition("/")[2]
    return "" if last == "." else last


def parent(path: str | os.PathLike[str]) -> str:
    """``str(Path(path).parent)``: ``.`` for a bare name, the root for a root."""
    text = pure(path)
    if WINDOWS:  # pragma: no cover
        from pathlib import Path

        return str(Path(text).parent)
    cut = text.rfind("/")
    if cut < 0:
        return "."
    head = text[:cut]
    return head if head.strip("/") else text[: cut + 1]


def parents(path: str | os.PathLike[str]) -> list[str]:
    """``[str(p) for p in Path(path).parents]``: the nearest first, down to ``.`` or the root."""
    found, here = [], pure(path)
    while (up := parent(here)) != here:
        found.append(up)
        here = up
    return found


def join(folder: str | os.PathLike[str], *names: str) -> str:
    """``str(Path(folder, *names))``."""
    return pure(os.path.join(os.fspath(folder), *names))
