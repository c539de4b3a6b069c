"""check_read: decided by content, symlinks followed, bounded reads allowed, reasons that teach."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from boundread.guard import check_read
from boundread.guard.config import GuardConfig
from boundread.guard.facts import office_facts, pdf_pages


@pytest.mark.parametrize(("name", "decision", "rule"), [
    ("report.pdf", "deny", "pdf"),
    ("disguised.txt", "deny", "pdf"),  # a PDF named .txt
    ("notes.pdf", "allow", "text-ok"),  # text named .pdf
    ("link-to-report", "deny", "pdf"),  # symlink followed
    ("memo.docx", "deny", "office"),
    ("prices.xlsx", "deny", "office"),
    ("deck.pptx", "deny", "office"),
    ("bundle.zip", "deny", "archive"),
    ("logs.tar.gz", "deny", "archive"),
    ("program", "deny", "binary"),
    ("data.db", "deny", "binary"),
    ("big.log", "deny", "text-size"),
    ("small.txt", "allow", "text-ok"),
    ("logo.png", "allow", "image-ok"),
    ("attachments/photo.png", "deny", "image-attachment"),
    ("huge.png", "deny", "image-size"),
    ("missing.pdf", "allow", "missing"),
    ("folder", "allow", "directory"),
])
def test_whole_reads(project: Path, name: str, decision: str, rule: str) -> None:
    result = check_read(str(project / name), cwd=project)
    assert (result.decision, result.rule) == (decision, rule), result.reason
    if decision == "deny":
        assert 0 < len(result.reason) <= 600
        assert f"boundread info {shlex.quote(name)}" in result.reason or "list-zip" in result.reason


def test_bounded_text_read_is_allowed(project: Path) -> None:
    path = str(project / "big.log")
    assert check_read(path, offset=1, limit=200).decision == "allow"
    assert check_read(path, limit=2000).decision == "allow"
    assert check_read(path, limit=5000).decision == "deny"
    assert check_read(path, offset=9000).decision == "deny"  # no limit: not bounded
    assert check_read(path, limit=500, config=GuardConfig(line_cap=100)).decision == "deny"


def test_one_long_line_is_not_a_bounded_read(project: Path) -> None:
    result = check_read(str(project / "one-line.txt"), limit=1)
    assert (result.decision, result.rule) == ("deny", "text-long-lines")


def test_pdf_pages_range_up_to_the_cap(project: Path) -> None:
    path = str(project / "report.pdf")
    assert check_read(path, pages="1-5").decision == "allow"
    assert check_read(path, pages="1-20").decision == "allow"
    assert check_read(path, pages="1-21").decision == "deny"
    assert check_read(path, pages="1-3", config=GuardConfig(pdf_page_cap=2)).decision == "deny"
    assert check_read(path, pages="nonsense").decision == "deny"


def test_reason_teaches_the_file(project: Path) -> None:
    pdf = check_read(str(project / "Estados financieros.pdf"), cwd=project).reason
    assert "boundread info 'Estados financieros.pdf'" in pdf
    assert "boundread pages 'Estados financieros.pdf' 1-5" in pdf
    assert "PDF" in pdf and "3 pages" in pdf and "read the output file in parts" in pdf
    xlsx = check_read(str(project / "prices.xlsx"), cwd=project).reason
    assert "'Lista 2024'" in xlsx and "2 sheets" in xlsx
    assert "boundread sheets prices.xlsx 'Lista 2024' --max-rows 50" in xlsx
    zipped = check_read(str(project / "bundle.zip"), cwd=project).reason
    assert "5 entries" in zipped and "boundread list-zip bundle.zip" in zipped
    log = check_read(str(project / "big.log"), cwd=project).reason
    assert "lines" in log and "boundread extract big.log --lines 1-500" in log


def test_paths_outside_cwd_stay_absolute_and_quoted(project: Path, tmp_path: Path) -> None:
    result = check_read(str(project / "it's $HOME `x`.pdf"), cwd=tmp_path)
    lines = [line.strip() for line in result.reason.splitlines() if line.startswith("  boundread ")]
    assert lines and all(shlex.split(line)[2] == str(project / "it's $HOME `x`.pdf") for line in lines)


def test_relative_path_resolved_from_cwd(project: Path) -> None:
    assert check_read("report.pdf", cwd=project).decision == "deny"
    assert check_read("~/no-such-file.pdf").decision == "allow"


def test_allow_globs_and_kinds(project: Path) -> None:
    assert check_read(str(project / "report.pdf"), config=GuardConfig(allow=("*.pdf",))).decision == "allow"
    only_archives = GuardConfig(deny_kinds=frozenset({"zip"}))
    assert check_read(str(project / "report.pdf"), config=only_archives).decision == "allow"
    assert check_read(str(project / "bundle.zip"), config=only_archives).decision == "deny"


def test_cheap_facts(project: Path) -> None:
    path = project / "report.pdf"
    assert pdf_pages(path, path.stat().st_size) == 40
    assert office_facts(project / "prices.xlsx", "xlsx") == {"sheets": ["Lista 2024", "Notas"]}
    assert office_facts(project / "deck.pptx", "pptx") == {"slides": 1}


def test_workbook_with_doctype_is_not_parsed(tmp_path: Path) -> None:
    import zipfile

    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w") as zf:
        zf.writestr("[Content_Types].xml", "<Types/>")
        zf.writestr("xl/workbook.xml", '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><workbook/>')
    assert office_facts(bomb, "xlsx") == {}
    assert check_read(str(bomb)).decision == "deny"


@pytest.mark.corpus
def test_corpus_files_by_kind(corpus_dir: Path, manifest: dict[str, dict[str, object]]) -> None:
    guarded = {"pdf", "docx", "xlsx", "pptx", "zip", "7z", "tar", "gz"}
    for name, entry in manifest.items():
        result = check_read(str(corpus_dir / name), cwd=corpus_dir)
        assert result.reason == "" or len(result.reason) <= 600, name
        if entry["kind"] in guarded and "is-text" not in name:
            assert result.decision == "deny", (name, result.rule)


@pytest.mark.parametrize("name", ["report.pdf", "prices.xlsx", "bundle.zip", "big.log", "program", "huge.png"])
def test_reason_reads_as_a_decision_not_a_fault(project: Path, name: str) -> None:
    """Claude Code shows a deny as "PreToolUse:Read hook error: <reason>": the reason says at once it is on purpose."""
    result = check_read(str(project / name), cwd=project)
    assert result.reason.startswith("Not an error: boundread refused this on purpose - "), result.reason
    assert "boundread info" in result.reason or "boundread list-zip" in result.reason
