"""Where extracted text goes: a predictable file name, written atomically, never over the input.

Default folder: ``$BOUNDREAD_OUT_DIR``, else ``./boundread-out`` (created with a ``.gitignore`` of
``*`` so it never pollutes a repository). Name: ``<input name>.<selection>.txt``, e.g.
``report.pdf.pages-1-5.txt`` — the same request always lands in the same place.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from boundread.errors import NotFound, UsageError

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def out_dir() -> Path:
    return Path(os.environ.get("BOUNDREAD_OUT_DIR") or "boundread-out")


def slug(text: str, limit: int = 60) -> str:
    """A file-name-safe rendering of ``text`` (member names, patterns, sheet names)."""
    cleaned = _UNSAFE.sub("_", text).strip("._") or "x"
    return cleaned[:limit]


def default_output(source_name: str, selection: str, suffix: str = ".txt") -> Path:
    base = slug(Path(source_name).name, 80)
    return out_dir() / f"{base}.{slug(selection, 80)}{suffix}"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(dest: Path, text: str, *, never: Path | None = None) -> Path:
    """Write ``text`` to ``dest`` through a temporary file and a rename; refuse to touch ``never``."""
    if never is not None and dest.exists() and dest.resolve() == never.resolve():
        raise UsageError(f"{dest} is the input file", "choose another -o path")
    folder = dest.parent
    fresh = not folder.exists()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if fresh and folder.resolve() == out_dir().resolve():
            (folder / ".gitignore").write_text("*\n", encoding="utf-8")
        fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the file the usual mode
            os.replace(tmp, dest)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except (PermissionError, IsADirectoryError, NotADirectoryError) as exc:
        raise NotFound(f"cannot write {dest} ({exc.strerror})", "pass -o with a writable path") from None
    return dest
