"""The README and docs/ work as written: every `$ boundread ...` line runs, in order, on the demo files, and
prints what the page shows under it."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from boundread.formats import ocr
from tests.helpers import run

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: in the order a reader meets them: the README's links, then the reference pages
DOCS = [README, *(ROOT / "docs" / name for name in ("tour.md", "agents.md", "mcp.md", "budget.md", "python.md",
                                                     "reference.md", "benchmarks.md", "development.md"))]
# Commands whose documented answer is not 0 (the README shows the exit code next to them).
EXPECTED_EXIT = {("budget", "check"): 2}
# `pages ... --ocr force` needs Tesseract: without it the documented answer is "no text" (4).
OCR_EXIT = 0 if ocr.missing("eng") is None else 4


def _text(pages: list[Path]) -> str:
    return "\n".join(page.read_text(encoding="utf-8") for page in pages)


def readme_commands(pages: list[Path] = DOCS) -> list[list[str]]:
    text = _text(pages)
    blocks = re.findall(r"```[a-z]*\n(.*?)```", text, flags=re.S)
    commands = [shlex.split(line[len("$ boundread "):]) for block in blocks for line in block.splitlines()
                if line.startswith("$ boundread ")]
    return [words[:words.index("|")] if "|" in words else words for words in commands]  # `| head -2`: ours only


def documented_outputs(pages: list[Path] = DOCS) -> list[tuple[list[str], list[str]]]:
    """Each `$ boundread` line's words and the lines the page shows under it, up to the next `$` line."""
    shown: list[tuple[list[str], list[str]]] = []
    for block in re.findall(r"```[a-z]*\n(.*?)```", _text(pages), flags=re.S):
        for part in re.split(r"^(?=\$ )", block, flags=re.M):
            first, *rest = part.splitlines() or [""]
            if first.startswith("$ boundread "):
                words = shlex.split(first[len("$ boundread "):])
                shown.append((words[:words.index("|")] if "|" in words else words, rest))
    return shown


def _flat(text: str) -> str:
    return " ".join(text.split())


def python_examples() -> list[str]:
    text = _text(DOCS)
    return [block for block in re.findall(r"```python\n(.*?)```", text, flags=re.S) if "import boundread\n" in block]


@pytest.fixture
def demo_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BOUNDREAD_OUT_DIR")  # the README shows the default ./boundread-out/
    assert run("demo").exit_code == 0
    return tmp_path


def test_the_readme_has_a_tour() -> None:
    commands = [words[0] for words in readme_commands([README])]
    for command in ("info", "sheets", "extract", "budget"):
        assert command in commands
    commands = [words[0] for words in readme_commands()]
    for command in ("info", "pages", "sheets", "list-zip", "extract", "chunks", "budget"):
        assert command in commands


def test_every_page_the_readme_names_is_there() -> None:
    named = set(re.findall(r"docs/[a-z-]+\.md", README.read_text(encoding="utf-8")))
    assert named == {str(page.relative_to(ROOT)) for page in DOCS[1:]}


def test_every_readme_command_runs_as_documented(demo_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each command exits as documented and prints what the page shows: a JSON answer equal to it, or else every
    line shown (whitespace aside; `...` stands for lines left out). An OCR line's output shows Tesseract's read,
    so it is compared where Tesseract is installed (CI installs it). Each page starts with an empty ledger, as a
    reader of that page would."""
    compared = 0
    for doc, (words, shown) in ((page, shown) for page in DOCS for shown in documented_outputs([page])):
        monkeypatch.setenv("BOUNDREAD_STATE_DIR", str(demo_dir / ".state" / doc.stem))
        result = run(*words)
        expected = OCR_EXIT if "--ocr" in words else EXPECTED_EXIT.get(tuple(words[:2]), 0)
        assert result.exit_code == expected, (words, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr
        lines = [line for line in shown if line.strip() and line.strip() not in ("...", "…")]
        if not lines or ("--ocr" in words and OCR_EXIT):
            continue
        if lines[0].startswith("{"):
            assert json.loads(result.stdout) == json.loads("\n".join(lines)), words
        else:
            printed = _flat(result.stdout + result.stderr)
            missing = [line for line in lines if _flat(line) not in printed]
            assert missing == [], (words, result.stdout, result.stderr)
        compared += 1
    assert compared >= 10  # the pages show output under most commands
    assert (demo_dir / "boundread-out" / "server.log.grep-ERROR.txt").is_file()


def test_the_readme_python_example_runs(demo_dir: Path) -> None:
    (example,) = python_examples()
    namespace: dict[str, object] = {}
    exec(compile(example, str(README), "exec"), namespace)  # our own README's example
    assert namespace["about"].fields["pages"] == 12  # type: ignore[attr-defined]
    assert Path(namespace["part"].output).is_file()  # type: ignore[attr-defined]
