"""Reading TOML on every Python boundread supports: the standard library's ``tomllib`` from 3.11, the ``tomli``
package before (the same parser, published separately; a dependency below 3.11 only). The one place that choice is
made: on 3.10 the guard's config, the budget's ledger address and prices and Codex's trust were once skipped
without a word.

Standard library only, and loaded only where a TOML file is read: guard-check imports it on the hook path.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: What a broken TOML text raises: ``TOMLDecodeError`` of either parser is a ``ValueError``.
TOMLError = ValueError


def loads(text: str) -> dict[str, Any]:
    """The table of ``text``; TOMLError when it is not valid TOML."""
    import importlib  # by name, so that mypy checking for 3.10 does not look for tomllib

    parser: Any = importlib.import_module("tomllib" if sys.version_info >= (3, 11) else "tomli")
    data: dict[str, Any] = parser.loads(text)
    return data
