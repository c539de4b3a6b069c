"""One module per kind of file, and the ordered registry that picks one.

Every handler module has the same shape (no base class, no import-time scanning):

    KINDS: tuple[str, ...]                                   # sniff kinds it handles
    def info(src: Source, req: Request) -> Details           # cheap: cost must not grow with length
    def extract(src: Source, req: Request, sink: Sink) -> Outcome

Handlers import their heavy library inside these functions, raise ``boundread.errors`` subclasses
(Encrypted, Corrupt, Refused, Unsupported), write text only into the sink, and stop as soon as
``sink.write`` returns False. They never print and never exit.
"""

from __future__ import annotations

from types import ModuleType

from boundread.errors import Unsupported
from boundread.formats import archive, binary, docx, image, pdf, pptx, sheets, text

#: Specific before generic; the first module whose KINDS has the kind wins.
HANDLERS: tuple[ModuleType, ...] = (pdf, docx, pptx, sheets, archive, image, text, binary)


def handler_for(kind: str) -> ModuleType:
    for module in HANDLERS:
        if kind in module.KINDS:
            return module
    raise Unsupported(f"no handler for {kind} files", "run `boundread info` to see what it is")
