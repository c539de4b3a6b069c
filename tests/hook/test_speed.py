"""guard-check runs before every agent tool call: its start-up cost is the product (issue 3, Speed).

Timing is measured in bench/; this test pins the cause instead - which modules a call imports - so the
hot path cannot silently regress to dataclasses, typing, pathlib, zipfile or json (re) again. Which modules
any call may load at all - boundread's and others' - is declared in hook/fence.py and checked for every
client's payloads by test_guard_fence.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.hookproject import guard_env

# What the console script runs (boundread.__main__:main), without runpy's own imports for -m.
CONSOLE = "import sys; sys.argv[1:] = ['guard-check']; from boundread.__main__ import main; main()"
SLOW = {"dataclasses", "typing", "pathlib", "zipfile", "json", "re", "argparse", "contextlib", "inspect",
        "shlex", "enum"}


def _imported(payload: dict[str, object], cwd: Path) -> tuple[set[str], str]:
    result = subprocess.run([sys.executable, "-X", "importtime", "-c", CONSOLE], input=json.dumps(payload),
                            capture_output=True, text=True, env=guard_env(), cwd=cwd, timeout=60, check=True)
    names = {line.split("|")[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    return names, result.stdout


def _read(path: Path, project: Path) -> dict[str, object]:
    return {"session_id": "speed", "transcript_path": "/t", "cwd": str(project), "hook_event_name": "PreToolUse",
            "tool_name": "Read", "tool_input": {"file_path": str(path)}, "tool_use_id": "t1"}


def test_plain_text_read_imports_nothing_slow(project: Path) -> None:
    names, out = _imported(_read(project / "small.txt", project), project)
    assert "boundread.guard.decide" in names and out == ""  # it really ran, and allowed
    assert not names & SLOW, sorted(names & SLOW)


def test_pdf_deny_imports_nothing_slow(project: Path) -> None:
    names, out = _imported(_read(project / "report.pdf", project), project)
    assert "deny" in out and "40 pages" in out  # the reason still carries the page count
    assert not names & SLOW, sorted(names & SLOW)


def test_pdf_read_of_a_few_pages_imports_nothing_slow(project: Path) -> None:
    payload = _read(project / "report.pdf", project)
    payload["tool_input"] = {"file_path": str(project / "report.pdf"), "pages": "1-5"}
    names, out = _imported(payload, project)
    assert "boundread.guard.decide" in names and out == ""  # a small page range is allowed
    assert not names & SLOW, sorted(names & SLOW)


def test_office_deny_imports_nothing_slow(project: Path) -> None:
    """The brief's 15-sheet workbook: its deny reason names the sheets without zipfile or an XML parser."""
    names, out = _imported(_read(project / "prices.xlsx", project), project)
    assert "deny" in out and "Lista 2024" in out
    assert not names & (SLOW | {"xml.etree.ElementTree", "pyexpat"}), sorted(names & (SLOW | {"pyexpat"}))


def test_post_tool_batch_advice_imports_nothing_slow(project: Path) -> None:
    """Claude Code's PostToolBatch after it refused a workbook: the advice costs no slow import either."""
    payload = {"session_id": "speed", "transcript_path": "/t", "cwd": str(project), "hook_event_name": "PostToolBatch",
               "tool_calls": [{"tool_name": "Read", "tool_input": {"file_path": str(project / "prices.xlsx")},
                               "tool_use_id": "t1", "tool_response": "This tool cannot read binary files."}]}
    names, out = _imported(payload, project)
    assert "additionalContext" in out and "Lista 2024" in out
    assert not names & (SLOW | {"pyexpat"}), sorted(names & (SLOW | {"pyexpat"}))


def _bash(command: str, project: Path) -> dict[str, object]:
    return {"session_id": "speed", "transcript_path": "/t", "cwd": str(project), "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t1"}


def test_a_plain_command_skips_the_parser(project: Path) -> None:
    """`cat report.pdf`, `git status`: one simple command of plain words needs no parser (its compiled
    module imports re and enum); the decision is the parser's all the same."""
    names, out = _imported(_bash("cat report.pdf", project), project)
    assert "deny" in out and "40 pages" in out
    assert not names & SLOW and "boundread.guard.shell.parser" not in names, sorted(names & SLOW)
    names, out = _imported(_bash("cat 'report.pdf'", project), project)  # a quote: the parser decides
    assert "deny" in out and "boundread.guard.shell.parser" in names
    assert not names & SLOW, sorted(names & SLOW)


def test_the_parsed_path_imports_nothing_slow(project: Path) -> None:
    """tree-sitter's core binding imports re and enum as it initialises (~10 ms); the guard lends it
    stand-ins (guard/shell/parser.py), and globs match without glob/fnmatch (guard/shell/pattern.py)."""
    command = f"cd '{project}' && for f in *.pdf; do cat \"$f\"; done"
    names, out = _imported(_bash(command, project), project)
    assert "deny" in out and "boundread.guard.shell.parser" in names and "boundread.guard.shell.pattern" in names
    assert not names & (SLOW | {"glob", "fnmatch", "functools", "collections"}), sorted(names & SLOW)
    assert "boundread.guard.tools" not in names  # the other read tools' module: not for a shell call
