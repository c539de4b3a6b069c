"""The agent cannot lift its own cap: what guard-check refuses inside a session that has a budget, and why.

The model
---------
A budget is set by the user and binds the agent. The agent runs shell commands and writes files as the same
OS user as the user, so nothing local is out of its reach for good; the model is what boundread refuses, what
it notices afterwards, and what it leaves to a restricted database role.

1. Limits are raised, and spend is lowered, only from outside a guarded session. Inside a session that has a
   budget (a limit on it, its project or the global scope - ``budget.limits.json`` says), guard-check refuses
   any tool call that would:

   - run ``boundread budget set``, ``reset``, ``recover`` (unless the ledger file is there to be repaired: a
     damaged ledger is a fault, and recovery keeps its counts and cap marks), ``add`` or ``ingest``, by any
     spelling the shell guard follows: a path, ``python -m boundread``, ``uvx``/``uv run``/``pipx run``, env
     prefixes and wrappers (``env``, ``sudo``, ``timeout``, ``flock FILE``, ``chrt PRIO``, ``taskset MASK``...),
     ``bash -c``/``sh -c``, ``eval``, ``xargs``, ``find -exec``, the commands ``tar`` runs
     (``--checkpoint-action=exec=``, ``-I``), a here-document or piped text into a shell, ``$(...)``, a backtick
     or ``<(...)`` wherever it stands (a whole word, a ``for`` list, an unquoted here-document), a script run by
     its path or sourced (``./r.sh``, ``. r.sh``: read as ``bash r.sh`` is, by its ``#!`` line), ``python -m
     MODULE`` found in the working folder, the recipes ``make`` runs for the targets it is given (and what they
     need), ``boundread budget exec --``, or Python code that names the budget API. A script too big to read
     whole (over 64 KiB of shell, 1 MiB of other code) is refused: what its tail runs cannot be known. Lowering
     a cap is refused too: the guard would have to read the limits and every option to tell a lower from a raise
     (``set --session OTHER``, ``--global``), and the agent needs neither - it can simply stop. ``budget
     status``, ``check``, ``prices`` and ``exec`` stay allowed.
   - write, move, truncate, link over or delete the state folder, anything in it (the ledger, its ``-wal``, the
     sidecar), the seal beside it (``sidecar.seal_for``) or the user config (prices, ``ledger_url``): ``rm``,
     ``mv``, ``cp``/``install``/``rsync``/``ln`` onto it, ``>``/``>>``/``tee``, ``truncate``, ``dd of=``,
     ``sqlite3`` on it or SQL that names it (``ATTACH``, ``writefile()``), ``sed`` in place (``-i`` anywhere in
     its flags: ``-Ei``, ``-ni``) or its ``w`` command, ``uniq``/``xxd``'s output file, a ``tar`` archive
     written over it, ``find ... -delete``/``-exec``, an archive unpacked into it, a destructive command on a
     folder that contains it (``rm -rf ~/.local``; ``find ~ ... -delete`` is told it searches a folder that
     holds them), a Write/Edit tool on such a path, or interpreter code that names one of them. Reading them
     (``cat``, ``ls``, ``sed -n``, ``tar c`` of the folder, ``sqlite3 -readonly`` with SQL given as words,
     ``budget status``) stays allowed.
   - set, export or unset ``BOUNDREAD_STATE_DIR``, ``BOUNDREAD_LEDGER_URL``, ``BOUNDREAD_BUDGET_PRICES``,
     ``XDG_STATE_HOME`` or ``XDG_CONFIG_HOME`` (a nested agent or a ``boundread`` run would count in another
     ledger or price at 0), clear the environment with ``env -i`` while one of those or ``BOUNDREAD_DEPTH`` is
     set, or give ``BOUNDREAD_DEPTH`` a value lower than the session's own (a nested agent shallower than its
     parent).
   - read ``BOUNDREAD_LEDGER_URL``, the PostgreSQL ledger's address and often its password (with it, ``psql``
     can ``DELETE FROM limits``): ``$BOUNDREAD_LEDGER_URL`` or ``${...}`` anywhere, ``printenv``/``declare -p``
     of it, code that names it (``os.environ[...]``, ``getenv``); where the variable is set, a command that
     prints the whole environment (``env``, ``printenv``, ``export -p``, ``set``, ``/proc/*/environ``). Its name
     as a plain word (``grep -rn BOUNDREAD_LEDGER_URL src/``) stays allowed, and so does reading the user
     config's ``ledger_url`` line: a password kept there is readable as any file of the user's (budget/selfurl.py).

   Each refusal is one line naming what the user (not the agent) must do: run the command in their own terminal.
2. Prices are never read from a project file (budget/prices.py): only ``BOUNDREAD_BUDGET_PRICES`` and
   ``[budget.prices]`` in the user config, as ``ledger_url`` already is - a ``pyproject.toml`` the agent can write
   priced its model at 0 and the USD cap never tripped.
3. Tampering that gets past the guard is noticed where it can be (budget/sidecar.py): the limits are sealed in a
   second copy outside the state folder, so deleting the ledger and its sidecar together still denies the
   budgeted calls until the user runs ``budget recover``; and a scope that reached its cap carries a mark, so a
   ledger whose counters were edited, emptied or rebuilt does not hand a capped session a fresh budget - it stays
   capped until the user raises its limit or resets it.

What cannot be prevented for an agent that runs commands as the same user: a script file written with one tool
and run with another that builds the paths at run time (``base64``, string arithmetic), a program the guard does
not model (a test runner that loads a ``conftest.py``, ``npm run``, ``tox``, a ``python -m`` module installed
in site-packages, a program found on ``PATH`` rather than run by its path), code that prints the whole
environment (``print(os.environ)``), editing the ledger's counters and its sidecar and seal together, or
starting a new agent with another HOME or config folder. Each takes deliberate evasion; the caps hold against an
agent that merely tries the obvious. A PostgreSQL ledger adds a real boundary: a hook role with INSERT on
``usage``/``calls`` and no UPDATE/DELETE on ``limits`` cannot raise a cap whatever runs on the machine (counters
that the hook must UPDATE need a SECURITY DEFINER function that only adds, to be safe from the same credentials).

Whether the session has a budget: the sidecar says, read only for a suspect call. On PostgreSQL its stand-in is
a local cache of the limits this machine has met, missing before the first and blind to a limit set elsewhere
since: where it says no and the call would be refused, the server is asked (budget/selfpg.py; a server that
cannot answer is doubt, and the call is refused).

Cost: checked only when a budget file exists; a call whose text mentions nothing the check is about (a cheap
substring test, ``suspect``) pays nothing more. A command that runs a file by its path, ``make`` or ``sed -i``
is judged too (the shell parsed, the script or Makefile read): about 3-6 ms more on such a call.
"""

# os.path on purpose, not pathlib: this runs on the hook path (guard-check), where pathlib costs start-up.
# ruff: noqa: PTH109, PTH111, PTH118
from __future__ import annotations

import os

from boundread.budget.selfwords import (
    DEPTH_ENV,
    FILE_NAMES,
    PROTECTED_ENV,
    USER_ACTION,
    Protected,
    command_of,
    reason,
    suspect,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["DEPTH_ENV", "FILE_NAMES", "PROTECTED_ENV", "USER_ACTION", "Protected", "command_of",
           "reason", "refusal", "suspect"]

_READ_TOOLS = frozenset({"read", "read_file", "read_many_files", "glob", "grep", "ls", "list_directory",
                         "search_file_content", "view", "notebookread", "webfetch", "websearch", "todowrite",
                         "task", "agent"})
_PATH_KEYS = ("file_path", "path", "absolute_path", "notebook_path", "target_file", "filename", "dir_path")


def refusal(payload: dict[str, Any], tool: str, tool_input: Any, cwd: str | None, protected: Protected,
            budgeted: Any, confirm: Any = None) -> str | None:
    """The reason to refuse this call, or None. ``budgeted()``: whether the call's session has a budget (asked
    only for a call that ``suspect`` picks, so the sidecar is read only then). ``confirm()``, where the answer
    of ``budgeted`` may be out of date (a PostgreSQL ledger's local copy of the limits): asked when
    ``budgeted`` says no and the call would be refused."""
    command = command_of(tool_input)
    if command is not None:
        if not suspect(command, protected, cwd or os.getcwd()):
            return None
        known = bool(budgeted())
        if not known and confirm is None:
            return None
        from boundread.budget.selfcmd import judge

        verdict = judge(command, cwd, protected)
        return verdict if verdict is None or known or confirm() else None
    return _file_refusal(tool, tool_input, cwd, protected, budgeted if confirm is None else
                         lambda: bool(budgeted()) or bool(confirm()))


def _file_refusal(tool: str, tool_input: Any, cwd: str | None, protected: Protected, budgeted: Any) -> str | None:
    """A Write, Edit or other non-reading tool whose path (or any text it is given) names a protected place."""
    if not isinstance(tool_input, dict) or tool.lower() in _READ_TOOLS:
        return None
    texts = [v for v in tool_input.values() if isinstance(v, str)]
    if not any(suspect(text, protected) for text in texts):
        return None
    for key in _PATH_KEYS:
        value = tool_input.get(key)
        if isinstance(value, str) and value and _inside(value, cwd, protected) and budgeted():
            return reason(f"{tool} on {value}", "would change the budget's own files")
    for text in texts:  # Codex's apply_patch, a tool unknown here: a protected path anywhere in what it is given
        low = text.lower()
        for root in protected.roots:
            if root.lower() in low and budgeted():
                return reason(f"{tool} naming {root}", "would change the budget's own files")
    return None


def _inside(path: str, cwd: str | None, protected: Protected) -> bool:
    absolute = os.path.normpath(os.path.join(cwd or os.getcwd(), os.path.expanduser(path)))
    for candidate in {absolute, os.path.realpath(absolute)}:
        for root in protected.roots:
            if candidate == root or candidate.startswith(root.rstrip(os.sep) + os.sep):
                return True
    return False
