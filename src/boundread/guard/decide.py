"""The pure decision: a path (Read) or a shell command in, a Decision out. No I/O but stat and kinds. This module
has the read side and the Decision; guard/command.py judges a command line by the reads it makes.

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

from boundread.bytelevel import sniffed as kinds  # the sniff itself loads where a file is looked at
from boundread.guard.config import GuardConfig
from boundread.guard.record import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    pass

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


def absolute_dir(cwd: str) -> str:
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
    return read_verdict(path, cfg, cwd, command=None, limit=limit, pages=special.page_range(pages),
                    range_params=range_params, part=part, file_cap=file_cap)


def read_verdict(given: str, cfg: GuardConfig, cwd: str | os.PathLike[str] | None, *, command: str | None,
             limit: object = None, pages: object = None, range_params: str = "offset/limit",
             part: str = "", file_cap: int | None = None) -> Decision:
    """``part``: what a ranged read asked for ("lines 1-9000 of "), for the reason."""
    absolute = absolute_path(given, cwd)
    here = absolute_dir(os.fspath(cwd)) if cwd else None
    if cfg.allow and allowed_by(cfg.allow, (given, absolute, os.path.basename(absolute))):
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
    from boundread.bytelevel import sniff

    try:
        sniffed = sniff.sniff_path(absolute)
    except OSError:
        return Decision(ALLOW, rule="unreadable", path=given)
    kind, size = sniffed.kind, info.st_size
    rule = _rule(kind, size, absolute, here, cfg, command=command, limit=limit, pages=pages)
    if rule is None and kind == kinds.TEXT and file_cap is not None and size > file_cap and command is None:
        rule = "text-size"  # a range the agent's read tool refuses all the same: the commands that work
    if rule is None:
        return Decision(ALLOW, kind=kind, rule=f"{kind}-ok", path=given)
    if file_cap is not None and size > file_cap and command is None:
        range_params = ""  # no range of it can be read: the reason names the commands only
    why = _reason(given, absolute, here, sniffed, size, rule, command, cfg, range_params, part)
    return Decision(DENY, why, kind, rule, given)


def allowed_by(globs: tuple[str, ...], names: tuple[str, ...]) -> bool:
    import fnmatch  # only when the config has an allow-list

    return any(fnmatch.fnmatch(name, glob) for glob in globs for name in names)


def _rule(kind: str, size: int, absolute: str, here: str | None, cfg: GuardConfig, *,
          command: str | None, limit: object, pages: object) -> str | None:
    """The name of the rule that denies, or None to allow."""
    if kind == kinds.PDF and command is None and pages:
        count = _page_count(pages)
        if count is not None and 0 < count <= cfg.pdf_page_cap:
            return None
    if kind in cfg.deny_kinds:
        return "pdf" if kind == kinds.PDF else (
            "office" if kind in kinds.OFFICE_KINDS else "archive" if kind in kinds.ARCHIVE_KINDS
            else kinds.BINARY if kind in (kinds.SQLITE, kinds.PARQUET, kinds.ARROW) else kind)  # the binary rule's name
    if kind == kinds.IMAGE:
        if _in_attachments(absolute, cfg.attachment_dirs, here):
            return "image-attachment"
        if size > cfg.image_max_bytes:
            return "image-size"
        return "image-dump" if command is not None else None
    if kind == kinds.TEXT:
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


def _reason(given: str, absolute: str, here: str | None, sniffed: kinds.Sniffed, size: int, rule: str,
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
                     + _bounded_read(found, cfg, command, range_params),
        "text-long-lines": f"its lines are so long that the lines asked for come to over "
                           f"{shown_size(cfg.text_max_bytes)}",
        "archive-extract": "unpacking it whole floods the disk and the context",
    }.get(rule, "a whole read floods the context" if kind == kinds.PDF or kind in kinds.OFFICE_KINDS
          else "its raw bytes are not readable text")
    if command and found.get("cr_only") and rule in ("text-size", "text-long-lines"):  # head/sed: no bound there
        why = reason.cr_advice()
    what = f"`{command}` would print {quoted}" if command and rule != "archive-extract" else (
        f"`{command}` would unpack {quoted}" if command else
        f"reading {part}{quoted}" if part else f"reading {quoted} whole")
    cmds = reason.commands(kind, quoted, found, cfg.line_cap)
    return reason.compose(what, described, why, cmds, reason.tail_for(kind))


def _bounded_read(found: dict[str, object], cfg: GuardConfig, command: str | None, range_params: str) -> str:
    """How to read a big text within the bound: a range of lines as long as its lines allow (a one-line 3 MB page
    has no range of lines that fits, and `head -n 200` of it would be denied in turn), else bytes or a command."""
    from boundread.guard.config import shown_size

    longest = found.get("longest_line")
    fit = min(cfg.line_cap, cfg.text_max_bytes // longest) if isinstance(longest, int) and longest > 0 \
        else cfg.line_cap
    if command is None and not range_params:
        return "(this client's read tool refuses a file this big, whatever the range: run a command below)"
    if command is None:
        return (f"(pass {range_params}, at most {fit:,} lines)" if fit >= 1 else
                "(no range of lines fits: its lines are too long)")
    shown = shown_size(cfg.text_max_bytes)
    if fit >= 1:
        lines = min(fit, 200)
        return f"(print at most {shown} of it: head -n {lines}, sed -n 1,{lines}p)"
    return f"(its lines are too long to count them: head -c {cfg.text_max_bytes})"


def suggestions(path: str, *, cwd: str | os.PathLike[str] | None = None,
                config: GuardConfig | None = None) -> tuple[str, str, list[str]] | None:
    """(``path`` as a reason shows it, what the file is, the boundread commands to read it), for any
    regular file whatever the verdict on it; None when there is no such file."""
    from boundread.bytelevel import sniff

    absolute = absolute_path(path, cwd)
    if not sniff.is_regular_file(absolute):
        return None
    try:
        sniffed = sniff.sniff_path(absolute)
        size = os.stat(absolute).st_size
    except OSError:
        return None
    from boundread.guard import reason

    here = absolute_dir(os.fspath(cwd)) if cwd else None
    quoted = reason.quote(reason.display_path(path, absolute, here))
    described, found = reason.describe(absolute, sniffed.kind, size, sniffed.subtype)
    return quoted, described, reason.commands(sniffed.kind, quoted, found, (config or GuardConfig()).line_cap)
