"""Issue 22 item 1's tail: boundread's grep inherits the decoding - ``extract --grep WORD`` of a legacy-encoded or
UTF-16/32 text file finds the lines GNU grep finds in the same text decoded by iconv (the reference sweep's text
fixtures, tests/sweep/fixtures.py), for a word of the file's own script, with and without -i."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from boundread import api
from tests.sweep import fixtures, references

TEXT_CASES = [case for case in fixtures.cases() if case.cls == "text" and case.member is None]


def _grep_lines(text: str, word: str, ignore_case: bool) -> list[str]:
    """The lines GNU grep prints of ``text`` for the fixed string ``word``."""
    exe = shutil.which("grep")
    if exe is None:
        raise references.Missing("grep is not installed (apt-get install grep)")
    args = [exe, "-F", *(["-i"] if ignore_case else []), "--", word]
    env = {**os.environ, "LC_ALL": "C.UTF-8"}  # -i folds Cyrillic and Greek only in a UTF-8 locale
    done = subprocess.run(args, input=text.encode(), capture_output=True, timeout=60, check=False, env=env)
    return done.stdout.decode().splitlines()


@pytest.mark.parametrize("ignore_case", [False, True], ids=["case", "ignore-case"])
@pytest.mark.parametrize("case", TEXT_CASES, ids=[case.name for case in TEXT_CASES])
def test_grep_finds_the_lines_grep_finds_in_the_decoded_text(case: fixtures.Case, ignore_case: bool,
                                                              tmp_path: Path) -> None:
    path = case.build(tmp_path)
    try:
        reference = case.reference(path).replace("\r\n", "\n").replace("\r", "\n")
        word = max(re.findall(r"[^\W\d_]{3,}", reference), key=len)  # its longest word, as written: its script
        wanted = _grep_lines(reference, word.upper() if ignore_case else word, ignore_case)
    except references.Missing as exc:
        if references.in_ci():
            pytest.fail(f"CI installs the reference tools (.ci/run): {exc}")
        pytest.skip(str(exc))
    assert wanted, (case.name, word)
    result = api.extract(path, stdout=True, grep=word.upper() if ignore_case else word, ignore_case=ignore_case)
    found = [line for line in (result.text or "").splitlines() if word.lower() in line.lower()]
    assert len(found) == len(wanted), (case.name, word, result.warnings, (result.text or "")[:300])
