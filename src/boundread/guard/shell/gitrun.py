"""Running git inside the hook, safely and briefly: to count what a printer would print, or a tree's size.

Git is run with no pager, no external diff or textconv, no clean/smudge filter, no signature check, no
fsmonitor and no optional locks (nothing is written, no program the repository's config names runs), stdin
closed, in a process group of its own that is killed once the count is past its limit or the time is up. Its
own time is ``SECONDS`` at most and never past the check's deadline less a margin for the rest of the check:
the hook answers in time whatever the repository.
"""

# os.path on purpose, not pathlib: this runs on the hook path (guard-check), where pathlib costs start-up.
from __future__ import annotations

import os

#: Seconds one git run may take, at most.
SECONDS = 0.7
#: Seconds kept for the rest of the check after git.
_MARGIN = 0.2
_SAFE = ("-c", "core.fsmonitor=false", "-c", "core.pager=cat", "-c", "diff.external=", "-c",
         "core.untrackedCache=false", "-c", "log.showSignature=false", "--no-pager")
#: Options a printer is not run with: each runs a program the config names.
UNSAFE = frozenset({"--ext-diff", "--textconv", "--filters", "--show-signature", "-o"})
#: Options that keep a printer from running a configured program (diff, show and log take them).
_NO_PROGRAMS = ("--no-ext-diff", "--no-textconv")


def count(cwd: str, args: list[str], most: int, deadline: float) -> int | None:
    """The bytes ``git ARGS`` prints, counted up to ``most + 1`` (more is not read); None when git could not
    run or answered nothing in time (what it printed by then, when it was more than ``most``)."""
    sub = next((arg for arg in args if not arg.startswith("-")), "")
    if any(arg in UNSAFE or arg.startswith("--output") for arg in args):
        return None
    extra = _NO_PROGRAMS if sub in ("diff", "show", "log", "whatchanged", "format-patch", "reflog", "stash") \
        else ()
    at = args.index(sub) + 1 if sub else len(args)
    if sub == "stash":  # `git stash show -p`: the options follow `show`
        at = args.index("show", at) + 1 if "show" in args[at:] else at
    names: list[str] = []
    _read(cwd, ["config", "--name-only", "--get-regexp", r"^filter\."], 65536, deadline, None, names)
    off = [word for name in dict.fromkeys(names) for key in ("clean", "smudge", "process")
           for word in ("-c", f"{name}.{key}=")]
    return _read(cwd, [*off, *args[:at], *extra, *args[at:]], most, deadline, None, None)


def listed(cwd: str, args: list[str], most: int, deadline: float) -> bytes | None:
    """What ``git ARGS`` prints (a listing: ``ls-files -z``), read up to ``most + 1`` bytes; None when git could
    not run or answer in time."""
    chunks: list[bytes] = []
    got = _read(cwd, args, most, deadline, None, None, chunks)
    return None if got is None else b"".join(chunks)


def tree_size(cwd: str, args: list[str], deadline: float) -> int | None:
    """The sum of the sizes ``git ls-tree -r -l`` lists; None when git could not answer in time."""
    sizes: list[int] = []
    if _read(cwd, args, 16 * 1024 * 1024, deadline, sizes, None) is None:
        return None
    return sum(sizes)


def _read(cwd: str, args: list[str], most: int, deadline: float, sizes: list[int] | None,
          filters: list[str] | None, chunks: list[bytes] | None = None) -> int | None:
    """Run git; count its stdout up to ``most + 1``; the sizes of an ``ls-tree -l`` to ``sizes``, the names of the
    filters ``git config --name-only`` lists (``filter.NAME``) to ``filters``, what it printed to ``chunks``."""
    import selectors
    import signal
    import subprocess
    from contextlib import suppress
    from time import monotonic

    stop = min(deadline - _MARGIN, monotonic() + SECONDS)
    if monotonic() >= stop or not os.path.isdir(cwd):
        return None
    env = {key: value for key, value in os.environ.items() if not key.startswith(("GIT_EXTERNAL", "GIT_PAGER"))}
    env.update({"GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "PAGER": "cat"})
    try:
        proc = subprocess.Popen(["git", *_SAFE, *args], cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    except OSError:
        return None
    got, done, rest = 0, False, b""
    assert proc.stdout is not None
    try:
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ)
            while got <= most and monotonic() < stop:
                if not sel.select(max(0.0, stop - monotonic())):
                    break
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    done = True
                    break
                got += len(chunk)
                if chunks is not None:
                    chunks.append(chunk)
                if sizes is not None:
                    rest = _sizes(rest + chunk, sizes)
                elif filters is not None:
                    rest += chunk
    finally:
        if done:
            with suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=max(0.0, stop - monotonic()))
        if proc.poll() is None:
            with suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
        proc.stdout.close()
        proc.wait()
    if filters is not None:
        filters.extend(".".join(line.split(".")[:-1]) for line in rest.decode("utf-8", "replace").splitlines()
                       if line.startswith("filter."))
    return got if got > most or done else None


def _sizes(data: bytes, sizes: list[int]) -> bytes:
    """Each whole line of ``git ls-tree -l`` (``MODE TYPE HASH SIZE\\tPATH``): its size to ``sizes``; the
    unfinished last line is returned."""
    *lines, rest = data.split(b"\n")
    for line in lines:
        fields = line.split(b"\t", 1)[0].split()
        if len(fields) == 4 and fields[3].isdigit():
            sizes.append(int(fields[3]))
    return rest
