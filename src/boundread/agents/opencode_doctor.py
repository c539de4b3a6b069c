"""``doctor`` for opencode: its hook is our plugin file, not a registration in JSON settings.

Ready when the plugin is there, is ours and as this version writes it (an older one may speak an older answer),
its command is found and runs this boundread, and the guard answers a payload sent as the plugin sends it.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from boundread.agents import install, locate
from boundread.agents.base import Check

PROBE_TIMEOUT = 10.0  # seconds for one guard-check answer


def checks(plugin: Path, root: Path, home: Path) -> list[Check]:
    from boundread.agents import doctor, opencode

    user = plugin.parent.parent == opencode.config_dir(home)
    scope = doctor.Scope(root, home, user, locate.program().command)
    fix = f"run {scope.init(opencode.NAME)}"
    try:
        text = plugin.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [Check("plugin", False, f"no {plugin}: opencode runs no guard", fix)]
    except (OSError, UnicodeDecodeError) as exc:
        return [Check("plugin", False, f"cannot read {plugin}: {exc}", "check its permissions")]
    command = install.plugin_command(text)
    if command is None:
        return [Check("plugin", False, f"{plugin} is not boundread's plugin (no guard-check command in it)",
                      f"move it away, then {fix}")]
    spec = install.target(opencode.NAME, root, home, user, command.split(" guard-check", 1)[0])
    if text != install.plugin_text(spec):
        found = Check("plugin", False, f"{plugin} is boundread's, from another version: its answers may not match",
                      fix)
    else:
        found = Check("plugin", True, f"{plugin} runs `{command}` before every tool call")
    words = locate.argv(command)
    ran = doctor._program(opencode.NAME, words, command, scope) if words else [
        Check("command", None, f"cannot check `{command}`: a shell line; run it by hand")]
    if any(check.ok is False for check in ran) or not words:
        return [found, *ran]
    return [found, *ran, _answers(command, root)]


def _answers(command: str, root: Path) -> Check:
    """Run the plugin's command once with a payload as the plugin sends it (a read of a file that is not there,
    which the guard lets through) and check that it answers."""
    payload = {"hook_event_name": "tool.execute.before", "client": "opencode", "tool": "read", "cwd": str(root),
               "session_id": "boundread-doctor", "call_id": "boundread-doctor",
               "args": {"filePath": str(root / "boundread-doctor-probe.txt")}}
    try:
        run = subprocess.run(command, shell=True, input=json.dumps(payload), capture_output=True, text=True,
                             timeout=PROBE_TIMEOUT, cwd=root if root.is_dir() else None, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return Check("guard answers", False, f"`{command}` did not answer a payload: {exc}",
                     "reinstall boundread there (pip install --force-reinstall boundread)")
    try:
        answer = json.loads(run.stdout)
    except json.JSONDecodeError:
        answer = None
    if run.returncode != 0 or not isinstance(answer, dict):
        error = (run.stderr.strip().splitlines() or [run.stdout.strip() or "no output"])[-1]
        return Check("guard answers", False, f"`{command}` exited {run.returncode} on a payload: {error} - "
                     "the plugin lets every call through", "reinstall boundread there, then run init again")
    return Check("guard answers", True, f"`{command}` answered a read payload with {run.stdout.strip()}")
