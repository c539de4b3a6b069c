"""May an agent run this shell command? The command side of the guard's decision (guard/decide.py has the read
side and the Decision): the files a command line prints, unpacks or fetches (guard/shell/ reads the line), each
judged as a read of that file would be, their output summed against the cap, within a time budget of its own.

Standard library only: guard-check's hot path.
"""

# os.path on purpose, not pathlib: this runs on the hook path (guard-check), where pathlib costs start-up.
# ruff: noqa: PTH119
from __future__ import annotations

import os
import stat

from boundread.bytelevel import sniffed as kinds  # the sniff itself loads where a file is looked at
from boundread.guard.config import GuardConfig
from boundread.guard.decide import ALLOW, DENY, Decision, absolute_dir, absolute_path, allowed_by, read_verdict

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.bounds import Bound, Grep
    from boundread.guard.shell import FileUse


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

    from boundread.guard import shell

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
            from boundread.guard import outputs, special  # only for a print: most commands print no file
            from boundread.guard.shell import madeup

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
            text = _gunzipped(absolute, use.bounds, cfg)
            if text is not None:  # `zcat small.log.gz | head`: its text, all of which fits
                parts.append((use.path, text, None))
                continue
            if use.bounds:
                size, grep = outputs.part(absolute, use.bounds, cfg) if not _allowed_path(use.path, cfg, cwd) \
                    else (0, -1)
                if size is not None:
                    parts.append((use.path, size, next((b.grep for b in use.bounds if b.grep), None)))
                    continue
                if grep > cfg.text_max_bytes:
                    return _with_caps(_grep_deny(use, grep, cfg, cwd), caps)
            if _unpacks(use.bounds) and not _allowed_path(use.path, cfg, cwd):
                return _with_caps(_gunzip_deny(use, absolute, cfg, cwd), caps)
            lines = min((bound.count for bound in use.bounds if bound.unit in ("lines", "any-lines")),
                        default=None)
            verdict = read_verdict(use.path, cfg, cwd, command=use.program, limit=lines)
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
        from boundread.guard import outputs

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


def _gunzipped(absolute: str, found: tuple[Bound, ...], cfg: GuardConfig) -> int | None:
    """The size of the text a gunzip prints of ``absolute`` (``zcat``, ``gzip -dc``: a flow bounds.UNPACKED
    marks), when all of it fits the cap; else None, and the flow is judged as before: by the file's kind, or by
    a bound measured on its bytes."""
    mark = _unpacks(found)
    if mark is None or not stat.S_ISREG(_mode(absolute)):
        return None
    from boundread.guard import gunzipped

    return gunzipped.within(absolute, cfg.text_max_bytes, mark.members)


def _unpacks(found: tuple[Bound, ...]) -> Bound | None:
    """The mark of a gunzip's (or ``unzip -p``'s) text on a flow, if it has one."""
    return next((bound for bound in found if bound.unit == "unpacked"), None)


def _gunzip_deny(use: FileUse, absolute: str, cfg: GuardConfig, cwd: str | os.PathLike[str] | None) -> Decision:
    """The refusal of a gunzip's text over the cap (``zcat big.log.gz``, ``| tail -n 100000``): what it prints is
    the file's text, not its compressed bytes, so the reason says how much and how to print a part of it. A gzip
    file of binary data (a tar) is refused as its kind is."""
    from boundread.bytelevel import sniff
    from boundread.guard import gunzipped, reason
    from boundread.guard.config import shown_size

    try:
        kind = sniff.sniff_path(absolute).kind
    except OSError:
        kind = ""
    members = mark.members if (mark := _unpacks(use.bounds)) is not None else ()
    if kind not in (sniff.GZ, sniff.ZIP) or not gunzipped.begins_as_text(absolute, members):
        return read_verdict(use.path, cfg, cwd, command=use.program)
    shown = reason.quote(reason.operand(use.path))
    described, found = reason.describe(absolute, kind, os.stat(absolute).st_size)
    cap = shown_size(cfg.text_max_bytes)
    gunzip = f"zcat {shown}" if kind == sniff.GZ else " ".join(["unzip -p", shown, *map(reason.quote, members)])
    why = f"its text is over {cap}, which needs a bounded read (print at most {cap} of it: {gunzip} | head -n 200)"
    cmds = reason.commands(kind, shown, found, cfg.line_cap)
    return Decision(DENY, reason.compose(f"`{use.program}` would print the text of {shown}", described, why, cmds,
                                         reason.tail_for(kind)), kind, "archive", use.path)


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
    kind = kinds.kind_from_name(path)
    if kind is None or (kind not in cfg.deny_kinds and kind != kinds.IMAGE):
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
    return allowed_by(cfg.allow, (given, absolute, os.path.basename(absolute)))


def _grep_deny(use: FileUse, printed: int, cfg: GuardConfig, cwd: str | os.PathLike[str] | None) -> Decision:
    """A grep whose matches in one file, estimated from a sample, come to more than the cap."""
    bound = next(bound for bound in use.bounds if bound.grep is not None)
    absolute = absolute_path(use.path, cwd)
    from boundread.guard import outputs, reason

    here = absolute_dir(os.fspath(cwd)) if cwd else None
    shown = reason.display_path(use.path, absolute, here)
    size = outputs.printed_whole(absolute)
    mark = _unpacks(use.bounds)
    members = None
    if bound.grep is not None and bound.grep.compressed:
        from boundread.guard import facts, gunzipped

        unzipped = gunzipped.declared(absolute, mark.members) if mark is not None else None
        if unzipped is not None:  # `unzip -p a.zip | grep X`: the members' text
            size, members = unzipped, mark.members if mark is not None else ()
        else:
            size = max(size, facts.gzip_size(absolute, size) or 0)
    return Decision(DENY, outputs.grep_reason(shown, bound, printed, size, cfg, absolute, members),
                    kinds.TEXT, "grep-output", use.path)


def _unpack_verdict(given: str, program: str, cfg: GuardConfig,
                    cwd: str | os.PathLike[str] | None) -> Decision:
    from boundread.bytelevel import sniff

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
