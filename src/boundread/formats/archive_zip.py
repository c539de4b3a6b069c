"""Zip archives, and every file that is a zip inside (docx, xlsx, pptx, odt, jar...).

The listing comes from the central directory only. A member is read through ``ZipFile.open``
(which stops at the declared size, so a size lie ends in a CRC error, not a flood) into memory,
capped at ``Limits.max_member_bytes``.
"""

from __future__ import annotations

import contextlib
import shlex
import stat
import zipfile
import zlib
from collections.abc import Iterator

from boundread.core.model import Listing, Request, Source
from boundread.errors import Corrupt, Encrypted, Refused, Unsupported
from boundread.formats.archive_common import (
    Collector,
    iso_from_tuple,
    make_entry,
    no_member,
    not_a_file,
    read_capped,
    too_big,
)

_AES = 99  # WinZip AES: compress_type 99; stdlib zipfile raises NotImplementedError


def _reason(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    return (text[:1].lower() + text[1:])[:120]


@contextlib.contextmanager
def _opened(src: Source) -> Iterator[zipfile.ZipFile]:
    quoted = shlex.quote(src.name)
    with src.open() as fh:
        try:
            zf = zipfile.ZipFile(fh)
        # NotImplementedError: "zip file version 8.4" (a damaged or unknown central directory entry)
        except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
            raise Corrupt(
                f"{src.name} is a damaged zip ({_reason(exc)})",
                f"repair a copy with `zip -FF {quoted} --out fixed.zip`, or run `boundread info {quoted}`",
            ) from None
        with zf:
            yield zf


def _encrypted(info: zipfile.ZipInfo) -> bool:
    return bool(info.flag_bits & 0x1)


def listing(src: Source, req: Request) -> Listing:
    """Every entry of the central directory is counted; the first ``max_entries`` are kept."""
    limits = req.limits
    collector = Collector("zip", limits)
    compressed = 0
    with _opened(src) as zf:
        for info in zf.infolist():
            unix = info.create_system == 3
            collector.add(make_entry(
                info.filename, info.file_size, info.compress_size, iso_from_tuple(info.date_time), limits,
                encrypted=_encrypted(info), is_dir=info.is_dir(),
                is_symlink=unix and stat.S_ISLNK(info.external_attr >> 16),
            ))
            compressed += info.compress_size
    return collector.finish(total_compressed=compressed)


def read_member(src: Source, name: str, req: Request) -> bytes:
    """One member's bytes, at most ``max_member_bytes`` of them, never written to disk."""
    limits = req.limits
    cap = limits.max_member_bytes
    quoted = shlex.quote(src.name)
    with _opened(src) as zf:
        try:
            info = zf.getinfo(name)
        except KeyError:
            raise no_member(src.name, name) from None
        if info.is_dir():
            raise not_a_file(src.name, name)
        ratio = info.file_size / info.compress_size if info.compress_size else None
        if info.file_size > cap:
            raise too_big(src.name, name, cap, ratio, limits)
        if info.compress_type == _AES:
            raise Unsupported(
                f"{name} is AES-encrypted, which Python's zipfile cannot read",
                f"extract it with `7z x -p {quoted}` and read the file",
            )
        encrypted = _encrypted(info)
        if encrypted and req.password is None:
            raise Encrypted(f"{name} is encrypted", "pass --password")
        pwd = req.password.encode("utf-8") if encrypted and req.password is not None else None
        try:
            with zf.open(info, pwd=pwd) as member:
                return read_capped(member, cap, lambda: too_big(src.name, name, cap, ratio, limits))
        except RuntimeError as exc:  # zipfile's "password required" / "Bad password for file"
            if "password" not in str(exc).lower():
                raise
            raise Encrypted(f"{name} is encrypted and the password is wrong", "check --password") from None
        except NotImplementedError as exc:
            raise Unsupported(
                f"{name} uses a compression method Python cannot read ({_reason(exc)})",
                f"extract it with `7z x {quoted}` and read the file",
            ) from None
        except zipfile.BadZipFile as exc:
            if "zip bomb" in str(exc):
                raise Refused(f"{name}: {_reason(exc)}", "do not extract this archive") from None
            raise _damaged(src, name, exc, encrypted) from None
        except (zlib.error, EOFError, OSError) as exc:
            raise _damaged(src, name, exc, encrypted) from None


def _damaged(src: Source, name: str, exc: BaseException, encrypted: bool) -> Encrypted | Corrupt:
    if encrypted:  # ZipCrypto's one-byte check lets 1 wrong password in 256 through to a CRC error
        return Encrypted(f"{name} is encrypted and the password is wrong", "check --password")
    return Corrupt(f"{name} in {src.name} is damaged ({_reason(exc)})", "pick another member")
