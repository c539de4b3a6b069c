"""Handler code under the hard time limit (SIGALRM, in the main thread), its damage turned into one clear error."""

from __future__ import annotations

from boundread.errors import BoundreadError, Corrupt, Refused

TYPE_CHECKING = False  # not typing's (start-up)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TypeVar

    from boundread.contract.model import Source
    from boundread.limits import Deadline

    T = TypeVar("T")


def _damage() -> tuple[type[BaseException], ...]:
    """The exceptions that mean "this file is damaged", whichever handler met them: imported when one is
    raised, not at every start-up (zipfile, xml.etree)."""
    import struct
    import zipfile
    import zlib
    from xml.etree.ElementTree import ParseError

    return (zipfile.BadZipFile, zlib.error, EOFError, struct.error, ParseError, UnicodeDecodeError)


class Expired(BaseException):
    """Raised by the alarm; a BaseException so that libraries' ``except Exception`` cannot eat it."""


def guarded(src: Source, deadline: Deadline, work: Callable[[], T]) -> T:
    """Run handler code under the hard time limit, turning damage into one clear error."""
    try:
        return _alarmed(deadline, work)
    except BoundreadError:
        raise
    except RecursionError:
        raise Corrupt(f"{src.name} is nested too deeply to read", "the file is likely malformed") from None
    except MemoryError:
        raise Refused(f"{src.name} needs too much memory", "ask for less (pages, rows, --max-chars)") from None
    except Exception as exc:
        if not isinstance(exc, _damage()):
            raise
        raise Corrupt(f"{src.name} is damaged ({_short(exc)})", "check the file with `boundread info`") from None


def _alarmed(deadline: Deadline, work: Callable[[], T]) -> T:
    """``work()`` with SIGALRM set for the time left (and a 0.25 s grace), which raises Expired in it. Outside the
    main thread, where no signal handler can be set (signal.signal raises ValueError), the work runs unalarmed."""
    remaining = deadline.remaining
    if remaining is None:
        return work()
    import signal

    def expire(signum: int, frame: object) -> None:
        raise Expired

    try:
        previous = signal.signal(signal.SIGALRM, expire)
    except ValueError:  # not the main thread (threading is not imported to ask: start-up)
        return work()
    signal.setitimer(signal.ITIMER_REAL, remaining + 0.25)
    try:
        return work()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _short(exc: BaseException) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:160]
