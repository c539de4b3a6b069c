"""The command table: shell commands that would dump a guarded file are denied, safe ones allowed."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from boundread.guard import check_command
from boundread.guard.config import GuardConfig

DENY = [
    ("cat report.pdf", "pdf"),
    ("cat 'Estados financieros.pdf'", "pdf"),
    ("less report.pdf", "pdf"),
    ("more memo.docx", "office"),
    ("strings program", "binary"),
    ("base64 logo.png", "image-dump"),
    ("xxd report.pdf", "pdf"),
    ("od -c data.db", "binary"),
    ("hexdump -C program", "binary"),
    ("unzip -p bundle.zip 'doc*.txt'", "archive"),  # a pattern: the members cannot be told apart
    ("zcat logs.tar.gz", "archive"),
    ("tar -xOf logs.tar.gz", "archive"),
    ("tar -xzf logs.tar.gz -O", "archive"),
    ("tar --extract --to-stdout --file=logs.tar.gz", "archive"),
    ("gzip -dc logs.tar.gz", "archive"),
    ("cat big.log", "text-size"),
    ("tac big.log", "text-size"),
    ("nl big.log", "text-size"),
    ("cat disguised.txt", "pdf"),
    ("cat link-to-report", "pdf"),
    ("cat small.txt report.pdf", "pdf"),
    ("cat < report.pdf", "pdf"),
    ("cat report.pdf | tr a-z A-Z", "pdf"),
    ("cat prices.xlsx | base64", "office"),
    ("ls && cat report.pdf", "pdf"),
    ("false || cat report.pdf", "pdf"),
    ("cd . ; cat report.pdf", "pdf"),
    ("echo $(cat report.pdf)", "pdf"),
    ('echo "$(cat deck.pptx)"', "office"),
    ("echo `cat report.pdf`", "pdf"),
    ("(cat report.pdf)", "pdf"),
    ("bash -c 'cat report.pdf'", "pdf"),
    ("sh -lc \"cat memo.docx\"", "office"),
    ("sudo -u me cat report.pdf", "pdf"),
    ("env LANG=C cat report.pdf", "pdf"),
    ("LC_ALL=C cat report.pdf", "pdf"),
    ("timeout 5 cat report.pdf", "pdf"),
    ("/bin/cat report.pdf", "pdf"),
    ("cat report.pdf 2>/dev/null", "pdf"),
    ("cat report.pdf > /dev/stdout", "pdf"),
    ("python -c \"print(open('report.pdf').read())\"", "pdf"),
    ("python3 -c \"import sys; sys.stdout.write(open('big.log').read())\"", "text-size"),
    ("python3 -c \"from pathlib import Path; print(Path('memo.docx').read_bytes())\"", "office"),
    ("unzip many.zip", "archive-extract"),
    ("unzip -o many.zip -d out", "archive-extract"),
    ("7z x many.zip", "archive-extract"),
    ("7z x -so bundle.zip", "archive"),
    ("cat attachments/photo.png", "image-attachment"),
    ("pdftotext report.pdf -", "pdf"),
]

ALLOW = [
    "cat small.txt",
    "cat notes.pdf",
    "cat missing-file.pdf",
    "cat folder",
    "cat report.pdf > copy.pdf",
    "cat report.pdf >> all.bin",
    "cat report.pdf &> out.txt",
    "cat report.pdf > /dev/null",
    "cat report.pdf | head",
    "cat report.pdf | head -c 100",
    "cat big.log | tail -n 20",
    "cat report.pdf | wc -c",
    "cat report.pdf | grep -c total",
    "cat report.pdf | grep total",  # only matching lines, as `grep total report.pdf` prints
    "cat report.pdf | md5sum",
    "xxd -l 64 report.pdf",
    "head -n 50 big.log",
    "tail big.log",
    "wc -l big.log",
    "file report.pdf",
    "ls -la",
    "grep -c ERROR big.log",
    "pdftotext report.pdf out.txt",
    "pdftotext -f 1 -l 2 report.pdf -",
    "boundread info report.pdf",
    "boundread pages 'Estados financieros.pdf' 1-5",
    "unzip -l many.zip",
    "unzip -c bundle.zip",  # five members of a line each: their text is small
    "unzip bundle.zip -d out",
    "7z l many.zip",
    "tar -tzf logs.tar.gz",
    "tar -xzf logs.tar.gz",
    "cp report.pdf backup.pdf",
    "git status && git diff",
    "echo 'cat report.pdf'",
    "grep 'cat report.pdf' small.txt",
    "cat /dev/null",
    "python -c \"print(open('small.txt').read())\"",
    "python -c \"print(open('report.pdf').read(100))\"",
    "git commit -m \"$(cat <<'EOF'\nDo not cat report.pdf\nEOF\n)\"",
    "cat <<EOF > notes.md\ncat report.pdf\nEOF",
    "gzip -c small.txt > small.txt.gz",
    "cat logo.png > copy.png",
    "# cat report.pdf",
]


@pytest.mark.parametrize(("command", "rule"), DENY)
def test_denied(project: Path, command: str, rule: str) -> None:
    decision = check_command(command, cwd=project)
    assert decision.decision == "deny", decision
    assert decision.rule == rule
    assert "boundread " in decision.reason
    assert len(decision.reason) <= 600


@pytest.mark.parametrize("command", ALLOW)
def test_allowed(project: Path, command: str) -> None:
    decision = check_command(command, cwd=project)
    assert decision.decision == "allow", decision.reason


def test_table_is_big_enough() -> None:
    assert len(DENY) + len(ALLOW) >= 60
    assert len(DENY) >= 25 and len(ALLOW) >= 25


def test_suggested_commands_name_the_file(project: Path) -> None:
    decision = check_command("cat 'Estados financieros.pdf'", cwd=project)
    commands = [line.strip() for line in decision.reason.splitlines() if line.startswith("  boundread ")]
    assert commands[:2] == ["boundread info 'Estados financieros.pdf'",
                            "boundread pages 'Estados financieros.pdf' 1-5 --max-chars 20000"]
    assert "read the output file in parts" in decision.reason


def test_unpack_suggests_listing(project: Path) -> None:
    decision = check_command("unzip many.zip", cwd=project)
    assert "boundread list-zip many.zip" in decision.reason
    assert "1200 entries" in decision.reason


def test_extract_limits_are_configurable(project: Path) -> None:
    strict = GuardConfig(extract_max_entries=3)
    assert check_command("unzip bundle.zip", cwd=project, config=strict).decision == "deny"
    relaxed = GuardConfig(extract_max_entries=5000)
    assert check_command("unzip many.zip", cwd=project, config=relaxed).decision == "allow"


def test_quoted_name_with_quote_dollar_backtick(project: Path) -> None:
    name = "it's $HOME `x`.pdf"
    decision = check_command(f"cat {shlex.quote(name)}", cwd=project)
    assert decision.decision == "deny"
    lines = [line.strip() for line in decision.reason.splitlines() if line.startswith("  boundread ")]
    assert lines
    for line in lines:
        assert shlex.split(line)[2] == name  # pasting it into a shell gives back the exact name
