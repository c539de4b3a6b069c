"""Same file, same verdict: what `extract` refuses (exit 4-7), `info` describes as its `problem` (exit 0, in
words and in JSON) and `sheets` (the listing is a reading) refuses with the same code."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from boundread.errors import ExitCode
from tests.helpers import run

NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
LAUGHS = '<!ENTITY a0 "lol">' + "".join(f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 10))

# corpus file -> what extract answers; info names it, sheets (for workbooks) answers the same
VERDICTS = {
    "7z-COMPRESS-542-endheadercorrupted.7z": ExitCode.CORRUPT,
    "gz-textfile_broken_gz.txt.gz": ExitCode.CORRUPT,
    "ods-issue_594_dos.ods": ExitCode.REFUSED,
    "xls-biff4_no_format_no_window2.xls": ExitCode.UNSUPPORTED,
    "xlsx-pass_protected.xlsx": ExitCode.ENCRYPTED,
    "zip-invalid_offset.zip": ExitCode.CORRUPT,
}


def bomb_xlsx(folder: Path) -> Path:
    """A workbook whose shared strings are a billion laughs: nothing else about it is wrong."""
    parts = {
        "[Content_Types].xml": '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
        "xl/workbook.xml": f'<workbook {NS} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
                           'relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>',
        "xl/_rels/workbook.xml.rels":
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
            'worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.'
            'openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
            "</Relationships>",
        "xl/worksheets/sheet1.xml": f'<worksheet {NS}><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row>'
                                    "</sheetData></worksheet>",
        "xl/sharedStrings.xml": f'<?xml version="1.0"?><!DOCTYPE sst [{LAUGHS}]><sst {NS}><si><t>&a9;</t></si></sst>',
    }
    path = folder / "bomb.xlsx"
    with zipfile.ZipFile(path, "w") as zf:
        for name, xml in parts.items():
            zf.writestr(name, xml)
    return path


def check_same_verdict(path: Path, code: int) -> None:
    extracted = run("extract", str(path), "--json")
    assert extracted.exit_code == code, extracted.stdout
    refusal = json.loads(extracted.stdout)["error"]

    described = run("info", str(path), "--json")
    assert described.exit_code == 0
    problem = json.loads(described.stdout)["problem"]
    assert problem == {"code": refusal["code"], "exit_code": code, "message": refusal["message"]}
    words = run("info", str(path))
    assert "problem" in words.stdout and f"(extract exits {code})" in words.stdout
    assert " ".join(words.stdout.split()).count(" ".join(refusal["message"].split())) == 1  # once, not as a warning

    if path.suffix in (".xlsx", ".xls", ".ods"):
        listed = run("sheets", str(path))
        assert listed.exit_code == code and listed.stderr == f"boundread: error: {refusal['message']}\n"


@pytest.mark.corpus
@pytest.mark.parametrize("name", sorted(VERDICTS))
def test_info_names_what_extract_refuses(name: str, corpus_dir: Path) -> None:
    check_same_verdict(corpus_dir / name, VERDICTS[name])


def test_a_shared_strings_bomb_is_named_by_every_command(tmp_path: Path) -> None:
    bomb = bomb_xlsx(tmp_path)
    check_same_verdict(bomb, ExitCode.REFUSED)
    cells = run("sheets", str(bomb), "1")
    assert cells.exit_code == ExitCode.REFUSED and "XML bomb" in cells.stderr
    assert "EntitiesForbidden" not in cells.stderr + cells.stdout


def test_a_sound_file_has_no_problem(tmp_path: Path) -> None:
    log = tmp_path / "fine.log"
    log.write_text("all good\n", encoding="utf-8")
    data = json.loads(run("info", str(log), "--json").stdout)
    assert data["problem"] is None and "problem" not in run("info", str(log)).stdout
