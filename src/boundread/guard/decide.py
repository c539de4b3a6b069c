"""The pure decision: a path (Read) or a shell command in, a Decision out. No I/O but stat and sniff.

The kind of a file comes from its bytes (``boundread.bytelevel.sniff``), never its name; symlinks are
followed; FIFOs and devices are never opened.
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
# ruff: noqa: PTH109, PTH111, PTH117, PTH118, PTH119, PTH120, PTH206
from __future__ import annotations

# Hot path (guard-check runs before every agent tool call): no dataclasses, typing, pathlib, re or
# shlex (re, enum, functools... cost as much start-up as Python itself); paths are strings (os.path),
# and rarer needs import where they are used.
import os
import stat

from boundread.bytelevel import sniff
from boundread.guard.config import GuardConfig
from boundread.guard.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.bounds import Bound, Grep
    from boundread.guard.shell import FileUse

ALLOW, DENY = "allow", "deny"


class Decision(Record):
    """``decision`` is allow or deny; ``rule`` names what decided; ``error`` is set when the guard
    could not look (then ``decision`` is the configured ``on_error``).

    ``updated``: set on an allow that rewrites the call (redirect mode, hook/redirect.py): the tool
    input to run instead, whole; ``context`` then tells the model what it got and what comes next.
    ``stop``: set on a deny that ends the agent's session too (the budget's), for the user: why, and the fix."""

    __slots__ = ("decision", "reason", "kind", "rule", "path", "error", "updated", "context", "stop")  # noqa: RUF023 - field order = argument order
    decision: str
    reason: str
    kind: str
    rule: str
    path: str
    error: str
    updated: dict[str, object] | None
    context: str
    stop: str

    def __init__(self, decision: str, reason: str = "", kind: str = "", rule: str = "", path: str = "",
                 error: str = "", updated: dict[str, object] | None = None, context: str = "",
                 stop: str = "") -> None:
        self._init(decision, reason, kind, rule, path, error, updated, context, stop)

    @property
    def denied(self) -> bool:
        return self.decision == DENY


def absolute_path(path: str, cwd: str | os.PathLike[str] | None) -> str:
    """``path`` made absolute against ``cwd`` (like pathlib: ``~`` expanded, ``..`` kept)."""
    expanded = os.path.expanduser(path)
    if os.path.isabs(expanded):
        return _clean(expanded)
    return _clean(os.path.join(os.fspath(cwd) if cwd else os.getcwd(), expanded))


def _absolute_dir(cwd: str) -> str:
    """``Path(cwd).absolute()``: no ``~`` expansion, ``..`` kept."""
    return _clean(cwd if os.path.isabs(cwd) else os.path.join(os.getcwd(), cwd))


def _clean(path: str) -> str:
    """Collapse ``//`` and ``/./`` and drop a trailing slash, as ``str(Path(path))`` does (not ``..``)."""
    parts = [part for part in path.split(os.sep) if part not in ("", ".")]
    lead = os.sep if path.startswith(os.sep) else ""
    return lead + os.sep.join(parts) if parts else (lead or ".")


def _parents(path: str) -> list[str]:
    """``Path(path).parents`` as strings: the folders above ``path``, nearest first."""
    found: list[str] = []
    current = os.path.dirname(path)
    while True:
        found.append(current)
        parent = os.path.dirname(current)
        if parent == current or not current:
            return found
        current = parent


def _page_count(pages: object) -> int | None:
    """Pages in a range like ``"1-5,8"``; None when it is not one. (No ``re``: this is the hook path.)"""
    total = 0
    for part in str(pages).split(","):
        ends = [end.strip() for end in part.split("-")]
        if not 1 <= len(ends) <= 2 or not all(end.isascii() and end.isdigit() for end in ends):
            return None
        first, last = int(ends[0]), int(ends[-1])
        total += max(0, last - first + 1)
    return total


def _in_attachments(absolute: str, dirs: tuple[str, ...], cwd: str | None) -> bool:
    parents = _parents(absolute)
    for folder in dirs:
        if os.sep in folder or "/" in folder:
            root = absolute_path(folder, cwd)
            if root in parents:
                return True
        elif any(os.path.basename(parent) == folder for parent in parents):
            return True
    return False


def _positive(value: object) -> int | None:
    try:
        number = int(str(value))
    except ValueError:
        return None
    return number if number > 0 else None


def check_read(path: str, *, offset: object = None, limit: object = None, pages: object = None,
               cwd: str | os.PathLike[str] | None = None, config: GuardConfig | None = None,
               range_params: str = "offset/limit", file_cap: int | None = None) -> Decision:
    """May an agent read ``path`` whole (or ``limit`` lines from ``offset``, or the PDF ``pages``)?

    ``range_params`` names the agent's own range parameters in the reason (Gemini: start_line/end_line);
    ``file_cap``: the size over which the agent's read tool refuses a file whatever the range (Gemini CLI's 20 MB),
    so the reason offers no range of such a file.
    Devices, FIFOs, the agent's own streams and unsized /proc files are denied first (guard/special.py).
    """
    from boundread.guard import special

    cfg = config or GuardConfig()
    refused = special.refusal(path, cwd, cfg)
    if refused is not None:
        return Decision(DENY, refused[1], rule=refused[0], path=path)
    lines = _positive(limit)
    first = _positive(offset) or 1
    part = f"lines {first}-{first + lines - 1} of " if lines is not None else ""
    return _verdict(path, cfg, cwd, command=None, limit=limit, pages=special.page_range(pages),
                    range_params=range_params, part=part, file_cap=file_cap)


def _verdict(given: str, cfg: GuardConfig, cwd: str | os.PathLike[str] | None, *, command: str | None,
             limit: object = None, pages: object = None, range_params: str = "offset/limit",
             part: str = "", file_cap: int | None = None) -> Decision:
    """``part``: what a ranged read asked for ("lines 1-9000 of "), for the reason."""
    absolute = absolute_path(given, cwd)
    here = _absolute_dir(os.fspath(cwd)) if cwd else None
    if cfg.allow and _allowed(cfg.allow, (given, absolute, os.path.basename(absolute))):
        return Decision(ALLOW, rule="allow-glob", path=given)
    try:
        info = os.stat(absolute)
    except (OSError, ValueError):
        return Decision(ALLOW, rule="missing", path=given)
    if stat.S_ISDIR(info.st_mode):
        return Decision(ALLOW, rule="directory", path=given)
    if not stat.S_ISREG(info.st_mode):
        if command is not None:  # `cat /dev/null`, `> /dev/stdout`: not a file to guard
            return Decision(ALLOW, rule="not-a-regular-file", path=given)
        from boundread.guard.reason import OPENING

        return Decision(cfg.on_error, rule="not-a-regular-file", path=given,
                        reason=f"{OPENING} - {given} is not a regular file (FIFO, device or socket): "
                               "it is never opened",
                        error=f"{given} is not a regular file (FIFO, device or socket); not inspected")
    try:
        sniffed = sniff.sniff_path(absolute)
    except OSError:
        return Decision(ALLOW, rule="unreadable", path=given)
    kind, size = sniffed.kind, info.st_size
    rule = _rule(kind, size, absolute, here, cfg, command=command, limit=limit, pages=pages)
    if rule is None and kind == sniff.TEXT and file_cap is not None and size > file_cap and command is None:
        rule = "text-size"  # a range the agent's read tool refuses all the same: the commands that work
    if rule is None:
        return Decision(ALLOW, kind=kind, rule=f"{kind}-ok", path=given)
    if file_cap is not None and size > file_cap and command is None:
        range_params = ""  # no range of it can be read: the reason names the commands only
    why = _reason(given, absolute, here, sniffed, size, rule, command, cfg, range_params, part)
    return Decision(DENY, why, kind, rule, given)


def _allowed(globs: tuple[str, ...], names: tuple[str, ...]) -> bool:
    import fnmatch  # only when the config has an allow-list

    return any(fnmatch.fnmatch(name, glob) for glob in globs for name in names)


def _rule(kind: str, size: int, absolute: str, here: str | None, cfg: GuardConfig, *,
          command: str | None, limit: object, pages: object) -> str | None:
    """The name of the rule that denies, or None to allow."""
    if kind == sniff.PDF and command is None and pages:
        count = _page_count(pages)
        if count is not None and 0 < count <= cfg.pdf_page_cap:
            return None
    if kind in cfg.deny_kinds:
        return "pdf" if kind == sniff.PDF else (
            "office" if kind in sniff.OFFICE_KINDS else "archive" if kind in sniff.ARCHIVE_KINDS else kind)
    if kind == sniff.IMAGE:
        if _in_attachments(absolute, cfg.attachment_dirs, here):
            return "image-attachment"
        if size > cfg.image_max_bytes:
            return "image-size"
        return "image-dump" if command is not None else None
    if kind == sniff.TEXT:
        lines = _positive(limit)
        if command is None and lines is not None and lines <= cfg.line_cap:
            from boundread.guard import facts

            sample = facts.text_lines(absolute, size)
            longest = sample[1] if sample else 0
            return "text-long-lines" if lines * max(longest, 1) > cfg.text_max_bytes else None
        if size <= cfg.text_max_bytes:
            return None
        # a command's line bound that did not fit (decide checked it): a few lines, but long ones
        return "text-long-lines" if command is not None and lines is not None and lines <= cfg.line_cap \
            else "text-size"
    return None


def _reason(given: str, absolute: str, here: str | None, sniffed: sniff.Sniffed, size: int, rule: str,
            command: str | None, cfg: GuardConfig, range_params: str, part: str = "") -> str:
    from boundread.guard import reason  # only on a deny: the allow path stays small
    from boundread.guard.config import shown_size

    kind = sniffed.kind
    shown = reason.display_path(given, absolute, here) if command is None else reason.operand(given)
    quoted = reason.quote(shown)
    described, found = reason.describe(absolute, kind, size, sniffed.subtype)
    why = {
        "image-attachment": "it is in an attachments folder, so you have seen it already",
        "image-size": f"images over {shown_size(cfg.image_max_bytes)} flood the context",
        "image-dump": "its bytes printed as text are noise",
        "text-size": f"over {shown_size(cfg.text_max_bytes)} needs a bounded read "
                     + ("(this client's read tool refuses a file this big, whatever the range: run a command "
                        "below)" if command is None and not range_params else
                        f"(pass {range_params}, at most {cfg.line_cap} lines)" if command is None else
                        f"(print at most {shown_size(cfg.text_max_bytes)} of it: head -n 200, sed -n 1,200p)"),
        "text-long-lines": f"its lines are so long that the lines asked for come to over "
                           f"{shown_size(cfg.text_max_bytes)}",
        "archive-extract": "unpacking it whole floods the disk and the context",
    }.get(rule, "a whole read floods the context" if kind == sniff.PDF or kind in sniff.OFFICE_KINDS
          else "its raw bytes are not readable text")
    what = f"`{command}` would print {quoted}" if command and rule != "archive-extract" else (
        f"`{command}` would unpack {quoted}" if command else
        f"reading {part}{quoted}" if part else f"reading {quoted} whole")
    cmds = reason.commands(kind, quoted, found, cfg.line_cap)
    return reason.compose(what, described, why, cmds, reason.tail_for(kind))


#: CPU seconds from the start of a check after which decide looks at no further file the command names: the walk
#: has ``shell.SECONDS`` of it, the scan and the files the rest (hook start-up and the answer fit in 2 s with margin).
LOOK_SECONDS = 1.4
#: The same in seconds of the clock, whatever the machine's load: the client runs the command unguarded after 10 s.
LOOK_WALL_SECONDS = 6.5


def check_command(cmd: str, *, cwd: str | os.PathLike[str] | None = None,
                  config: GuardConfig | None = None) -> Decision:
    """May an agent run the shell command ``cmd``? Denies dumps of guarded files into the conversation.

    Within LOOK_SECONDS whatever the command: a budget run out (``shell.SPENT``), or files left unlooked at
    when the time is up, deny a command that prints files whole, with the reason and how to shorten it."""
    from time import monotonic, process_time

    from boundread.guard import outputs, shell, special
    from boundread.guard.shell import madeup

    start, cpu_start = monotonic(), process_time()
    cfg = config or GuardConfig()
    uses = shell.file_uses(cmd, cwd, deadline=start + shell.WALL_SECONDS)
    spent = [use.program for use in uses if use.action == shell.SPENT]
    caps = list(dict.fromkeys(use.program for use in uses if use.action in (shell.CAPPED, shell.SPENT)))
    printed: list[str] = []  # the whole prints it makes that were not refused one by one
    parts: list[tuple[str, int, Grep | None]] = []  # (path, bytes, grep) each allowed use prints: summed too
    for at, use in enumerate(uses):
        if use.action in (shell.PRINT, shell.UNPACK, shell.REMOTE) and (
                process_time() > cpu_start + LOOK_SECONDS or monotonic() > start + LOOK_WALL_SECONDS):
            left = sum(1 for rest in uses[at:] if rest.action in (shell.PRINT, shell.UNPACK, shell.REMOTE))
            spent.append(f"{left:,} of the files it names were left unlooked at when its time was up")
            caps.append(spent[-1])
            printed.append(use.program)
            break
        if use.action == shell.PRINT:
            if use.path.startswith(madeup.MARK):  # a database's rows, a diff: an output no file holds
                if _within_caps(use.bounds, cfg):
                    continue  # `git diff | head -n 200`
                return _with_caps(Decision(DENY, madeup.reason(use.path, use.program) or "", rule="output-size"),
                                  caps)
            if shell.UNKNOWN in use.path:  # a name a capped fan-out left unchecked: only a cap can judge it
                if _within_caps(use.bounds, cfg):
                    continue  # `git ls-files | while read f; do head -n 5 "$f"; done`: a part, whatever the file
                printed.append(use.program)
                caps = caps or [f"`{use.program}` reads names past a cut listing (`ls` gives boundread "
                                f"{shell.FANOUT} names at most)"]
                continue
            absolute = absolute_path(use.path, cwd)
            endless = special.command_refusal(absolute, use.path, use.program, use.bounds, cfg) \
                if absolute.startswith("/dev/") or not stat.S_ISREG(_mode(absolute)) else None
            if endless is not None and not _allowed_path(use.path, cfg, cwd):
                return _with_caps(Decision(DENY, endless, rule="endless", path=use.path), caps)
            if use.bounds:
                size, grep = outputs.part(absolute, use.bounds, cfg) if not _allowed_path(use.path, cfg, cwd) \
                    else (0, -1)
                if size is not None:
                    parts.append((use.path, size, next((b.grep for b in use.bounds if b.grep), None)))
                    continue
                if grep > cfg.text_max_bytes:
                    return _with_caps(_grep_deny(use, grep, cfg, cwd), caps)
            lines = min((bound.count for bound in use.bounds if bound.unit in ("lines", "any-lines")),
                        default=None)
            verdict = _verdict(use.path, cfg, cwd, command=use.program, limit=lines)
            if verdict.denied:
                return _with_caps(verdict, caps)
            printed.append(use.program)  # allowed, missing or unreadable: next to a cap, it denies
            if verdict.rule != "allow-glob":
                parts.append((use.path, outputs.printed_whole(absolute), None))
        elif use.action == shell.UNPACK:
            verdict = _unpack_verdict(use.path, use.program, cfg, cwd)
            if verdict.denied:
                return _with_caps(verdict, caps)
        elif use.action == shell.REMOTE:
            verdict = _remote_verdict(use.path, use.program, use.bounds, cfg)
            if verdict.denied:
                return verdict
    total = sum(size for _path, size, _grep in parts)
    if total > cfg.text_max_bytes:  # each part fits, all of them together do not
        return _with_caps(Decision(DENY, outputs.sum_reason(cmd, [p for p in parts if p[1]], total, cfg),
                                   rule="output-sum", path=parts[0][0]), caps)
    if spent:  # never an allow on a budget run out: what the rest of the command does was not looked at
        return _spent(cmd, printed[0] if printed else "the command", caps)
    if caps and printed:
        return _capped(cmd, printed[0], caps)
    if caps:  # nothing printed whole: names, counts, bounded parts - allowed, with the cap said
        return Decision(ALLOW, "boundread checked part of this command: " + "; ".join(caps) + ".",
                        rule="command-ok-capped")
    return Decision(ALLOW, rule="command-ok")


def _spent(cmd: str, program: str, caps: list[str]) -> Decision:
    """A command too big to check in a hook's time: what it does was not all looked at, so it is refused (an allow
    would let what the walk never reached run unguarded). Most such commands carry data or a script inline (a
    here-document of megabytes): the fix is a file."""
    from boundread.guard.reason import OPENING

    shown = cmd if len(cmd) <= 200 else cmd[:200] + "..."
    who = program if program == "the command" else f"`{program}`"
    return Decision(DENY, f"{OPENING} - `{shown}` is more than boundread can check in the time a hook has "
                    f"({'; '.join(caps)}), and what {who} prints or runs in it was not all looked at.\n"
                    "A shorter command is checked whole: split it into several calls, and write long data or a "
                    "long script to a file with your file-writing tool instead of putting it in the command.",
                    rule="too-big-to-check")


def _within_caps(found: tuple[Bound, ...], cfg: GuardConfig) -> bool:
    """Does one of these bounds hold a read of a file that cannot be looked at within the caps?"""
    for bound in found:
        if bound.unit in ("matches", "text-matches"):
            return True  # a grep of a name not looked at: most patterns pick a few lines, as greps are used
        limit = {"bytes": cfg.text_max_bytes, "lines": cfg.line_cap, "any-lines": cfg.line_cap,
                 "pages": cfg.pdf_page_cap}.get(bound.unit)
        if limit is not None and bound.count <= limit:
            return True
    return False


def _remote_verdict(where: str, program: str, found: tuple[Bound, ...], cfg: GuardConfig) -> Decision:
    """A file on another host (``host:path``), printed here: it cannot be looked at, so its name decides -
    a kind in ``deny_kinds`` (or an image) is refused unless a bound within the caps holds; so is a log with no
    bound (``docker logs web``, ``journalctl``, ``ssh host cat /var/log/syslog``): its size is unknown, and big."""
    if _within_caps(found, cfg):
        return Decision(ALLOW, rule="remote-bounded", path=where)
    from boundread.guard import remotes

    unbounded = remotes.unbounded(where, program, cfg.text_max_bytes)
    if unbounded is not None:
        return Decision(DENY, unbounded, rule="remote-unbounded", path=where)
    host, _, path = where.partition(":")
    kind = sniff.kind_from_name(path)
    if kind is None or (kind not in cfg.deny_kinds and kind != sniff.IMAGE):
        return Decision(ALLOW, kind=kind or "", rule="remote-ok", path=where)
    from boundread.guard import reason

    name = reason.quote(os.path.basename(path) or path)
    text = reason.compose(f"`{program}` would print {where} whole", f"{kind} by its name, on the remote host {host}",
                          "boundread cannot look inside a file on another host, and a whole read floods the context",
                          [f"scp {reason.quote(where)} . && boundread info {name}",
                           f"ssh {host} 'boundread info {path}'   (if boundread is installed there)"],
                          "Copy it here first, then read the part you need.")
    return Decision(DENY, text, kind, "remote", where)


def _with_caps(verdict: Decision, caps: list[str]) -> Decision:
    if not caps:
        return verdict
    note = "\n(boundread checked part of the command: " + "; ".join(caps) + ".)"
    return Decision(verdict.decision, verdict.reason + note, verdict.kind, verdict.rule, verdict.path)


def _capped(cmd: str, program: str, caps: list[str]) -> Decision:
    """A command that prints whole files past a cap: what it left unchecked may be anything."""
    from boundread.guard.reason import OPENING

    shown = cmd if len(cmd) <= 200 else cmd[:200] + "..."
    return Decision(DENY, f"{OPENING} - `{shown}` prints more files than boundread checks ({'; '.join(caps)}), "
                    f"with `{program}`: the rest are unchecked and could be anything.\n"
                    "Narrow it to fewer files (a tighter glob, `find -maxdepth`, `| head`), or look first:\n"
                    "  ls | head -n 50\n  boundread info FILE\n"
                    "Each file's bounded part is then `boundread pages|extract FILE ...`.",
                    rule="capped")


def _mode(absolute: str) -> int:
    """The file's mode, or a regular file's when it cannot be had (missing: judged as before)."""
    try:
        return os.stat(absolute).st_mode
    except (OSError, ValueError):
        return stat.S_IFREG


def _allowed_path(given: str, cfg: GuardConfig, cwd: str | os.PathLike[str] | None) -> bool:
    """Does an ``allow`` glob of the config name this file? Then nothing it prints is counted."""
    if not cfg.allow:
        return False
    absolute = absolute_path(given, cwd)
    return _allowed(cfg.allow, (given, absolute, os.path.basename(absolute)))


def _grep_deny(use: FileUse, printed: int, cfg: GuardConfig, cwd: str | os.PathLike[str] | None) -> Decision:
    """A grep whose matches in one file, estimated from a sample, come to more than the cap."""
    bound = next(bound for bound in use.bounds if bound.grep is not None)
    absolute = absolute_path(use.path, cwd)
    from boundread.guard import outputs, reason

    here = _absolute_dir(os.fspath(cwd)) if cwd else None
    shown = reason.display_path(use.path, absolute, here)
    size = outputs.printed_whole(absolute)
    if bound.grep is not None and bound.grep.compressed:
        from boundread.guard import facts

        size = max(size, facts.gzip_size(absolute, size) or 0)
    return Decision(DENY, outputs.grep_reason(shown, bound, printed, size, cfg),
                    sniff.TEXT, "grep-output", use.path)


def _unpack_verdict(given: str, program: str, cfg: GuardConfig,
                    cwd: str | os.PathLike[str] | None) -> Decision:
    absolute = absolute_path(given, cwd)
    if not sniff.is_regular_file(absolute):
        return Decision(ALLOW, rule="missing", path=given)
    try:
        sniffed = sniff.sniff_path(absolute)
    except OSError:
        return Decision(ALLOW, rule="unreadable", path=given)
    from boundread.guard import reason
    from boundread.guard.config import shown_size

    size = os.stat(absolute).st_size
    described, found = reason.describe(absolute, sniffed.kind, size)
    entries, unpacked = found.get("entries"), found.get("unpacked")
    too_many = isinstance(entries, int) and entries > cfg.extract_max_entries
    too_big = max(size, unpacked if isinstance(unpacked, int) else 0) > cfg.extract_max_bytes
    if not (too_many or too_big):
        return Decision(ALLOW, kind=sniffed.kind, rule="unpack-ok", path=given)
    quoted = reason.quote(given)
    limit = (f"more than {cfg.extract_max_entries} entries" if too_many
             else f"more than {shown_size(cfg.extract_max_bytes)}")
    cmds = [f"boundread list-zip {quoted} --max-entries {reason.FIT_ENTRIES}", reason.member(quoted)]
    text = reason.compose(f"`{program}` would unpack {quoted} whole", described, f"it has {limit}", cmds,
                          "List it first, then take the members you need; ask the user if unsure.")
    return Decision(DENY, text, sniffed.kind, "archive-extract", given)


def suggestions(path: str, *, cwd: str | os.PathLike[str] | None = None,
                config: GuardConfig | None = None) -> tuple[str, str, list[str]] | None:
    """(``path`` as a reason shows it, what the file is, the boundread commands to read it), for any
    regular file whatever the verdict on it; None when there is no such file."""
    absolute = absolute_path(path, cwd)
    if not sniff.is_regular_file(absolute):
        return None
    try:
        sniffed = sniff.sniff_path(absolute)
        size = os.stat(absolute).st_size
    except OSError:
        return None
    from boundread.guard import reason

    here = _absolute_dir(os.fspath(cwd)) if cwd else None
    quoted = reason.quote(reason.display_path(path, absolute, here))
    described, found = reason.describe(absolute, sniffed.kind, size, sniffed.subtype)
    return quoted, described, reason.commands(sniffed.kind, quoted, found, (config or GuardConfig()).line_cap)
