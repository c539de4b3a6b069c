"""libmagic's mime type for a file, loaded by its soname.

python-magic finds the library with ``ctypes.util.find_library('magic')``, which on Linux runs ``ldconfig -p``
(twice: ~15 ms of every command that asks libmagic) and imports logging and its compat module. Here the library
is opened by the name the dynamic loader knows (``libmagic.so.1``, macOS ``libmagic.1.dylib``) with the calls
python-magic makes (mime type flag, the default database, the name/use limit raised to 64); where no soname
opens, python-magic answers, as before.

Its text checks are off (text, encoding, CSV, JSON): detection trusts libmagic only on binary formats
(core/detect.py ``_SPECIFIC``: PDF, 7z, tar, rar, executables, SQLite), which its magic rules find, and keeps
its own sniff for text; the text checks were ~7 ms of a text file's first lookup (~25 ms on a loaded machine),
mostly the database's pages read in. Text is ``application/octet-stream`` here, not ``text/plain``.
"""

from __future__ import annotations

import functools
import os
import sys

TYPE_CHECKING = False  # not typing's, no pathlib: detect() asks libmagic on a text file's start-up (issue 24)
if TYPE_CHECKING:
    from typing import Any, Protocol

    PathName = str | os.PathLike[str]  # a path as a string (the engine's) or a Path

    class Lookup(Protocol):
        def __call__(self, path: PathName) -> str | None: ...

#: the names the dynamic loader resolves without a search (Linux, then the macOS/Homebrew names)
SONAMES = ("libmagic.so.1", "libmagic.1.dylib", "/opt/homebrew/lib/libmagic.1.dylib",
           "/usr/local/lib/libmagic.1.dylib")
MAGIC_MIME_TYPE = 0x10
#: MAGIC_NO_CHECK_TEXT | _ENCODING | _CSV | _JSON: no binary format is found by these
NO_TEXT_CHECKS = 0x020000 | 0x200000 | 0x080000 | 0x400000
MAGIC_PARAM_NAME_MAX = 1  # python-magic raises it to 64: libmagic's default fails on some files (its issue 190)


def mime_type(path: PathName) -> str | None:
    """libmagic's mime type of ``path`` from its binary checks (see the module's doc); None when the file cannot
    be opened or libmagic is missing or fails."""
    try:
        with open(path, "rb"):  # as python-magic: libmagic itself would answer "cannot open" as a type
            pass
    except OSError:
        return None
    return _lookup()(path)


@functools.cache
def _lookup() -> Lookup:
    """The function that asks libmagic: by soname when one opens, else python-magic's, else one that knows none."""
    own = _by_soname()
    return own if own is not None else _python_magic


def _by_soname() -> Lookup | None:
    import ctypes

    lib: Any = None
    for name in SONAMES if sys.platform != "win32" else ():
        try:
            lib = ctypes.CDLL(name)
            break
        except OSError:
            continue
    if lib is None:
        return None
    lib.magic_open.restype, lib.magic_open.argtypes = ctypes.c_void_p, [ctypes.c_int]
    lib.magic_load.restype, lib.magic_load.argtypes = ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p]
    lib.magic_file.restype, lib.magic_file.argtypes = ctypes.c_char_p, [ctypes.c_void_p, ctypes.c_char_p]
    lib.magic_error.restype, lib.magic_error.argtypes = ctypes.c_char_p, [ctypes.c_void_p]
    cookie = lib.magic_open(MAGIC_MIME_TYPE | NO_TEXT_CHECKS)
    if not cookie or lib.magic_load(cookie, None) == -1:
        return None
    if hasattr(lib, "magic_setparam"):
        lib.magic_setparam.restype = ctypes.c_int
        lib.magic_setparam.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_size_t)]
        lib.magic_setparam(cookie, MAGIC_PARAM_NAME_MAX, ctypes.byref(ctypes.c_size_t(64)))  # -1: default kept
    import threading  # here: not on the start-up of a command that never asks libmagic

    lock = threading.Lock()  # one cookie: libmagic's calls on it are not thread-safe

    def lookup(path: PathName) -> str | None:
        with lock:
            answer = lib.magic_file(cookie, os.fsdecode(path).encode("utf-8", "surrogateescape"))
            if answer is None:  # libmagic 5.09 fails some files without a message: python-magic's answer
                return None if lib.magic_error(cookie) else "application/octet-stream"
        return bytes(answer).decode("utf-8", "backslashreplace")

    return lookup


def _python_magic(path: PathName) -> str | None:
    try:
        import magic
    except (ImportError, OSError):
        return None
    try:
        return str(magic.from_file(str(path), mime=True))
    except (OSError, ValueError, magic.MagicException):
        return None
