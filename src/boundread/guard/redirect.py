"""Redirect mode: a refused whole read becomes a bounded one in the same tool call.

Where the client takes a rewritten tool input from its pre-tool hook (REWRITES), a call that the
guard denies is answered with an allow and the input to run instead:

- a Read of a PDF or an Office file with no range: the first slice that fits SLICE_CHARS is
  extracted (in-process, within DEADLINE) into the output folder, with a header saying what the
  original is, which part this is, what was skipped, and the commands for the next part and for a
  grep across it; the Read is pointed at that file (an archive: its listing, the entries that fit);
- a Read of a big text file with no range: the same file, with the first lines that fit
  SLICE_CHARS as a range in the client's own parameters, and the facts in ``context``;
- a shell command that only dumps one file (``cat report.pdf``, ``less huge.log``, ``unzip -p
  a.zip``): the bounded boundread command with ``--stdout`` (an archive: its listing, with
  ``--max-entries`` set to the entries that fit SLICE_CHARS), so its output and its ``next`` line
  arrive in the same turn. ``tail`` keeps the end: ``extract --tail K`` with the last lines that fit
  (``tail -n +N``: ``--lines N-``); ``tac`` and any other order or option with no faithful bounded
  form keep the deny.

Every client replaces the whole input with the one given (Gemini CLI 0.61 too, whatever its docs
say about merging: a ``tool_input`` without ``file_path`` fails its validation), so the rewrite is
always the call's own input with the changed keys. Anything else, and anything that fails or runs
out of time, keeps the deny and its reason. A slice
is cached by (real path, size, mtime_ns, cap, the path as shown) in INDEX in the output folder, so
reading the same file again costs a stat and a small JSON read, and a header's relative commands
are only ever given to a call from the folder they were written for. A path that starts with ``-``
is shown as ``./-...`` in every command. Nothing is written outside the output folder
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
_SLICED = ("pdf", "office", "archive")  # rules whose Read goes to a slice: the first part, or the listing
_PRINTED = ("pdf", "office", "text-size", "archive")  # rules a dump command is rewritten for
_DUMPERS = frozenset({"cat", "bat", "batcat", "less", "more", "nl", "head", "tail"})  # not tac: the end first
_COUNTED = {"-n": "lines", "--lines": "lines", "-c": "bytes", "--bytes": "bytes"}  # head/tail options taking N
_WORKBOOKS = ("xlsx", "xls", "ods")  # a sheet's row count is its declared size: it may claim rows it lacks
_SHELL_SPECIAL = frozenset("|;&<>$`(){}[]*?!~#\\\n\r")
_RANGE_KEYS = ("offset", "limit", "pages", "start_line", "end_line", "view_range")
_MOST_ENTRIES = SLICE_CHARS // 24  # an archive's entries listed at most: more never fit (a row is 30+ chars)
_HEADER_ROOM = 1_000  # of SLICE_CHARS, kept for a slice file's header
_ROW = 60  # characters of a listing's row but its name (sizes, ratio, time, flags, the gaps)
_MOST_WARNINGS = 5  # of an extraction's, in a slice's header


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
    """(the slice file, the context line) for a PDF, an Office file or an archive, from the cache or made now."""
    real = os.path.realpath(absolute)
    info = os.stat(real)
    out = _out_dir(call.cwd)
    here = os.path.abspath(call.cwd) if call.cwd else None
    shown = reason.display_path(call.path, os.path.abspath(absolute), here)
    # the shown path is in the key: the header's commands are relative to the folder they were written for
    key = f"{real}\0{info.st_size}\0{info.st_mtime_ns}\0{SLICE_CHARS}\0{shown}"
    index = _load_index(out)
    hit = index.get(key)
    if isinstance(hit, dict) and isinstance(hit.get("file"), str) and isinstance(hit.get("context"), str):
        cached = os.path.join(out, os.path.basename(hit["file"]))
        if os.path.isfile(cached):
            return cached, hit["context"]
    described = _described(absolute, decision.kind)
    quoted = reason.quote(shown)
    made = _listed(real, quoted) if decision.rule == "archive" else _extract(real, quoted, decision.kind)
    if made is None:
        return None
    text, holds, lines, said = made
    header = (f"[boundread redirect] {shown}: {described}. It was not read whole: this file holds {holds}.\n"
              + "".join(f"{line}\n" for line in lines) + "-" * 72 + "\n")
    context = f"boundread redirect: {shown} ({described}) was not read whole; this Read got {holds}{said}"
    from pathlib import Path

    from boundread.core import output

    name = f"{output.slug(os.path.basename(real), 80)}.{_digest(real + chr(0) + shown)}.first-part.txt"
    written = output.write_atomic(Path(out) / name, header + text, never=Path(real))
    index[key] = {"file": written.name, "context": context}
    _save_index(out, index)
    return str(written), context


#: A slice's text, what it holds ("its first part, pages 1-12 of 40"), the header's lines after the first
#: (warnings, the next part, the search) and the same said in the context line.
_Part = tuple[str, str, list[str], str]


def _extract(real: str, quoted: str, kind: str) -> _Part | None:
    """The first slice that fits SLICE_CHARS; None when there is no text to give (scanned, encrypted,
    damaged, timed out)."""
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
    warnings = [_short(warning) for warning in result.warnings[:_MOST_WARNINGS]]
    if result.truncated and not following:
        warnings.append(_short("cut short: " + ", ".join(result.truncated_reasons or ("limit reached",))))
    # "all of it" only when nothing was skipped or cut; a sheet's size is what the workbook declares, and may
    # count rows it does not hold, so a workbook's part is left to say itself
    whole = not result.truncated and not following and not warnings and kind not in _WORKBOOKS
    holds = f"its first part, {result.done or 'the first part'}" + (" (all of it)" if whole else "")
    grep = f"{program} extract {quoted} --grep PATTERN --context 2 --stdout"
    lines = [*(f"Warning: {w}" for w in warnings), *(f"Next part: {c}" for c in following),
             f"Search the whole document: {grep}"]
    said = ("".join(f"; warning: {w}" for w in warnings) + (f". Next part: {following[0]}" if following else "")
            + f". Search it all: {grep}")
    return result.text, holds, lines, said


def _listed(real: str, quoted: str) -> _Part | None:
    """An archive's listing as ``list-zip`` prints it, the entries that fit SLICE_CHARS."""
    made = _listing(real)
    if made is None:
        return None
    text, count, total = made
    program = _program()
    member = f"{program} extract {quoted} --member NAME --max-chars {SLICE_CHARS} --stdout"
    lines = [f"Read a member: {member}"]
    if count < total:
        lines.insert(0, f"Find a member among all {total:,}: {program} list-zip {quoted} --max-entries {total} "
                        "| grep PATTERN")
    holds = f"its listing, entries 1-{count:,} of {total:,}" + (" (all of them)" if count == total else "")
    return text, holds, lines, ". " + ". ".join(lines)


def _listing(real: str) -> tuple[str, int, int] | None:
    """(the listing as ``list-zip --max-entries N`` prints it to a pipe, N, the entries in all) for the
    largest N whose listing fits SLICE_CHARS; None when not one entry fits or time runs out."""
    import contextlib
    import io
    import time

    from boundread import render
    from boundread.core import engine
    from boundread.core.model import Listing, Request, Source
    from boundread.errors import BoundreadError
    from boundread.limits import Limits

    def printed(src: Source, listing: Listing) -> str:
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):  # render's console: a pipe gets a 240-column page, as the agent's
            render.print_listing(src, listing)
        return buffer.getvalue()

    started = time.monotonic()
    room = SLICE_CHARS - _HEADER_ROOM
    try:
        src, listing = engine.list_archive(real, Request(limits=Limits(max_entries=_MOST_ENTRIES, timeout=DEADLINE)))
        # a first guess without rich (a table of 1,000 rows takes it most of a second): the columns but the
        # name take about _ROW characters, and a name wider than the page folds onto lines padded as wide
        used, count = _ROW * 4 + sum(len(warning) + 14 for warning in listing.warnings), 0
        for entry in listing.entries:
            width = len(entry.name) + (len(entry.link_target) + 4 if entry.link_target else 0)
            used += _ROW + width + width // 150 * _ROW
            if used > room:
                break
            count += 1
        while count:
            if count < len(listing.entries):  # listed again with that N: its own counts and warnings
                left = DEADLINE - (time.monotonic() - started)
                if left <= 0:
                    return None
                src, shown = engine.list_archive(real, Request(limits=Limits(max_entries=count, timeout=left)))
            else:
                shown = listing
            text = printed(src, shown)
            if len(text) <= room:
                return text, count, listing.total_entries
            count = min(count - 1, count * room // len(text))
    except BoundreadError:
        return None
    return None


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 200 else text[:199] + "…"


# Command ---------------------------------------------------------------------------------------------
def _command(call: dialects.Call, decision: Decision) -> Decision | None:
    if decision.rule not in _PRINTED:
        return None
    target = _dump(call.command)
    if target is None or os.path.normpath(target[1]) != os.path.normpath(decision.path or "."):
        return None
    dumper, path, member, counted = target
    quoted, program = reason.quote(reason.operand(path)), _program()
    grep = f"{program} extract {quoted} --grep PATTERN --context 2 --stdout"
    rest = "then `next:` names the command for the rest"
    if member is not None:
        new = f"{program} extract {quoted} --member {reason.quote(member)} --max-chars {SLICE_CHARS} --stdout"
        what = f"the first part of {member} in {path}"
    elif dumper == "tail" and decision.rule != "text-size":
        return None  # the end of a PDF, an Office file or an archive: no bounded command gives it
    elif decision.rule == "archive":
        listed = _listing(os.path.realpath(_absolute(path, call.cwd)))
        if listed is None:
            return None
        _text, count, total = listed
        new = f"{program} list-zip {quoted} --max-entries {count}"
        what = f"the first {count:,} entries of {path}" if count < total else f"the listing of {path}"
        if count < total:
            rest = (f"find a member among all {total:,}: {program} list-zip {quoted} --max-entries {total} "
                    "| grep PATTERN")
    elif dumper == "tail":
        unit, number = counted or ("lines", 10)
        if unit == "from":  # tail -n +N: from line N on
            new = f"{program} extract {quoted} --lines {number}- --max-chars {SLICE_CHARS} --stdout"
            what = f"{path} from line {number:,}"
        else:
            last = _last_lines(_absolute(path, call.cwd), number if unit == "lines" else None,
                               number if unit == "bytes" else SLICE_CHARS)
            new = f"{program} extract {quoted} --tail {last} --max-chars {SLICE_CHARS} --stdout"
            what = f"the last {last:,} lines of {path}" + (
                f" (the most of the {number:,} asked that fit {SLICE_CHARS:,} characters)"
                if unit == "lines" and last < number else "")
            rest = f"search the whole file: {grep}"
    else:
        new = f"{program} extract {quoted} --max-chars {SLICE_CHARS} --stdout"
        what = f"the first part of {path}"
    key = next((k for k in ("command", "cmd", "command_line") if isinstance(call.tool_input.get(k), str)), None)
    if key is None:
        return None
    updated: dict[str, object] = {**call.tool_input, key: new}
    if "description" in call.tool_input:
        updated["description"] = f"boundread: {what}"
    context = (f"boundread redirect: `{call.command}` would print {quoted} whole ({decision.kind}); it ran "
               f"`{new}` instead: {what}; {rest}.")
    return Decision(ALLOW, kind=decision.kind, rule=f"redirect-{decision.rule}", path=call.path or path,
                    updated=updated, context=context)


def _last_lines(path: str, lines: int | None, most_bytes: int) -> int:
    """How many whole lines at the end of ``path`` fit in ``most_bytes`` and SLICE_CHARS (at most
    ``lines``); 1 when not even the last one does (extract's --max-chars then cuts it)."""
    window = min(most_bytes, SLICE_CHARS)
    with open(path, "rb") as fh:
        size = fh.seek(0, os.SEEK_END)
        fh.seek(max(size - window - 1, 0))  # one byte more: is the window's first byte a line's first?
        data = fh.read(window + 1)
    if size <= window:
        found = data.count(b"\n") + (0 if not data or data.endswith(b"\n") else 1)
    else:  # a line starts after each newline but the file's last one
        found = data[:-1].count(b"\n")
    return max(1, min(found, lines) if lines is not None else found)


def _dump(command: str) -> tuple[str, str, str | None, tuple[str, int] | None] | None:
    """(the program, the file, the archive member, head's or tail's count: ("lines"|"bytes"|"from", N)) when
    ``command`` does nothing but print one file: ``cat F``, ``less F``, ``head -n 100000 F``, ``tail -n 5000
    F``, ``unzip -p A [MEMBER]``. None for anything else (pipes, redirections, several files, variables, a tail
    that follows or counts in other ways): a rewrite must not change what else the command does."""
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
    counted: tuple[str, int] | None = None
    unit: str | None = None
    ended = False
    for word in words[1:]:
        if unit is not None:
            counted, unit = _count(unit, word), None
            if counted is None:
                return None
        elif ended or not word.startswith("-") or word == "-":
            operands.append(word)
        elif word == "--":
            ended = True
        elif word in _COUNTED and program in ("head", "tail"):
            unit = _COUNTED[word]
        else:
            options.append(word)
            joined = next(((u, word[len(o):].removeprefix("=")) for o, u in _COUNTED.items()
                           if word.startswith(o) and len(word) > len(o)), None)
            if program in ("head", "tail") and (joined is not None or word[1:].isdigit()):
                counted = _count(*joined) if joined else ("lines", int(word[1:]))
                if counted is None:
                    return None
                options.pop()
    if unit is not None:
        return None
    if program == "tail" and options:
        return None  # -f, -F, --pid, -z...: not a plain "the last N"
    if program in _DUMPERS and len(operands) == 1:
        return program, operands[0], None, counted
    if program == "unzip" and options and all(o.startswith("-") and set(o[1:]) <= set("pcq") for o in options) \
            and any("p" in o or "c" in o for o in options) and 1 <= len(operands) <= 2 and counted is None:
        return program, operands[0], operands[1] if len(operands) == 2 else None, None
    return None


def _count(unit: str, word: str) -> tuple[str, int] | None:
    """head's or tail's count: ``5000`` -> ("lines", 5000); ``+20`` -> ("from", 20) (lines only); None for
    the rest (``10K``, ``-5``)."""
    if word.startswith("+") and word[1:].isdigit() and unit == "lines":
        return "from", max(int(word[1:]), 1)
    return (unit, int(word)) if word.isdigit() and int(word) > 0 else None


# Helpers ---------------------------------------------------------------------------------------------
def _absolute(path: str, cwd: str) -> str:
    expanded = os.path.expanduser(path)
    return expanded if os.path.isabs(expanded) else os.path.join(cwd or os.getcwd(), expanded)


def _facts(given: str, absolute: str, cwd: str, kind: str) -> tuple[str, str, str]:
    """(the path as a reason shows it, what the file is, the path quoted for a command line)."""
    here = os.path.abspath(cwd) if cwd else None
    shown = reason.display_path(given, os.path.abspath(absolute), here)
    return shown, _described(absolute, kind), reason.quote(shown)


def _described(absolute: str, kind: str) -> str:
    """'PDF, 4.2 MB, 103 pages', as the deny reason says it."""
    from boundread.bytelevel import sniff

    subtype = sniff.sniff_path(absolute).subtype
    return reason.describe(absolute, kind, os.stat(absolute).st_size, subtype)[0]


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
