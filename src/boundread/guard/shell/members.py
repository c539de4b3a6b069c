"""The members of an archive and their sizes, so that one member is judged as itself and not as the archive.

``unzip -p bundle.zip docs/guide.md`` prints one small member of a big archive; ``tar -xOzf logs.tar.gz
small.txt`` too. Printed, a member is as long as its own size, a BYTES bound on the archive's flow that
``decide`` checks against the cap. Unpacked (``unzip -d DIR``, ``tar -xf A -C DIR``), each member becomes a
file the command may read back (``&& cat DIR/data/big.log``): the same bound, written there.

A zip is listed from its central directory; a tar is read as a stream (compressed or not) up to READ_MOST
compressed bytes and MOST members - past that it is not listed, and the archive is judged whole as before.
"""

from __future__ import annotations

from boundread.guard.bounds import BYTES, Bound
from boundread.guard.shell.reads import spare
from boundread.guard.shell.state import UNKNOWN, Env, Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    import io

    from boundread.guard.shell.state import Ctx

#: Compressed bytes a tar listing reads (the members' data is read through to reach the next header).
READ_MOST = 16 * 1024 * 1024
#: Members listed (and, unpacked, written) at most.
MOST = 256


def listing(path: str, tar: bool, ctx: Ctx) -> dict[str, int] | None:
    """``{member name: size}`` of the archive at ``path``; None when it cannot be listed within the budget (a tar
    is read only while the check has budget to spare, reads.spare, and paid for in steps)."""
    import os

    try:
        if tar:
            if not spare(ctx):
                return None
            ctx.step(1 + min(os.path.getsize(path), READ_MOST) // (256 * 1024))
        return _tar(path) if tar else _zip(path)
    except Exception as exc:  # a bad or truncated archive is not listed: it is judged whole, as before
        if isinstance(exc, _unreadable()):
            return None
        raise


def _unreadable() -> tuple[type[BaseException], ...]:
    """What reading a bad archive raises: the zip and tar modules' own errors, and the decompressors'."""
    import sys
    import tarfile
    import zipfile
    import zlib

    found: list[type[BaseException]] = [OSError, ValueError, EOFError, RuntimeError, LookupError, zipfile.BadZipFile,
                                        tarfile.TarError, zlib.error]
    error = getattr(sys.modules.get("lzma"), "LZMAError", None)  # loaded by tarfile for an .xz only
    if isinstance(error, type) and issubclass(error, BaseException):
        found.append(error)
    return tuple(found)


def _zip(path: str) -> dict[str, int] | None:
    import zipfile

    with zipfile.ZipFile(path) as archive:
        infos = archive.infolist()
        if len(infos) > 50 * MOST:
            return None
        return {info.filename: info.file_size for info in infos if not info.is_dir()}


class _Budget:
    """A file object that ends after READ_MOST bytes: a listing never reads a big archive through."""

    def __init__(self, fh: io.BufferedReader) -> None:
        self.fh, self.left = fh, READ_MOST

    def read(self, size: int = -1) -> bytes:
        if self.left <= 0:
            raise ValueError("the listing budget is spent")
        data = self.fh.read(self.left if size < 0 else min(size, self.left))
        self.left -= len(data)
        return data


def _tar(path: str) -> dict[str, int] | None:
    import tarfile

    found: dict[str, int] = {}
    with open(path, "rb") as fh, tarfile.open(fileobj=_Budget(fh), mode="r|*") as archive:  # type: ignore[call-overload]
        for info in archive:
            if len(found) >= MOST * 50:
                return None
            if info.isfile():
                found[_clean(info.name)] = info.size
    return found


def _clean(name: str) -> str:
    while name.startswith("./"):
        name = name[2:]
    return name


def printed(env: Env, ctx: Ctx, archive: str, members: list[str], tar: bool, words: str) -> Bound | None:
    """The bound on printing these members of ``archive`` (their sizes together); None when they cannot be
    told apart from the whole (a pattern, an archive that is not listed)."""
    if not members or UNKNOWN in archive or any(ch in member for member in members for ch in "*?["):
        return None
    found = listing(env.path(archive), tar, ctx)
    if found is None:
        return None
    wanted = {_clean(member).rstrip("/") for member in members}
    size = sum(length for name, length in found.items()
               if name in wanted or any(name.startswith(folder + "/") for folder in wanted))
    return Bound(BYTES, size, words=words)


def unpacked(env: Env, ctx: Ctx, archive: str, folder: str, tar: bool | None, program: str,
             named: list[str] | None = None) -> None:
    """Each member of ``archive`` (``named``: those only) unpacked in ``folder``: a file that holds that member
    (at most MOST). ``tar`` None: whichever of zip and tar the archive is (``7z x``)."""
    import os

    if UNKNOWN in archive or UNKNOWN in folder:
        return
    source = env.path(archive)
    if tar is None:
        import zipfile

        try:
            tar = not zipfile.is_zipfile(source)
        except OSError:
            return
    found = listing(source, tar, ctx)
    if found is None:
        return
    where = env.path(folder)
    wanted = {_clean(member).rstrip("/") for member in named or ()}
    for name, size in list(found.items())[:MOST]:
        if wanted and name not in wanted and not any(name.startswith(folder + "/") for folder in wanted):
            continue
        words = f"{program} {name}"
        bound = Bound(BYTES, size, words=words if len(words) <= 60 else words[:57] + "...")
        env.writes[os.path.normpath(os.path.join(where, name))] = Stream([(source, (bound,), bound.words)],
                                                                         exact=False)
