"""After a tool ran: bound an output that slipped past the PreToolUse guard.

Claude Code ``PostToolUse``, Gemini CLI ``AfterTool`` and Codex ``PostToolUse``. When a tool's output is
binary, or text over the result cap, the full output is saved in the output folder (``$BOUNDREAD_OUT_DIR``,
else ``<cwd>/boundread-out``, guard/postsave.py) and the model gets a short answer instead: what the output
was, where it is, and the boundread commands that read it in parts. Anything else gets no answer at all.

The cap is the result goal: no tool output over 25,000 tokens reaches the model (issue 19). 25,000 tokens is
what Claude Code allows a Read (``DEFAULT_MAX_OUTPUT_TOKENS``) and an MCP result (``MAX_MCP_OUTPUT_TOKENS``),
and boundread's own ``Limits.max_chars`` (100,000 characters at ``limits.CHARS_PER_TOKEN`` = 4). The cap is
counted in UTF-8 bytes (RESULT_BYTES = 100,000): the same for ASCII, and sooner for text whose characters
take several bytes and, as tokens go, count more each. A guard config with a lower ``text_max_bytes`` lowers
it; a higher one does not raise it (a project file could otherwise let everything through). The same number
holds in each client, measured on what that client hands its model:

- Claude Code 2.1.332: the tool's output (Bash ``stdout`` + ``stderr``). ``hookSpecificOutput.
  updatedToolOutput`` in the tool's own output shape (for Bash ``{"stdout", "stderr", "interrupted",
  "isImage", ...}``) is what the model gets. Claude Code keeps Bash output over 30,000 characters
  (the ``bashOutputMaxChars`` setting, at most 128,000: 32,000 tokens inline) in its own file: the payload's
  ``stdout`` holds the first 30,000 and ``persistedOutputPath``/``persistedOutputSize`` the rest, so that
  file is what gets copied.
- Gemini CLI 0.61: ``llmContent``. It ignores ``tool_output``, ``llmContent`` and ``tool_response`` in an
  AfterTool answer; ``{"decision": "deny", "reason": R}`` replaces the whole result with ``{"error": R}``,
  which is the mechanism used (R opens with "Not an error"). It keeps the last 16 MiB of a shell output and
  sends it twice, a payload over guard-check's 32 MiB stdin cap (guard/bigpayload.py). Its own cut
  (``truncateToolOutputThreshold``, 40,000 characters, shell and one-part MCP results only) comes after
  AfterTool and can be turned off.
- Codex 0.171: the ``tool_response`` string. Codex cuts the hook's copy of a shell output to ~10,000 tokens
  while its model gets up to ``tool_output_token_limit`` (1 MB of a 2.1 MB output, measured), and opens the
  cut copy with "Warning: truncated output (original token count: N)": N is what counts. ``{"decision":
  "block", "reason": R}`` makes R what the model gets in place of the output (codex-rs
  ``core/src/tools/registry.rs``: the feedback message replaces the model-visible result; tests/e2e/
  test_codex_posttool.py), the one way it has: ``updatedMCPToolOutput`` is refused ("unsupported") and
  there is no ``updatedToolOutput``.

A payload too big to hold or parse whole reaches :func:`run` from :mod:`boundread.guard.bigpayload`: its big
strings spilled to files (copied from there) or, where the reading stopped early, marked ``CUT``; a cut
payload always gets the short answer - an output the hook could not read whole is not passed on.

Never a deny of the call (it already ran) and never an error: on anything unexpected, say nothing.
Standard library only, and a small output costs a length check: the config is read only past FLOOR.
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
# ruff: noqa: PTH109
from __future__ import annotations

import os
import sys

from boundread.bytelevel import sniff
from boundread.guard import jsonio
from boundread.guard.config import ConfigError, shown_size
from boundread.guard.config import load as load_config
from boundread.guard.postsave import Output, out_folder, save
from boundread.guard.reason import quote
from boundread.units import human_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from boundread.guard.config import GuardConfig

__all__ = ["CUT", "EVENTS", "FLOOR", "RESULT_BYTES", "Output", "answer", "cap", "out_folder", "run", "summary"]

EVENTS = ("PostToolUse", "AfterTool")
RESULT_TOKENS = 25_000  # the result goal: no tool output over this reaches the model
RESULT_BYTES = RESULT_TOKENS * 4  # limits.CHARS_PER_TOKEN (not imported: limits.py loads dataclasses)
FLOOR = 1024  # bytes: an output this small is never replaced, whatever the config says
SAMPLE = 8192  # characters looked at to tell binary from text
PREVIEW_LINES, PREVIEW_WIDTH = 5, 160
CUT = "boundread-payload-cut"  # set by guard/bigpayload.py on a payload it could not read to its end: why
SPILLS = "boundread-payload-spills"  # set by guard/bigpayload.py: the folder its spilled strings are in
_PERSISTED = ("persistedOutputPath", "persistedOutputSize")
_CODEX_CUT = "Warning: truncated output (original token count: "
_CONTROL = frozenset(chr(code) for code in range(32)) - set("\t\n\r\f\b\x1b")


def run(payload: Mapping[str, Any], config_path: str | None) -> int:
    """guard-check's answer to a PostToolUse/AfterTool payload: the replacement on stdout, or nothing."""
    try:
        reply = answer(payload, config_path)
    except Exception:  # noqa: BLE001 - a post-tool hook never fails the call: on anything unexpected, say nothing
        reply = ""
    finally:
        spills = payload.get(SPILLS)
        if isinstance(spills, str) and spills:
            import shutil

            shutil.rmtree(spills, ignore_errors=True)
    if reply:
        sys.stdout.write(reply)
        sys.stdout.flush()
    return 0


def cap(config: GuardConfig) -> int:
    """The backstop's cap in bytes: the result goal, or the config's text cap where that is lower."""
    return min(config.text_max_bytes, RESULT_BYTES)


def answer(payload: Mapping[str, Any], config_path: str | None = None,
           config: GuardConfig | None = None) -> str:
    """The hook's stdout for one PostToolUse/AfterTool payload: the JSON answer, or "" for none."""
    event = payload.get("hook_event_name")
    if event not in EVENTS:
        return ""
    codex = event == "PostToolUse" and "turn_id" in payload  # Codex sends turn_id, Claude Code does not
    response = payload.get("tool_response")
    output = _codex_output(response) if codex else \
        _claude_output(response) if event == "PostToolUse" else _gemini_output(payload, response)
    cut = str(payload.get(CUT) or "")
    if codex and output is not None and not cut:
        cut = _codex_cut(output.text)
    if not cut and (output is None or output.size <= FLOOR):
        return ""
    cwd = str(payload.get("cwd") or "") or os.getcwd()
    if config is None:
        try:
            config = load_config(cwd, config_path)
        except (ConfigError, OSError):
            from boundread.guard.config import GuardConfig

            config = GuardConfig()
    binary = output is not None and _binary(output.text[:SAMPLE]) and sniff.BINARY in config.deny_kinds
    limit = cap(config)
    if not cut and not binary and output is not None and output.size <= limit:
        return ""
    tool = str(payload.get("tool_name") or "tool")
    text = summary(output, binary, tool, cwd, limit, cut)
    if event == "AfterTool":  # Gemini: the reason replaces the whole result
        return jsonio.dumps({"decision": "deny", "reason": text}) + "\n"
    if codex:  # Codex: the block reason is what the model gets instead
        return jsonio.dumps({"decision": "block", "reason": text}) + "\n"
    replaced: Any = text
    if isinstance(response, dict):
        replaced = {key: value for key, value in response.items() if key not in _PERSISTED}
        replaced.update(stdout=text, stderr="", isImage=False)
    elif tool == "Bash":  # a cut payload: Bash's shape all the same
        replaced = {"stdout": text, "stderr": "", "interrupted": False, "isImage": False}
    body = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": replaced}}
    return jsonio.dumps(body) + "\n"


def _claude_output(response: object) -> Output | None:
    """Bash's ``{"stdout", "stderr", ...}`` or a plain string; None for any other shape (left alone)."""
    if isinstance(response, str):
        return _whole(response)
    if not isinstance(response, dict) or response.get("isImage") is True:
        return None
    stdout, stderr = response.get("stdout"), response.get("stderr")
    if not isinstance(stdout, str):
        return None
    err = stderr if isinstance(stderr, str) and stderr else ""
    if _spill(stdout) or _spill(err):  # a spilled string is kept whole in its file: stdout (or stderr) alone
        big = stdout if _size(stdout) >= _size(err) else err
        return Output(big, _size(stdout) + _size(err), spill=_spill(big))
    text = stdout + ("\n" + err if err else "")
    path, size = response.get("persistedOutputPath"), response.get("persistedOutputSize")
    if isinstance(path, str) and path and isinstance(size, int) and not isinstance(size, bool):
        return Output(text, max(size, _size(text)), path)
    return Output(text, _size(text))


def _gemini_output(payload: Mapping[str, Any], response: object) -> Output | None:
    """``llmContent`` (what the model gets) for the size; the shell's raw ``returnDisplay`` to save."""
    if not isinstance(response, dict):
        return None
    content = _parts(response.get("llmContent"))
    if content is None:
        return None
    display = response.get("returnDisplay")
    if payload.get("tool_name") == "run_shell_command" and isinstance(display, str) and display:
        return Output(display, max(content.size, _size(display)), spill=_spill(display))
    return content


def _codex_output(response: object) -> Output | None:
    """Codex hands a shell output over as one string; an MCP result as ``{"content": [{"text"}...]}``."""
    if isinstance(response, str):
        return _whole(response)
    return _parts(response.get("content")) if isinstance(response, dict) else None


def _codex_cut(text: str) -> str:
    """Why a Codex output is over the goal although its payload is not: Codex cuts a shell output to its
    default policy (about 10,000 tokens) for the hook, while the model gets up to ``tool_output_token_limit``
    of it (1 MB reached the model in a real run), and says so in a first line that counts the whole."""
    if not text.startswith(_CODEX_CUT):
        return ""
    digits = text[len(_CODEX_CUT):len(_CODEX_CUT) + 20].split(")", 1)[0]
    tokens = int(digits) if digits.isdigit() else 0
    return f"Codex cut it from {tokens:,} tokens" if tokens > RESULT_TOKENS else ""


def _parts(value: object) -> Output | None:
    """A string, or a list of ``{"text": ...}`` parts (Gemini's and MCP's content)."""
    if isinstance(value, str):
        return _whole(value)
    if not isinstance(value, list):
        return None
    texts = [text for text in (part.get("text") for part in value if isinstance(part, dict))
             if isinstance(text, str)]
    if len(texts) == 1:
        return _whole(texts[0])
    size = sum(_size(text) for text in texts) + max(len(texts) - 1, 0)
    spilled = [text for text in texts if _spill(text)]
    if spilled:  # several parts, one too big to hold: that one is what is saved
        return Output(spilled[0], size, spill=_spill(spilled[0]))
    return Output("\n".join(texts), size)


def _whole(text: str) -> Output:
    return Output(text, _size(text), spill=_spill(text))


def _spill(text: str) -> str:
    """The file a string too big to hold was spilled into (a ``bigpayload.Spill``), else ""."""
    path = getattr(text, "path", "")
    return path if isinstance(path, str) else ""


def _size(text: str) -> int:
    """UTF-8 bytes of ``text`` (of the whole string, for one spilled to a file)."""
    spilled = getattr(text, "size", None)
    if isinstance(spilled, int):
        return spilled
    if len(text) <= FLOOR // 4:
        return len(text)
    return len(text.encode("utf-8", "surrogatepass"))


def _binary(sample: str) -> bool:
    """NULs, replacement characters (undecodable bytes) or control characters in a tenth of the sample."""
    if not sample:
        return False
    odd = sample.count("\x00") + sample.count("\ufffd") + sum(1 for ch in sample if ch in _CONTROL)
    return odd * 10 >= len(sample)


def summary(output: Output | None, binary: bool, tool: str, cwd: str, limit: int, cut: str = "") -> str:
    """The short answer: what the output was, where it is in full, how to read it in parts."""
    if output is None:  # a cut payload that stopped before the output
        return (f"Not an error: the {tool} call ran, and boundread put this short answer in place of its output: "
                f"the output was too big for the hook to read ({cut}).\n{_rerun()}")
    error = ""
    try:
        saved, size, lines = save(output, tool, cwd, binary)
    except OSError as exc:
        saved, size, lines = "", output.size, None
        error = exc.strerror or type(exc).__name__
    shape = "binary data" if binary else "text"
    counted = f", {lines:,} lines" if lines is not None and not binary else ""
    why = "binary output" if binary else f"over the {shown_size(limit)} cap"
    amount = f"{human_bytes(size)} of {shape}{counted}"
    if cut:
        amount, why = f"only {amount}", cut if cut.startswith("Codex") else f"the hook could not read the rest: {cut}"
    head = (f"Not an error: the {tool} call ran, and boundread put this short answer in place of its output "
            f"({amount}; {why}), to keep the context small.")
    if not saved and output.persisted:
        saved = output.persisted
    if not saved:
        return f"{head}\nIt could not be saved ({error}). {_rerun()}"
    where = quote(saved)
    lines_out = [head, f"{'Output read' if cut else 'Full output'} saved to: {saved}", "Read it in parts:"]
    if binary:  # boundread extracts text only: info says what the data is
        return "\n".join([*lines_out[:2], f"Look at it with: boundread info {where}"])
    lines_out += [f"  boundread extract {where} --lines 1-200",
                  f"  boundread extract {where} --grep PATTERN --context 2"]
    preview = _preview(output.text)
    return "\n".join([*lines_out, "First lines:", *preview] if preview else lines_out)


def _rerun() -> str:
    return ("Run the command again with its output sent to a file (CMD > out.txt), then read that file in parts "
            "with `boundread extract out.txt --lines 1-200`.")


def _preview(text: str) -> list[str]:
    out = []
    for line in text[:PREVIEW_LINES * PREVIEW_WIDTH * 2].split("\n")[:PREVIEW_LINES]:
        out.append("  " + (line if len(line) <= PREVIEW_WIDTH else line[:PREVIEW_WIDTH] + "..."))
    return out
