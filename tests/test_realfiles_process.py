"""The real files of tests/realfiles as an agent's shell runs them: the installed `boundread` script (its fast
path, cli/fast.py, which the in-process tests of test_realfiles.py do not take), each command a child process.

For every file: `info`, `extract` and the kind's own slice print one JSON object, never a traceback, exit as the
manifest says, end within --timeout and peak under 100 MB; `guard-check` with a Claude Code Read of the file
answers as the manifest's ``guard_default`` says (deny: one JSON object that names a boundread command; allow:
nothing). A manifest ``known_bug`` listing "process" makes the file's test a strict xfail.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from multiprocessing.pool import ThreadPool
from pathlib import Path
from typing import Any

import pytest

from tests.sweep_helpers import DOCUMENTED, MB, Ran, child_env, run_measured
from tests.test_realfiles import REAL, cases

TIMEOUT = 20.0  # --timeout given to every command
MARGIN = 10.0  # start-up and the atomic write after the alarm fires
PEAK_LIMIT = 100 * MB  # the read of a small real file, pyarrow's import aside (below)
ARROW_ROOM = 60 * MB  # beyond pyarrow's own import: our modules, compiled in memory too where no .pyc is written (CI)


@functools.cache
def _pyarrow_import_peak() -> int:
    """Peak RSS of a bare Python that imports what a Parquet read imports: the floor no reader of ours can go under."""
    code = ("import resource, pyarrow, pyarrow.parquet, pyarrow.compute, pyarrow.ipc; "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return int(out) * 1024  # ru_maxrss is in KiB on Linux


def _claude_read(path: Path, cwd: Path) -> bytes:
    return json.dumps({
        "session_id": "realfiles", "transcript_path": str(cwd / "t.jsonl"), "cwd": str(cwd),
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Read",
        "tool_input": {"file_path": str(path)}, "tool_use_id": "toolu_realfiles",
    }).encode()


def _answered(ran: Ran) -> dict[str, Any]:
    why = ran.describe()
    assert not ran.killed and "Traceback" not in ran.stderr + ran.stdout, why
    limit = PEAK_LIMIT
    if any(str(arg).endswith((".parquet", ".arrow", ".feather", ".encrypted")) for arg in ran.argv):
        limit = max(PEAK_LIMIT, _pyarrow_import_peak() + ARROW_ROOM)
    assert ran.peak_rss < limit and ran.code in DOCUMENTED, why
    data = ran.json()  # one JSON object: json.loads rejects trailing data
    assert isinstance(data, dict) and data.get("schema") == 1, why
    if ran.code != 0:
        assert data["error"]["exit_code"] == ran.code and " - " in data["error"]["message"], why
    return data


@pytest.mark.parametrize("entry", cases("process"))
def test_the_installed_script_reads_the_file(entry: dict[str, Any], tmp_path: Path) -> None:
    path = str(REAL / entry["file"])
    env = child_env()
    common = ("--json", "--timeout", str(TIMEOUT))
    commands: list[tuple[str, ...]] = [("info", path, *common), ("extract", path, *common)]
    if "slice" in entry:
        command, *rest = entry["slice"]["cli"]
        commands.append((command, path, *rest, *common))

    def run(args: tuple[str, ...], stdin: bytes | None = None) -> Ran:
        return run_measured(args, cwd=tmp_path, env=env, hard_timeout=TIMEOUT + MARGIN, stdin=stdin)

    with ThreadPool(2) as pool:
        info, extract, *part = pool.map(run, commands)
    assert _answered(info)["kind"] == entry["kind"] or "info" in entry.get("known_bug", {}).get("checks", [])
    assert extract.code == entry["extract"]["exit"] or "extract" in entry.get("known_bug", {}).get("checks", [])
    _answered(extract)
    for ran in part:
        _answered(ran)

    hook = run(("guard-check",), stdin=_claude_read(REAL / entry["file"], tmp_path))
    assert hook.code == 0 and "Traceback" not in hook.stderr, hook.describe()
    if entry.get("guard_default", "allow") == "deny":
        said = hook.json()["hookSpecificOutput"]
        assert said["permissionDecision"] == "deny" and "boundread " in said["permissionDecisionReason"], said
    else:
        assert hook.stdout.strip() == "", hook.describe()
