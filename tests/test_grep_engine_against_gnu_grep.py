"""`extract --grep` finds the lines GNU grep finds, by rg and by the Python path alike.

Generated logs in UTF-8 (with CRLF, non-ASCII words, a 13-digit number, needles), cp1251 and UTF-16 are searched
by boundread (``--stdout``, line numbers) and by ``grep -n -E`` over the same text decoded, with universal
newlines, into UTF-8 (grep reads UTF-8 only; the decoding is what `--encoding` says). The patterns are ones
Python's re and POSIX ERE read alike. Every row runs twice: rg allowed, and the Python path forced.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from unittest import mock

import pytest

from boundread.formats.text import rgengine
from tests.helpers import run

GREP = shutil.which("grep")
pytestmark = pytest.mark.skipif(GREP is None, reason="no GNU grep to compare with")

WORDS = ["alpha", "ERROR", "warn 42", "error 7", "привет мир", "café", "日本語", "done", "needle-0a1b2c-upstream",
         "needle-zzzzzz-upstream", "id 1700000000123", "id 170000000012", "INFO start", "Ошибка", "x\ty"]


def _lines() -> list[str]:
    out = []
    for n in range(300):
        a, b = WORDS[n % len(WORDS)], WORDS[(n * 7 + 3) % len(WORDS)]
        out.append(f"{a} {n} {b}" if n % 4 else f"{a} {b}")
    return out


FILES = {  # name: (bytes, --encoding)
    "utf8.log": ("\n".join(_lines()).encode() + b"\n", "utf-8"),
    "crlf.log": ("\r\n".join(_lines()).encode() + b"\r\n", "utf-8"),
    "cp1251.log": ("\n".join(line for line in _lines() if "日本" not in line and "é" not in line)
                   .encode("cp1251"), "cp1251"),
    "utf16.log": ("\n".join(_lines()).encode("utf-16"), "utf-16"),
}
PATTERNS = [("ERROR", False), ("needle-[0-9a-f]{6}.upstream", False), ("[0-9]{13}", False), ("^INFO", False),
            ("done$", False), ("(warn|error) [0-9]+", False), ("привет", False), ("[пр]ривет? мир", False),
            ("error", True), ("ПРИВЕТ", True), ("caf", False), ("^[a-z]+ [0-9]+ Ошибка$", False),
            ("NOSUCHTHING", False), ("x\ty", False)]


def _grep(path: Path, data: bytes, encoding: str, pattern: str, ignore_case: bool) -> tuple[list[str], int]:
    """grep's ``N:line`` lines over the decoded text, and how many lines the text has."""
    text = data.decode(encoding, "replace").replace("\r\n", "\n").replace("\r", "\n")
    if text.startswith("\ufeff"):
        text = text[1:]  # the BOM the decoder of "utf-16" drops as well
    copy = path.with_suffix(".utf8")
    copy.write_bytes(text.encode())
    argv = [str(GREP), "-n", "-E", *(["-i"] if ignore_case else []), "-e", pattern, str(copy)]
    done = subprocess.run(argv, capture_output=True, env={**os.environ, "LC_ALL": "C.UTF-8"}, check=False)
    assert done.returncode in (0, 1), done.stderr
    return done.stdout.decode().splitlines(), text.count("\n") + (1 if text and not text.endswith("\n") else 0)


@pytest.mark.parametrize("engine", ["auto", "python"])
@pytest.mark.parametrize("name", list(FILES))
def test_boundread_finds_the_lines_grep_finds(tmp_path: Path, name: str, engine: str) -> None:
    data, encoding = FILES[name]
    path = tmp_path / name
    path.write_bytes(data)
    for pattern, ignore_case in PATTERNS:
        expected, lines = _grep(path, data, encoding, pattern, ignore_case)
        with mock.patch.dict(os.environ, {rgengine.ENGINE_ENV: engine}):
            result = run("extract", str(path), "--grep", pattern, *(["-i"] if ignore_case else []),
                         "--encoding", encoding, "--max-matches", "100000", "--stdout")
        assert result.exit_code == 0, result.stderr
        assert result.stdout.splitlines() == expected, (name, pattern)
        assert f"{len(expected)} matching line{'' if len(expected) == 1 else 's'} of {lines:,} read" in result.stderr
