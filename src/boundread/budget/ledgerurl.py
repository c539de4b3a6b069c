"""Where the PostgreSQL ledger is: ``BOUNDREAD_LEDGER_URL``, else ``ledger_url`` in the user config's ``[budget]``.

Not in a project file (``pyproject.toml``, ``.boundread.toml``): the agent a budget watches can write those,
and a URL there could point its hooks at an empty database, out of the fleet's budget (and would put a
password in a repository). The user config is ``$XDG_CONFIG_HOME/boundread/config.toml`` (``~/.config``).
Standard library only, for the hook path: without ``ledger_url`` in the file, ``tomllib`` is not imported.
"""

from __future__ import annotations

import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

ENV = "BOUNDREAD_LEDGER_URL"
KEY = "ledger_url"
SCHEMES = ("postgresql://", "postgres://")


def user_config() -> str:
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")  # noqa: PTH111, PTH118
    return os.path.join(base, "boundread", "config.toml")  # noqa: PTH118


def find() -> str | None:
    """The URL, or None (the SQLite ledger). ``BOUNDREAD_LEDGER_URL=`` (empty) means SQLite, whatever the file says."""
    if ENV in os.environ:
        return os.environ[ENV].strip() or None
    path = user_config()
    try:
        with open(path, "rb") as fh:
            data = fh.read(1 << 20)
    except OSError:
        return None
    if KEY.encode() not in data:
        return None
    if sys.version_info < (3, 11):  # no tomllib: the environment variable only
        return None
    import importlib  # via importlib for mypy on 3.10

    tomllib: Any = importlib.import_module("tomllib")
    try:
        table = tomllib.loads(data.decode("utf-8")).get("budget", {})
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        return None  # guard-check reports a broken user config already; the SQLite ledger applies
    value = table.get(KEY) if isinstance(table, dict) else None
    return value.strip() or None if isinstance(value, str) else None


def redact(url: str) -> str:
    """The URL without its password, for messages: ``postgresql://fleet:***@db:5432/budget``."""
    scheme, sep, rest = url.partition("://")
    if not sep:
        return "the PostgreSQL ledger (a connection string)"
    auth, at, host = rest.rpartition("@")
    if not at:
        return url.split("?", 1)[0]
    user = auth.split(":", 1)[0]
    return f"{scheme}://{user}{':***' if ':' in auth else ''}@{host.split('?', 1)[0]}"


def problem(url: str) -> str | None:
    """Why ``url`` cannot be a PostgreSQL ledger (one line naming the fix, never the value), or None.

    A URL (``postgresql://`` or ``postgres://``) or a libpq keyword string (``host=db dbname=budget``); anything
    else (``postgress://``, a bare password pasted by mistake) would reach libpq as a database name and come back
    in its error message, password and all.
    """
    if url.startswith(SCHEMES):  # libpq takes these two, lower case, and nothing else as a URL
        return None
    if "://" not in url and "=" in url:
        return None  # a keyword string: libpq parses it
    return (f"BOUNDREAD_LEDGER_URL (or {KEY} in {user_config()}) is not a PostgreSQL URL"
            f" - write it as {SCHEMES[0]}user:password@host:5432/dbname, or unset it for the local SQLite ledger")


def mask(text: str, url: str) -> str:
    """``text`` (a driver's error, a message) with the URL and its passwords, raw and percent-decoded, as ``***``."""
    secrets = {url}
    _, sep, rest = url.partition("://")
    if sep:
        auth, at, _ = rest.split("?", 1)[0].rpartition("@")
        if at and ":" in auth:
            secrets.add(auth.split(":", 1)[1])
        query = rest.split("?", 1)[1] if "?" in rest else ""
        words = query.split("&")
    else:
        words = url.split()
    for word in words:
        key, eq, value = word.partition("=")
        if eq and key.strip().lower() == "password":
            secrets.add(value.strip().strip("'"))
    for secret in list(secrets):
        secrets.add(_unquote(secret))
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, redact(url) if secret == url else "***")
    return text


def _unquote(text: str) -> str:
    """Percent-decoding (``urllib.parse.unquote`` without importing it on the hook path); bad escapes stay."""
    if "%" not in text:
        return text
    out, i, raw = bytearray(), 0, text.encode("utf-8", "surrogatepass")
    while i < len(raw):
        if raw[i] == 0x25 and i + 2 < len(raw) and all(chr(c) in "0123456789abcdefABCDEF" for c in raw[i + 1:i + 3]):
            out.append(int(raw[i + 1:i + 3], 16))
            i += 3
        else:
            out.append(raw[i])
            i += 1
    return out.decode("utf-8", "replace")
