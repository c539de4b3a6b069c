"""Ending a Codex CLI turn from a hook: what Ctrl-C does, since Codex 0.171 ignores ``continue: false``.

Checked in the real Codex 0.171 against a scripted model server: a PostToolUse hook that answers
``{"continue": false}`` is logged "PostToolUse Stopped", and the turn goes on (the next request is sent); from
PreToolUse it is an unsupported output and the call runs. Interrupting the ``codex`` process that runs the hook
(SIGINT, as Ctrl-C sends it) ends the turn there: "turn interrupted", no further request, the rollout kept, and
the session resumable - where a resumed turn's prompt is refused by the UserPromptSubmit hook, which Codex honours.

So when the budget ends a Codex session (``continue: false`` from the ingest hook, a budget deny from
guard-check), the hook also interrupts the ``codex`` process above it: its nearest ancestor whose program is
``codex``, running a session (``codex exec`` or the terminal UI; never ``app-server`` or ``mcp-server``, which
serve others' sessions too). ``BOUNDREAD_CODEX_INTERRUPT=0`` turns this off. Standard library only.
"""

from __future__ import annotations

import os
import signal
import sys

ENV = "BOUNDREAD_CODEX_INTERRUPT"
UP = 4  # the hook, its shell, codex: a few levels at most
SERVERS = ("app-server", "mcp-server", "mcp", "proto")  # codex subcommands that run other clients' sessions


def interrupt_codex() -> int | None:
    """Send SIGINT to the Codex session process running this hook; its pid, or None when there is none (or the
    variable turns it off). Never raises."""
    if os.environ.get(ENV, "").strip().lower() in ("0", "false", "no", "off") or not hasattr(signal, "SIGINT"):
        return None
    try:
        pid = _codex_above(os.getppid())
        if pid is not None:
            os.kill(pid, signal.SIGINT)
        return pid
    except (OSError, ValueError):
        return None


def _codex_above(pid: int) -> int | None:
    for _ in range(UP):
        if pid <= 1:
            return None
        parent, argv = _process(pid)
        if argv and os.path.basename(argv[0]) in ("codex", "codex.exe") and _session(argv[1:]):  # noqa: PTH119
            return pid
        if parent is None:
            return None
        pid = parent
    return None


def _session(args: list[str]) -> bool:
    """Whether codex's arguments run a session of its own (exec, resume, the UI), not a server for others. Any word
    that names a server counts (a prompt that says "app-server" too: then the turn is not interrupted)."""
    return not any(arg in SERVERS for arg in args)


def _process(pid: int) -> tuple[int | None, list[str]]:
    """(parent pid, argv) of ``pid``, from /proc on Linux, else ``ps``."""
    if sys.platform.startswith("linux"):
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                stat = fh.read().decode("utf-8", "replace")
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                argv = [a.decode("utf-8", "replace") for a in fh.read().split(b"\0") if a]
        except OSError:
            return None, []
        fields = stat[stat.rfind(")") + 2:].split()  # the name may hold spaces and parentheses
        return (int(fields[1]) if len(fields) > 1 and fields[1].isdigit() else None), argv
    import subprocess

    try:
        out = subprocess.run(["ps", "-o", "ppid=,command=", "-p", str(pid)], capture_output=True, text=True,
                             timeout=2, check=False).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None, []
    parent, _, command = out.partition(" ")
    return (int(parent) if parent.isdigit() else None), command.split()
