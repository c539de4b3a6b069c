"""``budget.limits.json``: the limits, kept beside the ledger, so a lost or broken ledger forgets none of them.

The ledger (SQLite) is the store; this small file repeats only which scopes have limits and what they are.
It is rewritten atomically (a temporary file, fsync, rename) after every change of limits, and when a healthy
ledger finds it missing or stale. It answers two questions when the ledger cannot:

- guard-check, on an unusable or missing ledger: does this call's session, project or the global scope have
  a budget? Then deny it with the recovery command; else allow it (a warning on stderr). The hook path asks
  with a byte search (``has_scope``), no json import: each scope is written as ``"<key>": {`` on its own line.
- ``budget recover``: which limits to put back into the new ledger.

A healthy ledger that lacks a scope listed here was emptied or replaced (a 0-byte file, a new file): the
ledger refuses to go on as if nothing had been set (``ledger.SqliteLedger``) until ``budget recover``.
Standard library only; the hook path imports this module (json loads only in ``read`` and ``write``).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SUFFIX = ".limits.json"
SCHEMA = 1
RECOVER = "boundread budget recover"


def path_for(ledger: str) -> str:
    """The sidecar of the ledger file ``ledger``: ``budget.sqlite3`` -> ``budget.limits.json`` beside it."""
    stem = ledger[: -len(".sqlite3")] if ledger.endswith(".sqlite3") else ledger
    return stem + SUFFIX


def has_scope(sidecar: str, keys: tuple[str, ...] | list[str]) -> bool | None:
    """Whether the sidecar lists any of ``keys`` (scope keys); None when there is no sidecar.

    An unreadable sidecar answers True: not knowing which sessions have a budget, each is treated as if it had.
    """
    try:
        with open(sidecar, "rb") as fh:
            data = fh.read(1 << 22)
    except FileNotFoundError:
        return None
    except OSError:
        return True
    if not data.startswith(b"{"):
        return True
    try:
        from _json import encode_basestring_ascii as quote
    except ImportError:  # a Python without the accelerator
        from json.encoder import py_encode_basestring_ascii as quote
    return any(f"\n  {quote(key)}: {{".encode("ascii") in data for key in keys)


def lists_any(sidecar: str) -> bool:
    """Whether the sidecar lists a scope at all (a budget is set somewhere)."""
    try:
        with open(sidecar, "rb") as fh:
            data = fh.read(1 << 22)
    except OSError:
        return False
    return b'\n  "' in data


def read(sidecar: str) -> dict[str, dict[str, Any]] | None:
    """``{scope key: limits dict}``, or None when there is no sidecar. ValueError when it is not ours."""
    import json

    try:
        with open(sidecar, encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 ({exc.reason})") from None
    if not isinstance(data, dict) or data.get("schema") != SCHEMA or not isinstance(data.get("limits"), dict):
        raise ValueError("not a boundread limits file (schema 1)")
    limits: dict[str, dict[str, Any]] = data["limits"]
    if not all(isinstance(k, str) and isinstance(v, dict) for k, v in limits.items()):
        raise ValueError("a scope's limits are not an object")
    return limits


def render(limits: dict[str, dict[str, Any]]) -> str:
    """The file's text: one scope per line (``has_scope`` searches for ``\\n  "<key>": {``)."""
    import json

    lines = [f"  {json.dumps(key)}: {json.dumps(value, sort_keys=True)}" for key, value in sorted(limits.items())]
    body = ",\n".join(lines)
    return f'{{"schema": {SCHEMA}, "limits": {{\n{body}\n}}}}\n'


def write(sidecar: str, limits: dict[str, dict[str, Any]]) -> None:
    """Replace the sidecar atomically (OSError when the folder is not writable)."""
    text = render(limits)
    tmp = f"{sidecar}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, sidecar)
    finally:
        if os.path.exists(tmp):  # noqa: PTH110
            os.unlink(tmp)  # noqa: PTH108
