"""The chunk files: written atomically into the chunk folder, with the folder checked once instead of per file.

:func:`boundread.core.output.write_atomic` checks a path a person named (under /dev, /proc or /sys after its
links, a folder on the way that is a file, a link leading out of its folder) and the input file, twice per
write: 0.3 ms of CPU a file, 2.4 s of a 1 GB log's 13,000 chunks. Every chunk file goes into one folder that
chunks made or checked and under a name chunks chose, so those checks are made once here: the folder is a
real folder (not under a system folder, after its links), and the input is not one of its entries. Each
file is then written as ``write_atomic`` writes it: a new temporary file (``O_EXCL``: never through a planted
link) and a rename over the name, which replaces a symlink there, never its target. A folder or a device in a
chunk's place is refused, as ``write_atomic`` refuses it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from boundread.core import output
from boundread.errors import NotFound, UsageError


class ChunkFiles:
    """Writes ``chunk-NNNNN.txt`` files into ``folder`` (which exists); ``never``: the input file."""

    def __init__(self, folder: Path, never: Path | None) -> None:
        output.check_system(folder / "chunk")  # the folder itself, its links followed, is no system folder
        self.folder = folder
        self._real = os.path.realpath(folder)
        try:
            st = os.stat(self._real)
        except OSError as exc:
            raise NotFound(f"cannot write in {folder} ({exc.strerror or exc})",
                           "pass -o with a writable folder") from None
        if not stat.S_ISDIR(st.st_mode):
            raise UsageError(f"-o {folder} is a file", "pass a folder for the chunks (it is created)")
        self._never_name: str | None = None  # the input's name, where it is an entry of this folder
        self._never_file: tuple[int, int] | None = None  # the input's (device, inode): no chunk is a hard link to it
        if never is not None:
            if os.path.realpath(never.parent) == self._real:
                self._never_name = never.name
            try:
                nst = os.stat(never)
                self._never_file = (nst.st_dev, nst.st_ino)
            except OSError:
                pass
        mask = os.umask(0)
        os.umask(mask)
        self._mode = 0o666 & ~mask
        self._pid = os.getpid()

    def write(self, name: str, text: str) -> Path:
        """Write ``text`` to ``folder/name`` through a temporary file and a rename."""
        dest = self.folder / name
        if name == self._never_name:
            raise UsageError(f"{dest} is the input file", "choose another -o path")
        self._check(dest)
        tmp = f"{self._real}{os.sep}.{name}.{self._pid}.tmp"  # str paths: pathlib costs more than the write
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), self._mode)
            try:
                with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                    fh.write(text)
                os.chmod(tmp, self._mode)  # as write_atomic: the usual mode, whatever O_CREAT made of it
                self._check(dest)  # again: what the name holds may have changed while the text was written
                os.replace(tmp, self._real + os.sep + name)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except FileExistsError:
            raise NotFound(f"cannot write {dest} ({tmp} is in the way)", "remove it, or pass another -o") from None
        except OSError as exc:
            raise NotFound(f"cannot write {dest} ({exc.strerror or exc})", "pass -o with a writable path") from None
        return dest

    def _check(self, dest: Path) -> None:
        try:
            st = os.lstat(self._real + os.sep + dest.name)
        except FileNotFoundError:
            return
        except OSError as exc:
            raise NotFound(f"cannot write {dest} ({exc.strerror})", "pass -o with a writable path") from None
        if stat.S_ISLNK(st.st_mode):
            return  # replaced by the rename; its target is never written
        if stat.S_ISDIR(st.st_mode):
            raise UsageError(f"-o {dest} is a folder", f"pass a file path, e.g. -o {dest / 'out.txt'}")
        if not stat.S_ISREG(st.st_mode):
            raise UsageError(f"-o {dest} is not a regular file (a device, FIFO or socket)",
                             "pass a file path, or use --stdout")
        if (st.st_dev, st.st_ino) == self._never_file:
            raise UsageError(f"{dest} is the input file", "choose another -o path")
