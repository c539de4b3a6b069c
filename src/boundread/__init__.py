"""boundread: bounded reads of big files for LLM agents.

    >>> import boundread
    >>> boundread.info("report.pdf").fields["pages"]
    >>> boundread.pages("report.pdf", "1-5").output      # 'boundread-out/report.pdf.pages-1-5.txt'

Importing this package is cheap (standard library only); each file kind loads its library on use.
"""

from __future__ import annotations

# Everything but __version__ loads on first use (module __getattr__): the guard-check hook imports
# boundread.guard through this package on every agent tool call, so nothing here may cost start-up
# time - not even typing, or errors/limits (limits imports dataclasses).
__version__ = "0.1.0"

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.api import Sheet, chunk, extract, info, list_zip, pages, sheet_list, sheets
    from boundread.budget import (
        BudgetError,
        CostCap,
        CostCapExceeded,
        DepthExceeded,
        Guard,
        Policy,
        PolicyDenied,
        TokenBudget,
        TokenBudgetExceeded,
        carry_depth,
        current_depth,
        max_depth,
    )
    from boundread.chunks.manifest import Chunk, Manifest
    from boundread.contract.model import Entry, ExtractResult, InfoResult, Listing, Request, Span
    from boundread.errors import (
        BoundreadError,
        Corrupt,
        Encrypted,
        ExitCode,
        NotFound,
        Refused,
        TimedOut,
        Unsupported,
        UsageError,
    )
    from boundread.limits import Limits

#: the runaway guards (depth, tokens, cost, policy): ``from boundread import max_depth``, as from boundread.budget
_GUARDS = ("BudgetError", "CostCap", "CostCapExceeded", "DepthExceeded", "Guard", "Policy", "PolicyDenied",
           "TokenBudget", "TokenBudgetExceeded", "carry_depth", "current_depth", "max_depth")
_LAZY = {
    **dict.fromkeys(_GUARDS, "boundread.budget"),
    **dict.fromkeys(("extract", "info", "list_zip", "pages", "sheets", "sheet_list", "Sheet", "chunk"),
                    "boundread.api"),
    **dict.fromkeys(("Chunk", "Manifest"), "boundread.chunks.manifest"),
    **dict.fromkeys(("Entry", "ExtractResult", "InfoResult", "Listing", "Request", "Span"), "boundread.contract.model"),
    "Limits": "boundread.limits",
    **dict.fromkeys(("BoundreadError", "Corrupt", "Encrypted", "ExitCode", "NotFound", "Refused", "TimedOut",
                     "Unsupported", "UsageError"), "boundread.errors"),
}


def __dir__() -> list[str]:
    """``dir(boundread)`` shows the public API, loaded or not."""
    return sorted({*__all__, *globals()} - {"TYPE_CHECKING", "annotations"})


def __getattr__(name: str) -> object:
    """Load the API on first use, so ``import boundread`` (and the guard-check hook) stays light."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value  # later lookups skip this function
        return value
    raise AttributeError(f"module 'boundread' has no attribute {name!r}")


__all__ = [
    "BoundreadError",
    "BudgetError",
    "Chunk",
    "Corrupt",
    "CostCap",
    "CostCapExceeded",
    "DepthExceeded",
    "Encrypted",
    "Entry",
    "ExitCode",
    "ExtractResult",
    "Guard",
    "InfoResult",
    "Limits",
    "Listing",
    "Manifest",
    "NotFound",
    "Policy",
    "PolicyDenied",
    "Refused",
    "Request",
    "Sheet",
    "Span",
    "TimedOut",
    "TokenBudget",
    "TokenBudgetExceeded",
    "Unsupported",
    "UsageError",
    "__version__",
    "carry_depth",
    "chunk",
    "current_depth",
    "extract",
    "info",
    "list_zip",
    "max_depth",
    "pages",
    "sheet_list",
    "sheets",
]
