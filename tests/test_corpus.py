"""Every real-world file in ../shared/corpus through `info` and `extract`, as an agent would run them.

Each must end in success or the documented exit code for what it is (encrypted -> 5, damaged -> 6,
a bomb -> 7, no text to extract -> 4), within its timeout, never with a traceback. Format-specific
facts (page counts, sentinel text, passwords) are checked in tests/formats/.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boundread.errors import ExitCode
from boundread.formats import ocr
from tests.conftest import CORPUS
from tests.helpers import run

OK, UNSUPPORTED, ENCRYPTED, CORRUPT, REFUSED = (
    ExitCode.OK, ExitCode.UNSUPPORTED, ExitCode.ENCRYPTED, ExitCode.CORRUPT, ExitCode.REFUSED,
)

# What `boundread extract FILE` must answer for each corpus file (the manifest says why).
EXTRACT_EXIT: dict[str, int] = {
    "7z-COMPRESS-542-endheadercorrupted.7z": CORRUPT,
    "7z-bla.encrypted-pw-foo.7z": ENCRYPTED,
    "gz-textfile_broken_gz.txt.gz": CORRUPT,
    "img-cgbi.png": UNSUPPORTED,
    "img-gif89.gif": UNSUPPORTED,
    # a screenshot of text: read by OCR where Tesseract is installed (CI installs it), else no text
    "img-magika_test.png": OK if ocr.missing("eng") is None else UNSUPPORTED,
    "img-webp.webp": UNSUPPORTED,
    "ods-issue_594_dos.ods": REFUSED,
    "pdf-aes-256-r6.pdf": ENCRYPTED,
    "sfx.exe": UNSUPPORTED,
    "xls-biff4_no_format_no_window2.xls": UNSUPPORTED,
    "xlsx-pass_protected.xlsx": ENCRYPTED,
    "zip-invalid_offset.zip": CORRUPT,
}

# manifest kind -> the kinds boundread may name (it is finer: xls and ods are not xlsx)
KIND_OK = {"xlsx": {"xlsx", "xls", "ods"}, "gz": {"gz", "tar"}, "other": {"binary"},
           "text": {"text", "csv", "tsv"}}  # a CSV is a workbook of one sheet, and greppable text

DOCUMENTED = {int(code) for code in ExitCode}


def corpus_files() -> list[str]:
    manifest = CORPUS / "manifest.json"
    if not manifest.is_file():
        return ["(corpus absent)"]
    return [entry["file"] for entry in json.loads(manifest.read_text(encoding="utf-8"))]


def json_of(*args: str) -> tuple[int, dict[str, Any]]:
    result = run(*args, "--json", "--timeout", "20")
    assert result.stderr == "", result.stderr  # --json: everything, errors included, is JSON on stdout
    return result.exit_code, json.loads(result.stdout)


@pytest.mark.corpus
@pytest.mark.parametrize("name", corpus_files())
def test_info_names_the_kind(name: str, manifest: dict[str, dict[str, Any]], corpus_dir: Path) -> None:
    code, data = json_of("info", str(corpus_dir / name))
    assert code == OK, data
    expected = manifest[name]["kind"]
    assert data["kind"] in KIND_OK.get(expected, {expected}), (data["kind"], manifest[name]["expect"])
    assert data["next"] or data["warnings"] or data["bytes"] == 0


@pytest.mark.corpus
@pytest.mark.parametrize("name", corpus_files())
def test_extract_ends_in_the_documented_answer(name: str, corpus_dir: Path, tmp_path: Path) -> None:
    code, data = json_of("extract", str(corpus_dir / name), "-o", str(tmp_path / "slice.txt"))
    assert code in DOCUMENTED
    assert code == EXTRACT_EXIT.get(name, OK), data
    if code == OK:
        written = (tmp_path / "slice.txt").read_text(encoding="utf-8")
        assert len(written) == data["chars"] <= 100_000
    else:
        assert data["error"]["exit_code"] == code and " - " in data["error"]["message"]
