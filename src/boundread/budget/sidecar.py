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

Two more things against an agent that tampers with the state folder (budget/selfcap.py has the whole model):

- The seal: every write goes to a second copy outside the state folder, beside it (``seal_for``:
  ``~/.local/state/.boundread-budget.limits.json``). When this file is gone, every reader here reads the seal:
  deleting the ledger and this file together (``rm -rf ~/.local/state/boundread``) no longer makes "no limits
  anywhere"; the calls of the listed scopes are denied until the user runs ``budget recover``.
- Cap marks (``capped``): when a scope's spend or calls reach its limit, guard-check notes the limits it
  reached and the reason (``mark``). A later call that the ledger allows in a marked scope was allowed only
  because the counters went down - the ledger was edited, emptied or rebuilt - and is denied (``marks``). A
  mark lasts while the scope's limits stay what they were: a write with other limits for it (``budget set`` from
  the user) drops it, and ``budget reset`` clears it (``unmark``). Marks are written on their own lines,
  indented deeper, so that ``has_scope`` never takes one for a scope with limits.

Standard library only; the hook path imports this module (json loads only in ``read``, ``write`` and marks).
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SUFFIX = ".limits.json"
SCHEMA = 1
RECOVER = "boundread budget recover"
_NO_SEAL = ".postgres" + SUFFIX  # the PostgreSQL ledger's cache of limits: the database keeps them
_MARK = "\n    "  # a cap mark's line opens with this; a scope's limits with "\n  " and a quote


def path_for(ledger: str) -> str:
    """The sidecar of the ledger file ``ledger``: ``budget.sqlite3`` -> ``budget.limits.json`` beside it."""
    stem = ledger[: -len(".sqlite3")] if ledger.endswith(".sqlite3") else ledger
    return stem + SUFFIX


def seal_for(sidecar: str) -> str | None:
    """The sealed copy of ``sidecar``: beside its folder, ``<parent>/.<folder>-<name>``; None for a cache."""
    if sidecar.endswith(_NO_SEAL):
        return None
    folder, name = os.path.split(os.path.abspath(sidecar))  # noqa: PTH100
    parent, base = os.path.split(folder)
    return os.path.join(parent, f".{base or 'root'}-{name}")  # noqa: PTH118


def _bytes(sidecar: str) -> bytes | None:
    """The sidecar's bytes, else its seal's; None when neither exists. OSError when one cannot be read."""
    for path in (sidecar, seal_for(sidecar)):
        if path is None:
            break
        try:
            with open(path, "rb") as fh:
                return fh.read(1 << 22)
        except FileNotFoundError:
            continue
    return None


def _quote(key: str) -> str:
    try:
        from _json import encode_basestring_ascii as quote
    except ImportError:  # a Python without the accelerator
        from json.encoder import py_encode_basestring_ascii as quote
    return str(quote(key))


def has_scope(sidecar: str, keys: tuple[str, ...] | list[str]) -> bool | None:
    """Whether the sidecar (or its seal) lists any of ``keys`` (scope keys); None when there is neither.

    An unreadable sidecar answers True: not knowing which sessions have a budget, each is treated as if it had.
    """
    try:
        data = _bytes(sidecar)
    except OSError:
        return True
    if data is None:
        return None
    if not data.startswith(b"{"):
        return True
    return any(f"\n  {_quote(key)}: {{".encode("ascii") in data for key in keys)


def exists(sidecar: str) -> bool:
    """Whether the sidecar or its seal is there (limits were set, whatever became of the ledger since)."""
    seal = seal_for(sidecar)
    return os.path.exists(sidecar) or (seal is not None and os.path.exists(seal))  # noqa: PTH110


def lists_any(sidecar: str) -> bool:
    """Whether the sidecar (or its seal) lists a scope at all (a budget is set somewhere)."""
    try:
        data = _bytes(sidecar)
    except OSError:
        return False
    return data is not None and b'\n  "' in data


def _document(sidecar: str) -> dict[str, Any] | None:
    """The whole file (the sidecar's, else the seal's), or None when neither exists. ValueError: not ours."""
    import json

    data = _bytes(sidecar)
    if data is None:
        return None
    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ValueError(f"not UTF-8 ({exc.reason})") from None
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA or not isinstance(doc.get("limits"), dict):
        raise ValueError("not a boundread limits file (schema 1)")
    limits = doc["limits"]
    if not all(isinstance(k, str) and isinstance(v, dict) for k, v in limits.items()):
        raise ValueError("a scope's limits are not an object")
    capped = doc.get("capped")
    doc["capped"] = {k: v for k, v in capped.items() if isinstance(v, dict)} if isinstance(capped, dict) else {}
    return doc


def read(sidecar: str) -> dict[str, dict[str, Any]] | None:
    """``{scope key: limits dict}``, or None when there is no sidecar nor seal. ValueError when it is not ours.

    A sidecar that is gone while its seal is there is put back from the seal (the next reader finds it again).
    """
    doc = _document(sidecar)
    if doc is None:
        return None
    if not os.path.exists(sidecar):  # noqa: PTH110 - read from the seal: restore the sidecar
        try:  # noqa: SIM105 - no contextlib on the hook path
            _replace(sidecar, render(doc["limits"], doc["capped"]))
        except OSError:
            pass
    limits: dict[str, dict[str, Any]] = doc["limits"]
    return limits


def render(limits: dict[str, dict[str, Any]], capped: dict[str, dict[str, Any]] | None = None) -> str:
    """The file's text: one scope per line (``has_scope`` searches for ``\\n  "<key>": {``), then the marks."""
    import json

    lines = [f"  {json.dumps(key)}: {json.dumps(value, sort_keys=True)}" for key, value in sorted(limits.items())]
    body = ",\n".join(lines)
    marks = ""
    if capped:
        rows = [f"{_MARK[1:]}{json.dumps(key)}: {json.dumps(value, sort_keys=True)}"
                for key, value in sorted(capped.items())]
        marks = ', "capped": {\n' + ",\n".join(rows) + "\n}"
    return f'{{"schema": {SCHEMA}, "limits": {{\n{body}\n}}{marks}}}\n'


def write(sidecar: str, limits: dict[str, dict[str, Any]]) -> None:
    """Replace the sidecar and its seal atomically (OSError when the state folder is not writable).

    The cap marks of the scopes whose limits stay as they were are kept; the others are dropped.
    """
    try:
        old = _document(sidecar)
    except (OSError, ValueError):
        old = None
    kept = {key: mark for key, mark in (old or {}).get("capped", {}).items()
            if key in limits and mark.get("limits") == limits[key]}
    _store(sidecar, limits, kept)


def _store(sidecar: str, limits: dict[str, dict[str, Any]], capped: dict[str, dict[str, Any]]) -> None:
    text = render(limits, capped)
    _replace(sidecar, text)
    seal = seal_for(sidecar)
    if seal is not None:
        try:  # noqa: SIM105 - no contextlib on the hook path
            _replace(seal, text)
        except OSError:  # the folder above the state folder is read-only: the sidecar alone, as before
            pass


def _replace(path: str, text: str) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):  # noqa: PTH110
            os.unlink(tmp)  # noqa: PTH108


def marks(sidecar: str) -> dict[str, str]:
    """``{scope key: the reason it was capped with}`` for every cap mark (see the module); {} when none."""
    try:
        data = _bytes(sidecar)
    except OSError:
        return {}
    if data is None or b'"capped"' not in data:
        return {}
    try:
        doc = _document(sidecar)
    except (OSError, ValueError):
        return {}
    found = (doc or {}).get("capped", {})
    return {key: str(mark.get("reason") or f"{key} reached its limit") for key, mark in found.items()}


def mark(sidecar: str, key: str, reason: str) -> bool:
    """Note that ``key`` reached its limits (``reason``: the deny); False when it has no limits or cannot be written."""
    try:
        doc = _document(sidecar)
    except (OSError, ValueError):
        return False
    if doc is None or key not in doc["limits"]:
        return False
    if doc["capped"].get(key, {}).get("limits") == doc["limits"][key]:
        return True  # noted already
    doc["capped"][key] = {"limits": doc["limits"][key], "reason": reason}
    try:
        _store(sidecar, doc["limits"], doc["capped"])
    except OSError:
        return False
    return True


def unmark(sidecar: str, session: str | None = None) -> None:
    """Forget the cap marks that ``budget reset`` makes stale: every one (``session`` None: all spend was
    forgotten), else the session's and those of the projects and the global scope, whose spend went down too."""
    try:
        doc = _document(sidecar)
    except (OSError, ValueError):
        return
    if doc is None or not doc["capped"]:
        return
    own = f"session:{session}"
    kept = {} if session is None else {k: v for k, v in doc["capped"].items() if k.startswith("session:") and k != own}
    if kept != doc["capped"]:
        _store(sidecar, doc["limits"], kept)
