"""A big text's deny names a range that the guard then allows: as many lines as its lines' length lets fit under
the bound, and bytes (``head -c``) when not even one line fits - a one-line 3 MB page has no range of lines to
pass, and ``head -n 200`` of it would be denied in turn (a next that leads nowhere)."""

from __future__ import annotations

import re
from pathlib import Path

from boundread.guard import check_read
from boundread.guard.command import check_command
from boundread.guard.config import GuardConfig

CFG = GuardConfig()


def test_a_one_line_file_is_pointed_at_bytes_not_lines(tmp_path: Path) -> None:
    (tmp_path / "one.txt").write_text("word " * 100_000, encoding="utf-8")  # 500 kB, no newline
    read = check_read(str(tmp_path / "one.txt"), cwd=tmp_path)
    assert read.decision == "deny" and "no range of lines fits" in read.reason, read.reason
    assert "offset/limit" not in read.reason and "~1 line)" in read.reason
    cat = check_command("cat one.txt", cwd=tmp_path)
    advice = f"head -c {CFG.text_max_bytes}"
    assert cat.decision == "deny" and advice in cat.reason and "head -n" not in cat.reason, cat.reason
    assert check_command(f"{advice} one.txt", cwd=tmp_path).decision == "allow"
    assert check_command("head -n 200 one.txt", cwd=tmp_path).decision == "deny"  # why lines are not offered


def test_long_lines_get_a_range_that_fits(tmp_path: Path) -> None:
    (tmp_path / "wide.log").write_text(("x" * 1_999 + "\n") * 1_000, encoding="utf-8")  # 2 MB of 2 kB lines
    read = check_read(str(tmp_path / "wide.log"), cwd=tmp_path)
    found = re.search(r"pass offset/limit, at most ([\d,]+) lines", read.reason)
    assert read.decision == "deny" and found is not None, read.reason
    lines = int(found.group(1).replace(",", ""))
    assert lines == CFG.text_max_bytes // 2_000 < CFG.line_cap
    assert check_read(str(tmp_path / "wide.log"), cwd=tmp_path, offset=1, limit=lines).decision == "allow"
    assert check_read(str(tmp_path / "wide.log"), cwd=tmp_path, offset=1, limit=lines + 2).decision == "deny"
    cat = check_command("cat wide.log", cwd=tmp_path)
    shown = re.search(r"head -n (\d+), sed -n 1,(\d+)p", cat.reason)
    assert shown is not None and shown.group(1) == shown.group(2), cat.reason
    assert check_command(f"head -n {shown.group(1)} wide.log", cwd=tmp_path).decision == "allow"


def test_short_lines_keep_the_line_cap(tmp_path: Path) -> None:
    (tmp_path / "big.log").write_text("a short line of a log\n" * 50_000, encoding="utf-8")
    read = check_read(str(tmp_path / "big.log"), cwd=tmp_path)
    assert f"pass offset/limit, at most {CFG.line_cap:,} lines" in read.reason, read.reason
    assert "head -n 200, sed -n 1,200p" in check_command("cat big.log", cwd=tmp_path).reason
