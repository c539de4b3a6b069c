"""How a ``boundread mcp`` server bounds and places its work: its options, standard library only (the CLI builds
it before the SDK is imported)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Config:
    """How the server bounds and places its work (``boundread mcp`` options)."""

    roots: tuple[str, ...]  # real paths
    explicit_roots: bool = False  # given with --root: client roots must lie inside them
    out_dir: str | None = None  # None: $BOUNDREAD_OUT_DIR, else <first root>/boundread-out
    max_chars: int = 100_000
    timeout: float = 60.0
