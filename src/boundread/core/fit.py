"""Which options apply to which kind of file: one that does not is a usage error naming those that do.

``extract huge.log --pages 2`` used to write the log's first lines to ``huge.log.pages-2.txt`` and exit 0;
now it says ``--pages does not apply to text`` and which options a text file takes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from boundread.contract import kinds
from boundread.contract.model import Request
from boundread.errors import UsageError

_TEXT_ONLY = ("text",)


@dataclass(frozen=True)
class _Option:
    field: str  # the Request field it sets
    flag: str  # how the command line spells it
    kinds: tuple[str, ...]  # the kinds of file it applies to


#: Request fields a handler reads only for some kinds. A field set to anything but its default on another kind
#: would be ignored silently; the generic bounds (--lines, --grep, --max-chars, ...) apply to every kind.
OPTIONS: tuple[_Option, ...] = (
    _Option("pages", "--pages", kinds.PAGED),
    _Option("sheets", "--sheet", kinds.WORKBOOKS),
    _Option("rows", "--rows", kinds.WORKBOOKS),
    _Option("fmt", "--format", kinds.WORKBOOKS),
    _Option("layout", "--layout", ("pdf",)),
    _Option("engine", "--engine", ("pdf",)),
    _Option("ocr", "--ocr", ("pdf", "image")),
    _Option("ocr_lang", "--ocr-lang", ("pdf", "image")),
    _Option("password", "--password", ("pdf", "zip", "7z")),
    _Option("tail", "--tail", ("text",)),
)

_GENERIC = "--lines A-B, --grep PATTERN, --max-chars N"


def check(req: Request, kind: str, name: str, container: str | None = None) -> None:
    """Raise UsageError when ``req`` sets an option that does not apply to ``kind`` (``container``: the kind
    of the archive a member came from, for the options that apply to the archive, such as --password)."""
    default = Request()
    misfits = [option.flag for option in OPTIONS
               if _set(req, default, option.field) and kind not in option.kinds and container not in option.kinds]
    if not misfits:
        return
    takes = applicable(kind)
    verb = "does" if len(misfits) == 1 else "do"
    raise UsageError(f"{' and '.join(misfits)} {verb} not apply to {name}, which is {kind}",
                     f"{kind} takes {takes}" if takes else f"{kind} takes only {_generic(kind)}")


def applicable(kind: str) -> str:
    """The options that apply to ``kind``, as a user would type them: ``--pages, --layout, ...``."""
    own = [option.flag for option in OPTIONS if kind in option.kinds and option.kinds != _TEXT_ONLY]
    if kind in kinds.ARCHIVES:
        own.insert(0, "--member NAME")
    return ", ".join([*own, _generic(kind)]) if own else ""


def _generic(kind: str) -> str:
    """The generic bounds, and for text its own --tail (text reads as lines, so it sits with them)."""
    return ", ".join([_GENERIC, *(f"{option.flag} N" for option in OPTIONS if option.kinds == _TEXT_ONLY
                                  and kind in option.kinds)])


def _set(req: Request, default: Request, field: str) -> bool:
    value: Any = getattr(req, field, None)
    return value is not None and value != getattr(default, field, None)
