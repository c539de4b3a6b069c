"""One module per kind of file, grouped by family, and the ordered registry that picks one.

Every handler module has the same shape (no base class, no import-time scanning):

    KINDS: tuple[str, ...]                                   # sniff kinds it handles
    def info(src: Source, req: Request) -> Details           # cheap: cost must not grow with length
    def extract(src: Source, req: Request, sink: Sink) -> Outcome

Handlers import their heavy library inside these functions, raise ``boundread.errors`` subclasses
(Encrypted, Corrupt, Refused, Unsupported), write text only into the sink, and stop as soon as
``sink.write`` returns False. They never print and never exit.

The families: ``pdf/``, ``office/`` (word processing and presentations), ``sheets/``,
``archives/``, and the one-module families ``text``, ``image`` and ``binary``. Each family
package's docstring says which of its modules handles which kind; the rest are its helpers.

The registry names each handler module (its path under ``boundread.formats``) with the kinds it
handles, so a command imports only the one handler it needs (a test checks the names against each
module's KINDS).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from boundread.errors import Unsupported

#: Specific before generic; the first entry whose kinds include the kind wins.
HANDLERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pdf.handler", ("pdf",)),
    ("office.docx", ("docx", "odt")),
    ("office.pptx", ("pptx",)),
    ("office.odp", ("odp",)),
    ("sheets.handler", ("xlsx", "xls", "ods")),
    ("archives.handler", ("zip", "7z", "tar", "gz", "bz2", "xz", "rar")),
    ("image", ("image",)),
    ("text.handler", ("text",)),
    ("binary", ("binary", "doc", "ppt")),
)


def handler_for(kind: str) -> ModuleType:
    for name, kinds in HANDLERS:
        if kind in kinds:
            return importlib.import_module(f"boundread.formats.{name}")
    raise Unsupported(f"no handler for {kind} files", "run `boundread info` to see what it is")
