"""One module per kind of file, grouped by family, and the ordered registry that picks one.

Every handler module has the shape of ``contract.handler.Handler`` (no base class, no import-time
scanning; ``checked.py`` has mypy check each module against it):

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

from boundread.contract import kinds

TYPE_CHECKING = False  # not typing's: the registry loads on every read's start-up, its Protocols are for mypy
if TYPE_CHECKING:
    from typing import Protocol

    from boundread.contract.handler import Handler
    from boundread.contract.model import Listing, Request, Source

    class Members(Protocol):
        """What ``list-zip`` and ``--member`` call (``archives.handler``, and ``web.mail`` for an email's
        attachments): the engine picks one by kind."""

        def listing(self, src: Source, req: Request) -> Listing: ...
        def read_member(self, src: Source, name: str, req: Request) -> bytes: ...

#: Specific before generic; the first entry whose kinds include the kind wins.
HANDLERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("pdf.handler", ("pdf",)),
    ("office.docx", kinds.DOCUMENTS),
    ("office.pptx", ("pptx",)),
    ("office.odp", ("odp",)),
    ("database.handler", kinds.DATABASES),
    ("columnar.handler", ("parquet",)),
    ("columnar.arrow", ("arrow",)),
    ("sheets.handler", kinds.SPREADSHEETS),
    ("archives.handler", kinds.ARCHIVES),
    ("image", ("image",)),
    ("structured.handler", kinds.STRUCTURED),
    ("web.notebook", kinds.NOTEBOOKS),
    ("web.epub", kinds.EBOOKS),
    ("web.mail", kinds.MAIL),
    ("web.page", kinds.WEBPAGES),
    ("web.outlook", kinds.OUTLOOK),
    ("text.handler", ("text",)),
    ("binary", ("binary", *kinds.LEGACY)),
)


def handler_for(kind: str) -> Handler:
    for name, handled in HANDLERS:
        if kind in handled:
            # __import__, not importlib (~0.5 ms of start-up): with a fromlist it returns the module itself, which
            # has Handler's shape to mypy
            return __import__(f"boundread.formats.{name}", fromlist=("KINDS",))
    from boundread.errors import Unsupported  # here: cli/early.py loads this package before it starts rg

    raise Unsupported(f"no handler for {kind} files", "run `boundread info` to see what it is")

