"""The registry names each handler's kinds without importing it; they must agree with the module."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from boundread.bytelevel import sniff
from boundread.errors import Unsupported
from boundread.formats import HANDLERS, handler_for


@pytest.mark.parametrize(("name", "kinds"), HANDLERS)
def test_registry_kinds_match_each_module(name: str, kinds: tuple[str, ...]) -> None:
    module = importlib.import_module(f"boundread.formats.{name}")
    assert kinds == module.KINDS
    assert callable(module.info) and callable(module.extract)


def test_the_typed_list_is_the_registry() -> None:
    """formats/checked.py is where mypy checks each handler against the contract: it must hold every one."""
    from boundread.formats import checked

    named = tuple(importlib.import_module(f"boundread.formats.{name}") for name, _ in HANDLERS)
    assert named == checked.HANDLERS


def test_every_kind_family_is_handled_whole() -> None:
    """A family (workbooks, paged documents, archives) is read by handlers that take each of its kinds."""
    from boundread.contract import kinds

    for family in (kinds.WORKBOOKS, kinds.PAGED, kinds.DOCUMENTS, kinds.ARCHIVES, kinds.LEGACY):
        for kind in family:
            assert kind in handler_for(kind).KINDS
    assert kinds.family_words(kinds.PAGED) == "pdf, pptx, odp, ipynb, epub or html"


def test_every_sniffed_kind_has_a_handler() -> None:
    kinds = {sniff.PDF, sniff.DOCX, sniff.XLSX, sniff.XLS, sniff.ODS, sniff.PPTX, sniff.ODT, sniff.ODP, sniff.DOC,
             sniff.PPT, *sniff.ARCHIVE_KINDS, sniff.IMAGE, sniff.TEXT, sniff.BINARY}
    for kind in kinds:
        assert kind in handler_for(kind).KINDS


def test_an_unknown_kind_is_unsupported() -> None:
    with pytest.raises(Unsupported):
        handler_for("hologram")


def test_libmagic_is_asked_only_when_our_sniff_is_not_decisive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boundread.core import detect as detect_mod

    asked: list[Path] = []

    def fake_mime(path: Path) -> str:
        asked.append(path)
        return "application/pdf"

    monkeypatch.setattr(detect_mod, "libmagic_mime", fake_mime)
    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(b"%PDF-1.7\n%\xe2\xe3\n1 0 obj<<>>endobj\n")
    assert detect_mod.detect(pdf, sniff.sniff_path(pdf)).kind == sniff.PDF
    assert asked == []  # the %PDF- header decided it
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 4)
    sniffed = sniff.sniff_path(junk)
    assert (sniffed.kind, sniffed.subtype) == (sniff.BINARY, "unknown")
    assert detect_mod.detect(junk, sniffed).kind == sniff.PDF  # libmagic's specific answer wins for unknown bytes
    assert asked == [junk]
