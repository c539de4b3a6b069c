"""How long guard-check takes, and how much memory, on the inputs that once outran the hook (issue 19 part 1).

    .venv/bin/python bench/guard_hostile.py

Each case of tests/hook/test_never_outruns_the_hook.py goes to the real guard-check (a child process, a
Claude Code payload on stdin) three times; the median wall time and the peak RSS are printed next to the
client's 10 s hook timeout and the issue's goal (2 s, 200 MB). Nothing is asserted: the test asserts the answers.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the tests of hook/ live in tests/hook since c44779e, their helpers in tests/hookproject

from tests.hook.test_never_outruns_the_hook import _MEASURE, HOSTILE  # noqa: E402
from tests.hookproject import guard_argv, guard_env  # noqa: E402


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "big.log").write_text("".join(f"2026-12-02 INFO request {n} served\n" for n in range(40_000)))
        print(f"{'input':<40}{'median s':>10}{'peak MB':>9}  answer")
        for name, command in HOSTILE.items():
            payload = json.dumps({"session_id": "s", "transcript_path": "/dev/null", "cwd": folder,
                                  "hook_event_name": "PreToolUse", "tool_name": "Bash",
                                  "tool_input": {"command": command}}).encode()
            times, peaks, answer = [], [], ""
            for _ in range(3):
                start = time.monotonic()
                done = subprocess.run([sys.executable, "-c", _MEASURE, *guard_argv("--agent", "claude")],
                                      input=payload, capture_output=True, env=guard_env(), check=True)
                times.append(time.monotonic() - start)
                text, _code, peak = done.stdout.decode().rsplit("\n", 2)
                peaks.append(int(peak) // 1024)
                answer = json.loads(text)["hookSpecificOutput"]["permissionDecision"] if text.strip() else "allow"
            print(f"{name:<40}{statistics.median(times):>10.2f}{max(peaks):>9}  {answer}")
    print("goal: every decision within 2 s and 200 MB (the client runs the command unguarded after 10 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
