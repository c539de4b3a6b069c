"""GitHub Copilot CLI's folder trust: in a folder it does not trust, it runs no hook of the project's.

Copilot CLI 1.0.102 loads ``<project>/.github/hooks/*.json`` only in a trusted folder and skips them without a
word elsewhere (the user's own hooks, ``~/.copilot/hooks/*.json``, run in every folder). A folder is trusted for one
``copilot -p`` run by ``--trust-folder``, for every run in it by ``COPILOT_ALLOW_ALL=true`` (exactly "true": the
other truthy spellings only approve tools), and for good by an entry in the user's ``~/.copilot/config.json``
(``$COPILOT_HOME/config.json``):

    // User settings belong in settings.json.
    // This file is managed automatically.
    {
      "trustedFolders": ["/abs/project"]
    }

An entry trusts its folder and every folder below it (a trailing ``/`` is the same folder). Copilot reads the file
with its ``//`` comments and writes it back itself on each start, keeping the keys it does not know. A
``trustedFolders`` that is not a list stops Copilot at start ("Invalid trustedFolders configuration"); a file it
cannot read at all it replaces with its own. ``trustedFolders`` in settings.json trusts nothing. Verified against
the real client in tests/e2e/test_copilot.py.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

from boundread.agents import install
from boundread.agents.base import Trust
from boundread.agents.gemini_trust import strip_comments
from boundread.errors import Corrupt

KEY = "trustedFolders"
ENV = "COPILOT_ALLOW_ALL"
MOST = 4 * 1024 * 1024  # bytes of config.json read at most: Copilot's own small state, not a data file
HEADER = "// User settings belong in settings.json.\n// This file is managed automatically.\n"  # as Copilot writes


def config_path(home: Path, env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    override = env.get("COPILOT_HOME")
    return (Path(override) if override else home / ".copilot") / "config.json"


def _read(path: Path) -> tuple[str | None, dict[str, object]]:
    """The text of config.json (None: missing) and its object; Corrupt when boundread cannot merge into it."""
    try:
        with path.open("rb") as fh:
            raw = fh.read(MOST + 1)
    except FileNotFoundError:
        return None, {}
    if len(raw) > MOST:
        raise Corrupt(f"{path} is over {MOST // (1024 * 1024)} MB, not Copilot CLI's settings", "fix it by hand")
    try:
        text = raw.decode("utf-8")
        data = json.loads(strip_comments(text))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        what = exc.msg if isinstance(exc, json.JSONDecodeError) else "not UTF-8 JSON"
        raise Corrupt(f"{path} is not JSON boundread can read ({what})",
                      f"fix it by hand, or add the folder to its {KEY!r} list yourself") from None
    if not isinstance(data, dict):
        raise Corrupt(f"{path} is not a JSON object", "fix it by hand")
    folders = data.get(KEY)
    if folders is not None and not (isinstance(folders, list) and all(isinstance(f, str) for f in folders)):
        raise Corrupt(f"{path}: {KEY!r} is not a list of folders: Copilot CLI refuses to start", "fix it by hand")
    return text, data


def _holds(rule: str, folder: Path) -> bool:
    """Whether the trusted folder ``rule`` is ``folder`` or holds it (links resolved where the paths exist)."""
    if not rule or not Path(rule).is_absolute():
        return False
    return folder.resolve().is_relative_to(Path(rule).resolve())


def check(folder: Path, home: Path, env: Mapping[str, str] | None = None) -> Trust:
    """Whether Copilot CLI, started in ``folder`` by the user whose home is ``home``, trusts it (and so runs the
    project's hooks). ``env``: the environment Copilot starts with (default: this one)."""
    env = os.environ if env is None else env
    if env.get(ENV) == "true":
        return Trust(True, f"{ENV}=true in this environment: Copilot CLI trusts the folder it starts in", ENV)
    path = config_path(home, env)
    try:
        _, data = _read(path)
    except Corrupt as exc:
        return Trust(False, exc.what)
    except OSError as exc:
        return Trust(None, f"cannot read {path}: {exc}")
    folders = data.get(KEY) or []
    assert isinstance(folders, list)  # _read checked it
    found = next((rule for rule in folders if _holds(rule, folder)), None)
    if found is None:
        return Trust(False, f"{folder} is not in {KEY} of {path}")
    return Trust(True, f"{path} trusts it ({found})")


def trusted_config(folder: Path, home: Path, env: Mapping[str, str] | None = None) -> tuple[Path, str | None, str]:
    """The user's config.json with ``folder`` in ``trustedFolders``: (path, text before or None, text after).

    Only our entry is added, at the end; every other key and entry stays as it was, and the comment lines that
    open the file (Copilot's own header) stay on top. Nothing changes when an entry trusts the folder already.
    Corrupt (nothing written) when the file is not JSON boundread reads."""
    path = config_path(home, env)
    before, data = _read(path)
    folders = data.get(KEY) or []
    assert isinstance(folders, list)
    if before is not None and any(_holds(rule, folder) for rule in folders):
        return path, before, before
    merged = {**data, KEY: [*folders, os.path.realpath(folder)]}
    return path, before, _leading_comments(before) + json.dumps(merged, indent=2, ensure_ascii=False) + "\n"


def _leading_comments(text: str | None) -> str:
    """The ``//`` lines that open ``text`` (Copilot's header for a new file)."""
    if text is None:
        return HEADER
    lines = []
    for line in text.splitlines(keepends=True):
        if not line.lstrip().startswith("//"):
            break
        lines.append(line if line.endswith("\n") else line + "\n")
    return "".join(lines)


def how(folder: Path) -> str:
    """How to make Copilot CLI trust ``folder``."""
    return (f"start `copilot` in {folder} and trust the folder when it asks, or run `boundread init --agent copilot "
            "--trust` to record it in ~/.copilot/config.json")


def hint(folder: Path) -> str:
    return ("Copilot CLI runs no hook of .github/hooks in a folder it does not trust (it skips them without a "
            f"word, and every file is read whole): {how(folder)}")


def change(folder: Path, home: Path | None = None) -> install.Change:
    """The change to the user's config.json that trusts ``folder`` (see :func:`trusted_config`)."""
    path, before, after = trusted_config(folder.absolute(), home or Path.home())
    return install.Change(path, before, after)


# init --trust (the Truster Protocol, agents/base.py) ---------------------------------------------------------
def trust_change(root: Path, home: Path, user: bool, hooks: install.Change) -> install.Change:
    """The config.json change that trusts ``root``; a UsageError with ``user``: Copilot CLI runs the user's own
    hooks in every folder, and --user names none."""
    if user:
        from boundread.errors import UsageError

        raise UsageError("--trust trusts a folder, and --user names none (Copilot CLI runs the user's hooks, "
                         "~/.copilot/hooks, in every folder)", "drop --trust, or run `boundread init --agent copilot "
                         "--trust` in a project to trust it")
    return change(root, home)


def trust_apply(change: install.Change) -> None:
    """Written atomically, keeping the file's mode; a new file is the user's only (0600), as Copilot makes it (it
    keeps its credentials there)."""
    from boundread.agents.gemini_trust import write

    if change.changed and change.after is not None:
        write(change.path, change.after)


def trust_hint(root: Path, home: Path, user: bool, hooks: Path) -> str:
    """How to trust ``root`` when Copilot CLI does not trust it yet; '' when it does, or for the user's hooks."""
    return "" if user or check(root, home).trusted else hint(root)
