"""The guard's grep parser says which greps decode a UTF-16 file (rg, unless ``-E none``; GNU grep -P, ag and ack
call it binary), a CR-only file's refusal names no head/sed (they print it whole and are refused again), and a
grep refusal says when rg prints a UTF-16 file's text as UTF-8 (sweep requests 1, 3, 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard import check_command
from boundread.guard.bounds import MATCHES, Bound, Grep
from boundread.guard.config import GuardConfig
from boundread.guard.outputs import grep_reason
from boundread.guard.shell import greps

LOG = "".join(f"2026-03-01T00:{n % 60:02d}:00Z {'WARN' if n % 20 == 0 else 'INFO'} /api/items/{n} user=bob\n"
              for n in range(40_000))


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("decoding")
    (root / "u16.log").write_bytes(LOG.encode("utf-16"))
    (root / "app.log").write_text(LOG, encoding="utf-8")
    (root / "mac.txt").write_bytes(LOG.replace("\n", "\r").encode())
    return root


@pytest.mark.parametrize(("family", "words", "decodes"), [
    ("rg", ["INFO"], True), ("rg", ["-E", "none", "INFO"], False), ("rg", ["--encoding=none", "INFO"], False),
    ("rg", ["--encoding", "auto", "INFO"], True), ("grep", ["-P", "INFO"], False), ("ag", ["INFO"], False),
    ("ack", ["INFO"], False),
])
def test_which_greps_decode(family: str, words: list[str], decodes: bool) -> None:
    _patterns, _positional, _letters, values = greps._parse(family, words)
    assert greps._decodes(family, values) is decodes


@pytest.mark.parametrize("command", ["grep -P INFO u16.log", "ag INFO u16.log", "ack INFO u16.log",
                                     "rg -E none INFO u16.log"])
def test_greps_that_call_utf16_binary_are_not_sized_as_its_text(folder: Path, command: str) -> None:
    assert not check_command(command, cwd=folder).denied


@pytest.mark.parametrize("command", ["rg INFO u16.log", "rg --encoding auto INFO u16.log", "rg INFO app.log"])
def test_rg_that_decodes_is_sized_by_what_it_prints(folder: Path, command: str) -> None:
    decision = check_command(command, cwd=folder)
    assert decision.denied
    assert ("(its UTF-16 text, printed as UTF-8)" in decision.reason) == ("u16" in command)


@pytest.mark.parametrize("command", ["head -n 100 mac.txt", "sed -n 1,50p mac.txt", "tail -n 20 mac.txt",
                                     "cat mac.txt"])
def test_a_cr_only_refusal_suggests_no_head_or_sed(folder: Path, command: str) -> None:
    decision = check_command(command, cwd=folder)
    assert decision.denied
    assert "CR only" in decision.reason
    assert "head -n 200" not in decision.reason and "sed -n 1,200p" not in decision.reason
    assert "boundread extract mac.txt --lines 1-" in decision.reason


def test_an_lf_file_keeps_the_head_advice(folder: Path) -> None:
    reason = check_command("cat app.log", cwd=folder).reason
    assert "head -n 200, sed -n 1,200p" in reason and "CR only" not in reason


def test_grep_reason_says_rg_prints_utf16_as_utf8(folder: Path) -> None:
    path = folder / "u16.log"
    bound = Bound(MATCHES, 0, words="rg INFO", grep=Grep(("INFO",), "perl", decodes=True))
    said = grep_reason("u16.log", bound, 2_000_000, path.stat().st_size, GuardConfig(), str(path))
    assert "(its UTF-16 text, printed as UTF-8)" in said
    plain = grep_reason("app.log", bound, 2_000_000, (folder / "app.log").stat().st_size, GuardConfig(),
                        str(folder / "app.log"))
    assert "UTF-16" not in plain
