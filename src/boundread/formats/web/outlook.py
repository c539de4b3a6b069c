"""Outlook messages (``.msg``, an OLE compound file): named, not read - with the command that converts one.

Reading the OLE streams (properties, RTF bodies, attachment storages) needs a parser boundread does not carry;
``msgconvert`` (Debian/Ubuntu: libemail-outlook-message-perl) writes the same message as ``.eml``, which
boundread reads with its attachments (formats/web/mail.py).
"""

from __future__ import annotations

import shlex

from boundread.contract.model import Details, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.errors import Unsupported

KINDS: tuple[str, ...] = ("msg",)


def _fix(src: Source) -> str:
    name = shlex.quote(src.name)
    stem = shlex.quote(src.name.rsplit(".", 1)[0] + ".eml")
    return (f"convert it to .eml with `msgconvert {name}` (package libemail-outlook-message-perl), then "
            f"`boundread extract {stem}`")


def info(src: Source, req: Request) -> Details:
    return Details(fields={"format": "Outlook message (OLE)"}, est_chars=None,
                   warnings=[f"an Outlook .msg is not read: {_fix(src)}"])


def extract(src: Source, req: Request, sink: Sink) -> Outcome:
    raise Unsupported(f"{src.name} is an Outlook .msg message, which boundread does not read", _fix(src))
