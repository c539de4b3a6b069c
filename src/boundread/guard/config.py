"""The guard's thresholds: defaults < user config (XDG) < project config < BOUNDREAD_GUARD_* env vars.

The project config is the nearest ``.boundread.toml`` (table ``[guard]``) or ``pyproject.toml``
(table ``[tool.boundread.guard]``) found upward from the payload's ``cwd``, read by :mod:`boundread.tomlread`
(``tomllib``, or ``tomli`` on 3.10). Standard library only (the hook path).

Bad settings never turn the guard off: a value that cannot be used (``line_cap = "lots"``, an
unknown ``BOUNDREAD_GUARD_*`` variable, a file that is not valid TOML) is ignored with one note on
stderr, and the value below it applies - at worst the default. ``on_error`` is case-insensitive.

Trust: the project config lives in the project, and the agent the guard watches can write files
there, ``.boundread.toml`` included (hook/ground.py refuses that from inside a guarded session, but a
file can also come with a repository the agent clones). The user config
(``$XDG_CONFIG_HOME/boundread/config.toml``, or ``--config PATH``) and the hook's environment are the
user's. So a project file may only tighten the settings that weaken the guard (LOCKABLE): a threshold
may go down, ``deny_kinds`` and ``attachment_dirs`` may only grow, its ``allow`` globs are ignored,
``on_error`` may become deny but not allow; ``mode`` (redirect weakens nothing) is the project's.
Each value cut back is a note naming the file and the key.

The user opens this in their own config, under ``[guard]``: ``project_may_loosen = true`` lets project
files set any value (the project is trusted as the user is), ``project_may_loosen =
["allow", "line_cap"]`` only those settings. ``lock`` (``true`` or a list) still keeps the settings it
names tight whatever ``project_may_loosen`` says. A user config that exists but cannot be read opens
nothing. ``project_may_loosen`` and ``lock`` in a project file or the environment are ignored with a
note. ``origins`` says which layer set each value (``boundread doctor`` shows it).
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
# ruff: noqa: PTH100, PTH109, PTH111, PTH113, PTH118, PTH119, PTH120
from __future__ import annotations

# Hot path (guard-check runs before every agent tool call): no dataclasses, typing, pathlib or re
# at module level - they cost more start-up time than the whole check. os.path, a Record, lazy imports.
import os

from boundread.bytelevel import sniffed as kinds  # the kind names alone: not the sniff itself
from boundread.guard.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

# Sizes are decimal, as everywhere in boundread (units.py): 256 kB = 256,000 bytes. A setting may be
# written in binary units (256KiB, 5MiB), and is then shown back in them (shown_size).
KB, MB, GB = 1000, 1000**2, 1000**3
KIB, MIB, GIB = 1024, 1024**2, 1024**3
DEFAULT_DENY_KINDS = frozenset(
    {kinds.PDF, kinds.BINARY, kinds.SQLITE, kinds.PARQUET, kinds.ARROW} | kinds.OFFICE_KINDS | kinds.ARCHIVE_KINDS
)


class GuardConfig(Record):
    """What the guard denies. Sizes in bytes. ``sources`` lists where values came from.

    ``text_max_bytes``: text above this needs a bounded read; ``line_cap``: a read with limit <= line_cap
    is bounded; ``pdf_page_cap``: a PDF read with a pages range this small is allowed; ``image_max_bytes``:
    images above this are denied anywhere; ``attachment_dirs``: images in these folders are denied;
    ``extract_max_bytes`` / ``extract_max_entries``: unzip / 7z x / tar -x of a bigger archive is denied;
    ``allow``: globs of paths that are always allowed; ``on_error``: what a broken hook answers;
    ``mode``: what a refused read becomes - ``deny`` (refused, with the commands to run), ``redirect``
    (rewritten into a bounded one where the client can take a rewrite, hook/redirect.py), or ``""``:
    as the hook command says (``guard-check --mode redirect``, what ``init`` writes), else deny.
    ``sources`` (the layers read, in order), ``notes`` and ``origins`` (each setting that a layer
    changed, and that layer: ``origin``) do not take part in ``==``.
    """

    __slots__ = ("text_max_bytes", "line_cap", "pdf_page_cap", "image_max_bytes", "attachment_dirs",  # noqa: RUF023 - field order = argument order
                 "extract_max_bytes", "extract_max_entries", "deny_kinds", "allow", "on_error", "mode",
                 "sources", "notes", "origins")
    _UNCOMPARED = frozenset({"sources", "notes", "origins"})
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
    mode: str
    sources: tuple[str, ...]
    notes: tuple[str, ...]
    origins: tuple[tuple[str, str], ...]

    def __init__(self, text_max_bytes: int = 256 * KB, line_cap: int = 2000, pdf_page_cap: int = 20,
                 image_max_bytes: int = 5 * MB, attachment_dirs: tuple[str, ...] = ("attachments",),
                 extract_max_bytes: int = 50 * MB, extract_max_entries: int = 1000,
                 deny_kinds: frozenset[str] = DEFAULT_DENY_KINDS, allow: tuple[str, ...] = (),
                 on_error: str = "allow", mode: str = "", sources: tuple[str, ...] = ("defaults",),
                 notes: tuple[str, ...] = (), origins: tuple[tuple[str, str], ...] = ()) -> None:
        self._init(text_max_bytes, line_cap, pdf_page_cap, image_max_bytes, attachment_dirs,
                   extract_max_bytes, extract_max_entries, deny_kinds, allow, on_error, mode, sources, notes,
                   origins)


def replace(config: GuardConfig, **changes: Any) -> GuardConfig:
    """``dataclasses.replace`` for GuardConfig."""
    return GuardConfig(**{**config._fields(), **changes})


def origin(config: GuardConfig, key: str) -> str:
    """The layer that set ``key``: a file's path, ``env`` (a ``BOUNDREAD_GUARD_*`` variable), or
    ``defaults``."""
    return dict(config.origins).get(key, "defaults")


_UNITS = {"": 1, "b": 1, "k": KB, "kb": KB, "m": MB, "mb": MB, "g": GB, "gb": GB,
          "ki": KIB, "kib": KIB, "mi": MIB, "mib": MIB, "gi": GIB, "gib": GIB}
_SIZE_HINT = "use e.g. 256000, '256kB', '5MB' or '256KiB' (kB = 1,000 bytes, KiB = 1,024)"
_INT_KEYS = {"line_cap", "pdf_page_cap", "extract_max_entries"}
SIZE_KEYS = _SIZE_KEYS = frozenset({"text_max_bytes", "image_max_bytes", "extract_max_bytes"})
_LIST_KEYS = {"attachment_dirs", "allow", "deny_kinds"}
KEYS = tuple(name for name in GuardConfig.__slots__ if name not in ("sources", "notes", "origins"))
#: The user config's keys about project files (read from the user's own file only): ``lock``, and the opt-in
#: that lets project files loosen the guard.
LOOSEN = "project_may_loosen"
_USER_ONLY = ("lock", LOOSEN)


class ConfigError(ValueError):
    """A config value that cannot be used; the message names the key and the fix."""


def _brief(value: object) -> str:
    shown = repr(value) if not isinstance(value, int) or abs(value) < 10 ** 40 else "a huge number"
    return shown if len(shown) <= 42 else shown[:40] + "..."


def parse_size(value: object, key: str = "size") -> int:
    """Bytes from ``262144``, ``"256kB"``/``"256KB"``/``"256 kb"`` (1,000s), ``"1.5MB"``, ``"256KiB"`` (1,024s)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    text = str(value).strip() if not isinstance(value, bool) and len(str(value)) <= 40 else ""
    digits = len(text) - len(text.lstrip("0123456789."))
    number, unit = text[:digits], text[digits:].strip().lower()
    whole, dot, fraction = number.partition(".")
    if not (whole.isdigit() and (not dot or fraction.isdigit())) or unit not in _UNITS:
        raise ConfigError(f"{key}: {_brief(value)} is not a size - {_SIZE_HINT}")
    scale = _UNITS[unit]
    return int(whole) * scale + (int(fraction) * scale) // 10 ** len(fraction) if dot else int(whole) * scale


def shown_size(n: int) -> str:
    """A size as a message shows it: decimal (``256.0 kB``, units.py) when that reads back as the same
    bytes, else a whole number of GiB, MiB or KiB (``256 KiB``, ``125 MiB`` - not ``131.1 MB``), so a
    setting reads back as written."""
    from boundread.units import human_bytes

    decimal = human_bytes(n)
    if parse_size(decimal) == n:
        return decimal
    for unit, scale in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if n >= scale and n % scale == 0:
            return f"{n // scale:,} {unit}"
    return decimal


def _coerce(key: str, value: object) -> object:
    if key in _SIZE_KEYS:
        size = parse_size(value, key)
        if size < 0:
            raise ConfigError(f"{key}: {_brief(value)} is negative - {_SIZE_HINT}")
        return size
    if key in _INT_KEYS:
        text = str(value).strip() if not isinstance(value, bool) else ""
        if not (text.isascii() and text.isdigit()) or len(text) > 18:
            raise ConfigError(f"{key}: {_brief(value)} is not a whole number - use e.g. {getattr(GuardConfig(), key)}")
        return int(text)
    if key in _LIST_KEYS:
        if not isinstance(value, (str, list, tuple)):
            raise ConfigError(f"{key}: {_brief(value)} is not a list - use e.g. [\"a\", \"b\"] or a,b")
        items = value.split(",") if isinstance(value, str) else list(value)
        words = tuple(str(item).strip() for item in items if str(item).strip())
        return frozenset(words) if key == "deny_kinds" else words
    if key == "on_error":
        word = str(value).strip().lower()
        if word not in ("allow", "deny"):
            raise ConfigError(f"on_error: {_brief(value)} is neither allow nor deny - use 'allow' or 'deny'")
        return word
    if key == "mode":
        word = str(value).strip().lower()
        if word not in MODES:
            raise ConfigError(f"mode: {_brief(value)} is neither deny nor redirect - use 'deny' or 'redirect'")
        return word
    raise ConfigError(f"unknown guard setting {key!r} - the known ones: {', '.join(KEYS)}")


#: ``mode``: a redirect reads no more than the deny's own advice would (a first slice that fits the
#: cap, written only into the output folder), so it weakens nothing: a project may set it, and no
#: lock holds it.
MODES = ("deny", "redirect")

#: The settings that can weaken the guard, and how a locked one may still change: a threshold may
#: only go down, a list of denied things may only grow, ``allow`` globs and ``on_error = "allow"``
#: are dropped.
LOCKABLE = ("allow", "deny_kinds", "text_max_bytes", "line_cap", "pdf_page_cap", "image_max_bytes",
            "attachment_dirs", "extract_max_bytes", "extract_max_entries", "on_error")


def apply(config: GuardConfig, table: Mapping[str, Any], source: str,
          locked: frozenset[str] = frozenset(), *, user: bool = False) -> GuardConfig:
    """Overlay one table of settings (keys may use - or _). A value that cannot be used is ignored
    with a note, so the layer below (at worst the default) still applies: a typo never turns the
    guard off. ``locked`` settings may only be tightened (see LOCKABLE); ``user``: the table is the
    user's own config, whose ``lock`` key _lock reads."""
    changes: dict[str, Any] = {}
    notes = list(config.notes)
    for raw, value in table.items():
        key = str(raw).replace("-", "_")
        if key in _USER_ONLY:
            if user:
                continue
            where = f"BOUNDREAD_GUARD_{key.upper()}" if source == "env" else f"{source}: {key!r}"
            notes.append(f"{where} is read from the user config ({user_file()}) only - ignored")
            continue
        try:
            new = _coerce(key, value)
        except ConfigError as exc:
            what, _, fix = str(exc).removeprefix(f"{key}: ").partition(" - ")
            kept = f", {key} stays {_show(config, key)}" if key in KEYS else ""
            notes.append(f"{_where(source, key)}: {what}; ignored{kept} - {fix}")
            continue
        if key in locked:
            new, dropped = _tighten(config, key, new)
            if dropped:
                notes.append(f"{_where(source, key)}: a project file may only tighten the guard - {dropped}"
                             f" (`{LOOSEN} = true` under [guard] in {user_file()} lets it loosen)")
        changes[key] = new
    if not changes:
        return replace(config, notes=tuple(notes))
    set_here = {key: source for key, value in changes.items() if value != getattr(config, key)}
    origins = tuple((key, where) for key, where in {**dict(config.origins), **set_here}.items())
    return replace(config, sources=(*config.sources, source), notes=tuple(notes), origins=origins, **changes)


def _where(source: str, key: str) -> str:
    return f"BOUNDREAD_GUARD_{key.upper()}" if source == "env" else f"{source} [{key}]"


def _show(config: GuardConfig, key: str) -> str:
    value = getattr(config, key)
    if isinstance(value, frozenset):
        value = sorted(value)
    return repr(value)


def _tighten(config: GuardConfig, key: str, new: Any) -> tuple[Any, str]:
    """``new`` cut back to what tightens the guard, and what was refused ('' when nothing)."""
    old = getattr(config, key)
    if key == "allow":
        return old, "allow globs from a project file are ignored" if new else ""
    if key == "on_error":
        return ("deny", "on_error stays deny") if old == "deny" and new != "deny" else (new, "")
    if key == "deny_kinds":
        kept = old | new
        return kept, f"kinds stay denied: {', '.join(sorted(old - new))}" if old - new else ""
    if key == "attachment_dirs":
        kept = (*old, *(folder for folder in new if folder not in old))
        return kept, f"folders stay: {', '.join(folder for folder in old if folder not in new)}" \
            if set(old) - set(new) else ""
    if new > old:
        return old, f"{key} may only go down: stays {old}"
    return new, ""


def _lock(table: Mapping[str, Any], source: str) -> tuple[frozenset[str], str]:
    """What the user's own config keeps tight against project files: every LOCKABLE setting but those
    ``project_may_loosen`` opens (``true``: all, a list: those), and again those ``lock`` names
    (``true``: all); and a note when one of the two is not usable (it then opens nothing, locks all)."""
    opened, note = _names(table, LOOSEN, source, default=False)
    locked, lock_note = _names(table, "lock", source, default=True)
    return frozenset(LOCKABLE) - (opened - locked), "; ".join(n for n in (note, lock_note) if n)


def _names(table: Mapping[str, Any], key: str, source: str, *, default: bool) -> tuple[frozenset[str], str]:
    """The LOCKABLE settings a user config's ``key`` names (``true``: all, ``false``/absent: none); one
    that is not usable names all of them when ``default`` (``lock``), none otherwise."""
    value = table.get(key, table.get(key.replace("_", "-"), False))
    if value is True:
        return frozenset(LOCKABLE), ""
    if value is False:
        return frozenset(), ""
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        names = {item.replace("-", "_") for item in value}
        unknown = sorted(names - set(LOCKABLE))
        note = f"{source} [{key}]: {', '.join(unknown)} - not a setting that can loosen the guard; these can:" \
               f" {', '.join(LOCKABLE)}" if unknown else ""
        return frozenset(names & set(LOCKABLE)), note
    what = "every setting locked" if default else "project files may only tighten the guard"
    return frozenset(LOCKABLE) if default else frozenset(), \
        f"{source} [{key}]: {value!r} is not true, false or a list - {what}"


def _read_toml(path: str) -> dict[str, Any]:
    from boundread import tomlread  # only when a config file exists

    with open(path, "rb") as fh:
        try:
            return tomlread.loads(fh.read().decode("utf-8"))
        except (tomlread.TOMLError, UnicodeDecodeError, RecursionError) as exc:
            raise ConfigError(f"{path}: invalid TOML ({exc}) - fix or remove the file") from None


def _table(path: str) -> dict[str, Any]:
    data = _read_toml(path)
    if os.path.basename(path) == "pyproject.toml":
        table = _get(_get(_get(data, "tool"), "boundread"), "guard")
    else:
        table = data.get("guard", _get(_get(_get(data, "tool"), "boundread"), "guard"))
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: the guard settings must be a table - write them under [guard]")
    return table


def _get(table: object, key: str) -> object:
    return table.get(key, {}) if isinstance(table, dict) else {}


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
    """Build the config for a hook call whose working directory is ``cwd``. Never raises for a bad
    file or value: each one is a note (guard-check prints them), and what it would have set keeps
    the value below it. A user config that cannot be read locks everything (it may have said so)."""
    config = GuardConfig()
    locked = frozenset(LOCKABLE)  # until the user's own config opens some (project_may_loosen)
    user = explicit or user_file()
    files = [(user, True)]
    if not explicit:
        try:
            found = project_file(cwd or os.getcwd())
        except (OSError, ValueError) as exc:
            found, config = None, _note(config, f"the project config cannot be read ({exc}); ignored")
        if found is not None:
            files.append((found, False))
    for path, trusted in files:
        if not os.path.isfile(path):
            if explicit:
                config = _note(config, f"--config {path}: no such file - the defaults apply")
            continue
        try:
            table = _table(path)
        except (ConfigError, OSError) as exc:
            message = str(exc) if isinstance(exc, ConfigError) else f"{path}: cannot read it ({exc})"
            if trusted:
                message += "; until then project files may only tighten the guard"
            config = _note(config, f"{message}; this file is ignored")
            continue
        if trusted:
            locked, note = _lock(table, path)
            if note:
                config = _note(config, note)
            config = apply(config, table, path, user=True)
        elif table:
            config = apply(config, table, path, locked)
    env = {key[len("BOUNDREAD_GUARD_"):].lower(): value for key, value in os.environ.items()
           if key.startswith("BOUNDREAD_GUARD_") and value != ""}
    return apply(config, env, "env") if env else config


def _note(config: GuardConfig, note: str) -> GuardConfig:
    return replace(config, notes=(*config.notes, note))
