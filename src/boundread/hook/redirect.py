"""Redirect mode: a refused whole read becomes a bounded one in the same tool call.

Where the client takes a rewritten tool input from its pre-tool hook (``agents.rewrites``), a call that the
guard denies is answered with an allow and the input to run instead:

- a Read of a PDF, an Office file or an archive with no range: the Read is pointed at a slice
  file in the output folder (hook/slices.py): the first part that fits SLICE_CHARS (an archive:
  its listing, the entries that fit), with a header saying what the original is, which part this
  is, what was skipped, and the commands for the next part and for a grep across it (no context
  besides: the header says it); a JSON file or a database: its shape as ``info`` prints it and then
  its first part (hook/shapes.py);
- a Read of a big text file with no range: the same file, with the first lines that fit
  SLICE_CHARS as a range in the client's own parameters, and the facts in ``context``; a file over the
  size the client's read tool refuses whatever the range (its ``READ_FILE_MAX_BYTES``: Gemini CLI's 20 MB)
  goes to a slice file, as a PDF does;
- a shell command that only dumps one file (``cat report.pdf``, ``head -n 99999 huge.log``, ``unzip -p
  a.zip``): the bounded boundread command with ``--stdout``, so its output and its ``next`` line arrive in
  the same turn. A big text printed whole (``cat``, ``less``, ``more``, ``nl``, ``bat`` of huge.log) prints its
  overview instead, from a here-document (hook/slices.py: its first and last lines, line count, time span,
  the commands for more). An archive: its listing, with ``--max-entries`` set to the entries that fit
  SLICE_CHARS. A document's command is only given after the Read's probe (its cached slice) found text in
  it, and a PDF's runs with ``--ocr never``, as the probe did. ``tail`` keeps the end: ``extract --tail K``
  with the last lines that fit (``tail -n +N``: ``--lines N-``); ``tac`` and any other order or option with
  no faithful bounded form keep the deny;
- a command whose output cannot be sized before it runs, or adds up past the cap: a grep of one file as
  ``boundread extract F --grep PAT --max-matches 200 --stdout`` (``grep -v``: ``-m 200``), a log with no bound
  as its bounded form (``docker logs --tail 200 web 2>&1 | tail -c N``), anything else run as it is with its
  output through ``head -c N``.

A text a rewritten command prints (all but a document's first part and a listing) is at most what the client
itself shows of an output that big (``shown_chars``: Claude Code keeps a Bash output over 30,000 characters in a
file and shows a 2 KB preview, so 1,100 characters and the summary), else SLICE_CHARS: a redirect never gives the
model more than the client would have without boundread (tests/e2e/test_redirect.py, bench/redirect.py).

Every client replaces the whole input with the one given (Gemini CLI 0.61 too, whatever its docs
say about merging: a ``tool_input`` without ``file_path`` fails its validation), so the rewrite is
always the call's own input with the changed keys. Anything else, and anything that fails or runs
out of time, keeps the deny and its reason. A path that starts with ``-`` is written ``./-...``
in every command, so none takes it for an option. Nothing is written outside the output folder.

Only imported on a deny in redirect mode: the allow path never loads it.
"""

# os.path on purpose: the guard's paths are strings (decide.py); this module is off the hot path anyway.
# ruff: noqa: PTH100, PTH119
from __future__ import annotations

import os

from boundread import agents
from boundread.agents import dialect
from boundread.guard import reason
from boundread.guard.config import GuardConfig
from boundread.guard.decide import ALLOW, Decision, absolute_path, check_read
from boundread.hook import permissions, slices
from boundread.hook.slices import SLICE_CHARS

_SLICED = ("pdf", "office", "archive")  # rules whose Read goes to a slice: the first part, or the listing
_PRINTED = ("pdf", "office", "text-size", "archive")  # rules a dump command is rewritten for
_DUMPERS = frozenset({"cat", "bat", "batcat", "less", "more", "nl", "head", "tail"})  # not tac: the end first
_WHOLE = frozenset({"cat", "bat", "batcat", "less", "more", "nl"})  # the dumpers that print it all: a text's overview
_COUNTED = {"-n": "lines", "--lines": "lines", "-c": "bytes", "--bytes": "bytes"}  # head/tail options taking N
_SHELL_SPECIAL = frozenset("|;&<>$`(){}[]*?!~#\\\n\r")
_RANGE_KEYS = ("offset", "limit", "pages", "start_line", "end_line", "view_range")
_AROUND = 900  # of a client's preview, kept for what comes with the text: extract's summary and next lines, the context


def rewrite(call: dialect.Call, decision: Decision, cfg: GuardConfig) -> Decision:
    """The rewritten call for a denied one, or ``decision`` itself when no rewrite is safe."""
    if not agents.rewrites(call.agent) or call.reads or not decision.denied or decision.rule in ("budget", "error"):
        return decision
    target = call.path if call.action == dialect.READ else decision.path
    # the project is the payload's folder, not the folder a command asks to run in (Codex workdir, Gemini dir_path)
    if not target or not permissions.may_rewrite(call.agent, call.tool, [absolute_path(target, call.cwd)],
                                                 call.root_cwd):
        return decision  # outside the project, or a client rule the rewrite would step around: the deny stands
    try:
        if call.action == dialect.READ and agents.rewriter_of(call.agent).READ_RANGE:
            found = _read(call, decision, cfg)
        elif call.action == dialect.COMMAND:
            found = _command(call, decision)
        else:
            found = None
    except Exception:  # noqa: BLE001 - a redirect is an offer: whatever goes wrong, the deny stands
        return decision
    return found or decision


# Read ------------------------------------------------------------------------------------------------
def _read(call: dialect.Call, decision: Decision, cfg: GuardConfig) -> Decision | None:
    if any(call.tool_input.get(key) is not None for key in _RANGE_KEYS):
        return None  # a range the guard refused: the agent asked for that part, the deny says why
    absolute = absolute_path(call.path, call.cwd)
    client = agents.rewriter_of(call.agent)
    cap = getattr(client, "READ_FILE_MAX_BYTES", None)
    ranged = decision.rule == "text-size" and (cap is None or os.stat(absolute).st_size <= cap)
    shaped = slices.shaped(absolute, decision.kind)  # JSON, a database: its shape and first part, not lines
    if ranged and not shaped:
        return _text_range(call, decision, cfg, absolute, getattr(client, "READ_MAX_LINES", None))
    if decision.rule not in (*_SLICED, "text-size") and not shaped:
        return None
    made = slices.first_part(absolute, call.path, call.cwd, decision.rule, decision.kind, call.root_cwd)
    if made is None:  # a damaged JSON file has no shape to give: its first lines, as any text
        return _text_range(call, decision, cfg, absolute, getattr(client, "READ_MAX_LINES", None)) if ranged else None
    slice_path, _context = made  # the slice's own header says what it holds and what comes next
    key = "file_path" if "file_path" in call.tool_input or call.agent == "claude" else next(
        (k for k in ("path", "absolute_path") if k in call.tool_input), "file_path")
    return Decision(ALLOW, kind=decision.kind, rule=f"redirect-{decision.rule}", path=call.path,
                    updated={**call.tool_input, key: slice_path})


def _text_range(call: dialect.Call, decision: Decision, cfg: GuardConfig, absolute: str,
                most_lines: int | None) -> Decision | None:
    most = min(cfg.line_cap, most_lines or cfg.line_cap)
    lines = _fitting_lines(absolute, min(SLICE_CHARS, cfg.text_max_bytes), most)
    first, last = agents.rewriter_of(call.agent).READ_RANGE
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
               f"{slices.search(slices.program(), quoted)}")
    return Decision(ALLOW, kind=decision.kind, rule="redirect-text-range", path=call.path, updated=updated,
                    context=context)


def _fitting_lines(path: str, most: int, cap: int) -> int:
    """How many whole lines from the top fit in ``most`` bytes (at most ``cap``); 0 when not one."""
    with open(path, "rb") as fh:
        head = fh.read(most + 1)
    if len(head) <= most:
        return min(head.count(b"\n") + 1, cap)
    return min(head[:most].count(b"\n"), cap)


# Command ---------------------------------------------------------------------------------------------
#: Rules whose output cannot be sized before the command runs, or is several parts that each fit: the command
#: runs, its output cut at SLICE_CHARS (a plain grep of one file: the bounded grep instead).
_CUT = ("grep-output", "output-sum", "remote-unbounded")


def _command(call: dialect.Call, decision: Decision) -> Decision | None:
    if decision.rule in _CUT:
        return _cut(call, decision)
    if decision.rule not in _PRINTED:
        return None
    target = _dump(call.command)
    if target is None or os.path.normpath(target[1]) != os.path.normpath(decision.path or "."):
        return None
    dumper, path, member, counted = target
    quoted, program = reason.quote(reason.operand(path)), slices.program()
    shown = shown_chars(call.agent)  # of a text; a document's first part is SLICE_CHARS, as its Read's slice
    fit = f" --max-chars {shown}"
    grep = slices.search(program, quoted)
    rest = ""
    if member is not None:
        new = f"{program} extract {quoted} --member {reason.quote(member)}{fit} --stdout"
        what = f"the first part of {member} in {path}"
    elif dumper == "tail" and decision.rule != "text-size":
        return None  # the end of a PDF, an Office file or an archive: no bounded command gives it
    elif decision.rule == "archive" and decision.kind not in slices.STREAMS:
        listed = slices.listing(os.path.realpath(absolute_path(path, call.cwd)))
        if listed is None:
            return None
        _text, count, total = listed
        # fitted to the page a pipe gets: Claude Code's, Gemini CLI's and Codex's shells all give one (a
        # terminal would draw the table at its own width)
        new = f"{program} list-zip {quoted} --max-entries {count}"
        what = f"the first {count:,} entries of {path}" if count < total else f"the listing of {path}"
        if count < total:
            rest = f"find a member among all {total:,}: {slices.find_member(program, quoted)}"
    elif dumper == "tail":
        unit, number = counted or ("lines", 10)
        if unit == "from":  # tail -n +N: from line N on
            new = f"{program} extract {quoted} --lines {number}-{fit} --stdout"
            what = f"{path} from line {number:,}"
        else:
            last = _last_lines(absolute_path(path, call.cwd), number if unit == "lines" else None,
                               number if unit == "bytes" else shown, shown)
            new = f"{program} extract {quoted} --tail {last}{fit} --stdout"
            what = f"the last {last:,} lines of {path}" + (
                f" (the most of the {number:,} asked that fit {shown:,} characters)"
                if unit == "lines" and last < number else "")
            rest = f"search the whole file: {grep}"
    elif decision.rule == "text-size" and dumper in _WHOLE and (
            overview := slices.overview(absolute_path(path, call.cwd), path, call.cwd, decision.kind)):
        new, what = _printed(overview), f"an overview of {path}: its first and last lines"
    else:
        if decision.rule != "text-size" and slices.first_part(
                absolute_path(path, call.cwd), path, call.cwd, decision.rule, decision.kind, call.root_cwd) is None:
            return None  # the Read's own probe: an encrypted, damaged or textless file keeps its deny
        ocr = " --ocr never" if decision.kind == "pdf" else ""  # as the probe: no OCR inside the agent's call
        new = f"{program} extract {quoted}{ocr}{fit if decision.rule == 'text-size' else slices.FIT} --stdout"
        what = f"the first part of {path}"
    key = next((k for k in ("command", "cmd", "command_line") if isinstance(call.tool_input.get(k), str)), None)
    if key is None:
        return None
    updated: dict[str, object] = {**call.tool_input, key: new}
    if "description" in call.tool_input:
        updated["description"] = f"boundread: {what}"
    # an overview says itself what it is and what comes next: nothing more to add to a result kept that small; a
    # bounded command's own `next:` line names the rest
    context = "" if new.startswith("cat <<") else f"boundread redirect: ran `{new}` instead of `{call.command}`" + (
        f"; {rest}." if rest else ".")
    return Decision(ALLOW, kind=decision.kind, rule=f"redirect-{decision.rule}", path=call.path or path,
                    updated=updated, context=context)


def _printed(text: str) -> str:
    """A command that prints ``text`` as it is: ``cat`` of a quoted here-document, its end word in no line of it."""
    end = "BOUNDREAD_OVERVIEW"
    while end in text.splitlines():
        end += "_"
    return f"cat <<'{end}'\n{text}{'' if text.endswith(chr(10)) else chr(10)}{end}"


def _cut(call: dialect.Call, decision: Decision) -> Decision | None:
    """``grep PAT F`` of one file: ``boundread extract F --grep PAT --max-matches N --stdout`` (its ``next:`` line
    names the rest); anything else: the command as it is, its output through ``head -c SLICE_CHARS``."""
    key = next((k for k in ("command", "cmd", "command_line") if isinstance(call.tool_input.get(k), str)), None)
    if key is None or not call.command.strip():
        return None
    shown = shown_chars(call.agent)
    grep = _bounded_grep(call, decision, shown) if decision.rule == "grep-output" else None
    log = _bounded_log(call, decision) if decision.rule == "remote-unbounded" else None
    if grep is not None:
        new, what = grep, f"the first matches in {decision.path}"
    elif log is not None:
        new, what = f"{log} 2>&1 | tail -c {shown}", "the end of the log"
    else:
        new, what = f"(\n{call.command}\n) | head -c {shown}", f"the first {shown:,} bytes of its output"
    updated: dict[str, object] = {**call.tool_input, key: new}
    if "description" in call.tool_input:
        updated["description"] = f"boundread: {what}"
    context = f"boundread redirect: ran `{new}` instead of `{call.command}`: {what}."
    return Decision(ALLOW, kind=decision.kind, rule=f"redirect-{decision.rule}", path=decision.path,
                    updated=updated, context=context)


def shown_chars(agent: str) -> int:
    """What a rewritten command prints of a text at most: SLICE_CHARS, or less where the client itself shows less
    of an output that big (its ``SHELL_PREVIEW_CHARS``: Claude Code keeps a Bash output over 30,000 characters in
    a file and shows the model a 2 KB preview), so a redirect never gives more than the client would have."""
    preview = getattr(agents.rewriter_of(agent), "SHELL_PREVIEW_CHARS", None)
    return min(SLICE_CHARS, max(preview - _AROUND, preview // 2)) if isinstance(preview, int) else SLICE_CHARS


def _bounded_grep(call: dialect.Call, decision: Decision, shown: int = SLICE_CHARS) -> str | None:
    """The bounded grep for a command that is nothing but one grep of the file the deny names."""
    if any(ch in _SHELL_SPECIAL for ch in call.command.replace("'", "").replace('"', "")):
        return None
    from boundread.guard import outputs, shell

    uses = [use for use in shell.file_uses(call.command, call.cwd or None) if use.action != "capped"]
    if len(uses) != 1 or uses[0].path != decision.path:
        return None
    spec = next((bound.grep for bound in uses[0].bounds if bound.grep is not None), None)
    if spec is None or spec.names or (spec.compressed and spec.invert):
        return None
    quoted = reason.quote(reason.operand(decision.path))
    command = outputs.grep_command(quoted, spec, stdout=False)
    if command.startswith("boundread "):
        return f"{slices.program()}{command[len('boundread'):].removesuffix(reason.FIT)} --max-chars {shown} --stdout"
    return f"{command} | head -c {shown}"


def _bounded_log(call: dialect.Call, decision: Decision) -> str | None:
    """The log command with its bound (``docker logs --tail 200 web``) for a command that is nothing but it."""
    from boundread.guard.shell.remote import LOG

    if LOG not in decision.path or any(ch in _SHELL_SPECIAL for ch in call.command.replace("'", "")):
        return None
    from boundread.guard import shell

    uses = [use for use in shell.file_uses(call.command, call.cwd or None) if use.action == shell.REMOTE]
    return uses[0].program if len(uses) == 1 and uses[0].path == decision.path else None


def _last_lines(path: str, lines: int | None, most_bytes: int, shown: int = SLICE_CHARS) -> int:
    """How many whole lines at the end of ``path`` fit in ``most_bytes`` and ``shown`` (at most ``lines``); 1 when
    not even the last one does (extract's --max-chars then cuts it)."""
    window = min(most_bytes, shown)
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
def _facts(given: str, absolute: str, cwd: str, kind: str) -> tuple[str, str, str]:
    """(the path as a reason shows it, what the file is, the path quoted for a command line)."""
    here = os.path.abspath(cwd) if cwd else None
    shown = reason.display_path(given, os.path.abspath(absolute), here)
    return shown, slices.described(absolute, kind), reason.quote(shown)


