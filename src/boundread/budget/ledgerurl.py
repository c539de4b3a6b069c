"""Where the PostgreSQL ledger is: ``BOUNDREAD_LEDGER_URL``, else ``ledger_url`` in the user config's ``[budget]``.

Not in a project file (``pyproject.toml``, ``.boundread.toml``): the agent a budget watches can write those,
and a URL there could point its hooks at an empty database, out of the fleet's budget (and would put a
password in a repository). The user config is ``$XDG_CONFIG_HOME/boundread/config.toml`` (``~/.config``).
Standard library only, for the hook path: without ``ledger_url`` in the file, no TOML parser is imported.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass

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
    from boundread import tomlread

    try:
        table = tomlread.loads(data.decode("utf-8")).get("budget", {})
    except (UnicodeDecodeError, tomlread.TOMLError):
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
    in its error message, password and all. So would the pieces of a password with an unencoded ``@ / : ? #``
    or ``%`` (libpq reads them as host, port or database: ``invalid port number: "rd"``), or a keyword string
    whose password has an unquoted space: those are refused here too, naming the characters, not the value.
    """
    if url.startswith(SCHEMES):  # libpq takes these two, lower case, and nothing else as a URL
        return _unencoded(url.partition("://")[2])
    if "://" not in url and "=" in url:
        return None if _words_ok(url) else (
            f"BOUNDREAD_LEDGER_URL (or {KEY} in {user_config()}) has a value with a space or quote that libpq would"
            " split - write it as password='...' (a ' or \\ inside as \\' or \\\\), or as a"
            " postgresql:// URL")
    return (f"BOUNDREAD_LEDGER_URL (or {KEY} in {user_config()}) is not a PostgreSQL URL"
            f" - write it as {SCHEMES[0]}user:password@host:5432/dbname, or unset it for the local SQLite ledger")


def _unencoded(rest: str) -> str | None:
    """Why the part after ``://`` would be split other than as written, or None: the authority ends at the first
    ``/ ? #``, its user information at its last ``@``, and the password is the rest after the user's ``:``."""
    end = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority, tail = rest[:end], rest[end:]
    info, at, _ = authority.rpartition("@")
    bad = ""
    if "@" in tail:  # a / ? or # in the user or password cut the authority short
        bad = "/, ? or #"
    elif "@" in info:
        bad = "@"
    elif at and info.count(":") > 1:
        bad = ":"
    elif _bad_escape(info) or _bad_escape(tail.split("#", 1)[0]):
        bad = "%"
    elif "?" in tail and any("=" not in word for word in tail.split("?", 1)[1].split("#", 1)[0].split("&") if word):
        bad = "&"
    if not bad:
        return None
    return (f"BOUNDREAD_LEDGER_URL (or {KEY} in {user_config()}) has an unencoded {bad} in its user, password or"
            " options - percent-encode them: @ as %40, / as %2F, : as %3A, ? as %3F, # as %23, & as %26, % as %25")


def _bad_escape(text: str) -> bool:
    """A ``%`` not followed by two hex digits (libpq: "invalid percent-encoded token", with the value)."""
    hexdigits = "0123456789abcdefABCDEF"
    i = text.find("%")
    while i >= 0:
        if len(text) < i + 3 or text[i + 1] not in hexdigits or text[i + 2] not in hexdigits:
            return True
        i = text.find("%", i + 3)
    return False


def _words_ok(conninfo: str) -> bool:
    """Whether a keyword string splits into ``key=value`` words as libpq reads it (quotes, backslash escapes)."""
    i, n = 0, len(conninfo)
    while i < n:
        while i < n and conninfo[i].isspace():
            i += 1
        if i == n:
            return True
        eq = conninfo.find("=", i)
        if eq < 0 or any(c.isspace() for c in conninfo[i:eq].strip()) or not conninfo[i:eq].strip():
            return False
        i = eq + 1
        while i < n and conninfo[i].isspace():
            i += 1
        if i < n and conninfo[i] == "'":
            i += 1
            while i < n and conninfo[i] != "'":
                i += 2 if conninfo[i] == "\\" else 1
            if i >= n:
                return False  # an unterminated quote
            i += 1
        else:
            while i < n and not conninfo[i].isspace():
                i += 2 if conninfo[i] == "\\" else 1
    return True


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
    secrets |= _pieces(url)
    for secret in list(secrets):
        secrets.add(_unquote(secret))
    for secret in sorted((s for s in secrets if s), key=len, reverse=True):
        text = text.replace(secret, redact(url) if secret == url else "***")
    return text


def _pieces(url: str) -> set[str]:
    """The pieces a password with unencoded ``@ / : ? # & = %`` may be split into (3 characters or more): what libpq
    could quote back from a URL it reads otherwise than as written."""
    _, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return set()
    info = rest[: rest.rfind("@")]
    password = info.partition(":")[2]
    for mark in "@/:?#&=%":
        password = password.replace(mark, " ")
    return {piece for piece in password.split() if len(piece) >= 3}


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
