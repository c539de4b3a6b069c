"""What database clients print (``sqlite3``, ``litecli``): for now, as an unknown program - stdin passed through.

The place for a model of ``.dump`` and of a ``SELECT`` without ``LIMIT`` on a big table.
"""

from __future__ import annotations

from boundread.guard.shell.state import Stream

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx, Env

#: The database clients this module judges.
PROGRAMS = frozenset({"sqlite3", "litecli"})


def run(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """The stdout of a database client: its stdin as it went in (the conservative reading of an unknown program)."""
    return Stream(stdin.named(name), "")
