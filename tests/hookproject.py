"""A project folder with one file of each kind the guard cares about, made in the test, and guard-check as an
agent's settings run it: shared by the tests of guard/, hook/, agents/ and adapters/ (each conftest.py imports
the fixture), so no test imports a conftest."""

from __future__ import annotations

import io
import os
import sqlite3
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
SENTINEL = "BOUNDREAD-SENTINEL-7"


def guard_argv(*args: str) -> list[str]:
    """`python -m boundread guard-check ...` exactly as an agent's settings run it (no install needed)."""
    return [sys.executable, "-m", "boundread", "guard-check", *args]


def bash_deny_reason(command: str, cwd: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The reason guard-check (in this process) refuses a Claude Code Bash call with, or '' when it allows it."""
    import json

    from boundread.hook.main import run

    payload = {"session_id": "s", "transcript_path": "/t", "cwd": str(cwd), "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": command}}
    run([], io.StringIO(json.dumps(payload)))
    out = capsys.readouterr().out
    if not out.strip():
        return ""
    answer = json.loads(out)["hookSpecificOutput"]
    return str(answer["permissionDecisionReason"]) if answer["permissionDecision"] == "deny" else ""


def guard_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOUNDREAD_GUARD_")}
    env["PYTHONPATH"] = str(SRC)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # cache bytecode outside the tree, as an install would
    env["PYTHONPYCACHEPREFIX"] = str(Path(tempfile.gettempdir()) / "boundread-test-pyc")
    return env


def _pdf(path: Path, pages: int) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    for number in range(pages):
        pdf.add_page()
        pdf.cell(text=f"{SENTINEL} page {number + 1}")
    pdf.output(str(path))


@pytest.fixture(scope="session")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project")
    _pdf(root / "report.pdf", 40)
    _pdf(root / "Estados financieros.pdf", 3)
    _pdf(root / "it's $HOME `x`.pdf", 2)
    (root / "disguised.txt").write_bytes((root / "report.pdf").read_bytes())  # a PDF named .txt
    (root / "notes.pdf").write_text(f"plain text {SENTINEL}\n")  # text named .pdf
    import docx
    import xlsxwriter

    document = docx.Document()
    document.add_paragraph(SENTINEL)
    document.save(str(root / "memo.docx"))
    book = xlsxwriter.Workbook(str(root / "prices.xlsx"))
    for name in ("Lista 2024", "Notas"):
        book.add_worksheet(name).write(0, 0, SENTINEL)
    book.close()
    from pptx import Presentation

    deck = Presentation()
    deck.slides.add_slide(deck.slide_layouts[5]).shapes.title.text = SENTINEL
    deck.save(str(root / "deck.pptx"))
    with zipfile.ZipFile(root / "bundle.zip", "w") as zf:
        for number in range(5):
            zf.writestr(f"doc{number}.txt", SENTINEL)
    with zipfile.ZipFile(root / "many.zip", "w") as zf:
        for number in range(1200):  # 360 KB of text: `unzip -p many.zip` prints more than the cap
            zf.writestr(f"f{number}.txt", "x" * 299 + "\n")
    with tarfile.open(root / "logs.tar.gz", "w:gz") as tf:
        data = SENTINEL.encode()
        info = tarfile.TarInfo("log.txt")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    (root / "small.txt").write_text(f"{SENTINEL}\n" * 10)
    (root / "big.log").write_text("2024-01-01 INFO something happened here\n" * 10000)  # ~410 KB
    (root / "one-line.txt").write_text("x" * 400_000)
    (root / "program").write_bytes(b"\x7fELF\x02\x01\x01" + bytes(4000))
    sqlite3.connect(root / "data.db").execute("create table t (x)").connection.commit()
    png = b"\x89PNG\r\n\x1a\n" + bytes(200)
    (root / "logo.png").write_bytes(png)
    (root / "attachments").mkdir()
    (root / "attachments" / "photo.png").write_bytes(png)
    (root / "huge.png").write_bytes(png + bytes(6 * 1024 * 1024))
    (root / "link-to-report").symlink_to(root / "report.pdf")
    (root / "folder").mkdir()
    return root
