"""Redirect mode: a refused whole read becomes a bounded one in the same tool call.

Where the client takes a rewritten tool input from its pre-tool hook (REWRITES), a call that the
guard denies is answered with an allow and the input to run instead:

- a Read of a PDF or an Office file with no range: the first slice that fits SLICE_CHARS is
  extracted (in-process, within DEADLINE) into the output folder, with a header saying what the
  original is, which part this is, and the commands for the next part and for a grep across it;
  the Read is pointed at that file;
- a Read of a big text file with no range: the same file, with the first lines that fit
  SLICE_CHARS as a range in the client's own parameters, and the facts in ``context``;
- a shell command that only dumps one file (``cat report.pdf``, ``less huge.log``, ``unzip -p
  a.zip``): the bounded boundread command with ``--stdout`` (an archive: its listing), so its
  output and its ``next`` line arrive in the same turn.

Every client replaces the whole input with the one given (Gemini CLI 0.61 too, whatever its docs
say about merging: a ``tool_input`` without ``file_path`` fails its validation), so the rewrite is
always the call's own input with the changed keys. Anything else, and anything that fails or runs
out of time, keeps the deny and its reason. A slice
is cached by (real path, size, mtime_ns, cap) in INDEX in the output folder, so reading the same
file again costs a stat and a small JSON read. Nothing is written outside the output folder
(``$BOUNDREAD_OUT_DIR`` against the payload's cwd, else ``<cwd>/boundread-out``).

Only imported on a deny in redirect mode: the allow path never loads it.
"""

# os.path on purpose: the guard's paths are strings (decide.py); this module is off the hot path anyway.
# ruff: noqa: PTH100, PTH108, PTH109, PTH110, PTH111, PTH113, PTH117, PTH118, PTH119
from __future__ import annotations

import os

from boundread.guard import dialects, reason
from boundread.guard.config import GuardConfig
from boundread.guard.decide import ALLOW, Decision, check_read

SLICE_CHARS = 24_000  # ~6k tokens: under Claude Code's 30,000-character Bash cap and its Read token cap
DEADLINE = 5.0  # seconds for the extraction; the hooks init writes time out after 10
INDEX = ".boundread-redirect.json"
MAX_INDEX = 256  # entries kept in INDEX, the newest
#: The agents whose pre-tool answer can rewrite the call's input, verified with the real clients
#: (tests/e2e/test_redirect.py), and how each one's read tool takes a line range.
REWRITES = {"claude": ("offset", "limit"), "gemini": ("start_line", "end_line"), "codex": ()}
_SLICED = ("pdf", "office")  # rules whose file `extract` reads: the Read goes to a slice of it
_PRINTED = ("pdf", "office", "text-size", "archive")  # rules a dump command is rewritten for
_DUMPERS = frozenset({"cat", "bat", "batcat", "less", "more", "nl", "tac", "head", "tail"})
_SHELL_SPECIAL = frozenset("|;&<>$`(){}[]*?!~#\\\n\r")
_RANGE_KEYS = ("offset", "limit", "pages", "start_line", "end_line", "view_range")


def rewrite(call: dialects.Call, decision: Decision, cfg: GuardConfig) -> Decision:
    """The rewritten call for a denied one, or ``decision`` itself when no rewrite is safe."""
    if call.agent not in REWRITES or call.reads or not decision.denied or decision.rule in ("budget", "error"):
        return decision
    try:
        if call.action == dialects.READ and REWRITES[call.agent]:
            found = _read(call, decision, cfg)
        elif call.action == dialects.COMMAND:
            found = _command(call, decision)
        else:
            found = None
    except Exception:  # noqa: BLE001 - a redirect is an offer: whatever goes wrong, the deny stands
        return decision
    return found or decision


# Read ------------------------------------------------------------------------------------------------
def _read(call: dialects.Call, decision: Decision, cfg: GuardConfig) -> Decision | None:
    if any(call.tool_input.get(key) is not None for key in _RANGE_KEYS):
        return None  # a range the guard refused: the agent asked for that part, the deny says why
    absolute = _absolute(call.path, call.cwd)
    if decision.rule == "text-size":
        return _text_range(call, decision, cfg, absolute)
    if decision.rule not in _SLICED:
        return None
    made = _slice(absolute, call, decision, cfg)
    if made is None:
        return None
    slice_path, context = made
    key = "file_path" if "file_path" in call.tool_input or call.agent == "claude" else next(
        (k for k in ("path", "absolute_path") if k in call.tool_input), "file_path")
    return Decision(ALLOW, kind=decision.kind, rule=f"redirect-{decision.rule}", path=call.path,
                    updated={**call.tool_input, key: slice_path}, context=context)


def _text_range(call: dialects.Call, decision: Decision, cfg: GuardConfig, absolute: str) -> Decision | None:
    lines = _fitting_lines(absolute, min(SLICE_CHARS, cfg.text_max_bytes), cfg.line_cap)
    first, last = REWRITES[call.agent]
    while lines:
        verdict = check_read(call.path, offset=1, limit=lines, cwd=call.cwd or None, config=cfg)
        if not verdict.denied:
            break
        lines //= 2  # lines longer further on than in the first slice: fewer of them
    if not lines:
        return None
    shown, described, quoted = _facts(call.path, absolute, call.cwd, decision.kind)
    # Claude Code's limit is a count, Gemini's end_line inclusive: from line 1 both are ``lines``.
    updated: dict[str, object] = {**call.tool_input, first: 1, last: lines}
    nxt = f"offset={lines + 1} limit={lines}" if last == "limit" else \
        f"start_line={lines + 1} end_line={2 * lines}"
    context = (f"boundread redirect: {shown} ({described}) is too big to read whole, so this Read got its "
               f"lines 1-{lines:,}. Next part: the same Read with {nxt}. Search the whole file: "
               f"{_program()} extract {quoted} --grep PATTERN --context 2 --stdout")
    return Decision(ALLOW, kind=decision.kind, rule="redirect-text-range", path=call.path, updated=updated,
                    context=context)


def _fitting_lines(path: str, most: int, cap: int) -> int:
    """How many whole lines from the top fit in ``most`` bytes (at most ``cap``); 0 when not one."""
    with open(path, "rb") as fh:
        head = fh.read(most + 1)
    if len(head) <= most:
        return min(head.count(b"\n") + 1, cap)
    return min(head[:most].count(b"\n"), cap)


def _slice(absolute: str, call: dialects.Call, decision: Decision, cfg: GuardConfig) -> tuple[str, str] | None:
    """(the slice file, the context line) for a PDF or an Office file, from the cache or extracted now."""
    real = os.path.realpath(absolute)
    info = os.stat(real)
    out = _out_dir(call.cwd)
    key = f"{real}\0{info.st_size}\0{info.st_mtime_ns}\0{SLICE_CHARS}"
    index = _load_index(out)
    hit = index.get(key)
    if isinstance(hit, dict) and isinstance(hit.get("file"), str) and isinstance(hit.get("context"), str):
        cached = os.path.join(out, os.path.basename(hit["file"]))
        if os.path.isfile(cached):
            return cached, hit["context"]
    shown, described, quoted = _facts(call.path, absolute, call.cwd, decision.kind)
    made = _extract(real, quoted, decision.kind)
    if made is None:
        return None
    text, done, following = made
    grep = f"{_program()} extract {quoted} --grep PATTERN --context 2 --stdout"
    part = f"{done} (all of it)" if not following else done
    header = (f"[boundread redirect] {shown}: {described}. It was not read whole: this file holds its first "
              f"part, {part}.\n"
              + "".join(f"Next part: {command}\n" for command in following)
              + f"Search the whole document: {grep}\n"
              + "-" * 72 + "\n")
    context = (f"boundread redirect: {shown} ({described}) was not read whole; this Read got its first part, "
               f"{part}" + (f". Next part: {following[0]}" if following else "") + f". Search it all: {grep}")
    from pathlib import Path

    from boundread.core import output

    name = f"{output.slug(os.path.basename(real), 80)}.{_digest(real)}.first-part.txt"
    written = output.write_atomic(Path(out) / name, header + text, never=Path(real))
    index[key] = {"file": written.name, "context": context}
    _save_index(out, index)
    return str(written), context


def _extract(real: str, quoted: str, kind: str) -> tuple[str, str, list[str]] | None:
    """(text, what part it is, the commands for the next part) of the first slice; None when there is
    no text to give (scanned, encrypted, damaged, timed out)."""
    import shlex

    from boundread import api
    from boundread.errors import BoundreadError
    from boundread.limits import Limits

    try:
        limits = Limits(max_chars=SLICE_CHARS, timeout=DEADLINE)
        if kind == "pdf":  # no OCR in a hook: a scanned PDF keeps its deny, which names the commands
            result = api.extract(real, stdout=True, ocr="never", limits=limits)
        else:
            result = api.extract(real, stdout=True, limits=limits)
    except BoundreadError:
        return None
    if result.timed_out or not result.text or not result.text.strip():
        return None
    program = _program()
    following = [program + line.removeprefix("boundread").replace(shlex.quote(real), quoted, 1) + " --stdout"
                 for line in result.next if line.startswith("boundread ")]
    return result.text, result.done or "the first part", following


# Command ---------------------------------------------------------------------------------------------
def _command(call: dialects.Call, decision: Decision) -> Decision | None:
    if decision.rule not in _PRINTED:
        return None
    target = _dump(call.command)
    if target is None or target[0] != decision.path:
        return None
    path, member = target
    quoted, program = reason.quote(path), _program()
    if member is not None:
        new = f"{program} extract {quoted} --member {reason.quote(member)} --max-chars {SLICE_CHARS} --stdout"
    elif decision.rule == "archive":
        new = f"{program} list-zip {quoted}"
    else:
        new = f"{program} extract {quoted} --max-chars {SLICE_CHARS} --stdout"
    key = next((k for k in ("command", "cmd", "command_line") if isinstance(call.tool_input.get(k), str)), None)
    if key is None:
        return None
    updated: dict[str, object] = {**call.tool_input, key: new}
    if "description" in call.tool_input:
        updated["description"] = f"boundread: the first part of {path}"
    context = (f"boundread redirect: `{call.command}` would print {quoted} whole ({decision.kind}); it ran "
               f"`{new}` instead: the first part, then `next:` names the command for the rest.")
    return Decision(ALLOW, kind=decision.kind, rule=f"redirect-{decision.rule}", path=call.path or path,
                    updated=updated, context=context)


def _dump(command: str) -> tuple[str, str | None] | None:
    """(file, archive member) when ``command`` does nothing but print one file: ``cat F``, ``less F``,
    ``head -n 100000 F``, ``unzip -p A [MEMBER]``. None for anything else (pipes, redirections,
    several files, variables): a rewrite must not change what else the command does."""
    if not command.strip() or any(ch in _SHELL_SPECIAL for ch in command):
        return None
    import shlex

    try:
        words = shlex.split(command)
    except ValueError:
        return None
    program = os.path.basename(words[0])
    operands: list[str] = []
    options: list[str] = []
    valued = False
    for word in words[1:]:
        if valued and word.isdigit():
            valued = False
            continue
        valued = False
        if word.startswith("-") and word != "-":
            options.append(word)
            valued = word in ("-n", "-c", "--lines", "--bytes")
        else:
            operands.append(word)
    if program in _DUMPERS and len(operands) == 1:
        return operands[0], None
    if program == "unzip" and options and all(o.startswith("-") and set(o[1:]) <= set("pcq") for o in options) \
            and any("p" in o or "c" in o for o in options) and 1 <= len(operands) <= 2:
        return operands[0], operands[1] if len(operands) == 2 else None
    return None


# Helpers ---------------------------------------------------------------------------------------------
def _absolute(path: str, cwd: str) -> str:
    expanded = os.path.expanduser(path)
    return expanded if os.path.isabs(expanded) else os.path.join(cwd or os.getcwd(), expanded)


def _facts(given: str, absolute: str, cwd: str, kind: str) -> tuple[str, str, str]:
    """(the path as a reason shows it, what the file is, the path quoted for a command line)."""
    from boundread.bytelevel import sniff

    here = os.path.abspath(cwd) if cwd else None
    shown = reason.display_path(given, os.path.abspath(absolute), here)
    subtype = sniff.sniff_path(absolute).subtype
    described, _found = reason.describe(absolute, kind, os.stat(absolute).st_size, subtype)
    return shown, described, reason.quote(shown)


def _out_dir(cwd: str) -> str:
    base = cwd or os.getcwd()
    chosen = os.environ.get("BOUNDREAD_OUT_DIR") or "boundread-out"
    return os.path.abspath(os.path.join(base, os.path.expanduser(chosen)))


def _digest(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]


def _load_index(out: str) -> dict[str, object]:
    from boundread.guard import jsonio

    try:
        with open(os.path.join(out, INDEX), encoding="utf-8") as fh:
            data = jsonio.loads(fh.read(4 * 1024 * 1024))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save_index(out: str, index: dict[str, object]) -> None:
    import tempfile

    from boundread.guard import jsonio

    kept = dict(list(index.items())[-MAX_INDEX:])
    fd, temp = tempfile.mkstemp(prefix=".redirect-", suffix=".tmp", dir=out)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(jsonio.dumps(kept))
        os.replace(temp, os.path.join(out, INDEX))
    except OSError:
        if os.path.exists(temp):
            os.unlink(temp)


def _program() -> str:
    """How the agent's shell starts this boundread: the bare name when the PATH finds this very script."""
    import shutil
    import sys

    script = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if os.path.basename(script).startswith("boundread") and os.path.isfile(script):
        found = shutil.which("boundread")
        if found and os.path.realpath(found) == os.path.realpath(script):
            return "boundread"
        return reason.quote(script)
    return "boundread"
