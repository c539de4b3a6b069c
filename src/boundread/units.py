"""Sizes as people read them. No imports: the guard-check hook path uses this too."""

from __future__ import annotations


def human_bytes(n: int | None) -> str:
    """``9177`` -> ``"9.0 KB"``; ``None`` -> ``"?"``."""
    if n is None:
        return "?"
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{n} B" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{n} B"
