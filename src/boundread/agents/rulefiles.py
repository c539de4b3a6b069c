"""The settings readers the clients' ``user_rules`` share: a JSON settings file, a drop-in folder of them, a
folder of rule files - each read so that what cannot be read counts as rules (a redirect then keeps its deny,
hook/permissions.py), and bounded, since this runs in the hook before a rewrite.
"""

from __future__ import annotations

import json
import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

MOST_DROPINS = 64  # files in a drop-in folder read at most: more are taken as rules
MOST_BYTES = 4 << 20  # a settings file larger than this is not read: the rules are taken to exist


def json_files(folder: str) -> list[str] | None:
    """The ``*.json`` files in ``folder`` ([] when there is none); None when it cannot be read or holds too many."""
    try:
        with os.scandir(folder) as entries:
            names = []
            for seen, entry in enumerate(entries):
                if seen >= MOST_DROPINS * 4:
                    return None
                if entry.name.endswith(".json"):
                    names.append(entry.path)
            return None if len(names) > MOST_DROPINS else sorted(names)
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError:
        return None


def any_file(folder: str, suffix: str) -> bool:
    try:
        with os.scandir(folder) as entries:
            return any(entry.name.endswith(suffix) for entry in entries)
    except FileNotFoundError:
        return False
    except OSError:
        return True  # a folder we cannot read may hold rules


def settings_object(path: str | os.PathLike[str], decode: Callable[[bytes], str] = lambda raw: raw.decode("utf-8-sig")
                    ) -> tuple[dict[str, Any] | None, str]:
    """A settings file as ``doctor`` reads its layers: (its JSON object, or None when it is missing, not an object,
    over MOST_BYTES or not JSON; why it could not be read, or ''). At most MOST_BYTES + 1 bytes are read;
    ``decode`` turns them into JSON text (Gemini CLI's: comments stripped)."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(MOST_BYTES + 1)
    except (FileNotFoundError, NotADirectoryError):
        return None, ""
    except OSError as exc:
        return None, f"cannot read {os.fspath(path)}: {exc.strerror or exc}"
    try:
        data = json.loads(decode(raw)) if len(raw) <= MOST_BYTES else None
    except (ValueError, RecursionError):
        data = None
    return (data if isinstance(data, dict) else None), ""


def settings_of(file: str) -> dict[str, Any] | bool:
    """A settings file's JSON object; False when there is no file, True (rules may hide there) when it is not one."""
    data = _load(file)
    if data is None:
        return False
    return data if isinstance(data, dict) else True


def _load(file: str) -> object | None:
    """The JSON in ``file``; None when there is none; ``True`` (taken as rules) when it cannot be read."""
    try:
        if os.stat(file).st_size > MOST_BYTES:
            return True
        with open(file, encoding="utf-8") as fh:
            return json.load(fh)  # type: ignore[no-any-return]
    except FileNotFoundError:
        return None
    except (OSError, ValueError, RecursionError):
        return True  # a file we cannot read may hold rules: do not step around them
