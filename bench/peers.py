"""The peers boundread is compared with: found on PATH, else installed (apt, or a venv of their own).

Every function returns the argv prefix of the peer, or None with a note printed on stderr; a missing peer
turns its rows into notes, never into a failed bench.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

NAIVE_OPENPYXL = (
    "import sys, openpyxl\n"
    "book = openpyxl.load_workbook(sys.argv[1])\n"  # the naive way: no read_only, every cell becomes an object
    "sheet = book.worksheets[0]\n"
    "for row in sheet.iter_rows(max_row=int(sys.argv[2]), values_only=True):\n"
    "    print(','.join('' if v is None else str(v) for v in row))\n"
)


def note(message: str) -> None:
    print(f"bench: {message}", file=sys.stderr, flush=True)


def _quiet(argv: list[str], timeout: float = 900) -> bool:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        note(f"{' '.join(argv)} failed: {exc}")
        return False
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no message"]
        note(f"{' '.join(argv)} failed ({done.returncode}): {tail[0]}")
    return done.returncode == 0


def apt_tool(tool: str, package: str) -> str | None:
    """``tool`` from PATH, else ``apt-get install -y package`` (after one ``apt-get update`` if needed)."""
    found = shutil.which(tool)
    if found:
        return found
    if not shutil.which("apt-get"):
        note(f"{tool} is missing and apt-get is not available: its rows are skipped")
        return None
    note(f"{tool} is missing: apt-get install -y {package}")
    env_argv = ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-q", package]
    if not _quiet(env_argv):
        _quiet(["apt-get", "update", "-q"])
        _quiet(env_argv)
    found = shutil.which(tool)
    if not found:
        note(f"could not install {package}: the {tool} rows are skipped")
    return found


def markitdown(folder: Path) -> str | None:
    """markitdown in its own virtual environment under ``folder`` (its dependencies stay out of ours)."""
    venv = folder / "markitdown-venv"
    exe = venv / "bin" / "markitdown"
    if exe.exists():
        return str(exe)
    note(f"installing markitdown[pdf,xlsx] into {venv} (once)")
    base = getattr(sys, "_base_executable", sys.executable)
    if not (_quiet([base, "-m", "venv", str(venv)])
            and _quiet([str(venv / "bin" / "pip"), "install", "-q", "markitdown[pdf,xlsx]"])):
        note("markitdown could not be installed: its rows are skipped")
        return None
    return str(exe) if exe.exists() else None


def version(argv: list[str]) -> str:
    """The first line a peer prints for its version (pdftotext prints it on stderr)."""
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    lines = (done.stdout + done.stderr).strip().splitlines()
    return lines[0].strip() if lines else "?"
