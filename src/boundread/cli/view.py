"""The ``view`` command: a bounded slice for a person to read. On a terminal it goes to the pager (``$PAGER``,
default ``less -R`` with ``LESS=FRX`` as git sets it: one screen is printed and the pager quits) as it is
extracted, the summary and the ``next`` line at its end; off a terminal it is plain stdout, the summary on
stderr, as ``extract --stdout``. The pager starts with the first text, so an error is one line on stderr.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import shlex
import subprocess
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated

import typer

from boundread.cli.boundary import Command, boundary
from boundread.cli.options import (
    ContextOpt,
    EncodingOpt,
    GrepOpt,
    HeadOpt,
    IgnoreCaseOpt,
    LinesOpt,
    MaxCharsOpt,
    MaxMatchesOpt,
    MemberOpt,
    PagesOpt,
    PasswordOpt,
    RowsOpt,
    SheetOpt,
    TailOpt,
    TimeoutOpt,
)
from boundread.errors import ExitCode, UsageError

if TYPE_CHECKING:
    from boundread.contract.stream import Writer


def register(app: typer.Typer) -> None:
    """Add ``view`` to the app."""
    app.command("view", cls=Command,
                epilog="Examples: boundread view report.pdf --pages 1-5\n\n"
                       "boundread view server.log --grep ERROR --context 2\n\n"
                       "boundread view server.log --head 50")(view)


def view(
    file: Annotated[Path, typer.Argument(readable=False, metavar="FILE", help="The file to read.", show_default=False)],
    pages: PagesOpt = None,
    sheet: SheetOpt = None,
    rows: RowsOpt = None,
    lines: LinesOpt = None,
    head: HeadOpt = None,
    tail: TailOpt = None,
    grep: GrepOpt = None,
    ignore_case: IgnoreCaseOpt = False,
    context: ContextOpt = 0,
    max_matches: MaxMatchesOpt = 100,
    member: MemberOpt = None,
    max_chars: MaxCharsOpt = 100_000,
    password: PasswordOpt = None,
    encoding: EncodingOpt = None,
    timeout: TimeoutOpt = 60.0,
) -> None:
    """A bounded slice for a person: in $PAGER on a terminal (less -R), plain stdout otherwise."""

    def work() -> int:
        from boundread import api, render  # the reading modules, once the command runs (not for the help)
        from boundread.contract.stream import CLOSED
        from boundread.limits import Limits

        limits = Limits(max_chars=max_chars, max_matches=max_matches, timeout=timeout)
        pager = Pager.wanted()
        out: Writer = pager if pager is not None else sys.stdout
        try:
            result = api.extract(file, pages=pages, sheets=tuple(sheet or ()), rows=rows, lines=lines, head=head,
                                 tail=tail, grep=grep, ignore_case=ignore_case, context=context, member=member,
                                 password=password, limits=limits, stdout=True, stream=out, encoding=encoding)
            gone = CLOSED in result.truncated_reasons
            result = dataclasses.replace(result, next=tuple(as_view(step) for step in result.next))
            if pager is not None and not gone:
                summary = io.StringIO()
                render.print_extract(result, stream=summary, heading="\n(end of the slice)")
                with contextlib.suppress(OSError):
                    pager.write(summary.getvalue())
            elif pager is None:
                render.print_extract(result, to_stderr=True)
        finally:
            if pager is not None:
                pager.close()
        if "interrupted" in result.truncated_reasons:
            return int(ExitCode.INTERRUPTED)
        return int(ExitCode.TIMEOUT) if result.timed_out else 0

    boundary(False, work)


#: the options of view that a `next` of extract may carry: a step with any other goes on with extract
VIEW_OPTIONS = frozenset(("--pages", "--sheet", "--rows", "--lines", "--head", "--tail", "--grep", "-i",
                          "--ignore-case", "--context", "-C", "--max-matches", "--member", "--max-chars",
                          "--password", "--timeout", "--encoding"))


def as_view(step: str) -> str:
    """A ``next`` step said with ``view`` where view can say it: ``boundread extract F --lines 51-100`` ->
    ``boundread view F --lines 51-100``, ``boundread pages F 6-10`` -> ``boundread view F --pages 6-10``,
    ``boundread sheets F S --rows 201-400`` -> ``boundread view F --sheet S --rows 201-400``; else as it was."""
    try:
        words = shlex.split(step)
    except ValueError:
        return step
    if len(words) < 3 or words[0] != "boundread" or words[1] not in ("extract", "pages", "sheets"):
        return step
    command, file, rest = words[1], words[2], words[3:]
    if command != "extract":
        if not rest or rest[0].startswith("-"):
            return step  # the sheet list, or a step view does not take
        rest = ["--pages" if command == "pages" else "--sheet", rest[0], *rest[1:]]
    if any(word.startswith("-") and word.split("=")[0] not in VIEW_OPTIONS for word in rest):
        return step
    return shlex.join(["boundread", "view", file, *rest])


class Pager:
    """The user's pager, started with the first write (an error before any text stays one line on stderr)."""

    def __init__(self, command: list[str]) -> None:
        self.command = command
        self.process: subprocess.Popen[str] | None = None

    @classmethod
    def wanted(cls) -> Pager | None:
        """A pager when stdout is a terminal and ``$BOUNDREAD_PAGER``/``$PAGER`` (default ``less -R``) is not
        empty or ``cat``; None for plain stdout."""
        if not sys.stdout.isatty():
            return None
        chosen = os.environ.get("BOUNDREAD_PAGER", os.environ.get("PAGER", "less -R"))
        try:
            command = shlex.split(chosen)
        except ValueError:
            raise UsageError(f"cannot read the pager command {chosen!r}",
                             "set PAGER to a command, e.g. less -R") from None
        return None if not command or command == ["cat"] else cls(command)

    def _stdin(self) -> IO[str]:
        if self.process is None:
            env = {**os.environ, "LESS": os.environ.get("LESS", "FRX"), "LV": os.environ.get("LV", "-c")}
            try:
                self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, env=env, text=True,
                                                encoding="utf-8", errors="replace")
            except OSError as exc:
                raise UsageError(f"cannot start the pager {self.command[0]} ({exc.strerror})",
                                 "set PAGER to an installed pager (less -R), or PAGER=cat") from None
        assert self.process.stdin is not None
        return self.process.stdin

    def write(self, text: str) -> int:
        return self._stdin().write(text)

    def flush(self) -> None:
        if self.process is not None:
            self._stdin().flush()

    def isatty(self) -> bool:
        return False

    def close(self) -> None:
        """Let the pager show the end and wait for the person to quit it."""
        if self.process is None:
            return
        with contextlib.suppress(OSError):
            self._stdin().close()
        while True:
            try:
                self.process.wait()
                return
            except KeyboardInterrupt:  # Ctrl-C in less is the pager's, as with git
                continue
