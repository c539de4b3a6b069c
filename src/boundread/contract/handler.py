"""The shape of a format handler, as a Protocol that mypy checks each handler module against.

A handler is a module, not a class (no base class, no import-time scanning): ``formats.handler_for``
imports the one it needs and returns it typed as :class:`Handler`, and ``formats/_checked.py`` assigns
every handler module to a ``Handler`` variable, so a handler whose ``info`` or ``extract`` drifts from
this signature is a type error, not a failure at run time.
"""

from __future__ import annotations

from typing import Protocol

from boundread.contract.model import Details, Outcome, Request, Source
from boundread.contract.sink import Sink


class Handler(Protocol):
    """``KINDS``: the sniff kinds it handles. ``info``: cheap, its cost must not grow with the file's length.
    ``extract``: writes text only into the sink and stops as soon as ``sink.write`` returns False. Both raise
    ``boundread.errors`` subclasses (Encrypted, Corrupt, Refused, Unsupported), never print, never exit."""

    KINDS: tuple[str, ...]

    def info(self, src: Source, req: Request, /) -> Details: ...

    def extract(self, src: Source, req: Request, sink: Sink, /) -> Outcome: ...
