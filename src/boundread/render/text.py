"""Plain-text forms of the values the views show: counts with thousands separators, any scalar as words.

No rich here. Apart from the package's ``__init__``, which loads the rich views (views.py) lazily, so the
views need not import it back.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: a one-line info's start-up (issue 24)
if TYPE_CHECKING:
    from typing import Any


def count(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else "?"


def scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, (list, tuple)):
        shown = ", ".join(str(v) for v in value[:8])
        return shown + (f", … ({len(value)} listed)" if len(value) > 8 else "")  # a field may list only some
    if isinstance(value, dict):
        return ", ".join(f"{k}={v}" for k, v in value.items())
    return str(value)
