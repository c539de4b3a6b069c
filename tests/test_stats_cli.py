"""``boundread stats``: the human view and the JSON of a ledger filled by real guard-check calls.

guard-check runs in-process here (``hook.main.run``, the dispatch the console script takes) on Claude Code
payloads; tests/budget/test_stats_ledger.py runs it as a subprocess on both stores.
"""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boundread.cli.app import app
from boundread.hook import main as hook

SENTINEL = "STATS-CLI"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    from fpdf import FPDF

    root = tmp_path / "project"
    root.mkdir()
    pdf = FPDF()
    pdf.set_font("helvetica", size=12)
    for number in range(25):
        pdf.add_page()
        pdf.cell(text=f"{SENTINEL} page {number + 1}")
    pdf.output(str(root / "report.pdf"))
    (root / "big.log").write_text("".join(f"line {n} {'x' * 60}\n" for n in range(20_000)), encoding="utf-8")
    monkeypatch.chdir(root)
    return root


def _guard(payload: dict[str, Any], *args: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    real = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        assert hook.run(list(args), io.StringIO(json.dumps(payload))) == 0
    finally:
        sys.stdout, sys.stderr = real
    assert err.getvalue() == ""
    return out.getvalue()


def _read(project: Path, name: str, session: str, call: str) -> dict[str, Any]:
    return {"session_id": session, "transcript_path": "/t.jsonl", "cwd": str(project), "hook_event_name": "PreToolUse",
            "tool_name": "Read", "tool_input": {"file_path": str(project / name)}, "tool_use_id": call}


def _fill(project: Path) -> None:
    assert "deny" in _guard(_read(project, "report.pdf", "one", "t1"))
    assert "updatedInput" in _guard(_read(project, "big.log", "one", "t2"), "--mode", "redirect")
    assert "deny" in _guard(_read(project, "big.log", "two", "t3"))
    backstop = {"session_id": "two", "transcript_path": "/t.jsonl", "cwd": str(project),
                "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": {"command": "seq 1 99999"},
                "tool_response": {"stdout": "9" * 250_000, "stderr": "", "interrupted": False, "isImage": False},
                "tool_use_id": "t4"}
    assert "updatedToolOutput" in _guard(backstop)


def _stats(*args: str) -> Any:
    return CliRunner().invoke(app, ["stats", *args])


def test_json_sums_what_each_call_asked_and_got(project: Path) -> None:
    _fill(project)
    result = _stats("--json")
    assert result.exit_code == 0 and result.stderr == ""
    body = json.loads(result.stdout)
    assert (body["schema"], body["command"], body["scope"]) == (1, "stats", "project")
    assert body["name"] == os.path.realpath(project) and body["sessions"] == 2
    kinds = body["kinds"]
    assert (kinds["deny"]["calls"], kinds["redirect"]["calls"], kinds["backstop"]["calls"]) == (2, 1, 1)
    pdf, log = (project / "report.pdf").stat().st_size, (project / "big.log").stat().st_size
    assert kinds["deny"]["raw_bytes"] == pdf + log
    assert kinds["backstop"]["raw_bytes"] == 250_000
    total = body["total"]
    assert total["kept_bytes"] == total["raw_bytes"] - total["delivered_bytes"] > 0
    assert total["kept_tokens_est"] == -(-total["kept_bytes"] // 4) and body["tokens"].startswith("est.")
    assert body["top"][0] == {"path": str(project / "big.log"), "calls": 2, "raw_bytes": 2 * log}


def test_session_and_all_scopes(project: Path) -> None:
    _fill(project)
    one = json.loads(_stats("--session", "one", "--json").stdout)
    assert (one["scope"], one["name"], one["total"]["calls"]) == ("session", "one", 2)
    assert json.loads(_stats("--all", "--json").stdout)["total"]["calls"] == 4
    assert json.loads(_stats("--since", "1h", "--json").stdout)["total"]["calls"] == 4
    assert json.loads(_stats("--since", "2099-01-01", "--json").stdout)["total"]["calls"] == 0
    elsewhere = project.parent / "elsewhere"
    elsewhere.mkdir()
    assert json.loads(_stats("--project", str(elsewhere), "--json").stdout)["total"]["calls"] == 0


def test_human_view_has_the_table_the_chart_and_the_files(project: Path) -> None:
    _fill(project)
    result = _stats()
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert f"boundread stats: project {os.path.realpath(project)} (2 sessions" in out
    for word in ("refused", "redirected", "backstop", "total", "asked for", "delivered", "tokens kept (est.)"):
        assert word in out
    bars = [line for line in out.splitlines() if line.strip().startswith(("asked for ", "delivered "))]
    assert len(bars) == 2 and bars[0].count("█") > bars[1].count("█") >= 1
    assert "kept out most:" in out and str(project / "big.log") + " (2 calls)" in out


def test_nothing_recorded_says_how_to_start(project: Path) -> None:
    result = _stats()
    assert result.exit_code == 0
    assert "no call refused, redirected or bounded here yet" in result.stdout
    assert json.loads(_stats("--json").stdout)["total"] == {"calls": 0, "sized_calls": 0, "raw_bytes": 0,
                                                            "delivered_bytes": 0, "kept_bytes": 0,
                                                            "kept_tokens_est": 0}


@pytest.mark.parametrize(("args", "message"), [
    (["--session", "a", "--all"], "--session, --project and --all exclude each other - pick one scope"),
    (["--since", "yesterday"], "--since 'yesterday' is neither a span nor a date - pass a span"),
])
def test_bad_options_are_one_line(project: Path, args: list[str], message: str) -> None:
    result = _stats(*args)
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"boundread: error: {message}") and len(result.stderr.splitlines()) == 1
    as_json = _stats(*args, "--json")
    assert as_json.exit_code == 2 and json.loads(as_json.stdout)["error"]["code"] == "usage"


def test_a_redirect_that_gave_more_than_the_file_holds_is_shown_as_it_was(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A 9 kB PDF's first part (its text and the slice's header) is bigger than the file: kept out is negative."""
    from boundread.budget.decided import Row
    from boundread.budget.ledger import open_decisions

    monkeypatch.chdir(tmp_path)
    with open_decisions() as store:
        store.add_decision(Row("s", os.path.realpath(tmp_path), "claude", "Read", "redirect",
                               str(tmp_path / "small.pdf"), 9_177, 11_997))
    body = json.loads(_stats("--json").stdout)
    assert (body["total"]["kept_bytes"], body["total"]["kept_tokens_est"]) == (-2_820, -705)
    row = next(line for line in _stats().stdout.splitlines() if line.strip().startswith("redirected"))
    assert "-2.8 kB" in row and row.rstrip().endswith("~-705")


def test_a_damaged_decisions_file_is_one_line_naming_the_fix(project: Path) -> None:
    state = Path(os.environ["BOUNDREAD_STATE_DIR"])
    state.mkdir(parents=True)
    (state / "decisions.sqlite3").write_bytes(b"not a database, " * 512)
    result = _stats()
    assert result.exit_code != 0 and result.stdout == "" and len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(f"boundread: error: the decisions file {state / 'decisions.sqlite3'} is unusable")
    assert "move it aside" in result.stderr and "budget recover" not in result.stderr


def test_a_narrow_terminal_gets_lines_with_whole_figures(project: Path) -> None:
    """Under 80 columns a six-column table would cut the figures (``10,0…``): one line a kind instead."""
    from tests import terminal

    _fill(project)
    code, screen = terminal.run(["stats"], columns=50, cwd=project)
    assert code == 0
    text = " ".join(screen.split())  # the terminal wraps the lines between words
    assert "refused: 2 calls:" in text and "redirected: 1 call:" in text and "backstop: 1 call:" in text
    assert "total: 4 calls:" in text and "…" not in screen
