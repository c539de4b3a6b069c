"""Which options apply to which kind of file: one that does not is a usage error naming those that do.

``extract huge.log --pages 2`` used to write the log's first lines to ``huge.log.pages-2.txt`` and exit 0;
now it says ``--pages does not apply to text`` and which options a text file takes.
"""

from __future__ import annotations

import codecs

from boundread.contract import kinds
from boundread.contract.model import Request
from boundread.errors import UsageError
from boundread.record import Record

TYPE_CHECKING = False  # not typing's: this module loads on every extract's start-up
if TYPE_CHECKING:
    from typing import Any


class _Option(Record, frozen=True):
    field: str  # the Request field it sets
    flag: str  # how the command line spells it
    kinds: tuple[str, ...]  # the kinds of file it applies to
    value: str = ""  # what follows the flag, in a message (for the text options listed with the generic bounds)


#: Request fields a handler reads only for some kinds. A field set to anything but its default on another kind
#: would be ignored silently; the generic bounds (--lines, --grep, --max-chars, ...) apply to every kind.
OPTIONS: tuple[_Option, ...] = (
    _Option("pages", "--pages", kinds.PAGED),
    _Option("sheets", "--sheet", kinds.WORKBOOKS),
    _Option("rows", "--rows", (*kinds.WORKBOOKS, *kinds.STRUCTURED)),  # json: values of --path; jsonl: records
    _Option("path", "--path", kinds.STRUCTURED),
    _Option("sql", "--sql", kinds.DATABASES),
    _Option("fmt", "--format", kinds.WORKBOOKS),
    _Option("layout", "--layout", ("pdf",)),
    _Option("engine", "--engine", ("pdf",)),
    _Option("ocr", "--ocr", ("pdf", "image")),
    _Option("ocr_lang", "--ocr-lang", ("pdf", "image")),
    _Option("password", "--password", ("pdf", "zip", "7z")),
    _Option("tail", "--tail", ("text", *kinds.STRUCTURED, *kinds.WEBPAGES), "N"),
    _Option("encoding", "--encoding", ("text", *kinds.TABLES, *kinds.STREAMS, *kinds.WEBPAGES), "NAME"),
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
    own = [option.flag for option in OPTIONS if kind in option.kinds and not option.value]
    if kind in kinds.ARCHIVES:
        own.insert(0, "--member NAME")
    return ", ".join([*own, _generic(kind)]) if own else ""


def _generic(kind: str) -> str:
    """The generic bounds, and for text its own --encoding and --tail (text reads as lines, so they sit with
    them)."""
    return ", ".join([_GENERIC, *(f"{option.flag} {option.value}" for option in OPTIONS if option.value
                                  and kind in option.kinds)])


def encoding(name: str | None) -> str | None:
    """``name`` when Python has a codec by that name (``--encoding cp1251``), else a UsageError: a typo would
    otherwise surface deep in the read, or not at all for a file that is ASCII."""
    if name is None:
        return None
    try:
        text = getattr(codecs.lookup(name), "_is_text_encoding", True)  # base64, rot13: codecs, but not of text
    except LookupError:
        text = False
    if not text:
        raise UsageError(f"unknown encoding {name}", "name a Python codec, e.g. cp1251, koi8-r, shift_jis")
    return name


def _set(req: Request, default: Request, field: str) -> bool:
    value: Any = getattr(req, field, None)
    return value is not None and value != getattr(default, field, None)
