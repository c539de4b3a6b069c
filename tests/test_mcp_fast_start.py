"""``boundread mcp`` (stdio) starts without Typer (cli/fast.py -> mcp/start.py) and serves as the Typer command
does: the same Config from the same options, the same errors, the same ``initialize`` answer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boundread.cli import fast
from boundread.cli.app import app
from boundread.mcp import stdio

pytest.importorskip("mcp")

ENTRY = ("import sys\nfrom boundread.__main__ import main\nsys.argv = ['boundread', *sys.argv[1:]]\n"
         "import atexit\natexit.register(lambda: print('TYPER' if 'typer' in sys.modules else 'NO-TYPER', "
         "file=sys.stderr))\nmain()")
TYPER_ONLY = ("import sys\nfrom boundread.cli import only\n"
              "only(sys.argv[1])(args=sys.argv[1:], prog_name='boundread')")
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


def _configs(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    seen: list[Any] = []
    monkeypatch.setattr(stdio, "serve", seen.append)
    assert fast.parse(["mcp", *argv]) is not None
    assert fast.dispatch(["mcp", *argv]) == 0
    done = CliRunner().invoke(app, ["mcp", *argv], catch_exceptions=False)
    assert done.exit_code == 0, done.output
    assert len(seen) == 2
    return seen[0], seen[1]


@pytest.mark.parametrize("options", [[], ["--root", "{a}", "--root", "{b}"], ["--root={a}", "--max-chars", "5000"],
                                     ["--timeout", "2.5", "--out", "{b}/slices", "--max-chars=7000"]])
def test_the_same_options_make_the_same_server(options: list[str], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path)
    argv = [word.format(a=tmp_path / "a", b=tmp_path / "b") for word in options]
    quick, typed = _configs(argv, monkeypatch)
    assert quick == typed
    assert quick.roots  # the folders really were read


@pytest.mark.parametrize("argv", [["mcp", "--http"], ["mcp", "--port", "9000"], ["mcp", "--help"], ["mcp", "x"],
                                  ["mcp", "--max-chars", "0"]])
def test_http_help_and_odd_command_lines_stay_typers(argv: list[str]) -> None:
    assert fast.parse(argv) is None


def _run(code: str, argv: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "BOUNDREAD_OUT_DIR": str(cwd / "out")}
    return subprocess.run([sys.executable, "-c", code, *argv], input=stdin, capture_output=True, text=True,
                          timeout=120, cwd=cwd, env=env, check=False)


def test_a_root_that_is_no_folder_is_the_same_error(tmp_path: Path) -> None:
    argv = ["mcp", "--root", str(tmp_path / "absent")]
    quick, typed = _run(ENTRY, argv, tmp_path), _run(TYPER_ONLY, argv, tmp_path)
    assert quick.stderr.splitlines()[-1] == "NO-TYPER"
    assert (quick.returncode, quick.stdout) == (typed.returncode, typed.stdout)
    assert quick.stderr.splitlines()[:-1] == typed.stderr.splitlines()
    assert "is not a folder" in typed.stderr and typed.returncode != 0


def test_initialize_is_answered_as_before_without_typer(tmp_path: Path) -> None:
    line = json.dumps(INIT) + "\n"
    quick = _run(ENTRY, ["mcp", "--max-chars", "9000"], tmp_path, line)
    typed = _run(TYPER_ONLY, ["mcp", "--max-chars", "9000"], tmp_path, line)
    assert quick.returncode == typed.returncode == 0, (quick.stderr, typed.stderr)
    first, before = json.loads(quick.stdout.splitlines()[0]), json.loads(typed.stdout.splitlines()[0])
    assert first == before and first["id"] == 1 and "capabilities" in first["result"]
    assert quick.stderr.splitlines()[-1] == "NO-TYPER"
