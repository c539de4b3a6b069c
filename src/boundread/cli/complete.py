"""Shell completion of the values only the file knows: sheet names (``sheets F <TAB>``, ``--sheet <TAB>``) and
archive members (``--member <TAB>``). The bash, zsh and fish scripts in completions/ ask the program itself
(click's protocol), so one callback serves all three. Each reads what ``sheets F`` and ``list-zip F`` read -
the workbook's sheet list, the archive's directory - under a short time limit, and offers nothing when the
file cannot say (missing, damaged, not that kind): a completion never prints an error into the shell.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

import typer

from boundread.errors import BoundreadError
from boundread.limits import Limits

SECONDS = 3.0  # a person waits at the TAB key: less than the commands' own limits
MEMBERS = 5000  # entries read for member names


def _file(ctx: typer.Context) -> Path | None:
    """The command's FILE: parsed, or - when the word before the TAB is an option still waiting for its value
    (``--member <TAB>``), which stops click's parse before FILE is kept - the first existing file among the
    words the shell passed (bash: COMP_WORDS; zsh and fish: _TYPER_COMPLETE_ARGS)."""
    value = ctx.params.get("file")
    if value:
        return Path(value)
    raw = os.environ.get("_TYPER_COMPLETE_ARGS") or os.environ.get("COMP_WORDS") or ""
    try:
        words = shlex.split(raw)
    except ValueError:  # an open quote: the word being typed
        words = raw.split()
    return next((Path(word) for word in words[2:] if not word.startswith("-") and Path(word).is_file()), None)


def sheet_names(ctx: typer.Context, incomplete: str) -> list[str]:
    """The workbook's sheet names that start as typed."""
    from boundread import api

    path = _file(ctx)
    if path is None:
        return []
    try:
        listed = api.sheet_list(path, limits=Limits(timeout=SECONDS))
    except (BoundreadError, OSError):
        return []
    return [sheet["name"] for sheet in listed if sheet["name"].startswith(incomplete)]


def member_names(ctx: typer.Context, incomplete: str) -> list[str]:
    """The archive's file members (not folders) whose names start as typed."""
    from boundread import api

    path = _file(ctx)
    if path is None:
        return []
    try:
        listing = api.list_zip(path, limits=Limits(max_entries=MEMBERS, timeout=SECONDS))
    except (BoundreadError, OSError):
        return []
    return [entry.name for entry in listing.entries if not entry.is_dir and entry.name.startswith(incomplete)]


SESSIONS = 200  # ids offered: a shell lists them all at once


def session_ids(incomplete: str) -> list[str]:
    """The ledger's session ids (those with spend and those with limits) that start as typed; nothing where there
    is no ledger yet - a completion never creates one."""
    from boundread.budget.ledger import ledger_path, ledger_url, open_ledger

    try:
        if ledger_url() is None and not ledger_path().is_file():
            return []
        with open_ledger() as ledger:
            known = ledger.sessions() + [scope.removeprefix("session:") for scope in ledger.all_limits()
                                         if scope.startswith("session:")]
    except (BoundreadError, OSError):
        return []
    return [name for name in dict.fromkeys(known) if name.startswith(incomplete)][:SESSIONS]
