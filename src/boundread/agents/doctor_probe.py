"""``doctor``'s live test: run the registered guard hook once, the way the client would, and read its answer.

The client's own payload for a whole read of a file the guard refuses (the package's 12-page sample PDF, copied
into a temporary folder; a text file over ``text_max_bytes`` where the settings do not refuse PDFs): Claude
Code's ``Read``, Codex's ``cat`` through ``Bash``, Gemini CLI's ``read_file``, Copilot CLI's ``view``, Qwen Code's
``read_file``, opencode's ``read`` as our plugin sends it. The command line of the hook entry
runs through the client's shell (``/bin/sh -c``; Gemini CLI's ``bash -c``), in the project folder, with the
payload on stdin and the entry's own timeout (at most MOST seconds). The answer must be a refusal or a rewrite
in that client's format - a JSON deny, ``updatedInput`` (Gemini: ``hookSpecificOutput.tool_input``), or exit 2 -
else the client lets the read through whole: no answer, a failure, an allow, a time-out.

The guard's ledger and output folder point at the temporary folder for the call: a doctor run is no refused
read of a session (``boundread stats``), and leaves no slice file behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from boundread.agents.base import Check

MOST = 60.0  # seconds a probe may take, whatever the client's own timeout (Claude Code's default is 600)
TEXT_MOST = 64 * 1000 * 1000  # bytes of text written at most for the probe file
SESSION = "boundread-doctor-probe"


@dataclass(frozen=True)
class Client:
    """How one client calls its pre-tool hook: the payload, its shell, its timeout's unit and default, and what
    in its answer stops the call."""

    label: str
    payload: Callable[[Path, Path], dict[str, Any]]  # (project root, the file) -> the hook payload
    shell: Callable[[str], list[str]]
    unit: float  # seconds per unit of the entry's "timeout"
    default: float  # its timeout in seconds when the entry sets none
    stops: Callable[[dict[str, Any]], str | None]  # "refused" / "rewrote" / None
    env: Callable[[Path], dict[str, str]]


def _posix(command: str) -> list[str]:
    return ["/bin/sh", "-c", command] if os.name != "nt" else ["cmd.exe", "/d", "/s", "/c", command]


def _bash(command: str) -> list[str]:
    bash = shutil.which("bash")
    return [bash, "-c", command] if bash and os.name != "nt" else _posix(command)


def _claude_payload(root: Path, file: Path, tool: str = "Read") -> dict[str, Any]:
    tool_input = {"file_path": str(file)} if tool == "Read" else {"command": f"cat {file}"}
    return {"session_id": SESSION, "transcript_path": "", "cwd": str(root), "permission_mode": "default",
            "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input,
            "tool_use_id": "toolu_boundread_doctor"}


def _codex_payload(root: Path, file: Path) -> dict[str, Any]:
    payload = _claude_payload(root, file, "Bash")
    payload.update(turn_id=SESSION, permission_mode="bypassPermissions", tool_use_id="call_boundread_doctor")
    return payload


def _gemini_payload(root: Path, file: Path) -> dict[str, Any]:
    stamp = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    return {"session_id": SESSION, "transcript_path": "", "cwd": str(root), "hook_event_name": "BeforeTool",
            "timestamp": stamp, "tool_name": "read_file", "tool_input": {"file_path": str(file)}}


def _qwen_payload(root: Path, file: Path) -> dict[str, Any]:
    """Claude Code's payload with Qwen Code's tool name, timestamp and model call id (agents/qwen.py)."""
    stamp = datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")
    payload = _claude_payload(root, file)
    payload.update(tool_name="read_file", timestamp=stamp, permission_mode="yolo", tool_call_id="call_boundread")
    return payload


def _opencode_payload(root: Path, file: Path) -> dict[str, Any]:
    """What our opencode plugin sends (data/opencode-plugin.js)."""
    return {"hook_event_name": "tool.execute.before", "client": "opencode", "tool": "read", "cwd": str(root),
            "session_id": SESSION, "call_id": SESSION, "args": {"filePath": str(file)}}


def _copilot_payload(root: Path, file: Path) -> dict[str, Any]:
    """Copilot CLI 1.0.102's preToolUse payload for a whole ``view`` (agents/copilot.py)."""
    return {"sessionId": SESSION, "timestamp": int(datetime.now(timezone.utc).timestamp() * 1000), "cwd": str(root),
            "toolName": "view", "toolArgs": {"path": str(file)}}


def _copilot_stops(answer: dict[str, Any]) -> str | None:
    if answer.get("permissionDecision") == "deny":
        return "refused"
    return "rewrote" if isinstance(answer.get("modifiedArgs"), dict) else None


def _opencode_stops(answer: dict[str, Any]) -> str | None:
    if answer.get("decision") == "deny":
        return "refused"
    return "rewrote" if isinstance(answer.get("args"), dict) else None


def _claude_stops(answer: dict[str, Any]) -> str | None:
    inner = answer.get("hookSpecificOutput")
    inner = inner if isinstance(inner, dict) else {}
    if inner.get("permissionDecision") == "deny" or answer.get("decision") == "block":
        return "refused"
    return "rewrote" if isinstance(inner.get("updatedInput"), dict) else None


def _gemini_stops(answer: dict[str, Any]) -> str | None:
    if answer.get("decision") in ("deny", "block"):
        return "refused"
    inner = answer.get("hookSpecificOutput")
    return "rewrote" if isinstance(inner, dict) and isinstance(inner.get("tool_input"), dict) else None


CLIENTS: dict[str, Client] = {
    "claude": Client("Claude Code", _claude_payload, _posix, 1.0, 600.0, _claude_stops,
                     lambda root: {"CLAUDE_PROJECT_DIR": str(root)}),
    "codex": Client("Codex", _codex_payload, _posix, 1.0, 600.0, _claude_stops, lambda root: {}),
    "gemini": Client("Gemini CLI", _gemini_payload, _bash, 0.001, 60.0, _gemini_stops,
                     lambda root: {"GEMINI_PROJECT_DIR": str(root), "GEMINI_CWD": str(root),
                                   "CLAUDE_PROJECT_DIR": str(root), "GEMINI_SESSION_ID": SESSION}),
    "qwen": Client("Qwen Code", _qwen_payload, _posix, 1.0, 60.0, _claude_stops, lambda root: {}),
    # its flat handlers: the command in "bash" (and "powershell"), the timeout in "timeoutSec"
    "copilot": Client("GitHub Copilot CLI", _copilot_payload, _bash, 1.0, 30.0, _copilot_stops, lambda root: {}),
    # the plugin's own spawn (a shell) and TIMEOUT_MS; its flat entry has no timeout
    "opencode": Client("opencode", _opencode_payload, _posix, 1.0, 30.0, _opencode_stops, lambda root: {}),
}


def handler(hooks: Mapping[str, Any], event: str) -> dict[str, Any] | None:
    """Our guard-check handler registered on ``event`` (nested in a group, or flat)."""
    from boundread.agents import install

    entries = hooks.get(event)
    for entry in entries if isinstance(entries, list) else ():
        if not install.ours(entry, "guard-check"):
            continue
        group = entry.get("hooks") if isinstance(entry, dict) else None
        for one in group if isinstance(group, list) else [entry]:
            if isinstance(one, dict) and isinstance(one.get("command"), str) and install.ours(one, "guard-check"):
                return one
            if isinstance(one, dict) and isinstance(one.get("bash"), str) and install.ours(one, "guard-check"):
                return {"command": one["bash"], "timeout": one.get("timeoutSec")}  # Copilot's flat handler
    return None


def _file(folder: Path, root: Path) -> tuple[Path, str] | None:
    """A file the guard's settings for ``root`` refuse to read whole, in ``folder``, and how it is called."""
    from importlib.resources import files

    from boundread.bytelevel import sniff
    from boundread.guard import config

    loaded = config.load(root)
    if sniff.PDF in loaded.deny_kinds:
        pdf = folder / "report.pdf"
        pdf.write_bytes((files("boundread") / "data" / "sample-report.pdf").read_bytes())
        return pdf, "a 12-page PDF"
    if loaded.text_max_bytes >= TEXT_MOST:
        return None
    text = folder / "big.log"
    line = "2026-12-02T10:00:00Z INFO boundread doctor probe: a line of a log too big to read whole\n"
    with text.open("w", encoding="utf-8") as fh:
        fh.write(line * (loaded.text_max_bytes // len(line) + 2))
    return text, f"a {text.stat().st_size:,}-byte log"


def check(agent: str, hooks: Mapping[str, Any], event: str, root: Path, path: str | None = None) -> list[Check]:
    """Run our guard hook on ``event`` once as ``agent`` would (``path``: the PATH it runs with); [] for a client
    without a probe here, or when no guard hook is registered (another check says so)."""
    client = CLIENTS.get(agent)
    found = handler(hooks, event) if client else None
    if client is None or found is None:
        return []
    command = str(found["command"])
    timeout = found.get("timeout")
    seconds = (timeout * client.unit if isinstance(timeout, (int, float)) and not isinstance(timeout, bool)
               and timeout > 0 else client.default)
    seconds = min(seconds, MOST)
    with tempfile.TemporaryDirectory(prefix="boundread-doctor-") as temp:
        folder = Path(temp)
        made = _file(folder, root)
        if made is None:
            return [Check("guard answers", None, "the guard's settings refuse neither a PDF nor a text file doctor "
                          "can write: nothing to test the hook with", "")]
        file, what = made
        payload = client.payload(root, file)
        env = {**os.environ, **({"PATH": path} if path is not None else {}), **client.env(root),
               "BOUNDREAD_STATE_DIR": str(folder / "state"), "BOUNDREAD_OUT_DIR": str(folder / "out")}
        env.pop("BOUNDREAD_LEDGER_URL", None)
        return [_judge(client, command, what, seconds, _run(client.shell(command), payload, root, env, seconds))]


def _judge(client: Client, command: str, what: str, seconds: float,
           run: subprocess.CompletedProcess[str] | None) -> Check:
    fix = (f"run `{command}` by hand with a hook payload on stdin to see its error, then run `boundread init` "
           "again, or reinstall boundread (pip install --force-reinstall boundread)")
    asked = f"a whole read of {what} (the payload {client.label} sends)"
    if run is None:
        return Check("guard answers", False, f"`{command}` did not answer {asked} in {seconds:g} s: "
                     f"{client.label} lets the read through when a hook times out", fix)
    if run.returncode == 2:
        why = (run.stderr.strip().splitlines() or ["(no reason on stderr)"])[-1][:200]
        return Check("guard answers", True, f"`{command}` refused {asked} with exit 2: {why}")
    error = (run.stderr.strip().splitlines() or [""])[-1][:200]
    if run.returncode != 0:
        return Check("guard answers", False, f"`{command}` exited {run.returncode} on {asked}"
                     + (f": {error}" if error else "") + f": {client.label} takes that as allow", fix)
    out = run.stdout.strip()
    if not out:
        return Check("guard answers", False, f"`{command}` answered nothing to {asked}: the read goes through "
                     "whole" + (f" ({error})" if error else ""), _allow_fix())
    try:
        answer = json.loads(out)
    except ValueError:
        return Check("guard answers", False, f"`{command}` answered {asked} with {out[:80]!r}, not JSON "
                     f"{client.label} reads: the read goes through whole", fix)
    stops = client.stops(answer) if isinstance(answer, dict) else None
    if stops is None:
        return Check("guard answers", False, f"`{command}` allowed {asked} ({out[:120]}): the read goes through "
                     "whole", _allow_fix())
    return Check("guard answers", True, f"`{command}` {stops} {asked}, in {client.label}'s format")


def _allow_fix() -> str:
    return ("check the guard's settings below (allow globs, deny_kinds, text_max_bytes) and the hook's command "
            "line, or run `boundread init` again")


def _run(argv: list[str], payload: dict[str, Any], root: Path, env: dict[str, str],
         seconds: float) -> subprocess.CompletedProcess[str] | None:
    """``argv`` with the payload on stdin, in ``root``; None when it outlasts ``seconds`` (its group is killed)."""
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, cwd=root, env=env, start_new_session=os.name != "nt")
    except OSError as exc:
        return subprocess.CompletedProcess(argv, 127, "", f"{argv[0]}: {exc.strerror or exc}")
    with proc:
        try:
            out, err = proc.communicate(json.dumps(payload), timeout=seconds)
        except subprocess.TimeoutExpired:
            if os.name != "nt":
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
            proc.kill()
            proc.communicate()
            return None
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)
