"""The bounds every command works within, and the token estimate.

Standard library only, and no dataclasses (records: boundread/record.py).
"""

from __future__ import annotations

import time

from boundread.record import Record, field
from boundread.units import MB

CHARS_PER_TOKEN = 4


def est_tokens(chars: int) -> int:
    """Estimated LLM tokens for ``chars`` characters of text (chars / 4, rounded up)."""
    return -(-max(chars, 0) // CHARS_PER_TOKEN)


class Limits(Record, frozen=True):
    """How much any command may read, produce or spend. Defaults fit one agent Read (~25k tokens)."""

    max_chars: int = 100_000
    max_lines: int | None = None
    max_rows: int = 200
    max_cols: int = 50
    max_entries: int = 500
    max_matches: int = 100
    # an archive member is read into memory up to this; 32 MB (decimal, as --max-member-mb counts) keeps a
    # command under 100 MB peak with the parser's own copy (a 60 MB member measured 118 MB)
    max_member_bytes: int = 32 * MB
    max_ratio: float = 1000.0  # an archive entry expanding more than this is a bomb
    timeout: float | None = 60.0  # seconds of wall time for one command


class Deadline(Record, frozen=True):
    """A wall-clock deadline; ``expired`` is cheap enough to call per chunk of output."""

    seconds: float | None
    start: float = field(default_factory=time.monotonic)

    @property
    def expired(self) -> bool:
        return self.seconds is not None and time.monotonic() - self.start > self.seconds

    @property
    def remaining(self) -> float | None:
        if self.seconds is None:
            return None
        return max(0.0, self.seconds - (time.monotonic() - self.start))
