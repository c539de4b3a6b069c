"""Prints whose size cannot be looked at: a log stream with no bound (``docker logs web``, ``kubectl logs``,
``journalctl``) and a log or data file on another host or in a container (``ssh prod cat /var/log/syslog``,
``docker exec db cat /var/lib/data/dump.sql``). Their names decide: a service's log and a data dump are
usually megabytes, so each is refused with the bounded command (``--tail 200``, ``tail -n 200 F``); a remote
config file (``/etc/nginx/nginx.conf``, ``~/.bashrc``) is left to its name's kind. Only imported for a REMOTE use.
"""

from __future__ import annotations

from boundread.guard.shell.generators import ENDLESS, GENERATED
from boundread.guard.shell.remote import LOG
from boundread.guard.shell.state import REMOTE_MARK

_LOG_DIRS = ("/log/", "/logs/", "/journal/")
_DATA = (".log", ".sql", ".csv", ".tsv", ".json", ".jsonl", ".ndjson", ".xml", ".dump", ".out", ".gz", ".xz", ".bz2",
         ".zst", ".bak", ".txt")
_LOG_NAMES = ("syslog", "messages", "kern", "auth", "daemon", "access", "error", "catalina", "dmesg")


def unbounded(where: str, program: str, cap: int) -> str | None:
    """The deny reason for a REMOTE use (``host:path``, printed by ``program``) whose output has no bound,
    or None when its name gives no reason to think it big; a generator's (``yes``, ``seq``) over ``cap``."""
    from boundread.guard.reason import OPENING

    if GENERATED in where:
        return _generated(where, program, cap)
    if LOG in where:
        source = where.replace(":" + LOG, "").replace(REMOTE_MARK, "")
        host, _, inner = source.partition(":") if REMOTE_MARK in where else ("", "", source)
        shown = f"{inner or source} on {host}" if host else source
        return (f"{OPENING} - this prints a whole log ({shown}): its size cannot be known before the command runs, "
                "and a service's log is usually megabytes, which floods the context.\n"
                f"Run instead, with a bound:\n  {program}\n"
                "or a time window (--since 10m), or count first: ... | grep -c PATTERN; search it with "
                "... | grep -m 200 PATTERN.")
    runner, _, path = where.rpartition(":")
    if not _big_by_name(path):
        return None
    run = runner if " " in runner else f"ssh {runner}"
    return (f"{OPENING} - `{program}` would print {path} from {runner} whole: boundread cannot look at a file "
            "there, and a log or data file is usually megabytes, which floods the context.\n"
            f"Run instead:\n  {run} 'wc -c {path}'   (how big it is)\n  {run} 'tail -n 200 {path}'\n"
            f"  {run} 'grep -m 200 PATTERN {path}'\nThen read the part you need.")


def _generated(where: str, program: str, cap: int) -> str | None:
    """``yes`` (no end) or ``seq 100000000`` (900 MB): refused over the cap, with the bounded form."""
    from boundread.guard.reason import OPENING
    from boundread.units import human_bytes

    size = int(where.rsplit(GENERATED, 1)[1])
    if 0 <= size <= cap:
        return None
    if size == ENDLESS:  # counting it would never end either
        return (f"{OPENING} - `{program}` prints without end, which floods the context and never returns.\n"
                f"Run instead, with a bound:\n  {program} | head -n 100")
    return (f"{OPENING} - `{program}` prints about {human_bytes(size)}, which floods the context (and the call may "
            f"never end).\nRun instead, with a bound:\n  {program} | head -n 100\nor count what it makes: "
            f"{program} | wc -l")


def _big_by_name(path: str) -> bool:
    """A log folder's file, a log's name (syslog, access.log.2.gz), or a data file's suffix."""
    lowered = "/" + path.lower().lstrip("/")
    name = lowered.rsplit("/", 1)[-1]
    stem = name.split(".", 1)[0]
    if any(folder in lowered for folder in _LOG_DIRS) or stem in _LOG_NAMES:
        return True
    parts = name.split(".")[1:]
    return any("." + part in _DATA for part in parts)
