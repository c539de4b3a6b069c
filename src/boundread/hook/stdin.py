"""guard-check's stdin: one hook payload, read as it arrives.

The payload is decided as soon as one complete JSON value has arrived, even when the client leaves stdin open; a
writer that trickles or stalls gets STDIN_DEADLINE in all. A payload ``json`` cannot take - over MAX_PAYLOAD, cut
short or broken - goes to the streaming reader (hook/bigpayload.py): a post-tool one is answered with the bounded
replacement, anything else is a PayloadError naming the fix. Standard library only, on the hook path.
"""

from __future__ import annotations

import os
import sys

from boundread.agents import dialect
from boundread.guard import jsonio

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any

# A PreToolUse payload is small; a post-tool one carries the tool's output, twice in Gemini's AfterTool
# (llmContent and returnDisplay): 32 MB lets a 15 MB output be saved whole and replaced. Past the cap the
# client's own cut applies (Gemini shows the model 40 KB; Claude Code persists big Bash output itself).
MAX_PAYLOAD = 32 * 1024 * 1024
STDIN_DEADLINE = 5.0  # seconds for the whole payload, however it trickles in
QUIET = 0.05  # after this pause, a buffer that ends in "}" is tried as the whole payload
_JSON_SPACE = b" \t\r\n"


def read_payload(stdin: IO[str] | None) -> dict[str, Any]:
    if stdin is None:
        got = _read_stdin()
        if isinstance(got, dict):  # a post-tool payload over MAX_PAYLOAD, or cut short: read as it streamed
            return got
        text = got
    else:
        text = stdin.read(MAX_PAYLOAD + 1)
        if len(text) > MAX_PAYLOAD:
            read = stdin.read
            return _big([text.encode("utf-8", "surrogatepass")],
                        lambda: read(1024 * 1024).encode("utf-8", "surrogatepass"), "over")
    text = text[1:] if text.startswith(jsonio.BOM) else text  # Windows tools write one
    if not text.strip():
        raise dialect.PayloadError("empty stdin - pipe one hook payload (JSON) in, or use --path/--command")
    try:
        payload = jsonio.loads(text)
    except ValueError as exc:  # json.JSONDecodeError
        msg, line, pos = getattr(exc, "msg", str(exc)), getattr(exc, "lineno", 1), getattr(exc, "pos", 0)
        if pos >= len(text.rstrip()) or msg.startswith("Unterminated"):
            return _big([text.encode("utf-8", "surrogatepass")], bytes, "early", len(text.encode()))
        return _big([text.encode("utf-8", "surrogatepass")], bytes, f"invalid JSON on stdin ({msg}, line {line})")
    if not isinstance(payload, dict):
        raise dialect.PayloadError(f"the payload is not a JSON object (a {type(payload).__name__}) - send "
                                    "the hook payload object")
    return payload


def _big(chunks: list[bytes], more: Any, why: str, size: int = 0) -> dict[str, Any]:
    """A payload that ``json`` cannot take - over MAX_PAYLOAD, cut short or broken - read by the streaming
    reader (hook/bigpayload.py): a post-tool one is answered with the bounded replacement, never passed
    unread; anything else is refused as before, for ``why``."""
    from boundread.hook import bigpayload

    payload = bigpayload.read(chunks, more)
    if payload is not None:
        return payload
    if why == "over":
        why = (f"stdin is over {MAX_PAYLOAD // (1024 * 1024)} MB, not a hook payload - send one hook payload "
               "(JSON) per call")
    elif why == "early":
        why = f"the JSON payload on stdin ends early (after {size:,} bytes: truncated) - send the whole payload"
    elif why == "late":
        why = (f"stdin gave no complete JSON payload within {STDIN_DEADLINE:.0f} s - the client must write the "
               "whole payload at once")
    else:
        why += " - send one hook payload (a JSON object)"
    raise dialect.PayloadError(why)


def _read_stdin() -> str | dict[str, Any]:
    """stdin as it arrives, up to MAX_PAYLOAD bytes: until EOF, or until one complete JSON value has
    arrived and the writer pauses (a client may leave stdin open), within STDIN_DEADLINE in all. Past
    MAX_PAYLOAD, or at the deadline, a post-tool payload is read on as it streams (:func:`_big`)."""
    stream = sys.stdin
    if stream is None:
        raise dialect.PayloadError("no stdin - pipe the hook payload in, or use --path/--command")
    if stream.isatty():
        raise dialect.PayloadError("stdin is a terminal - pipe the hook payload in, or use --path/--command")
    try:
        fd = stream.fileno()
    except (OSError, ValueError):
        return stream.read(MAX_PAYLOAD + 1)
    import time

    deadline = time.monotonic() + STDIN_DEADLINE
    chunks: list[bytes] = []
    total, tried, last = 0, -1, b""
    while total <= MAX_PAYLOAD:
        left = deadline - time.monotonic()
        if left <= 0:
            return _big(chunks, lambda: _more(fd, deadline), "late")  # a post-tool payload cut short
        probe = last == b"}" and total != tried
        if not _ready(fd, min(left, QUIET) if probe else left):
            if probe:  # the writer paused after a "}": is that the whole payload?
                tried = total
                text = b"".join(chunks).decode("utf-8", "replace")
                if jsonio.complete(text):
                    return text
            continue
        chunk = os.read(fd, 1024 * 1024)
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        last = chunk.rstrip(_JSON_SPACE)[-1:] or last
    if total > MAX_PAYLOAD:
        return _big(chunks, lambda: _more(fd, deadline), "over")
    return b"".join(chunks).decode("utf-8", "replace")


def _more(fd: int, deadline: float) -> bytes:
    """The next chunk of stdin; TimeoutError past the deadline (the streaming reader stops there)."""
    import time

    if not _ready(fd, max(deadline - time.monotonic(), 0.0)):
        raise TimeoutError(f"stdin gave no more within {STDIN_DEADLINE:.0f} s")
    return os.read(fd, 1024 * 1024)


def _ready(fd: int, timeout: float) -> bool:
    try:
        import select

        return bool(select.select([fd], [], [], timeout)[0])
    except (OSError, ValueError):  # Windows pipes, closed descriptors: read and see
        return True
