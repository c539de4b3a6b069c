"""boundread.bytelevel.sniff: a container's byte-0 signature wins over a "%PDF-" found further in."""

from __future__ import annotations

import io
import json
import tarfile
import zipfile
from importlib import resources
from pathlib import Path

import pytest

from boundread.bytelevel.sniff import sniff_bytes, sniff_data, sniff_path
from tests.helpers import run

SENTINEL = b"boundread-sniff-sentinel-4b7d"


def _pdf() -> bytes:
    return resources.files("boundread").joinpath("data/sample-report.pdf").read_bytes()


def _tar_with_pdf_first() -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tf:
        for name, data in (("report.pdf", _pdf()), ("notes.txt", SENTINEL)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _zip_with_pdf_first() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        zf.writestr("report.pdf", _pdf())
        zf.writestr("notes.txt", SENTINEL)
    return buf.getvalue()


@pytest.mark.parametrize(("build", "kind"), [(_tar_with_pdf_first, "tar"), (_zip_with_pdf_first, "zip")])
def test_archive_whose_first_member_is_a_pdf_is_the_archive(build: object, kind: str, tmp_path: Path) -> None:
    data = build()  # type: ignore[operator]
    assert 0 < data.find(b"%PDF-") < 1024  # the trap: a PDF header inside the first 1,024 bytes
    path = tmp_path / f"t.{kind}"
    path.write_bytes(data)
    assert sniff_path(path).kind == kind
    assert sniff_data(data).kind == kind
    anonymous = tmp_path / "noext"  # the bytes decide, not the name
    anonymous.write_bytes(data)
    assert sniff_path(anonymous).kind == kind


def test_tar_with_pdf_first_keeps_its_other_members(tmp_path: Path) -> None:
    tar = tmp_path / "t.tar"
    tar.write_bytes(_tar_with_pdf_first())
    result = run("info", str(tar), "--json")
    assert result.exit_code == 0, result.stderr
    info = json.loads(result.stdout)
    assert info["kind"] == "tar" and info["fields"]["entries"] == 2
    result = run("extract", str(tar), "--member", "notes.txt")
    assert result.exit_code == 0, result.stderr
    written = list((tmp_path / "out").iterdir())  # BOUNDREAD_OUT_DIR (conftest)
    assert any(SENTINEL in p.read_bytes() for p in written)


@pytest.mark.parametrize("prefix", [b"junk\r\n", b"From: mail\nContent-Type: application/pdf\n\n", b"\x00" * 100])
def test_pdf_after_a_short_junk_prefix_is_still_a_pdf(prefix: bytes) -> None:
    data = prefix + _pdf()
    found = sniff_bytes(data[:8192])
    assert found.kind == "pdf" and found.note == f"PDF header at byte {len(prefix)}"


def test_pdf_header_past_1024_bytes_is_not_a_pdf() -> None:
    assert sniff_bytes(b"x" * 1100 + _pdf()[:4000]).kind != "pdf"


def test_pdf_at_byte_0() -> None:
    found = sniff_bytes(_pdf()[:8192])
    assert found.kind == "pdf" and found.note == ""
