"""The guard's estimates read text as its readers do (issue 22 item 1: "the grep and the guard's known-text reads
inherit the same decoding"): a cheap sniff of the first 64 KiB (a BOM, where the zero bytes fall, CR-only line
ends) tells UTF-16/32 and old-Mac text apart, so the lines it reports are the text's own, and ``rg`` - which
reads a UTF-16 file with a BOM as text and prints it in UTF-8 - is sized by what it prints, not by raw bytes that
its pattern never matches. Byte tools (head, sed, GNU grep) keep their byte view: ``head -n 100`` of a CR-only
file prints all of it, and is sized so."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard import check_command, estimate, facts
from boundread.guard.bounds import Grep

#: 40,000 log lines, one in 20 a WARN; "上" is U+4E0A, whose UTF-16LE bytes are 0A 4E: a byte 0x0A in a character
LOG = "".join(f"2026-03-01T00:{n % 60:02d}:00Z {'WARN' if n % 20 == 0 else 'INFO'} 上传 /api/items/{n} user=bob\n"
              for n in range(40_000))
JA = "いろはにほへと　ちりぬるを。日本語の文章を書きます。\r"  # Shift-JIS from classic Mac OS: CR-only


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("shapes")
    (root / "app.log").write_text(LOG, encoding="utf-8")
    for name, codec in (("u16.log", "utf-16"), ("u16le.log", "utf-16-le"), ("u32.log", "utf-32"),
                        ("u32le.log", "utf-32-le"), ("u32be.log", "utf-32-be")):
        (root / name).write_bytes(LOG.encode(codec))
    (root / "u16be.log").write_bytes(b"\xfe\xff" + LOG.encode("utf-16-be"))  # big-endian, with its BOM
    (root / "mac.txt").write_bytes((JA * 30_000).encode("shift_jis"))  # ~1.4 MB, 30,000 lines, no LF
    (root / "small-mac.txt").write_bytes(b"one\rtwo\rthree")
    (root / "small-u16.txt").write_bytes("一上\n二上\n三上".encode("utf-16"))
    return root


def _lines(path: Path) -> int:
    found = facts.text_lines(path, path.stat().st_size)
    assert found is not None
    return found[0]


@pytest.mark.parametrize(("text", "codec", "shape"), [
    ("hello\nworld\n" * 50, "utf-16", facts.UTF16_LE), ("hello\n" * 50, "utf-16-be", facts.UTF16_BE),
    ("hello\n" * 50, "utf-16-le", facts.UTF16_LE), ("hello\n" * 50, "utf-32", facts.UTF32_LE),
    ("hello\n" * 50, "utf-32-le", facts.UTF32_LE), ("привет мир\n" * 50, "utf-32-be", facts.UTF32_BE),
    ("hello\rworld\r" * 50, "utf-8", facts.CR_ONLY), (JA * 20, "shift_jis", facts.CR_ONLY),
    ("hello\r\nworld\r\n" * 50, "utf-8", ""), ("hello\n" * 50, "utf-8", ""), ("привет\n" * 50, "koi8-r", ""),
])
def test_the_sniff_names_the_shape_of_the_text(text: str, codec: str, shape: str) -> None:
    assert facts.text_shape(text.encode(codec)) == shape


def test_binary_with_scattered_zeros_is_no_unicode_shape() -> None:
    assert facts.text_shape(bytes(range(256)) * 16) == ""
    assert facts.text_shape(b"\x00" * 100) == ""  # zeros in every place: not UTF-16's pattern either


@pytest.mark.parametrize("name", ["app.log", "u16.log", "u16be.log", "u16le.log", "u32.log", "u32le.log",
                                  "u32be.log"])
def test_the_lines_of_utf16_and_utf32_are_its_line_feeds(folder: Path, name: str) -> None:
    # from a 64 KiB sample scaled to the file: within 5% of the 40,000 (a byte 0x0A in each 上 would double it)
    assert abs(_lines(folder / name) - 40_000) < 2_000, _lines(folder / name)


def test_a_cr_only_file_has_its_lines_not_one(folder: Path) -> None:
    assert abs(_lines(folder / "mac.txt") - 30_000) < 1_500
    assert facts.text_lines(folder / "small-mac.txt", 13) == (3, 13)  # exact when the sample is the file
    small = folder / "small-u16.txt"
    assert _lines(small) == 3


def test_byte_tools_still_see_one_line_in_a_cr_only_file(folder: Path) -> None:
    """head, sed and tail count LF bytes: of a CR-only file they print all of it, so a line bound is no bound."""
    for command in ("head -n 100 mac.txt", "sed -n 1,50p mac.txt", "tail -n 20 mac.txt"):
        decision = check_command(command, cwd=folder)
        assert decision.denied, command
        assert "~30," in decision.reason or "~29," in decision.reason, decision.reason  # its real lines, not "~1"
    assert not check_command("head -n 100 app.log", cwd=folder).denied  # the LF twin: a real part of it


def test_rg_of_a_utf16_file_with_a_bom_is_sized_by_what_it_prints(folder: Path) -> None:
    """rg decodes a BOM'd UTF-16 file and prints UTF-8: ``rg INFO`` pours ~95% of the text (it was allowed: its
    raw bytes I\\0N\\0F\\0O\\0 never match), ``rg WARN`` a twentieth (under the cap), like the UTF-8 twin."""
    reason = check_command("rg INFO u16.log", cwd=folder).reason
    assert "would print about 2." in reason and "MB" in reason, reason
    assert check_command("rg INFO app.log", cwd=folder).denied
    assert not check_command("rg WARN u16.log", cwd=folder).denied
    assert not check_command("rg nothing-like-this u16.log", cwd=folder).denied
    assert check_command("rg -i info u16.log", cwd=folder).denied
    assert check_command("rg INFO u16be.log", cwd=folder).denied


def test_the_estimate_is_the_utf8_it_prints(folder: Path) -> None:
    size = (folder / "u16.log").stat().st_size
    got = estimate.printed(str(folder / "u16.log"), size, Grep(("INFO",), "perl"))
    printed = sum(len(line.encode()) + 1 for line in LOG.splitlines() if "INFO" in line)
    assert abs(got - printed) < printed * 0.05, (got, printed)
    assert estimate.distinct(str(folder / "u16.log"), size, Grep(("WARN",), "perl", only=True)) < 100


def test_a_grep_that_says_whether_it_decodes_is_taken_at_its_word(folder: Path) -> None:
    """``Grep.decodes`` (rg: yes; grep -P, ag, ack: no, they call the file binary) wins over the syntax guess."""
    path, size = str(folder / "u16.log"), (folder / "u16.log").stat().st_size
    assert estimate.printed(path, size, Grep(("INFO",), "perl", decodes=False)) == 0
    assert estimate.printed(path, size, Grep(("INFO",), "extended", decodes=True)) > 2_000_000
    assert estimate.printed(path, size, Grep(("INFO",), "perl")) > 2_000_000  # unsaid: perl syntax, rg's kind


@pytest.mark.parametrize("command", [
    "grep INFO u16.log",  # GNU grep: a file with NUL bytes is binary, one line "binary file matches"
    "rg INFO u16le.log",  # no BOM: rg calls it binary too
    "rg INFO u32.log",  # rg decodes no UTF-32
])
def test_tools_that_do_not_decode_it_are_not_sized_as_if_they_did(folder: Path, command: str) -> None:
    assert not check_command(command, cwd=folder).denied
