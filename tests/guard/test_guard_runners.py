"""A command run through a project's tool runner (``poetry run``, ``uv run``, ``conda run -n env``, ``npx``) or as
``python -m MODULE`` is the command itself; awk's ``getline < "file"`` printed is that file.

Files are made in the test: a 3 MB log, a 1.7 MB minified JSON array, a small Word document.
"""

from __future__ import annotations

import gzip
import json
import zipfile
from pathlib import Path

import pytest

from boundread.guard import check_command

_TYPES = ('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.'
          'wordprocessingml.document.main+xml"/></Types>')


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("runners")
    (root / "big.log").write_text("2026-12-01T05:51:05Z INFO worker-3 request served in 12 ms\n" * 55_000)
    (root / "min.json").write_text(json.dumps([{"id": n, "name": f"item {n}"} for n in range(60_000)]))
    (root / "big.log.gz").write_bytes(gzip.compress((root / "big.log").read_bytes()))
    with zipfile.ZipFile(root / "report.docx", "w") as docx:
        docx.writestr("[Content_Types].xml", _TYPES)
        paragraphs = "<w:p><w:r><w:t>a paragraph of the report</w:t></w:r></w:p>" * 13_000  # more than a memo's
        docx.writestr("word/document.xml", f"<w:document><w:body>{paragraphs}</w:body></w:document>")
    (root / "out").mkdir()
    return root


DUMPS = [
    ("poetry run cat big.log", "big.log"),
    ("uv run --with rich cat big.log", "big.log"),
    ("conda run -n base cat big.log", "big.log"),
    ("pdm run python -m json.tool min.json", "min.json"),
    ("python -m markitdown report.docx", "report.docx"),
    ("python3 -m json.tool --indent 2 min.json", "min.json"),
    ("python3 -m json.tool min.json out/p.json && cat out/p.json", "min.json"),
    ("python3 -m gzip -d < big.log.gz", "big.log.gz"),  # the standard library's gzip and base64 command lines
    ("python3 -m base64 big.log", "big.log"),
    ("awk 'BEGIN { while ((getline line < \"big.log\") > 0) print line }'", "big.log"),
    ("awk 'BEGIN { while ((getline < \"big.log\") > 0) print }'", "big.log"),
]

ALLOWED = [
    "poetry run pytest -q",
    "uv run ruff check .",
    "npx prettier --check src",
    "python3 -m json.tool min.json | head -n 40",  # short pretty-printed lines
    "python3 -m json.tool min.json out/p.json",
    "python3 -m gzip -d big.log.gz",  # decompressed to big.log, in place
    "awk 'BEGIN { while ((getline line < \"big.log\") > 0) n++; print n }'",
]


@pytest.mark.parametrize(("command", "name"), DUMPS)
def test_the_command_a_runner_runs_is_judged(work: Path, command: str, name: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert name in decision.reason and "boundread " in decision.reason, decision.reason


@pytest.mark.parametrize("command", ALLOWED)
def test_a_runner_s_ordinary_command_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)
