"""7z archives through py7zr (>= 1.1.3): the listing from the header, a member through a writer
that keeps at most ``max_member_bytes`` (py7zr's own BytesIOFactory limit is soft) and with
``max_extract_size`` so that a solid block cannot make it decompress without end.
"""

from __future__ import annotations

import contextlib
import lzma
import shlex
import struct
from collections.abc import Iterator
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from boundread.contract.model import Listing, Request, Source
from boundread.errors import Corrupt, Encrypted, Refused, Unsupported
from boundread.formats.archives.common import (
    Collector,
    make_entry,
    no_member,
    not_a_file,
    same_text,
    too_big,
)
from boundread.units import human_bytes

if TYPE_CHECKING:
    from py7zr import SevenZipFile

_AES = b"\x06\xf1\x07\x01"
_EPOCH_1601 = datetime(1601, 1, 1, tzinfo=timezone.utc)


def _damage() -> tuple[type[BaseException], ...]:
    from py7zr import exceptions

    # py7zr reports a malformed header with TypeError ("Unknown field") as well as its own errors
    return (exceptions.ArchiveError, lzma.LZMAError, EOFError, OSError, ValueError, IndexError, KeyError,
            TypeError, struct.error)


def _headers_encrypted(src: Source) -> bool:
    """True when the header cannot even be read without a password."""
    import py7zr
    from py7zr import exceptions

    with src.open() as fh:
        try:
            py7zr.SevenZipFile(fh).close()
        except exceptions.PasswordRequired:
            return True
        except _damage():
            return False
    return False


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return text[:120]


@contextlib.contextmanager
def _opened(src: Source, req: Request, cap: int | None = None) -> Iterator[SevenZipFile]:
    import py7zr
    from py7zr import exceptions

    with src.open() as fh:
        try:
            archive = py7zr.SevenZipFile(fh, password=req.password, max_extract_size=cap)
        except exceptions.PasswordRequired:
            raise Encrypted(f"{src.name} is encrypted (even its list of files)", "pass --password") from None
        except exceptions.UnsupportedCompressionMethodError as exc:
            raise Unsupported(f"{src.name} uses a 7z method py7zr cannot read ({exc.message})",
                              "extract it with `7z x` and read the files") from None
        except _damage() as exc:
            if req.password is not None and _headers_encrypted(src):
                raise Encrypted(f"{src.name} could not be opened with this password",
                                "check --password") from None
            raise Corrupt(f"{src.name} is a damaged 7z ({_reason(exc)})",
                          f"test it with `7z t {shlex.quote(src.name)}`") from None
        with archive:
            yield archive


def _is_encrypted(file: Any) -> bool:
    folder = file.folder
    return folder is not None and any(coder.get("method") == _AES for coder in folder.coders)


def _modified(file: Any) -> str | None:
    """The entry's last-write time: a Windows FILETIME (100 ns ticks since 1601)."""
    stamp = file.lastwritetime
    if stamp is None:
        return None
    try:
        return (_EPOCH_1601 + timedelta(microseconds=int(stamp) // 10)).isoformat()
    except (ValueError, OverflowError, TypeError):
        return None


def listing(src: Source, req: Request) -> Listing:
    """Every entry of the header is counted; the first ``max_entries`` are kept."""
    limits = req.limits
    collector = Collector("7z", req)
    with _opened(src, req) as archive:
        streams = archive.header.main_streams
        solid, packed = False, 0
        if streams is not None:
            packed = sum(streams.packinfo.packsizes)
            sub = streams.substreamsinfo
            solid = sub is not None and any(n > 1 for n in sub.num_unpackstreams_folders)
        for file in archive.files:
            collector.add(make_entry(
                file.filename, file.uncompressed, file.compressed, _modified(file), limits,
                encrypted=_is_encrypted(file), is_dir=file.is_directory, is_symlink=file.is_symlink,
                unlocked=req.password is not None,
            ))
    return collector.finish(total_compressed=packed, solid=solid)


def _capped_factory(cap: int) -> Any:
    """A py7zr WriterFactory whose writers keep at most ``cap`` bytes and note any overflow."""
    from py7zr.io import Py7zIO, WriterFactory

    class CappedIO(Py7zIO):
        def __init__(self) -> None:
            self.buf = bytearray()
            self.overflow = False

        def write(self, s: bytes | bytearray) -> int:
            room = cap - len(self.buf)
            if len(s) > room:
                self.overflow = True
                s = s[: max(room, 0)]
            self.buf += s
            return len(s)

        def read(self, size: int | None = None) -> bytes:
            return bytes(self.buf if size is None else self.buf[:size])

        def seek(self, offset: int, whence: int = 0) -> int:
            return 0

        def flush(self) -> None:
            return None

        def size(self) -> int:
            return len(self.buf)

    class CappedFactory(WriterFactory):
        def __init__(self) -> None:
            self.products: list[CappedIO] = []

        def create(self, filename: str) -> Py7zIO:
            product = CappedIO()
            self.products.append(product)
            return product

    return CappedFactory()


def read_member(src: Source, name: str, req: Request) -> bytes:
    """One member's bytes, at most ``max_member_bytes``; nothing touches the disk."""
    from py7zr import exceptions

    limits = req.limits
    cap = limits.max_member_bytes
    quoted = shlex.quote(src.name)
    with _opened(src, req, cap) as archive:
        wanted = name.rstrip("/")
        file = next((f for f in archive.files if f.filename == wanted), None) or next(
            (f for f in archive.files if same_text(f.filename, wanted)), None)
        if file is None:
            raise no_member(src.name, name)
        wanted = file.filename  # the name as stored, which py7zr's extract matches exactly
        if file.is_directory:
            raise not_a_file(src.name, name)
        ratio = file.uncompressed / file.compressed if file.compressed else None
        if file.uncompressed > cap:
            raise too_big(src.name, name, cap, ratio, limits)
        encrypted = _is_encrypted(file)
        if encrypted and req.password is None:
            raise Encrypted(f"{name} is encrypted", "pass --password")
        factory = _capped_factory(cap)
        try:
            archive.extract(targets=[wanted], factory=factory)
        except exceptions.PasswordRequired:
            raise Encrypted(f"{name} is encrypted", "pass --password") from None
        except exceptions.DecompressionBombError:
            raise Refused(
                f"reading {name} means decompressing more than {human_bytes(cap)} of its solid block",
                f"list it with `boundread list-zip {quoted}` and pick a member nearer the start",
            ) from None
        except _damage() as exc:
            if encrypted:
                raise Encrypted(f"{name} is encrypted and the password is wrong",
                                "check --password") from None
            if "path is bad" in str(exc):
                raise Refused(f"{name} has an unsafe path that py7zr will not read",
                              "extract the archive with `7z x` into an empty folder") from None
            raise Corrupt(f"{name} in {src.name} is damaged ({_reason(exc)})",
                          "pick another member") from None
    if not factory.products:
        return b""
    product = factory.products[0]
    if product.overflow:
        raise too_big(src.name, name, cap, ratio, limits)
    return bytes(product.buf)
