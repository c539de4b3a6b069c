"""Where extracted text goes: a predictable file name, written atomically, never over the input.

Default folder: ``$BOUNDREAD_OUT_DIR``, else ``./boundread-out`` (created with a ``.gitignore`` of
``*`` so it never pollutes a repository). The name is :mod:`boundread.core.naming`'s, built from the
pieces here (``slug``, ``member_slug``): ``report.pdf.pages-1-5.txt`` - the same request always lands in
the same place.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import unicodedata

from boundread.core import paths
from boundread.errors import NotFound, UsageError
from boundread.record import Record
from boundread.units import human_bytes

TYPE_CHECKING = False  # pathlib loads with the first Path made here, not with every info (start-up)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import TypeVar

    P = TypeVar("P", str, Path)

_DOTS = re.compile(r"\.{2,}")
# bytes of the parts of a default name: 80 + 1 + 140 + a suffix of 4 stays under NAME_MAX (255) with the
# 14 bytes write_atomic's temporary name adds (".<name>.XXXXXXXX.tmp")
BASE_BYTES, SELECTION_BYTES, MEMBER_BYTES = 80, 140, 60


#: folders of the kernel's and the devices' own files: an ``-o`` there would replace or write through them
SYSTEM_FOLDERS = ("/dev", "/proc", "/sys")
#: what ``-o`` names to mean stdout, as pdftotext, curl and tar take it
STDOUT = "-"


def out_dir() -> Path:
    """The output folder: ``$BOUNDREAD_OUT_DIR`` as given, else ``./boundread-out`` - which must be in the
    working folder: a ``boundread-out`` symlink planted in a project (a cloned repository) that points outside
    it would make every default write land there, so it is refused with the way out."""
    from pathlib import Path

    return Path(out_path())


def out_path() -> str:
    """:func:`out_dir` as a string (``str(out_dir())``), without pathlib."""
    chosen = os.environ.get("BOUNDREAD_OUT_DIR")
    if chosen:
        return paths.pure(chosen)
    default = "boundread-out"
    if os.path.islink(default):
        here, there = os.path.realpath("."), os.path.realpath(default)
        if not _within(there, here):
            raise UsageError(f"./boundread-out is a symlink to {os.readlink(default)}, outside this folder",
                             "remove the link (rm boundread-out), pass -o, or set BOUNDREAD_OUT_DIR")
    return default


def _within(path: str, folder: str) -> bool:
    """Whether the absolute ``path`` is ``folder`` or below it."""
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def is_stdout(dest: Path | str | None) -> bool:
    """Whether an ``-o`` value means stdout (``-o -``)."""
    return dest is not None and os.fspath(dest) == STDOUT


def _kept(char: str) -> bool:
    """Letters, marks and digits of any script, and ``._-``; not separators, spaces, controls, format
    characters (bidi overrides, zero-width joiners), punctuation or symbols."""
    return char in "._-" or unicodedata.category(char)[0] in "LMN"


def slug(text: str, limit: int = 60) -> str:
    """A file-name-safe rendering of ``text`` (file and member names, patterns, sheet names) that stays
    readable in any script: NFC, each run of other characters one ``_``, no ``..``, no leading or
    trailing ``.``/``_``, at most ``limit`` bytes of UTF-8 (cut at a character boundary); ``"x"`` if
    nothing is left. ``报告.txt`` -> ``报告.txt``; ``a/b c.txt`` -> ``a_b_c.txt``."""
    nfc = unicodedata.normalize("NFC", text[: limit * 4])  # a character is at most 4 bytes
    out: list[str] = []
    for char in nfc:
        if _kept(char):
            out.append(char)
        elif not out or out[-1] != "\0":
            out.append("\0")  # a run of dropped characters becomes one "_"
    cleaned = _DOTS.sub(".", "".join(out).replace("\0", "_")).strip("._")
    cut = cleaned.encode("utf-8")[:limit].decode("utf-8", "ignore").strip("._")
    return cut or "x"


def member_slug(name: str, limit: int = MEMBER_BYTES) -> str:
    """An archive member's name in an output file name: ``slug``, and distinct for distinct members. When
    the slug is not the name itself (in NFC) - a character replaced, the name cut - 8 hex digits of the
    name's digest follow, so ``a/b.txt`` and ``a_b.txt`` or two long names that share their first
    ``limit`` bytes never write the same file: ``报告.txt`` stays ``报告.txt``; ``a/b.txt`` is
    ``a_b.txt-<digest>``. Names equal in NFC are one name (as the member lookup takes them)."""
    readable, nfc = slug(name, limit), unicodedata.normalize("NFC", name)
    if readable == nfc:
        return readable
    import hashlib

    digest = hashlib.blake2s(nfc.encode("utf-8", "surrogatepass"), digest_size=4).hexdigest()
    return f"{slug(name, limit - 9)}-{digest}"


def _mkstemp(folder: Path | str, prefix: str, suffix: str) -> tuple[int, str]:
    """``tempfile.mkstemp(prefix=, suffix=, dir=folder)`` without importing tempfile (shutil, random, bz2,
    lzma: milliseconds of every extract's start-up): a new file, mode 0600, that no link can stand for;
    8 hex digits, as the 14 bytes above count."""
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        name = os.path.join(folder, f"{prefix}{os.urandom(4).hex()}{suffix}")
        try:
            return os.open(name, flags, 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary name", str(folder))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class Replacing(Record, frozen=True):
    """What an ``-o`` path holds before the write: a regular file, or a symlink (replaced, never written through)."""

    path: str
    what: str  # "file" | "symlink"
    bytes: int | None = None  # the file's size
    target: str | None = None  # the symlink's target

    def describe(self) -> str:
        if self.what == "symlink":
            return f"replaced the symlink {self.path} (-> {self.target}) with a regular file; its target is untouched"
        return f"replaced {self.path} ({human_bytes(self.bytes)})"

    def as_dict(self) -> dict[str, object]:
        return {"path": self.path, "was": self.what, "bytes": self.bytes, "target": self.target}


def check_dest(dest: Path | str, *, named: bool = True) -> Replacing | None:
    """Refuse an ``-o`` that cannot name a file (empty, a folder, a device, under a file, under /dev, /proc or
    /sys) before any work is done; and, when a person ``named`` it, a symlink that leads out of its folder (a
    name boundread chose in its own folder - a chunk, a default output - replaces such a link, never its target).

    Returns what the write will replace, or None for a new file.
    """
    text = os.fspath(dest)
    if not text or text.endswith(("/", os.sep)) or paths.name(text) in ("", ".", ".."):
        shown = "'' or '.'" if text in ("", ".") else text  # Typer reads an empty -o as '.'
        raise UsageError(f"-o {shown} names no file", "pass a file path, e.g. -o out.txt")
    path = paths.pure(text)  # as pathlib shows it: the messages name the path so
    check_system(path)
    _check_folder(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise NotFound(f"cannot write {path} ({exc.strerror})", "pass -o with a writable path") from None
    if stat.S_ISLNK(st.st_mode):
        target = os.readlink(path)
        if named and not _within(os.path.realpath(path), os.path.realpath(paths.parent(path))):
            raise UsageError(f"-o {path} is a symlink to {target}, outside its folder",
                             "pass another -o path, or remove the link first")
        return Replacing(path, "symlink", target=target)
    if stat.S_ISDIR(st.st_mode):
        raise UsageError(f"-o {path} is a folder", f"pass a file path, e.g. -o {paths.join(path, 'out.txt')}")
    if not stat.S_ISREG(st.st_mode):  # a rename over /dev/null would replace the device itself
        raise UsageError(f"-o {path} is not a regular file (a device, FIFO or socket)",
                         "pass a file path, or use --stdout")
    return Replacing(path, "file", bytes=st.st_size)


def check_system(path: Path | str) -> None:
    """Refuse a path under /dev, /proc or /sys, as written or once its links are followed, by name alone:
    run as root, a rename there replaces the machine's own entries (``-o /dev/stdout`` replaced the symlink
    to /proc/self/fd/1 with a regular file)."""
    path = paths.pure(path)
    named = os.path.normpath(paths.join(os.getcwd(), path))  # as written: /dev/../dev/stdout is /dev/stdout
    for place in (named, paths.join(os.path.realpath(paths.parent(path)), paths.name(path)), os.path.realpath(path)):
        system = next((folder for folder in SYSTEM_FOLDERS if _within(place, folder)), None)
        if system is not None:
            raise UsageError(f"-o {path} is under {system}, which boundread never writes",
                             f"use -o {STDOUT} (or --stdout) for stdout, or a path of your own")


def _check_folder(path: str) -> None:
    """The first component of ``path``'s folder that exists but is not a folder: NotFound naming it."""
    for parent in reversed(paths.parents(path)):
        try:
            st = os.stat(parent)
        except FileNotFoundError:
            return  # created by the write
        except OSError as exc:
            if exc.errno == errno.ENOTDIR:
                break
            raise NotFound(f"cannot write {path} ({exc.strerror})", "pass -o with a writable path") from None
        if not stat.S_ISDIR(st.st_mode):
            raise NotFound(f"cannot write {path}: {parent} is a file, not a folder",
                           "pass -o with a path in a folder")


def write_atomic(dest: P, text: str, *, never: Path | str | None = None, out_folder: bool = False,
                 named: bool = False) -> P:
    """Write ``text`` to ``dest`` (a Path, or a string: what is given is returned) through a temporary file and a
    rename; refuse to touch ``never``.

    The rename replaces what ``dest`` names: a symlink there is replaced, its target never written.
    A folder it creates gets the output folder's ``.gitignore`` when it is ``out_dir()`` or the caller
    says it is an output folder (``out_folder``: the guard's, found from the payload's cwd). ``named``: the
    path is the person's ``-o`` (see :func:`check_dest`).
    """
    check_dest(dest, named=named)
    path = paths.pure(dest)
    if never is not None and _same_place(path, paths.pure(never)):
        raise UsageError(f"{path} is the input file", "choose another -o path")
    folder = paths.parent(path)
    fresh = not os.path.exists(folder)
    try:
        os.makedirs(folder, exist_ok=True)
        if fresh and (out_folder or os.path.realpath(folder) == os.path.realpath(out_path())):
            with open(paths.join(folder, ".gitignore"), "w", encoding="utf-8") as ignore:
                ignore.write("*\n")
        fd, tmp = _mkstemp(folder, f".{paths.name(path)}.", ".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the file the usual mode
            check_dest(path, named=named)  # again: what dest names may have changed while the text was read
            os.replace(tmp, path)
        except BaseException:
            try:  # noqa: SIM105 - contextlib.suppress: contextlib is start-up time
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise
    except OSError as exc:
        raise NotFound(f"cannot write {path} ({exc.strerror or exc})", "pass -o with a writable path") from None
    return dest


def _same_place(dest: str, never: str) -> bool:
    """Whether writing ``dest`` would replace ``never``: the same directory entry, or the same file."""
    try:
        here = paths.join(os.path.realpath(paths.parent(dest)), paths.name(dest))
        if here == paths.join(os.path.realpath(paths.parent(never)), paths.name(never)):
            return True
        return not os.path.islink(dest) and os.path.exists(dest) and os.path.samefile(dest, never)
    except OSError:
        return False
