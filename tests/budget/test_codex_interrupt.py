"""Ending a Codex turn from a hook (agents/codex_interrupt.py): SIGINT to the ``codex`` session process above the hook,
never to a server (``app-server``) that runs other sessions, never when turned off. Real processes: a parent whose
argv says ``codex`` (``exec -a``) runs the hook, which looks up its ancestors as it would under Codex."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = str(Path(__file__).resolve().parents[2] / "src")
PARENT = """
import signal, subprocess, sys, os
got = []
signal.signal(signal.SIGINT, lambda *a: got.append(1))
hook = subprocess.run([os.environ["HOOK_PYTHON"], "-c", "from boundread.agents.codex_interrupt import interrupt_codex;"
                       " print(interrupt_codex())"], capture_output=True, text=True, check=True)
print(hook.stdout.strip(), os.getpid(), bool(got))
"""

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and bash's exec -a")


def run_as(argv0: str, *args: str, **env: str) -> tuple[str, str, str]:
    """(what interrupt_codex returned, the parent's pid, whether the parent got SIGINT)."""
    script = f"exec -a {argv0} {sys.executable} -c '{PARENT}' {' '.join(args)}"
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60, check=True,
                          env={**os.environ, "PYTHONPATH": SRC, "HOOK_PYTHON": sys.executable,
                               "BOUNDREAD_CODEX_INTERRUPT": "1", **env})
    returned, pid, got = done.stdout.split()
    return returned, pid, got


def test_the_codex_session_above_the_hook_is_interrupted() -> None:
    returned, pid, got = run_as("codex", "exec", "--skip-git-repo-check")
    assert (returned, got) == (pid, "True")


def test_a_codex_server_is_left_alone() -> None:
    returned, _, got = run_as("codex", "app-server")
    assert (returned, got) == ("None", "False")


def test_another_program_is_left_alone() -> None:
    returned, _, got = run_as("claude", "-p")
    assert (returned, got) == ("None", "False")


def test_it_can_be_turned_off() -> None:
    returned, _, got = run_as("codex", "exec", BOUNDREAD_CODEX_INTERRUPT="0")
    assert (returned, got) == ("None", "False")
