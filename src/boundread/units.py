"""Sizes as people read them: decimal (SI) units, 1 kB = 1,000 bytes, as ``ls -h --si``, macOS and disk makers
count; JSON keeps exact byte counts. No imports: the guard-check hook path uses this too."""

from __future__ import annotations

UNITS = ("B", "kB", "MB", "GB", "TB")
KB, MB, GB = 1000, 1000**2, 1000**3  # for sizes that are shown or documented (--max-member-mb MB)


def human_bytes(n: int | None) -> str:
    """``9177`` -> ``"9.2 kB"``; ``112_816_697`` -> ``"112.8 MB"``; ``None`` -> ``"?"``."""
    if n is None:
        return "?"
    if n < 1000:
        return f"{n} B"
    size = float(n)
    for unit in UNITS[1:]:
        size /= 1000
        if round(size, 1) < 1000 or unit == UNITS[-1]:
            return f"{size:.1f} {unit}"
    raise AssertionError("unreachable")  # pragma: no cover
