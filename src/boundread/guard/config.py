"""The guard's thresholds: defaults < user config (XDG) < project config < BOUNDREAD_GUARD_* env vars.

The project config is the nearest ``.boundread.toml`` (table ``[guard]``) or ``pyproject.toml``
(table ``[tool.boundread.guard]``) found upward from the payload's ``cwd``. ``tomllib`` exists on
Python 3.11+ only: on 3.10 files are skipped with a note and defaults + env vars apply.
Standard library only (the hook path).
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
# ruff: noqa: PTH100, PTH109, PTH111, PTH113, PTH118, PTH119, PTH120
from __future__ import annotations

# Hot path (guard-check runs before every agent tool call): no dataclasses, typing, pathlib or re
# at module level - they cost more start-up time than the whole check. os.path, a Record, lazy imports.
import os
import sys

from boundread import sniff
from boundread.guard.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

KB, MB = 1024, 1024 * 1024
DEFAULT_DENY_KINDS = frozenset(
    {sniff.PDF, sniff.BINARY} | sniff.OFFICE_KINDS | sniff.ARCHIVE_KINDS
)


class GuardConfig(Record):
    """What the guard denies. Sizes in bytes. ``sources`` lists where values came from.

    ``text_max_bytes``: text above this needs a bounded read; ``line_cap``: a read with limit <= line_cap
    is bounded; ``pdf_page_cap``: a PDF read with a pages range this small is allowed; ``image_max_bytes``:
    images above this are denied anywhere; ``attachment_dirs``: images in these folders are denied;
    ``extract_max_bytes`` / ``extract_max_entries``: unzip / 7z x / tar -x of a bigger archive is denied;
    ``allow``: globs of paths that are always allowed; ``on_error``: what a broken hook answers.
    ``sources`` and ``notes`` do not take part in ``==``.
    """

    __slots__ = ("text_max_bytes", "line_cap", "pdf_page_cap", "image_max_bytes", "attachment_dirs",  # noqa: RUF023 - field order = argument order
                 "extract_max_bytes", "extract_max_entries", "deny_kinds", "allow", "on_error", "sources",
                 "notes")
    _UNCOMPARED = frozenset({"sources", "notes"})
    text_max_bytes: int
    line_cap: int
    pdf_page_cap: int
    image_max_bytes: int
    attachment_dirs: tuple[str, ...]
    extract_max_bytes: int
    extract_max_entries: int
    deny_kinds: frozenset[str]
    allow: tuple[str, ...]
    on_error: str
    sources: tuple[str, ...]
    notes: tuple[str, ...]

    def __init__(self, text_max_bytes: int = 256 * KB, line_cap: int = 2000, pdf_page_cap: int = 20,
                 image_max_bytes: int = 5 * MB, attachment_dirs: tuple[str, ...] = ("attachments",),
                 extract_max_bytes: int = 50 * MB, extract_max_entries: int = 1000,
                 deny_kinds: frozenset[str] = DEFAULT_DENY_KINDS, allow: tuple[str, ...] = (),
                 on_error: str = "allow", sources: tuple[str, ...] = ("defaults",),
                 notes: tuple[str, ...] = ()) -> None:
        self._init(text_max_bytes, line_cap, pdf_page_cap, image_max_bytes, attachment_dirs,
                   extract_max_bytes, extract_max_entries, deny_kinds, allow, on_error, sources, notes)


def replace(config: GuardConfig, **changes: Any) -> GuardConfig:
    """``dataclasses.replace`` for GuardConfig."""
    return GuardConfig(**{**config._fields(), **changes})


_SIZE = r"^\s*(\d+(?:\.\d+)?)\s*([kmg]?i?b?)?\s*$"
_UNITS = {"": 1, "b": 1, "k": KB, "kb": KB, "kib": KB, "m": MB, "mb": MB, "mib": MB,
          "g": 1024 * MB, "gb": 1024 * MB, "gib": 1024 * MB}
_INT_KEYS = {"line_cap", "pdf_page_cap", "extract_max_entries"}
_SIZE_KEYS = {"text_max_bytes", "image_max_bytes", "extract_max_bytes"}
_LIST_KEYS = {"attachment_dirs", "allow", "deny_kinds"}
KEYS = tuple(name for name in GuardConfig.__slots__ if name not in ("sources", "notes"))


class ConfigError(ValueError):
    """A config value that cannot be used; the message names the key and the fix."""


def parse_size(value: object, key: str = "size") -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    import re  # only when a size is given as text

    match = re.match(_SIZE, str(value), re.IGNORECASE)
    unit = (match.group(2) or "").lower() if match else ""
    if not match or unit not in _UNITS:
        raise ConfigError(f"{key}: {value!r} is not a size - use e.g. 262144, '256KB' or '5MB'")
    return int(float(match.group(1)) * _UNITS[unit])


def _coerce(key: str, value: object) -> object:
    if key in _SIZE_KEYS:
        return parse_size(value, key)
    if key in _INT_KEYS:
        try:
            return int(str(value))
        except ValueError:
            raise ConfigError(f"{key}: {value!r} is not a whole number") from None
    if key in _LIST_KEYS:
        items = value.split(",") if isinstance(value, str) else list(value)  # type: ignore[call-overload]
        words = tuple(str(item).strip() for item in items if str(item).strip())
        return frozenset(words) if key == "deny_kinds" else words
    if key == "on_error":
        if str(value) not in ("allow", "deny"):
            raise ConfigError(f"on_error: {value!r} - use 'allow' or 'deny'")
        return str(value)
    raise ConfigError(f"unknown guard setting {key!r} - known: {', '.join(KEYS)}")


def apply(config: GuardConfig, table: Mapping[str, Any], source: str) -> GuardConfig:
    """Overlay one table of settings (keys may use - or _)."""
    changes: dict[str, Any] = {key.replace("-", "_"): _coerce(key.replace("-", "_"), value)
                               for key, value in table.items()}
    return replace(config, sources=(*config.sources, source), **changes) if changes else config


def _read_toml(path: str) -> dict[str, Any] | None:
    if sys.version_info < (3, 11):  # no tomllib: the caller notes it, defaults + env apply
        return None
    import importlib  # tomllib only when a config file exists; via importlib for mypy on 3.10

    tomllib: Any = importlib.import_module("tomllib")
    with open(path, "rb") as fh:
        try:
            data: dict[str, Any] = tomllib.load(fh)
            return data
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"{path}: invalid TOML ({exc}) - fix or remove the file") from None


def _table(path: str) -> dict[str, Any] | None:
    data = _read_toml(path)
    if data is None:
        return None
    if os.path.basename(path) == "pyproject.toml":
        table = data.get("tool", {}).get("boundread", {}).get("guard", {})  # None only means "no tomllib"
    else:
        table = data.get("guard", data.get("tool", {}).get("boundread", {}).get("guard", {}))
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{path}: the guard settings must be a table")
    return table


def project_file(cwd: str | os.PathLike[str]) -> str | None:
    """The nearest .boundread.toml, or pyproject.toml with a [tool.boundread.guard] table."""
    folder = os.path.abspath(cwd)
    while True:
        candidate = os.path.join(folder, ".boundread.toml")
        if os.path.isfile(candidate):
            return candidate
        pyproject = os.path.join(folder, "pyproject.toml")
        if os.path.isfile(pyproject):
            with open(pyproject, "rb") as fh:
                if b"boundread" in fh.read(1024 * 1024):
                    return pyproject
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


def user_file() -> str:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return os.path.join(base, "boundread", "config.toml")


def load(cwd: str | os.PathLike[str] | None = None, explicit: str | None = None) -> GuardConfig:
    """Build the config for a hook call whose working directory is ``cwd``."""
    config = GuardConfig()
    files: list[str] = []
    if explicit:
        files.append(explicit)
    else:
        files.append(user_file())
        found = project_file(cwd or os.getcwd())
        if found is not None:
            files.append(found)
    for path in files:
        if not os.path.isfile(path):
            if explicit:
                raise ConfigError(f"--config {path}: no such file")
            continue
        table = _table(path)
        if table is None:
            note = f"{path} ignored: Python 3.10 has no tomllib (use BOUNDREAD_GUARD_* env vars)"
            config = replace(config, notes=(*config.notes, note))
        elif table:
            config = apply(config, table, path)
    env = {key[len("BOUNDREAD_GUARD_"):].lower(): value for key, value in os.environ.items()
           if key.startswith("BOUNDREAD_GUARD_") and value != ""}
    return apply(config, env, "env") if env else config
