"""Which ``boundread`` a hook command should call: the bare name when the PATH finds this installation.

A hook whose command is not found fails with "command not found" (exit 127), which every agent treats
as a non-blocking error: the read goes through. So when ``boundread`` on the PATH is missing, or is
another installation, ``init`` writes the absolute path of this installation's script instead.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
import sysconfig
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

NAME = "boundread"
# our command, however the program is spelled: bare, a path, quoted, `python -m boundread`, boundread.exe
_COMMAND = re.compile(r"""(?:^|[\s/\\'"])boundread(?:\.exe)?['"]?\s+(guard-check|budget\s+ingest)\b""")
# a command that is only the program then ours: what init writes (PowerShell form: `& 'C:\x y\boundread' ...`)
_WRITTEN = re.compile(r"""^\s*(?:&\s*)?(?P<prog>'[^']*'|"[^"]*"|[^\s'"]+)\s+"""
                      r"""(?P<rest>(?:guard-check|budget\s+ingest)\b.*)$""", re.DOTALL)


@dataclass(frozen=True)
class Program:
    """How a hook command starts boundread, and why (``note`` is None when the bare name is right)."""

    command: str  # "boundread", or this installation's script, quoted for the shell when needed
    note: str | None = None

    def line(self, *words: str) -> str:
        return " ".join((self.command, *words))


def script() -> Path | None:
    """This installation's console script: the running one, else the one next to this interpreter."""
    suffix = ".exe" if os.name == "nt" else ""
    running = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    candidates = [running] if running is not None and running.name in (NAME, NAME + suffix) else []
    candidates += [Path(sysconfig.get_path("scripts")) / (NAME + suffix), Path(sys.executable).parent / (NAME + suffix)]
    for candidate in candidates:
        if candidate.is_file():
            return candidate.absolute()
    return None


def _same(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def program(which: Callable[[str], str | None] = shutil.which,
            find: Callable[[], Path | None] = script) -> Program:
    """The program hook commands should name, for the PATH of this shell (the agent inherits it)."""
    ours = find()
    found = which(NAME)
    if ours is None:
        if found is None:
            return Program(NAME, f"`{NAME}` is not on PATH and this installation has no console script: the hook "
                                 f"will fail with 'command not found', which agents treat as allow - install it "
                                 f"(pipx install boundread) and run init again")
        return Program(NAME)
    if found is not None and _same(Path(found), ours):
        return Program(NAME)
    why = (f"`{NAME}` is not on PATH" if found is None
           else f"`{NAME}` on PATH is {found}, another installation")
    return Program(quote(str(ours)),
                   f"the hooks call {ours}: {why}, and a hook whose command is not found fails open "
                   f"(agents treat 'command not found' as a non-blocking error and allow the read)")


def quote(path: str) -> str:
    """``path`` as one shell word (single quotes only when it needs them)."""
    return path if re.fullmatch(r"[\w@%+=:,./\\-]+", path) else shlex.quote(path)


def ours(text: str, what: str | None = None) -> bool:
    """True when ``text`` is a boundread hook command (``what``: "guard-check" or "budget ingest" only)."""
    return any(what is None or " ".join(match.group(1).split()) == what for match in _COMMAND.finditer(text))


def canonical(text: str) -> str:
    """``text`` with the program word in front of our command spelled as the bare name.

    Only a lone program word (a path to boundread, quoted or not) counts: ``cd x && boundread guard-check``
    or ``python -m boundread guard-check`` stay as they are, being someone's own way of running it.
    """
    match = _WRITTEN.match(text)
    if match is None:
        return text
    name = re.split(r"[/\\]", match.group("prog").strip("'\""))[-1]
    return f"{NAME} {match.group('rest')}" if name in (NAME, NAME + ".exe") else text


def argv(command: str) -> list[str] | None:
    """The words that start boundread in ``command`` (before guard-check / budget ingest); None if unsplittable."""
    try:
        words = shlex.split(command, posix=os.name != "nt")
    except ValueError:
        return None
    for index, word in enumerate(words):
        if word in ("guard-check", "budget") and index > 0:
            return [word.strip("'\"") for word in words[:index]] if os.name == "nt" else words[:index]
    return None
