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
holds in each client, measured on what that client hands its model (each client's part - where its payload
holds the output, how it cut it, how the replacement is answered - is its module's ``post_output``,
``post_cut`` and ``post_reply``: agents/claude.py, agents/gemini.py, agents/codex.py):

- Claude Code 2.1.332: the tool's output (Bash ``stdout`` + ``stderr``). ``hookSpecificOutput.
  updatedToolOutput`` in the tool's own output shape (for Bash ``{"stdout", "stderr", "interrupted",
  "isImage", ...}``) is what the model gets. Claude Code keeps Bash output over 30,000 characters
  (the ``bashOutputMaxChars`` setting, at most 128,000: 32,000 tokens inline) in its own file: the payload's
  ``stdout`` holds the first 30,000 and ``persistedOutputPath``/``persistedOutputSize`` the rest, so that
  file is what gets copied.
- Gemini CLI 0.61: ``llmContent``. It ignores ``tool_output``, ``llmContent`` and ``tool_response`` in an
  AfterTool answer; ``{"decision": "deny", "reason": R}`` replaces the whole result with ``{"error": R}``,
  which is the mechanism used (R opens with "Not an error"). It keeps the last 16 MiB of a shell output and
  sends it twice, a payload over guard-check's 32 MiB stdin cap (hook/bigpayload.py). Its own cut
  (``truncateToolOutputThreshold``, 40,000 characters, shell and one-part MCP results only) comes after
  AfterTool and can be turned off.
- Codex 0.171: the ``tool_response`` string. Codex cuts the hook's copy of a shell output to ~10,000 tokens
  while its model gets up to ``tool_output_token_limit`` (1 MB of a 2.1 MB output, measured), and opens the
  cut copy with "Warning: truncated output (original token count: N)": N is what counts. ``{"decision":
  "block", "reason": R}`` makes R what the model gets in place of the output (codex-rs
  ``core/src/tools/registry.rs``: the feedback message replaces the model-visible result; tests/e2e/
  test_codex_posttool.py), the one way it has: ``updatedMCPToolOutput`` is refused ("unsupported") and
  there is no ``updatedToolOutput``.

A payload too big to hold or parse whole reaches :func:`run` from :mod:`boundread.hook.bigpayload`: its big
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
from boundread.guard.config import ConfigError, shown_size
from boundread.guard.config import load as load_config
from boundread.guard.postsave import Output, out_folder, save
from boundread.guard.reason import quote
from boundread.units import human_bytes

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from boundread.agents.base import Backstop
    from boundread.guard.config import GuardConfig

__all__ = ["CUT", "EVENTS", "FLOOR", "RESULT_BYTES", "Output", "answer", "cap", "out_folder", "run", "summary"]

EVENTS = ("PostToolUse", "AfterTool")
RESULT_TOKENS = 25_000  # the result goal: no tool output over this reaches the model
RESULT_BYTES = RESULT_TOKENS * 4  # limits.CHARS_PER_TOKEN (not imported: limits.py loads dataclasses)
FLOOR = 1024  # bytes: an output this small is never replaced, whatever the config says
SAMPLE = 8192  # characters looked at to tell binary from text
PREVIEW_LINES, PREVIEW_WIDTH = 5, 160
CUT = "boundread-payload-cut"  # set by hook/bigpayload.py on a payload it could not read to its end: why
SPILLS = "boundread-payload-spills"  # set by hook/bigpayload.py: the folder its spilled strings are in
_CONTROL = frozenset(chr(code) for code in range(32)) - set("\t\n\r\f\b\x1b")


def run(payload: Mapping[str, Any], config_path: str | None) -> int:
    """guard-check's answer to a PostToolUse/AfterTool payload: the replacement on stdout, or nothing."""
    try:
        reply, raw, text = _answered(payload, config_path)
    except Exception:  # noqa: BLE001 - a post-tool hook never fails the call: on anything unexpected, say nothing
        reply, raw, text = "", None, ""
    finally:
        spills = payload.get(SPILLS)
        if isinstance(spills, str) and spills:
            import shutil

            shutil.rmtree(spills, ignore_errors=True)
    if reply:
        sys.stdout.write(reply)
        sys.stdout.flush()
        from boundread.hook import saved  # a replacement, counted for `boundread stats` once answered

        saved.backstop(payload, _client_name(payload), raw, text)
    return 0


def cap(config: GuardConfig) -> int:
    """The backstop's cap in bytes: the result goal, or the config's text cap where that is lower."""
    return min(config.text_max_bytes, RESULT_BYTES)


def answer(payload: Mapping[str, Any], config_path: str | None = None,
           config: GuardConfig | None = None) -> str:
    """The hook's stdout for one PostToolUse/AfterTool payload: the JSON answer, or "" for none."""
    return _answered(payload, config_path, config)[0]


def _answered(payload: Mapping[str, Any], config_path: str | None = None,
              config: GuardConfig | None = None) -> tuple[str, int | None, str]:
    """(the answer or "", the output's full size in bytes when known, the short answer the model gets instead)."""
    event = payload.get("hook_event_name")
    if event not in EVENTS:
        return "", None, ""
    client = _client(payload)
    output = client.post_output(payload)
    cut = str(payload.get(CUT) or "")
    if output is not None and not cut:
        tokens = client.post_cut(output.text)
        cut = f"{client.LABEL} cut it from {tokens:,} tokens" if tokens > RESULT_TOKENS else ""
    if not cut and (output is None or output.size <= FLOOR):
        return "", None, ""
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
        return "", None, ""
    tool = str(payload.get("tool_name") or "tool")
    text = summary(output, binary, tool, cwd, limit, cut)
    raw = None if cut or output is None else output.size  # a cut output's whole size is not known
    return client.post_reply(text, payload), raw, text


def _client(payload: Mapping[str, Any]) -> Backstop:
    """The client that sent a post-tool payload: Gemini CLI's AfterTool, Codex's PostToolUse (with a ``turn_id``),
    Claude Code's PostToolUse."""
    from boundread import agents

    return agents.backstop_of(_client_name(payload))


def _client_name(payload: Mapping[str, Any]) -> str:
    event = payload.get("hook_event_name")
    return "gemini" if event == "AfterTool" else "codex" if "turn_id" in payload else "claude"


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
