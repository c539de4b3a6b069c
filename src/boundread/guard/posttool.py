"""After a tool ran: bound an output that slipped past the PreToolUse guard.

Claude Code ``PostToolUse`` and Gemini CLI ``AfterTool``. When a tool's output is binary, or text over
the guard's ``text_max_bytes``, the full output is saved in the output folder (``$BOUNDREAD_OUT_DIR``,
else ``<cwd>/boundread-out``) and the model gets a short answer instead: what the output was, where it
is, and the boundread commands that read it in parts. Anything else gets no answer at all.

How each client takes the replacement (measured with the real clients, tests/e2e/test_posttool.py):

- Claude Code 2.1.332: ``hookSpecificOutput.updatedToolOutput`` in the tool's own output shape (for
  Bash ``{"stdout", "stderr", "interrupted", "isImage", ...}``) is what the model gets. Claude Code keeps
  Bash output over 30,000 characters in its own file: the payload's ``stdout`` holds the first 30,000
  and ``persistedOutputPath``/``persistedOutputSize`` the rest, so that file is what gets copied.
- Gemini CLI 0.61 ignores ``tool_output``, ``llmContent`` and ``tool_response`` in an AfterTool answer;
  ``{"decision": "deny", "reason": R}`` replaces the whole result with ``{"error": R}``, which is the
  mechanism used (R opens with "Not an error"). A ``tailToolCallRequest`` would run a second tool whose
  result replaces the first, but its own AfterTool fires too (a hook that answers it the same way loops
  for ever), and in the default approval mode it is one more shell command to confirm.
- Codex 0.171 PostToolUse accepts only ``decision: "block"``, ``additionalContext`` and (for MCP tools)
  ``updatedMCPToolOutput``: no replacement of a shell output, so a Codex payload gets no answer.

Never a deny of the call (it already ran) and never an error: on anything unexpected, say nothing.
Standard library only, and a small output costs a length check: the config is read only past FLOOR.
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
# ruff: noqa: PTH100, PTH103, PTH108, PTH109, PTH110, PTH112, PTH113, PTH118
from __future__ import annotations

import os
import sys

from boundread.bytelevel import sniff
from boundread.guard import jsonio
from boundread.guard.config import ConfigError, shown_size
from boundread.guard.config import load as load_config
from boundread.guard.reason import quote
from boundread.units import human_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from boundread.guard.config import GuardConfig

EVENTS = ("PostToolUse", "AfterTool")
FLOOR = 1024  # bytes: an output this small is never replaced, whatever the config says
SAMPLE = 8192  # characters looked at to tell binary from text
PREVIEW_LINES, PREVIEW_WIDTH = 5, 160
CHUNK = 1024 * 1024
_PERSISTED = ("persistedOutputPath", "persistedOutputSize")
_NAME_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
_CONTROL = frozenset(chr(code) for code in range(32)) - set("\t\n\r\f\b\x1b")


def run(payload: Mapping[str, Any], config_path: str | None) -> int:
    """guard-check's answer to a PostToolUse/AfterTool payload: the replacement on stdout, or nothing."""
    try:
        reply = answer(payload, config_path)
    except Exception:  # noqa: BLE001 - a post-tool hook never fails the call: on anything unexpected, say nothing
        return 0
    if reply:
        sys.stdout.write(reply)
        sys.stdout.flush()
    return 0


class Output:
    """One tool output as the hook sees it: its text, its full size, and where the client kept the rest."""

    __slots__ = ("text", "size", "persisted")  # noqa: RUF023 - field order = argument order

    def __init__(self, text: str, size: int, persisted: str = "") -> None:
        self.text, self.size, self.persisted = text, size, persisted


def answer(payload: Mapping[str, Any], config_path: str | None = None,
           config: GuardConfig | None = None) -> str:
    """The hook's stdout for one PostToolUse/AfterTool payload: the JSON answer, or "" for none."""
    event = payload.get("hook_event_name")
    if event not in EVENTS or "turn_id" in payload:  # Codex sends turn_id: it cannot replace an output
        return ""
    response = payload.get("tool_response")
    output = _claude_output(response) if event == "PostToolUse" else _gemini_output(payload, response)
    if output is None or output.size <= FLOOR:
        return ""
    binary = _binary(output.text[:SAMPLE])
    cwd = str(payload.get("cwd") or "") or os.getcwd()
    if config is None:
        try:
            config = load_config(cwd, config_path)
        except (ConfigError, OSError):
            from boundread.guard.config import GuardConfig

            config = GuardConfig()
    binary = binary and sniff.BINARY in config.deny_kinds
    if not binary and output.size <= config.text_max_bytes:
        return ""
    tool = str(payload.get("tool_name") or "tool")
    text = summary(output, binary, tool, cwd, config.text_max_bytes)
    if event == "AfterTool":  # Gemini: the reason replaces the whole result
        return jsonio.dumps({"decision": "deny", "reason": text}) + "\n"
    replaced: Any = text
    if isinstance(response, dict):
        replaced = {key: value for key, value in response.items() if key not in _PERSISTED}
        replaced.update(stdout=text, stderr="", isImage=False)
    body = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": replaced}}
    return jsonio.dumps(body) + "\n"


def _claude_output(response: object) -> Output | None:
    """Bash's ``{"stdout", "stderr", ...}`` or a plain string; None for any other shape (left alone)."""
    if isinstance(response, str):
        return Output(response, _size(response))
    if not isinstance(response, dict) or response.get("isImage") is True:
        return None
    stdout, stderr = response.get("stdout"), response.get("stderr")
    if not isinstance(stdout, str):
        return None
    text = stdout + ("\n" + stderr if isinstance(stderr, str) and stderr else "")
    path, size = response.get("persistedOutputPath"), response.get("persistedOutputSize")
    if isinstance(path, str) and path and isinstance(size, int) and not isinstance(size, bool):
        return Output(text, max(size, _size(text)), path)
    return Output(text, _size(text))


def _gemini_output(payload: Mapping[str, Any], response: object) -> Output | None:
    """``llmContent`` (what the model gets) for the size; the shell's raw ``returnDisplay`` to save."""
    if not isinstance(response, dict):
        return None
    content = _parts_text(response.get("llmContent"))
    if content is None:
        return None
    display = response.get("returnDisplay")
    shell = payload.get("tool_name") == "run_shell_command"
    text = display if shell and isinstance(display, str) and display else content
    return Output(text, max(_size(content), _size(text)))


def _parts_text(value: object) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        texts = [part.get("text") for part in value if isinstance(part, dict)]
        return "\n".join(text for text in texts if isinstance(text, str))
    return None


def _size(text: str) -> int:
    """UTF-8 bytes of ``text``; measured only when the characters alone do not settle it."""
    if len(text) <= FLOOR // 4:
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def _binary(sample: str) -> bool:
    """NULs, replacement characters (undecodable bytes) or control characters in a tenth of the sample."""
    if not sample:
        return False
    odd = sample.count("\x00") + sample.count("\ufffd") + sum(1 for ch in sample if ch in _CONTROL)
    return odd * 10 >= len(sample)


def summary(output: Output, binary: bool, tool: str, cwd: str, cap: int) -> str:
    """The short answer: what the output was, where it is in full, how to read it in parts."""
    error = ""
    try:
        saved, size, lines = save(output, tool, cwd, binary)
    except OSError as exc:
        saved, size, lines = "", output.size, None
        error = exc.strerror or type(exc).__name__
    shape = "binary data" if binary else "text"
    counted = f", {lines:,} lines" if lines is not None and not binary else ""
    why = "binary output" if binary else f"over the {shown_size(cap)} cap"
    head = (f"Not an error: the {tool} call ran, and boundread put this short answer in place of its output "
            f"({human_bytes(size)} of {shape}{counted}; {why}), to keep the context small.")
    if not saved and output.persisted:
        saved = output.persisted
    if not saved:
        return (f"{head}\nIt could not be saved ({error}). Run the command again with its output sent to a "
                f"file (CMD > out.txt), then read that file in parts with `boundread extract out.txt "
                f"--lines 1-200`.")
    where = quote(saved)
    lines_out = [head, f"Full output saved to: {saved}", "Read it in parts:"]
    if binary:  # boundread extracts text only: info says what the data is
        return "\n".join([*lines_out[:2], f"Look at it with: boundread info {where}"])
    lines_out += [f"  boundread extract {where} --lines 1-200",
                  f"  boundread extract {where} --grep PATTERN --context 2"]
    preview = _preview(output.text)
    return "\n".join([*lines_out, "First lines:", *preview] if preview else lines_out)


def _preview(text: str) -> list[str]:
    out = []
    for line in text[:PREVIEW_LINES * PREVIEW_WIDTH * 2].split("\n")[:PREVIEW_LINES]:
        out.append("  " + (line if len(line) <= PREVIEW_WIDTH else line[:PREVIEW_WIDTH] + "..."))
    return out


def out_folder(cwd: str) -> str:
    """``$BOUNDREAD_OUT_DIR`` (relative: to the payload's cwd), else ``<cwd>/boundread-out``."""
    return os.path.abspath(os.path.join(cwd, os.environ.get("BOUNDREAD_OUT_DIR") or "boundread-out"))


def save(output: Output, tool: str, cwd: str, binary: bool) -> tuple[str, int, int]:
    """Write the full output into the output folder, atomically; (its path, bytes, lines).

    The name is ``<tool>-output.<hash>.txt`` (``.bin`` for binary): only safe characters, so the file
    is always inside the folder, and the same output always lands in the same place.
    """
    import hashlib
    import tempfile

    folder = out_folder(cwd)
    if not os.path.isdir(folder):
        os.makedirs(folder, exist_ok=True)
        with open(os.path.join(folder, ".gitignore"), "w", encoding="utf-8") as fh:
            fh.write("*\n")
    digest = hashlib.sha256()
    size = newlines = 0
    last = b""
    fd, temp = tempfile.mkstemp(prefix=".boundread-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as out:
            for chunk in _chunks(output):
                digest.update(chunk)
                out.write(chunk)
                size += len(chunk)
                newlines += chunk.count(b"\n")
                last = chunk[-1:]
        os.chmod(temp, 0o644)
        name = "".join(ch if ch in _NAME_SAFE else "_" for ch in tool)[:40] or "tool"
        dest = os.path.join(folder, f"{name}-output.{digest.hexdigest()[:12]}.{'bin' if binary else 'txt'}")
        os.replace(temp, dest)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise
    return dest, size, newlines + (1 if last and last != b"\n" else 0)


def _chunks(output: Output) -> Any:
    """The bytes of the full output: the client's own file of it when it kept one, else the text."""
    if output.persisted and os.path.isfile(output.persisted):  # a regular file: never a FIFO or a device
        try:
            handle = open(output.persisted, "rb")  # noqa: SIM115 - closed below, after the last chunk
        except OSError:
            handle = None
        if handle is not None:
            with handle:
                while chunk := handle.read(CHUNK):
                    yield chunk
            return
    data = output.text.encode("utf-8", "replace")
    for start in range(0, len(data), CHUNK):
        yield data[start:start + CHUNK]
