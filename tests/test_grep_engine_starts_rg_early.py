"""`extract BIG --grep P` starts its rg from the command line, before the engine loads (cli/early.py): the
engine takes that rg when it would run the same command, and otherwise kills it and runs its own; an rg the read
never takes is killed when the command ends. Whatever was started, the answer is the one without the early start.

The tests run the CLI's fast path in this process with the size floor lowered, and record every rg started.
"""

from __future__ import annotations

import random
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

from boundread.cli import early as starter
from boundread.cli import fast
from boundread.formats._rg import early, pattern
from boundread.formats._rg.child import Child
from boundread.formats.text import rgengine
from tests.helpers import needs_rg


@pytest.fixture(autouse=True)
def _needs_rg() -> None:
    needs_rg()


class Started:
    """Every rg started, by the early path and by the engine: (who, argv, child)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.runs: list[tuple[str, list[str], Child]] = []
        monkeypatch.setattr(starter, "EARLY_MIN", 1)
        for who, module in (("early", starter), ("engine", rgengine)):
            monkeypatch.setattr(module, "spawn", self._spawner(who, module.spawn))

    def _spawner(self, who: str, spawn: Any) -> Any:
        def started(argv: list[str], **kwargs: Any) -> Child:
            child: Child = spawn(argv, **kwargs)
            self.runs.append((who, argv, child))
            return child
        return started

    def searches(self) -> list[tuple[str, list[str], Child]]:
        """The searches (not the lone-CR check or the line count beside them)."""
        return [run for run in self.runs if "--max-columns" not in run[1]]


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Started:
    monkeypatch.setenv("BOUNDREAD_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.delenv("BOUNDREAD_GREP_ENGINE", raising=False)
    return Started(monkeypatch)


def _log(tmp_path: Path, text: str, name: str = "app.log") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


def _grep(tmp_path: Path, log: Path, *options: str) -> str:
    out = tmp_path / "out.txt"
    assert fast.dispatch(["extract", str(log), *options, "-o", str(out)]) == 0
    return out.read_text(encoding="utf-8")


def _late(tmp_path: Path, log: Path, *options: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """The same read with nothing started early (the size floor above the file)."""
    with monkeypatch.context() as patch:
        patch.setattr(starter, "EARLY_MIN", 1 << 40)
        return _grep(tmp_path, log, *options)


LOG = "".join(f"{n} INFO request served id={n:05d}\n" if n % 7 else f"{n} ERROR upstream timeout id={n:05d}\n"
              for n in range(1, 3000))


@pytest.mark.parametrize("options", [("--grep", "ERROR"), ("--grep", "error", "-i"), ("--grep", r"id=0\d1", "-C", "2"),
                                     ("--grep", "ERROR", "--max-matches", "3")])
def test_the_engine_takes_the_rg_started_for_it(started: Started, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                options: tuple[str, ...]) -> None:
    log = _log(tmp_path, LOG)
    text = _grep(tmp_path, log, *options)
    searches = started.searches()
    assert [who for who, _argv, _child in searches] == ["early"]  # one search, and the engine started none
    assert searches[0][2].returncode is not None  # reaped
    assert not early.held()
    assert text == _late(tmp_path, log, *options, monkeypatch=monkeypatch)
    assert "ERROR" in text or "error" in text.lower()


def test_a_wrong_guess_is_killed_and_the_engine_runs_its_own(started: Started, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # UTF-8 in its first 8 KB (the early guess), cp1252 past it (the engine's decision from 2 MB): `caf.` is
    # translated for a single-byte code page, so the engine's command is another
    log = tmp_path / "mixed.log"
    log.write_bytes(b"plain ascii line\n" * 1000 + b"caf\xe9 ouvert\n" + b"tail line\n" * 10)
    text = _grep(tmp_path, log, "--grep", "caf.")
    whos = [who for who, _argv, _child in started.searches()]
    assert whos == ["early", "engine"]
    killed = started.searches()[0][2]
    assert killed.returncode is not None
    assert not early.held()
    assert "café ouvert" in text
    assert text == _late(tmp_path, log, "--grep", "caf.", monkeypatch=monkeypatch)


def test_an_rg_the_read_never_takes_is_killed_when_the_command_ends(started: Started, tmp_path: Path) -> None:
    log = _log(tmp_path, LOG)
    # the output's folder is a file: the read fails before any search
    code = fast.dispatch(["extract", str(log), "--grep", "ERROR", "-o", str(log / "out.txt")])
    assert code != 0
    runs = started.searches()
    assert [who for who, _argv, _child in runs] == ["early"]
    assert runs[0][2].returncode is not None
    assert not early.held()


@pytest.mark.parametrize(("name", "text", "options"), [
    ("rows.csv", "a,b\n1,ERROR\n", ("--grep", "ERROR")),  # named as a table: read by the table handler
    ("app.log", "\ufeffERROR with a BOM\n", ("--grep", "ERROR")),  # a BOM: the engine decodes utf-8-sig
    ("app.log", LOG, ("--grep", "ERROR", "--lines", "1-100")),  # a window: read by lines
    ("app.log", LOG, ("--grep", "(unclosed")),  # re refuses it: the engine says so
])
def test_nothing_starts_early_where_the_guess_would_be_wrong(started: Started, tmp_path: Path, name: str,
                                                             text: str, options: tuple[str, ...]) -> None:
    log = _log(tmp_path, text, name)
    fast.dispatch(["extract", str(log), *options, "-o", str(tmp_path / "out.txt")])
    assert [who for who, _argv, _child in started.runs if who == "early"] == []


ATOMS = ["a", "Z", "7", "-", " ", ":", "#", "~", ".", "\\.", "\\-", "\\ ", "\\_", "[0-9a-f]", "[a-]", "[-x]",
         "[A-Fa-f0-9_]", "[b-d]", "[.]", "\t"]
BOUNDS = ["", "", "", "?", "*", "+", "{3}", "{2,}", "{1,4}", "*?", "{2,5}?", "{02}"]
OTHERS = ["(", ")", "(?:a)", "|", "^", "$", "\\d", "\\b", "[^a]", "é", "{", "}", "]", "[", "{,3}", "**", "\\",
          "[z-a]", "{9,2}", "\n", "[a--]", "*+", "[\\d]", "[]a]", "(?i)"]


def test_a_common_pattern_is_translated_without_re_as_re_would() -> None:
    """quick() gives translate()'s regex, or None: on random patterns of the kinds it reads (it reads them all),
    and with pieces mixed in that it leaves to re (it never answers otherwise than translate, and never for a
    pattern re refuses)."""
    rng = random.Random(24)
    for _ in range(3000):
        mixed = rng.random() < 0.5
        text = "".join(rng.choice(OTHERS) if mixed and rng.random() < 0.2 else rng.choice(ATOMS) + rng.choice(BOUNDS)
                       for _ in range(rng.randint(1, 6)))
        quick = pattern.quick(text)
        try:
            with warnings.catch_warnings():  # "possible set difference" and its kind: re compiles them all the same
                warnings.simplefilter("ignore", FutureWarning)
                compiled = re.compile(text)
        except re.error:
            assert quick is None, text
            continue
        if not mixed:
            assert quick is not None, text
        if quick is not None:
            assert quick == pattern.translate(compiled, "utf-8"), text


def test_an_ascii_node_is_translated_as_compiling_it_would(monkeypatch: pytest.MonkeyPatch) -> None:
    """The shortcut for literals and classes of ASCII characters (no compile of the node) gives what the general
    path gives, on random patterns of both and of the nodes it leaves to the general path."""
    rng = random.Random(2024)
    pieces = ["a", "Z", "7", "-", " ", ":", ".", "\\.", "[0-9a-f]", "[^x]", "[a-c_]", "[\\n-]", "\\d", "\\w", "é",
              "[é-ü]", "(?:ab|cd)", "x{2,3}", "^", "$", "\\t", "\\x41", "[\\]]", "q*", "[A-Fa-f0-9]"]
    patterns = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 8))) for _ in range(400)]
    fast = [pattern.translate(re.compile(text), "utf-8") for text in patterns]
    monkeypatch.setattr(pattern._Writer, "_ascii", lambda self, op, av: None)
    general = [pattern.translate(re.compile(text), "utf-8") for text in patterns]
    assert fast == general
    assert sum(result is not None for result in fast) > 300
