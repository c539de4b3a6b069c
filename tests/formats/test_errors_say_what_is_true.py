"""Errors say what is true (issue 22, item 5): an encrypted ODF document is exit 5 (encrypted), not exit 6
"not well-formed XML"; a valid .xlsb is read through python-calamine, not called a damaged xlsx.

The encrypted ODF files are built here the way LibreOffice writes them: a stored ``mimetype``, parts whose bytes
are ciphertext (random here), and a ``META-INF/manifest.xml`` that gives each of them ``encryption-data``. The
xlsb is a captured sample (tests/formats/samples/README.md says where from): no Python library writes xlsb.
"""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from pathlib import Path

import pytest
from tests.formats.test_docx import make_odt
from tests.helpers import run

from boundread.bytelevel.sniff import sniff_path
from boundread.errors import ExitCode

XLSB = Path(__file__).parent / "samples" / "calamine-base.xlsb"
MIMES = {"odt": "application/vnd.oasis.opendocument.text",
         "odp": "application/vnd.oasis.opendocument.presentation",
         "ods": "application/vnd.oasis.opendocument.spreadsheet"}
MANIFEST = """<?xml version="1.0" encoding="UTF-8"?>
<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">
 <manifest:file-entry manifest:full-path="/" manifest:media-type="{mime}"/>
 <manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml" manifest:size="4000">
  <manifest:encryption-data manifest:checksum-type="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0#sha256-1k"
    manifest:checksum="AAAA">
   <manifest:algorithm manifest:algorithm-name="http://www.w3.org/2001/04/xmlenc#aes256-cbc"
     manifest:initialisation-vector="AAAA"/>
   <manifest:key-derivation manifest:key-derivation-name="PBKDF2" manifest:key-size="32"
     manifest:iteration-count="100000" manifest:salt="AAAA"/>
  </manifest:encryption-data>
 </manifest:file-entry>
</manifest:manifest>
"""


def _encrypted_odf(path: Path, kind: str) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(zipfile.ZipInfo("mimetype"), MIMES[kind])
        zf.writestr("content.xml", os.urandom(4000))  # ciphertext: not XML
        zf.writestr("styles.xml", os.urandom(1000))
        zf.writestr("META-INF/manifest.xml", MANIFEST.format(mime=MIMES[kind]), zipfile.ZIP_DEFLATED)
    return path


@pytest.mark.parametrize("kind", sorted(MIMES))
def test_an_encrypted_odf_document_is_encrypted_not_damaged(tmp_path: Path, kind: str) -> None:
    path = _encrypted_odf(tmp_path / f"secret.{kind}", kind)
    result = run("extract", str(path), "--stdout")
    assert result.exit_code == ExitCode.ENCRYPTED == 5
    assert "password-protected (ODF encryption, which boundread cannot decrypt)" in result.stderr
    assert "remove the password in LibreOffice" in result.stderr
    assert "well-formed" not in result.stderr
    info = json.loads(run("info", str(path), "--json").stdout)
    assert info["encrypted"] is True


def test_an_odf_manifest_without_encryption_is_not_encrypted(tmp_path: Path) -> None:
    path = tmp_path / "plain.odt"
    path.write_bytes(make_odt())
    with zipfile.ZipFile(path, "a") as zf:  # a plain manifest, as every ODF writer adds
        zf.writestr("META-INF/manifest.xml", MANIFEST.split("<manifest:file-entry manifest:full-path=\"content")[0]
                    .format(mime=MIMES["odt"]) + "</manifest:manifest>\n")
    assert not sniff_path(path).encrypted
    result = run("extract", str(path), "--stdout")
    assert result.exit_code == 0 and "ODT-SENTINEL" in result.stdout


@pytest.mark.parametrize("name", ["book.xlsb", "misnamed.xlsx", "noext"])
def test_a_valid_xlsb_is_read_through_calamine(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    shutil.copy(XLSB, path)
    result = run("extract", str(path), "--stdout", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert "String,1,1.1,TRUE,FALSE,2010-10-10,2010-10-10T10:10:10,10:10:10,10:10:10.1,255:10:10" in data["text"]
    assert "line3,line3,line3" in data["text"]
    info = json.loads(run("info", str(path), "--json").stdout)
    assert [s["name"] for s in info["fields"]["sheets"]] == ["Sheet1", "Sheet2", "Sheet3", "Merged Cells"]
    assert not info["warnings"]


def test_an_xlsb_inside_a_zip_is_read_too(tmp_path: Path) -> None:
    path = tmp_path / "bundle.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.write(XLSB, "report.xlsb")
    result = run("extract", str(path), "--member", "report.xlsb", "--stdout")
    assert result.exit_code == 0, result.stderr
    assert "255:10:10" in result.stdout


@pytest.mark.parametrize("kind", ["pptx", "docx", "xlsx"])
def test_a_zip_entry_needing_a_newer_zip_version_is_damaged_not_a_traceback(tmp_path: Path, kind: str) -> None:
    """A central directory entry that asks for zip version 8.4 to extract (one flipped byte, found by the property
    test): zipfile raises NotImplementedError on open, which ended `info` of a pptx in a traceback."""
    import io

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("word/document.xml" if kind == "docx" else "ppt/presentation.xml" if kind == "pptx"
                    else "xl/workbook.xml", "<x/>")
    data = bytearray(buf.getvalue())
    at = data.rindex(b"PK\x01\x02")  # the last central directory entry: its "version needed to extract"
    data[at + 6] = 84
    path = tmp_path / f"odd.{kind}"
    path.write_bytes(bytes(data))
    described = run("info", str(path))  # info describes a damaged file, with what is wrong as a warning
    assert described.exit_code == 0 and "zip file version 8.4" in described.stdout, described.stderr
    done = run("extract", str(path))
    assert done.exit_code in (ExitCode.CORRUPT, ExitCode.UNSUPPORTED), (done.stdout, done.stderr)
    assert done.stderr.startswith("boundread: error: ") and done.stderr.count("\n") == 1, done.stderr
