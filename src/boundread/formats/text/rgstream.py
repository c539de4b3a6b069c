"""``--grep`` of a decompressed stream (a .gz, .bz2 or .xz log) by ripgrep reading a pipe.

A thread reads the stream (zlib, bz2 and lzma let go of the GIL while they inflate), turns CRLF and a lone CR
into LF as universal newlines do, drops a UTF-8 BOM, counts the lines and writes the bytes into rg's stdin,
stopping at the decompression cap; the calling thread hands rg's records to the Sink as rgengine does for a
file. Line numbers are rg's and ours alike, since rg sees the newlines already translated.
"""

from __future__ import annotations

import contextlib
import subprocess
import threading
from collections.abc import Callable
from dataclasses import dataclass

from boundread.contract.sink import Sink
from boundread.formats.text import rgengine, rgpattern

CHUNK = 1 << 20  # decompressed bytes read at a time
_BOM = b"\xef\xbb\xbf"


@dataclass
class Streamed:
    """What the pump read: decompressed bytes, whether the cap stopped it, and the read's own error (a damaged
    stream), which the caller reports as it would have from its own loop."""

    produced: int = 0
    capped: bool = False
    error: BaseException | None = None
    lines: int = 0


def grep(first: bytes, more: Callable[[int], bytes], sink: Sink, encoding: str, dec: str,
         cap: int) -> Streamed | None:
    """Grep the stream that starts with ``first`` (``more(n)`` reads on, b"" at its end) into ``sink``, at most
    ``cap`` bytes of it; None (nothing read or fed) when rg cannot take this search."""
    if sink.grep is None or sink.window is not None:
        return None
    rg = rgengine.binary()
    regex = rgpattern.translate(sink.grep, dec) if rg is not None else None
    if rg is None or regex is None:
        return None
    proc = rgengine.spawn([*rgengine.base_argv(rg), "-b", *rgengine.around(sink), "-e", regex, "-"], out=True,
                          stdin=subprocess.PIPE)
    stop = threading.Event()
    watcher = threading.Thread(target=rgengine.watch, args=(sink, (proc,), stop), daemon=True)
    result = Streamed()
    sig = encoding.replace("_", "-").lower() in ("utf-8-sig", "utf8-sig")
    pump = threading.Thread(target=_pump, args=(proc, first, more, cap, sig, result), daemon=True)
    watcher.start()
    pump.start()
    try:
        assert proc.stdout is not None
        fed = rgengine.feed(proc.stdout, sink, dec, False)
        pump.join()
        if sink.deadline.expired and not sink.full:
            sink.expire()
        if sink.full:
            return result
        if proc.wait() == 2 and not fed and result.error is None:  # rg refused the regex: the caller's path
            return None
        if result.lines > sink.line_no:
            sink.skip_lines(result.lines - sink.line_no)
        return result
    finally:
        stop.set()
        rgengine.end(proc)
        pump.join()
        watcher.join()


def _pump(proc: subprocess.Popen[bytes], first: bytes, more: Callable[[int], bytes], cap: int, sig: bool,
          result: Streamed) -> None:
    """Write the stream, newlines translated, into rg's stdin; count its lines; stop at ``cap``."""
    assert proc.stdin is not None
    data, after_cr, ended = first, False, True
    try:
        if sig:
            while data and len(data) < len(_BOM) and _BOM.startswith(data):  # a BOM cut by the read size
                got = more(len(_BOM) - len(data))
                if not got:
                    break
                data += got
            if data.startswith(_BOM):
                data = data[len(_BOM):]
                result.produced += len(_BOM)
                data = data or more(min(CHUNK, cap - result.produced))
        while data:
            result.produced += len(data)
            if after_cr and data.startswith(b"\n"):
                data = data[1:]
            after_cr = data.endswith(b"\r")
            if b"\r" in data:
                data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            if data:
                result.lines += data.count(b"\n")
                ended = data.endswith(b"\n")
                proc.stdin.write(data)
            if result.produced >= cap:
                result.capped = True
                break
            data = more(min(CHUNK, cap - result.produced))
        if not ended:  # a last line without its newline
            result.lines += 1
            proc.stdin.write(b"\n")
    except (BrokenPipeError, ValueError):  # rg was stopped (the sink is full, the deadline): nothing more to say
        pass
    except Exception as exc:  # noqa: BLE001 - the stream's own error, handed to the caller to report
        result.error = exc
        if not ended:
            result.lines += 1
    finally:
        with contextlib.suppress(OSError):
            proc.stdin.close()
