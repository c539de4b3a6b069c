"""The folders an MCP server serves, and the check that a requested path lies inside one of them.

A path is resolved against the first root when relative, its symlinks are resolved, and the real path
must be a root or lie under one (a prefix check on whole path components, so ``/srv/data-old`` is not
inside ``/srv/data``). The client's roots (``file://`` URIs from ``roots/list``) replace the default
root, the working folder; roots given with ``--root`` bound the server: a client root outside them is
ignored.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import unquote, urlparse

from boundread.errors import NotFound, Refused


def real(path: str | Path) -> str:
    return os.path.realpath(Path(path).expanduser())


def inside(path: str, root: str) -> bool:
    """Whether the real path ``path`` is ``root`` or under it (both already real)."""
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def from_uris(uris: Iterable[str]) -> tuple[str, ...]:
    """The local folders named by ``file://`` root URIs (others are ignored: nothing to serve)."""
    found: list[str] = []
    for uri in uris:
        parsed = urlparse(uri)
        if parsed.scheme == "file" and parsed.netloc in ("", "localhost") and parsed.path:
            found.append(real(unquote(parsed.path)))
    return tuple(dict.fromkeys(found))


def effective(configured: Sequence[str], explicit: bool, client: Sequence[str]) -> tuple[str, ...]:
    """The roots a call may read: the client's when it declares any (within ``--root`` when that was given),
    else the configured ones."""
    if not client:
        return tuple(configured)
    if not explicit:
        return tuple(client)
    kept = tuple(root for root in client if any(inside(root, bound) for bound in configured))
    return kept or tuple(configured)


def resolve(path: str, roots: Sequence[str]) -> Path:
    """The real path of ``path`` (relative: to the first root where it exists); Refused outside the roots."""
    if not path.strip():
        raise NotFound("no path given", "pass a file path relative to the served folder")
    given = Path(path).expanduser()
    if given.is_absolute():
        candidates = [real(given)]
    else:
        candidates = [real(Path(root) / given) for root in roots]
        candidates = [c for c in candidates if os.path.lexists(c)] or candidates[:1]
    for candidate in candidates:
        if any(inside(candidate, root) for root in roots):
            return Path(candidate)
    shown = ", ".join(roots) or "none"
    raise Refused(f"{path} is outside the folders this server serves ({shown})",
                  "pass a path inside one of them, or start `boundread mcp` with --root DIR")


def display(path: Path, roots: Sequence[str]) -> str:
    """``path`` as the agent should name it again: relative to the first root when under it."""
    text = str(path)
    if roots and inside(text, roots[0]) and text != roots[0]:
        return os.path.relpath(text, roots[0])
    return text
