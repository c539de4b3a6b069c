"""One root exception, subclasses named by what the user can do, and the exit-code table.

Standard library only: the guard-check hook path imports this module.
"""

from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    """The documented exit codes. Truncation is not an error: it exits OK."""

    OK = 0
    USAGE = 2  # also "deny" for standalone guard-check and budget check
    NOT_FOUND = 3
    UNSUPPORTED = 4
    ENCRYPTED = 5
    CORRUPT = 6
    REFUSED = 7
    TIMEOUT = 8
    INTERRUPTED = 130  # Ctrl-C, as shells report a SIGINT (128 + 2); what was extracted is written, marked interrupted


class BoundreadError(Exception):
    """Root of every error boundread reports to a user.

    ``what`` says what went wrong, ``fix`` names the next step; the CLI prints them as
    ``boundread: error: <what> - <fix>`` and exits with ``exit_code``.
    """

    exit_code: ExitCode = ExitCode.CORRUPT
    code: str = "error"

    def __init__(self, what: str, fix: str = "") -> None:
        self.what = what
        self.fix = fix
        super().__init__(f"{what} - {fix}" if fix else what)


class UsageError(BoundreadError):
    exit_code = ExitCode.USAGE
    code = "usage"


class NotFound(BoundreadError):
    """Missing, unreadable, a directory, or not a regular file (FIFO, device)."""

    exit_code = ExitCode.NOT_FOUND
    code = "not_found"


class Unsupported(BoundreadError):
    exit_code = ExitCode.UNSUPPORTED
    code = "unsupported"


class NoText(Unsupported):
    """Nothing to read: the pages or the image have no text layer and OCR cannot run (exit 4)."""

    code = "no_text"


class Encrypted(BoundreadError):
    exit_code = ExitCode.ENCRYPTED
    code = "encrypted"


class Corrupt(BoundreadError):
    exit_code = ExitCode.CORRUPT
    code = "corrupt"


class Refused(BoundreadError):
    """A bomb, or a limit that makes the work unsafe."""

    exit_code = ExitCode.REFUSED
    code = "refused"


class TimedOut(BoundreadError):
    exit_code = ExitCode.TIMEOUT
    code = "timeout"
