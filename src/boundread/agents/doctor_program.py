"""doctor's check of the program a hook command runs: found on the PATH the agent inherits (or there as an
absolute path), answers ``--version`` within RUN_TIMEOUT, and is this boundread's version. ``Scope`` says where
doctor looks and how a fix is worded."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

from boundread import __version__
from boundread.agents import locate
from boundread.agents.base import Check

RUN_TIMEOUT = 10.0  # seconds for `<hook program> --version`
LAUNCHER_HEAD = 2048  # bytes of a console script read for how it starts boundread
SHELL_WORDS = frozenset({"&&", "||", ";", "|", "&"})
PATH_NOTE = "the agent inherits the PATH of the shell that starts it"


@dataclass(frozen=True)
class Scope:
    """Where to look and how to word a fix (``init`` with the same --dir/--user)."""

    root: Path
    home: Path
    user: bool
    program: str = locate.NAME  # how the fix commands start boundread
    path: str | None = None  # the PATH the hook runs with (default: this one)

    def init(self, agent: str, *extra: str) -> str:
        words = [self.program, "init"] + (["--agent", agent] if agent != "claude" else [])
        words += ["--user"] if self.user else []
        words += [] if self.user or self.root == Path.cwd().absolute() else ["--dir", locate.quote(str(self.root))]
        return "`" + " ".join([*words, *extra]) + "`"


def program_checks(agent: str, words: list[str], example: str, scope: Scope) -> list[Check]:
    shown = " ".join(locate.quote(word) for word in words)
    if any(word in SHELL_WORDS for word in words):
        return [Check("command", None, f"cannot check `{example}`: a shell line; run it by hand")]
    exe = words[0]
    if Path(exe).name == exe:  # a bare name: the PATH decides
        resolved, where = shutil.which(exe, path=scope.path), "on this PATH"
    else:
        resolved, where = (exe if Path(exe).is_file() and os.access(exe, os.X_OK) else None), "as a path"
    if resolved is None:
        return [Check("command found", False,
                      f"`{exe}` is not found {where} ({PATH_NOTE}): the hook fails with 'command not found', "
                      f"which the agent treats as allow",
                      f"run {scope.init(agent)} with this installation (it writes its absolute path), or put "
                      f"boundread's folder on the PATH of the shell that starts the agent")]
    found = (f"`{exe}` is {resolved} on this PATH ({PATH_NOTE})" if where == "on this PATH"
             else f"`{exe}` is there and executable (an absolute path: the PATH does not matter)")
    checks = [Check("command found", True, found), *_launcher(resolved)]
    try:
        run = _run([resolved, *words[1:], "--version"])
    except subprocess.TimeoutExpired:
        return [*checks, Check("command runs", False, f"`{shown} --version` did not answer in {RUN_TIMEOUT:g} s",
                               "reinstall boundread there (pip install --force-reinstall boundread)")]
    except OSError as exc:
        return [*checks, Check("command runs", False, f"`{shown} --version` failed: {exc}",
                               "reinstall boundread there (pip install --force-reinstall boundread)")]
    out = (run.stdout or run.stderr).strip().splitlines()
    first = out[0] if out else ""
    if run.returncode != 0 or not first.startswith("boundread "):
        error = (run.stderr.strip().splitlines() or [first or "no output"])[-1]
        return [*checks, Check("command runs", False, f"`{shown} --version` exited {run.returncode}: {error}",
                               "reinstall boundread there (pip install --force-reinstall boundread)")]
    checks.append(Check("command runs", True, f"`{shown} --version` prints {first!r}"))
    version = first.split()[-1]
    if version != __version__:
        checks.append(Check("same version", False, f"the hook runs boundread {version}, this is {__version__}",
                            f"upgrade that one (pip install -U boundread), or run {scope.init(agent)} to point the "
                            f"hook at this one"))
    else:
        checks.append(Check("same version", True, f"boundread {version}, as this one"))
    return checks


def _launcher(program: str) -> list[Check]:
    """How the console script starts boundread, when ``program`` is one (a Python script; not an .exe, a shell
    wrapper or a binary): the script pip before 25.2 writes runs ``import re`` first, to strip a Windows suffix
    from argv[0] - about 10 ms of every hook call on a 2-core machine (bench/startup.py); pip 25.2 and later, and
    uv, write one without it."""
    try:
        with open(program, "rb") as script:
            head = script.read(LAUNCHER_HEAD).decode("utf-8", "replace").splitlines()
    except OSError:
        return []
    if not head or not head[0].startswith("#!") or "python" not in head[0]:
        return []
    ours = next((n for n, line in enumerate(head) if line.startswith(("from boundread", "import boundread"))), None)
    if ours is None:
        return []
    if "import re" not in (line.strip() for line in head[:ours]):
        return [Check("start-up", True, f"{program} starts boundread without importing re first")]
    return [Check("start-up", True,
                  f"{program} imports re before boundread (the script pip older than 25.2 writes): about 10 ms "
                  f"more on every hook call",
                  "upgrade pip there (pip install -U pip), then reinstall boundread (pip install --force-reinstall "
                  "--no-deps boundread), or install it with uv")]


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` for at most RUN_TIMEOUT seconds; on timeout kill its whole process group (POSIX)."""
    with subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, start_new_session=os.name != "nt") as proc:
        try:
            out, err = proc.communicate(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            if os.name != "nt":
                os.killpg(proc.pid, signal.SIGKILL)
            proc.kill()
            proc.communicate()
            raise
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)
