"""Where a replaced tool output goes: the output folder, one file per output, written atomically.

:mod:`boundread.hook.posttool` decides that an output is replaced; this keeps the whole of it for the agent
to read in parts. The bytes come from the fullest copy there is: the client's own file of the output (Claude
Code keeps Bash output over 30,000 characters in one), else the file a payload too big to hold was spilled
into (:mod:`boundread.hook.bigpayload`), else the text in the payload.
Here too: an output's size as the cap counts it (:func:`size_of`, :func:`whole`, :func:`parts`), which each
client's ``post_output`` (boundread/agents/) uses.
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
# ruff: noqa: PTH100, PTH103, PTH108, PTH110, PTH112, PTH113, PTH118
from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator

CHUNK = 1024 * 1024
_SMALL = 256  # characters: under posttool.FLOOR (1,024 bytes) however they encode, so counted without encoding
_NAME_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")


class Output:
    """One tool output as the hook sees it: its text (or the start of it), its full size in UTF-8 bytes, the
    client's own file of it (``persisted``) and the file it was spilled into while the payload was read."""

    __slots__ = ("text", "size", "persisted", "spill")  # noqa: RUF023 - field order = argument order

    def __init__(self, text: str, size: int, persisted: str = "", spill: str = "") -> None:
        self.text, self.size, self.persisted, self.spill = text, size, persisted, spill


def parts(value: object) -> Output | None:
    """A string, or a list of ``{"text": ...}`` parts (Gemini's and MCP's content)."""
    if isinstance(value, str):
        return whole(value)
    if not isinstance(value, list):
        return None
    texts = [text for text in (part.get("text") for part in value if isinstance(part, dict))
             if isinstance(text, str)]
    if len(texts) == 1:
        return whole(texts[0])
    size = sum(size_of(text) for text in texts) + max(len(texts) - 1, 0)
    spilled = [text for text in texts if spill_of(text)]
    if spilled:  # several parts, one too big to hold: that one is what is saved
        return Output(spilled[0], size, spill=spill_of(spilled[0]))
    return Output("\n".join(texts), size)


def whole(text: str) -> Output:
    """One string as a whole output."""
    return Output(text, size_of(text), spill=spill_of(text))


def spill_of(text: str) -> str:
    """The file a string too big to hold was spilled into (a ``bigpayload.Spill``), else ""."""
    path = getattr(text, "path", "")
    return path if isinstance(path, str) else ""


def size_of(text: str) -> int:
    """UTF-8 bytes of ``text`` (of the whole string, for one spilled to a file)."""
    spilled = getattr(text, "size", None)
    if isinstance(spilled, int):
        return spilled
    if len(text) <= _SMALL:
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def out_folder(cwd: str) -> str:
    """``$BOUNDREAD_OUT_DIR`` (relative: to the payload's cwd), else ``<cwd>/boundread-out``."""
    return os.path.abspath(os.path.join(cwd, os.environ.get("BOUNDREAD_OUT_DIR") or "boundread-out"))


def save(output: Output, tool: str, cwd: str, binary: bool) -> tuple[str, int, int]:
    """Write the full output into the output folder, atomically; (its path, bytes, lines).

    The name is ``<tool>-output.<hash>.txt`` (``.bin`` for binary): only safe characters, so the file
    is always inside the folder, and the same output always lands in the same place.
    """
    import hashlib
    import tempfile

    folder = out_folder(cwd)
    if not os.path.isdir(folder):
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, ".gitignore"), "w", encoding="utf-8") as fh:
            fh.write("*\n")
    digest = hashlib.sha256()
    size = newlines = 0
    last = b""
    fd, temp = tempfile.mkstemp(prefix=".boundread-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            for chunk in _chunks(output):
                digest.update(chunk)
                out.write(chunk)
                size += len(chunk)
                newlines += chunk.count(b"\n")
                last = chunk[-1:]
        os.chmod(temp, 0o644)
        name = "".join(ch if ch in _NAME_SAFE else "_" for ch in tool)[:40] or "tool"
        dest = os.path.join(folder, f"{name}-output.{digest.hexdigest()[:12]}.{'bin' if binary else 'txt'}")
        os.replace(temp, dest)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise
    return dest, size, newlines + (1 if last and last != b"\n" else 0)


def _chunks(output: Output) -> Iterator[bytes]:
    """The bytes of the full output: the client's own file of it, or the spilled one, else the text."""
    for path in (output.persisted, output.spill):
        if path and os.path.isfile(path):  # a regular file: never a FIFO or a device
            try:
                handle = open(path, "rb")  # noqa: SIM115 - closed below, after the last chunk
            except OSError:
                continue
            with handle:
                while chunk := handle.read(CHUNK):
                    yield chunk
            return
    data = output.text.encode("utf-8", "replace")
    for start in range(0, len(data), CHUNK):
        yield data[start:start + CHUNK]
