"""Time a command as a subprocess: wall seconds per run and its peak RSS.

Each measurement runs in its own small wrapper process, which starts the command ``repeat`` times and then
reads ``getrusage(RUSAGE_CHILDREN).ru_maxrss``: the largest resident set of any child it waited for. A fresh
wrapper per measurement keeps the peak per command. The wrapper's own start-up is outside the timed span.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

WRAPPER = r"""
import json, resource, subprocess, sys, time
spec = json.loads(sys.argv[1])
walls, codes, err = [], [], ""
for _ in range(spec["repeat"]):
    stdin = open(spec["stdin"], "rb") if spec["stdin"] else subprocess.DEVNULL
    start = time.perf_counter()
    try:
        done = subprocess.run(spec["argv"], stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              cwd=spec["cwd"], timeout=spec["timeout"])
        codes.append(done.returncode)
        if done.returncode not in spec["ok"]:
            err = done.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        codes.append(-1)
        err = "timed out after %ss" % spec["timeout"]
    walls.append(time.perf_counter() - start)
    if stdin is not subprocess.DEVNULL:
        stdin.close()
    if err:
        break
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"walls": walls, "codes": codes, "peak_kb": peak, "error": err}))
"""


@dataclass(frozen=True)
class Measure:
    argv: tuple[str, ...]
    walls: tuple[float, ...]
    peak_mb: float
    error: str  # "" when every run ended with an accepted exit code

    @property
    def best(self) -> float:
        return min(self.walls) if self.walls else float("nan")

    @property
    def p50(self) -> float:
        return statistics.median(self.walls) if self.walls else float("nan")

    @property
    def ok(self) -> bool:
        return not self.error


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else "failed with no message"


def measure(
    argv: Sequence[str],
    *,
    repeat: int = 3,
    stdin: Path | None = None,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    ok_codes: Sequence[int] = (0,),
    timeout: float = 600.0,
) -> Measure:
    """Run ``argv`` ``repeat`` times (stopping at the first failure); every run's wall time and the peak RSS."""
    spec = {"argv": list(argv), "repeat": repeat, "stdin": str(stdin) if stdin else "", "cwd": str(cwd or Path.cwd()),
            "ok": list(ok_codes), "timeout": timeout}
    merged = {**os.environ, **(env or {})}
    done = subprocess.run([sys.executable, "-c", WRAPPER, json.dumps(spec)], capture_output=True, text=True,
                          env=merged, check=False)
    if done.returncode != 0:
        return Measure(tuple(argv), (), 0.0, f"wrapper failed: {_last_line(done.stderr)}")
    report = json.loads(done.stdout)
    codes = report["codes"]
    error = ""
    if report["error"]:
        error = f"exit {codes[-1]}: {_last_line(report['error'])}"
    peak_mb = report["peak_kb"] * 1024 / 1e6  # ru_maxrss is in KiB on Linux; the targets are in MB
    return Measure(tuple(argv), tuple(report["walls"]), peak_mb, error)
