"""Where an installed package lives, found as the import system finds it but without importing it: by the
PathFinder already on ``sys.meta_path``. ``importlib.util.find_spec`` does the same after ~2 ms of imports, which
the start-up of a read (PDFium's library next to pypdfium2) and of guard-check (tree-sitter's compiled bindings)
do without. Standard library only, nothing loaded at import."""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def path_finder() -> Any:
    """The import system's PathFinder, or None where it was replaced (a frozen or zipped application)."""
    return next((finder for finder in sys.meta_path if getattr(finder, "__name__", "") == "PathFinder"), None)


def package_folders(package: str) -> list[str]:
    """The folders of a top-level package, or [] when it is not installed; importlib.util's answer where the
    PathFinder has none (a package another finder provides)."""
    finder = path_finder()
    spec = finder.find_spec(package, None) if finder is not None else None
    if spec is None:
        import importlib.util

        spec = importlib.util.find_spec(package)
    return list(spec.submodule_search_locations or []) if spec is not None else []
