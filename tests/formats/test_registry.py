"""The registry names each handler's kinds without importing it; they must agree with the module."""

from __future__ import annotations

import importlib

import pytest

from boundread.bytelevel import sniff
from boundread.errors import Unsupported
from boundread.formats import HANDLERS, handler_for


@pytest.mark.parametrize(("name", "kinds"), HANDLERS)
def test_registry_kinds_match_each_module(name: str, kinds: tuple[str, ...]) -> None:
    module = importlib.import_module(f"boundread.formats.{name}")
    assert kinds == module.KINDS
    assert callable(module.info) and callable(module.extract)


def test_every_sniffed_kind_has_a_handler() -> None:
    kinds = {sniff.PDF, sniff.DOCX, sniff.XLSX, sniff.XLS, sniff.ODS, sniff.PPTX, sniff.ODT, sniff.ODP, sniff.DOC,
             sniff.PPT, *sniff.ARCHIVE_KINDS, sniff.IMAGE, sniff.TEXT, sniff.BINARY}
    for kind in kinds:
        assert kind in handler_for(kind).KINDS


def test_an_unknown_kind_is_unsupported() -> None:
    with pytest.raises(Unsupported):
        handler_for("hologram")
