"""guard-check: deny whole-file reads of big or binary files, and teach the bounded command instead.

    >>> from boundread.guard import check_read, check_command
    >>> check_read("report.pdf").decision          # 'deny' for a PDF (by its bytes), with a reason
    >>> check_command("cat report.pdf | head").decision   # 'allow': the output is bounded

Standard library only: this runs before every agent tool call.
"""

from __future__ import annotations

from boundread.guard.command import check_command
from boundread.guard.config import GuardConfig
from boundread.guard.decide import Decision, check_read

__all__ = ["Decision", "GuardConfig", "check_command", "check_read"]
