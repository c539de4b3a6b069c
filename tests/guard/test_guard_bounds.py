"""A bounded-looking shell read is bounded only when what its bound lets through fits the caps.

Real files, generated in tmp_path: a 4.4 MB log, a 30 MB file of one line, a log of long lines, a
PDF and a small text. Each row is a command and what the guard must answer with the default caps.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard import bounds, check_command
from boundread.guard.config import GuardConfig


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from fpdf import FPDF

    root = tmp_path_factory.mktemp("bounds")
    (root / "huge.log").write_text("2026-12-01T05:51:05Z INFO worker-3 request served in 12 ms\n" * 75_000)
    (root / "one-line.txt").write_bytes(b"x" * (30 * 1024 * 1024))  # 30 MB, no newline
    (root / "long-lines.log").write_text(("y" * 999 + "\n") * 2_000)  # 2 MB of 1,000-byte lines
    (root / "small.txt").write_text("hello\n" * 10)
    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    for number in range(30):
        pdf.add_page()
        pdf.cell(text=f"page {number}")
    pdf.output(str(root / "report.pdf"))
    return root


DUMPS = [  # (command, rule): each prints (nearly) the whole of a file the guard denies
    ("head -c 100000000 huge.log", "text-size"),
    ("cat huge.log | head -c 100000000", "text-size"),
    ("head -n 100000000 huge.log", "text-size"),
    ("tail -c 2000000000 huge.log", "text-size"),
    ("sed -n '1,100000000p' huge.log", "text-size"),
    ("awk 1 huge.log", "text-size"),
    ("dd if=huge.log", "text-size"),
    ("head -1 one-line.txt", "text-long-lines"),
    ("tail -n 1 one-line.txt", "text-long-lines"),
    ("tail -n +1 huge.log", "text-size"),
    ("tail -n +2 huge.log", "text-size"),
    ("tail --lines=+1 huge.log", "text-size"),
    ("tail -c +1 huge.log", "text-size"),
    ("tail -n 100000000 huge.log", "text-size"),
    ("head -c 100000000 report.pdf", "pdf"),
    ("cat report.pdf | head -c 100000000", "pdf"),
    ("head -n 100000000 report.pdf", "pdf"),
    ("xxd -l 100000000 report.pdf", "pdf"),
    ("dd if=report.pdf", "pdf"),
    ("head --bytes=100M huge.log", "text-size"),
    ("head -c 1G huge.log", "text-size"),
    ("head -c 300000 huge.log", "text-size"),  # just over the 256 KB cap
    ("head -n -5 huge.log", "text-size"),  # all but the last 5 lines
    ("head -c 100000000 < huge.log", "text-size"),
    ("sed -n '1,$p' huge.log", "text-size"),
    ("sed -n '70000,$p' huge.log", "text-size"),
    ("sed -n p huge.log", "text-size"),
    ("sed 's/INFO/info/' huge.log", "text-size"),
    ("sed '' huge.log", "text-size"),
    ("awk '{print}' huge.log", "text-size"),
    ("awk '{print $1}' huge.log", "text-size"),
    ("awk -F' ' '{print $2}' huge.log", "text-size"),
    ("awk 'NR>1' huge.log", "text-size"),
    ("gawk 1 huge.log", "text-size"),
    ("dd if=huge.log bs=1M count=100", "text-size"),
    ("cat huge.log | sed -n '1,100000000p'", "text-size"),
    ("cat huge.log | awk 1", "text-size"),
    ("cat huge.log | tail -n +1", "text-size"),
    ("head -n 100000000 huge.log | cat", "text-size"),
    ("bash -c 'head -c 100000000 huge.log'", "text-size"),
    ("head -n 500 long-lines.log", "text-long-lines"),  # 500 KB of lines
    ("ls && head -n 100000000 huge.log", "text-size"),
]

LEGIT = [  # each prints a part that fits the cap, or nothing, or a small file whole
    "head -n 20 huge.log",
    "head -c 1000 report.pdf",
    "tail -n 100 huge.log",
    "sed -n 1,50p huge.log",
    "wc -l huge.log",
    "grep -c INFO huge.log",
    "cat huge.log | head -n 20",
    "cat huge.log | head -c 1000",
    "cat huge.log | head",
    "cat report.pdf | head -c 100",
    "head huge.log",
    "head -5 huge.log",
    "tail huge.log",
    "tail -f huge.log",
    "head -c 256000 huge.log",  # exactly the cap (256 kB)
    "head -c 1K report.pdf",
    "tail -c 4096 huge.log",
    "head -n 20 long-lines.log",
    "head -n 0 one-line.txt",
    "head -n 100000000 small.txt",  # the whole of a small text is fine
    "head -c 100000000 small.txt",
    "awk 1 small.txt",
    "dd if=small.txt",
    "sed -n '70000,70050p' huge.log",
    "sed 10q huge.log",
    "sed -n '5p' huge.log",
    "sed -n '$p' huge.log",
    "sed '1,10!d' huge.log",
    "sed -n '/ERROR/p' huge.log",
    "sed -i 's/a/b/' huge.log",
    "awk 'NR<=10' huge.log",
    "awk 'NR==5' huge.log",
    "awk 'NR==10,NR==20' huge.log",
    "awk 'NR>10{exit} {print}' huge.log",
    "awk '/ERROR/' huge.log",
    "awk 'END{print NR}' huge.log",
    "awk '{n++} END{print n}' huge.log",
    "awk 'BEGIN{print 1}'",
    "dd if=huge.log bs=1k count=10",
    "dd if=huge.log of=copy.log",
    "head -c 100000000 huge.log > out.txt",
    "head -n 100000000 huge.log | wc -l",
    "cat huge.log | head -n 1000 | tail -n 5",
    "cat huge.log | awk 'END{print NR}'",
    "xxd -l 64 report.pdf",
]


@pytest.mark.parametrize(("command", "rule"), DUMPS)
def test_dump_is_denied(files: Path, command: str, rule: str) -> None:
    decision = check_command(command, cwd=files)
    assert (decision.decision, decision.rule) == ("deny", rule), decision
    assert decision.reason.startswith("Not an error: boundread refused this on purpose")
    assert "boundread info" in decision.reason and len(decision.reason) <= 600


@pytest.mark.parametrize("command", LEGIT)
def test_bounded_read_is_allowed(files: Path, command: str) -> None:
    decision = check_command(command, cwd=files)
    assert decision.decision == "allow", decision.reason


def test_table_is_big_enough() -> None:
    assert len(DUMPS) + len(LEGIT) >= 40
    assert len(DUMPS) >= 20 and len(LEGIT) >= 20


def test_the_caps_are_the_configured_ones(files: Path) -> None:
    wide = GuardConfig(text_max_bytes=8 * 1024 * 1024)
    assert check_command("head -c 5000000 huge.log", cwd=files, config=wide).decision == "allow"
    assert check_command("head -n 20000 huge.log", cwd=files, config=wide).decision == "allow"
    tight = GuardConfig(text_max_bytes=1024)
    assert check_command("head -c 2000 huge.log", cwd=files, config=tight).decision == "deny"
    assert check_command("head -n 100 huge.log", cwd=files, config=tight).decision == "deny"
    assert check_command("head -n 10 huge.log", cwd=files, config=tight).decision == "allow"


def test_the_reason_shows_the_bound_that_was_too_big(files: Path) -> None:
    reason = check_command("cat huge.log | head -c 100000000", cwd=files).reason
    assert "`cat | head -c 100000000` would print huge.log" in reason
    assert "offset/limit" not in reason  # a shell has no Read parameters


@pytest.mark.parametrize(("text", "expected"), [
    ("10", ("", 10)), ("+5", ("+", 5)), ("-3", ("-", 3)), ("1K", ("", 1024)), ("2kB", ("", 2000)),
    ("1M", ("", 1024**2)), ("3b", ("", 1536)), ("1G", ("", 1024**3)), ("x", None), ("5Q", None), ("", None),
])
def test_counts_read_coreutils_suffixes(text: str, expected: tuple[str, int] | None) -> None:
    assert bounds.count(text) == expected


@pytest.mark.parametrize(("name", "args", "expected"), [
    ("head", [], bounds.Bound("lines", 10, words="head")),
    ("head", ["-n", "5", "f"], bounds.Bound("lines", 5, words="head -n 5")),
    ("head", ["-c5", "f"], bounds.Bound("bytes", 5, words="head -c 5")),
    ("tail", ["--bytes=7", "f"], bounds.Bound("bytes", 7, from_end=True, words="tail --bytes 7")),
    ("tail", ["-n", "+3", "f"], None),
    ("sed", ["-n", "3,5p", "f"], bounds.Bound("lines", 3, 2, words="sed -n 3,5p")),
    ("sed", ["-n", "3,+2p", "f"], bounds.Bound("lines", 3, 2, words="sed -n 3,+2p")),
    ("sed", ["20q", "f"], bounds.Bound("lines", 20, words="sed 20q")),
    ("awk", ["NR<5", "f"], bounds.Bound("lines", 4, words="awk 'NR<5'")),
    ("dd", ["if=f", "bs=4k", "count=2"], bounds.Bound("bytes", 8192, words="dd bs=4k count=2")),
    ("dd", ["if=f", "count=100", "iflag=count_bytes"], bounds.Bound("bytes", 100, words="dd count=100")),
])
def test_readings(name: str, args: list[str], expected: bounds.Bound | None) -> None:
    found = bounds.reading(name, args)
    assert found is not None and not found.filtered
    assert found.bound == expected
