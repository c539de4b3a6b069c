"""The sweep's measure can fail: words a reader drops are found missing, a warning excuses them only for a
corpus file, and the comparison ignores what tools legitimately differ on (case, spacing, digits, ligatures)."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.bytelevel import charset
from tests.sweep import fixtures, references
from tests.sweep import test_reference_sweep as sweep
from tests.sweep.test_reference_sweep import verdict
from tests.sweep.words import coverage, words


def test_words_are_normalised_letter_runs_and_cjk_characters() -> None:
    assert words("The ﬁnal  FINAL final 2024 ab x1y Ünïcode") == {"the", "final", "ünïcode"}
    assert words("東京は日本") == {"東", "京", "は", "日", "本"}


def test_a_dropped_line_is_missing_words() -> None:
    reference = f"{fixtures.EN}\n{fixtures.RU}\n"
    share, missing = coverage(fixtures.EN, reference)
    assert share < 0.6
    assert "электрификация" in missing and "quick" not in missing
    assert coverage(reference.upper().replace(" ", "\n"), reference) == (1.0, [])


def _case(strict: bool) -> fixtures.Case:
    return fixtures.Case("f.txt", "text", lambda folder: folder, lambda _path: "", strict=strict)


def test_the_verdict_fails_a_silent_drop_and_excuses_only_what_it_should() -> None:
    share, missing = coverage(fixtures.EN, f"{fixtures.EN}\n{fixtures.RU}")
    problem = verdict(_case(strict=True), 0, share, missing, [])
    assert problem is not None and "no warning" in problem and "электрификация" in problem
    assert verdict(_case(strict=True), 0, share, missing, ["encoding guessed: cp1251"]) is not None
    assert verdict(_case(strict=False), 0, share, missing, ["skipped 2 hidden sheet(s)"]) is None
    assert verdict(_case(strict=True), 5, share, missing, ["encrypted - pass --password"]) is None
    assert verdict(_case(strict=True), 2, 1.0, [], ["--ocr does not apply"]) is not None  # the sweep's own error
    assert verdict(_case(strict=True), 0, 0.96, missing[:1], []) is None


def test_every_class_has_a_generated_fixture(tmp_path: Path) -> None:
    classes = {case.cls for case in fixtures.cases()}
    assert classes >= {"text", "pdf", "pdf-form", "docx", "odt", "pptx", "odp", "sheet", "archive", "archive-member"}


def test_the_sweep_catches_silent_mojibake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole pipeline, with boundread's encoding decision broken on purpose (KOI8-R read as Latin-1, said to be
    certain): the sweep's check fails it and names the Cyrillic words it lost."""
    case = next(case for case in fixtures.cases() if case.name == "koi8r.txt")
    path = case.build(tmp_path)
    monkeypatch.setattr(charset, "decide", lambda *_args, **_kw: charset.Choice("latin-1", "utf-8"))
    code, text, warnings = sweep._boundread(path, case)
    share, missing = coverage(text, references.text(path, "KOI8-R"))
    problem = verdict(case, code, share, missing, warnings)
    assert code == 0 and not warnings and share < 0.1
    assert problem is not None and "электрификация" in problem
