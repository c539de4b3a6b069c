"""Gemini CLI's folder trust: in a folder it does not trust, it runs no hook from its settings.

Gemini CLI 0.61 has ``security.folderTrust.enabled`` on by default. In a folder the user has not
trusted it loads no project settings and runs no settings hook - the project's and the user's alike
("Project hooks disabled because the folder is not trusted"): an interactive session the user told not
to trust the folder reads every file whole without a word, and ``gemini -p`` refuses to start there
(exit 55, unless ``--skip-trust``). Trust is the user's, in ``~/.gemini/trustedFolders.json``
(``$GEMINI_CLI_TRUSTED_FOLDERS_PATH``, or ``$GEMINI_CLI_HOME/.gemini/``), one entry per folder:

    {"/abs/project": "TRUST_FOLDER"}      # also TRUST_PARENT (the folder's parent) and DO_NOT_TRUST

Gemini strips ``//`` and ``/* */`` comments before it parses the file (strip-json-comments) and keys each
entry by its normalised path, a later spelling of a path replacing an earlier one's level. The longest
entry whose folder holds the project wins; no entry is "not trusted". Before the file,
``GEMINI_CLI_TRUST_WORKSPACE=true``/``false`` (and ``GEMINI_RESTRICTED_MODE=true``) decide, and
``security.folderTrust.enabled: false`` trusts every folder: the setting as Gemini merges it before the trust
check, the system defaults (``system-defaults.json`` beside the system settings, or
``$GEMINI_CLI_SYSTEM_DEFAULTS_PATH``), then the user's settings, then the system settings
(``$GEMINI_CLI_SYSTEM_SETTINGS_PATH``, else SYSTEM_SETTINGS), the later winning. A file that is not an object of
those three levels stops Gemini CLI at start. Read from the 0.61 bundle; the e2e test
tests/e2e/test_gemini_trust.py checks it against the real client.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from boundread.agents import install
from boundread.agents.base import Trust
from boundread.errors import Corrupt

LEVELS = ("TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST")
ENV = "GEMINI_CLI_TRUST_WORKSPACE"
_JS_SPACE = frozenset("\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff"
                      + "".join(map(chr, range(0x2000, 0x200B))))  # JavaScript's \s
_MARK = re.compile('["/]')  # where a string or a comment may start or end
MOST = 4 * 1024 * 1024  # bytes of trustedFolders.json read at most: a folder list, not a data file
SYSTEM_SETTINGS = ("/Library/Application Support/GeminiCli/settings.json" if sys.platform == "darwin" else
                   "C:\\ProgramData\\gemini-cli\\settings.json" if sys.platform == "win32" else
                   "/etc/gemini-cli/settings.json")  # Gemini CLI's getSystemSettingsPath()


def gemini_dir(home: Path, env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    return Path(env.get("GEMINI_CLI_HOME") or home) / ".gemini"


def folders_path(home: Path, env: Mapping[str, str] | None = None) -> Path:
    env = os.environ if env is None else env
    override = env.get("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
    return Path(override) if override else gemini_dir(home, env) / "trustedFolders.json"


def _normal(path: str) -> str:
    """As Gemini compares paths: absolute, symlinks resolved where the path exists, case folded on macOS and
    Windows."""
    where = Path(path)
    full = str(where.resolve()) if where.exists() else _resolved(path)
    return full.lower() if sys.platform in ("darwin", "win32") else full


def _resolved(path: str) -> str:
    """Node's ``path.resolve``: absolute, ``.`` and ``..`` resolved, no link followed, and on POSIX ``//x`` is
    ``/x`` (``os.path.abspath`` keeps two leading slashes, which POSIX leaves to the system)."""
    full = os.path.abspath(path)  # noqa: PTH100 - Path.resolve would follow links
    return "/" + full.lstrip("/") if os.sep == "/" and full.startswith("//") else full


def _within(parent: str, child: str) -> bool:
    return Path(child).is_relative_to(parent)


def strip_comments(text: str) -> str:
    """``text`` with its ``//`` and ``/* */`` comments outside strings blanked (each character but JavaScript's
    white space a space), as strip-json-comments 3 does it for Gemini CLI: a ``"`` after an odd run of
    backslashes starts or ends no string, a ``//`` comment ends at a newline, an open one at the end."""
    out: list[str] = []
    n, start, inside = len(text), 0, False
    found = _MARK.search(text)
    while found:
        i, char = found.start(), found.group()
        before = i
        while before and text[before - 1] == "\\":
            before -= 1
        if char == '"' and (i - before) % 2 == 0:
            inside = not inside
        elif not inside and char == "/" and text[i + 1:i + 2] in ("/", "*"):
            end = text.find("\n", i) if text[i + 1] == "/" else text.find("*/", i + 2)
            end = n if end < 0 else end if text[i + 1] == "/" else end + 2
            out += [text[start:i], "".join(c if c in _JS_SPACE else " " for c in text[i:end])]
            start = end
            found = _MARK.search(text, end)
            continue
        found = _MARK.search(text, i + 1)
    out.append(text[start:])
    return "".join(out)


def _read(path: Path) -> tuple[str | None, dict[str, str], bool]:
    """The text of trustedFolders.json (None: missing), its rules as Gemini reads them, and whether the text is
    plain JSON in UTF-8 (so a rewrite loses nothing); Corrupt when Gemini would refuse it."""
    try:
        with path.open("rb") as fh:
            raw = fh.read(MOST + 1)
    except FileNotFoundError:
        return None, {}, True
    if len(raw) > MOST:
        raise Corrupt(f"{path} is over {MOST // (1024 * 1024)} MB, not a list of folders", "fix it by hand")
    try:
        text, utf8 = raw.decode("utf-8"), True
    except UnicodeDecodeError:
        text, utf8 = raw.decode("utf-8", "replace"), False  # as Node reads it: a bad byte is U+FFFD
    plain = strip_comments(text)
    faithful = utf8 and plain == text
    try:
        data = json.loads(plain, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise Corrupt(f"{path} is not JSON Gemini CLI reads (line {exc.lineno}: {exc.msg}): it refuses to start",
                      "fix it by hand") from None
    except (ValueError, RecursionError) as exc:
        what = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        raise Corrupt(f"{path} is not JSON Gemini CLI reads ({what}): it refuses to start", "fix it by hand") \
            from None
    if not isinstance(data, dict):
        raise Corrupt(f"{path} is not a JSON object: Gemini CLI refuses to start", "fix it by hand")
    bad = [key for key, level in data.items() if level not in LEVELS]
    if bad:
        raise Corrupt(f"{path}: {bad[0]!r} has a trust level other than {', '.join(LEVELS)}: Gemini CLI refuses "
                      "to start", "fix it by hand")
    return text, data, faithful


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _trust_off(home: Path, env: Mapping[str, str]) -> bool:
    """Whether Gemini's settings turn folder trust off (``security.folderTrust.enabled: false``), merged as it
    merges them for the trust check: the system defaults, the user's, then the system's, the later winning."""
    system = env.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH") or SYSTEM_SETTINGS
    defaults = env.get("GEMINI_CLI_SYSTEM_DEFAULTS_PATH") or str(Path(system).parent / "system-defaults.json")
    enabled = True  # Gemini's default
    for file in (defaults, str(gemini_dir(home, env) / "settings.json"), system):
        found = _enabled(file)
        enabled = enabled if found is None else found
    return not enabled


def _enabled(file: str) -> bool | None:
    """``security.folderTrust.enabled`` in the settings ``file``; None when it does not say (or cannot be read)."""
    try:
        with Path(file).open("rb") as fh:
            data = json.loads(strip_comments(fh.read(MOST).decode("utf-8", "replace")))
    except (OSError, ValueError, RecursionError):
        return None
    security = data.get("security") if isinstance(data, dict) else None
    folder = security.get("folderTrust") if isinstance(security, dict) else None
    enabled = folder.get("enabled") if isinstance(folder, dict) else None
    return enabled if isinstance(enabled, bool) else None


def check(folder: Path, home: Path, env: Mapping[str, str] | None = None) -> Trust:
    """Whether Gemini CLI, started in ``folder`` by the user whose home is ``home``, trusts it (and so runs
    the hooks in its settings). ``env``: the environment Gemini starts with (default: this one)."""
    env = os.environ if env is None else env
    if env.get("GEMINI_RESTRICTED_MODE") == "true" or env.get(ENV) == "false":
        which = "GEMINI_RESTRICTED_MODE" if env.get("GEMINI_RESTRICTED_MODE") == "true" else ENV
        return Trust(False, f"{which}={env[which]} in this environment: Gemini CLI trusts no folder", which)
    if env.get(ENV) == "true":
        return Trust(True, f"{ENV}=true in this environment: Gemini CLI trusts every folder", ENV)
    if _trust_off(home, env):
        return Trust(True, "folder trust is off (security.folderTrust.enabled: false): Gemini trusts every folder")
    path = folders_path(home, env)
    try:
        _, rules, _ = _read(path)
    except Corrupt as exc:
        return Trust(False, exc.what)
    except OSError as exc:
        return Trust(None, f"cannot read {path}: {exc}")
    found = _rule(folder, rules)
    if found is None:
        return Trust(False, f"{folder} is not in {path}")
    rule, level = found
    if level == "DO_NOT_TRUST":
        return Trust(False, f"{path} says DO_NOT_TRUST for {rule}")
    return Trust(True, f"{path} trusts it ({level} for {rule})")


def _rule(folder: Path, rules: dict[str, str]) -> tuple[str, str] | None:
    """The rule Gemini applies to ``folder``: the longest whose folder (TRUST_PARENT: its parent) holds it. Rules
    are keyed as Gemini loads them (absolute, ``.``, ``..`` and a trailing ``/`` resolved, no link followed): of
    two that are one key, the later one's level counts, in the first one's place, as in a JavaScript object."""
    here = _normal(str(folder))
    keyed: dict[str, tuple[str, str]] = {}
    for rule, level in rules.items():
        key = _resolved(rule)
        keyed[key.lower() if sys.platform in ("darwin", "win32") else key] = (rule, level)
    best: tuple[int, str, str] | None = None
    for key, (rule, level) in keyed.items():
        scope = _normal(str(Path(key).parent) if level == "TRUST_PARENT" else key)
        if _within(scope, here) and (best is None or len(key) > best[0]):
            best = (len(key), rule, level)
    return None if best is None else (best[1], best[2])


def how(folder: Path) -> str:
    """How to make Gemini CLI trust ``folder``."""
    return (f"start `gemini` in {folder} and trust the folder when it asks (or with /permissions), or run "
            "`boundread init --agent gemini --trust` to record it in ~/.gemini/trustedFolders.json")


def hint(folder: Path) -> str:
    return ("Gemini CLI runs no hook from its settings in a folder it does not trust (a session there reads "
            f"every file whole, without a word; `gemini -p` refuses to start): {how(folder)}")


def trusted_folders(folder: Path, home: Path,
                    env: Mapping[str, str] | None = None) -> tuple[Path, str | None, str | None]:
    """The user's trustedFolders.json with ``folder`` trusted: (path, text before or None, text after; None only
    when there is no file and Gemini needs none, as where folder trust is off).

    Only our entry changes: ``folder``'s own is set to TRUST_FOLDER (a DO_NOT_TRUST there included, as asked), in
    the place of every entry that names the same folder, however spelt (a trailing ``/``, a link: Gemini would
    keep the later one, or the first of two as long); the others stay as they are, in order, a TRUST_PARENT
    of the folder's own path included (it trusts the folder's siblings too: ours is then written after it,
    so that the later level counts, as it did); nothing changes when Gemini trusts the folder already (a rule,
    folder trust turned off; not a variable of this environment, which its next start may not have).
    Corrupt (nothing written) when the file is not what Gemini reads, or holds comments or bytes that are not
    UTF-8, which a rewrite would lose."""
    path = folders_path(home, env)
    before, rules, faithful = _read(path)
    found = _rule(folder, rules)
    if before is not None and found is not None and found[1] != "DO_NOT_TRUST":
        return path, before, before
    now = check(folder, home, env)
    if now.trusted and not now.variable:
        return path, before, before
    if not faithful:
        raise Corrupt(f"{path} has comments or bytes that are not UTF-8, which rewriting it would lose",
                      f"trust {folder} from gemini (/permissions), or remove them and run init --trust again")
    mine, here = os.path.realpath(folder), _normal(str(folder))
    spelt = [(rule, level) for rule, level in rules.items() if _normal(rule) == here]  # the folder's own entries
    own = [rule for rule, level in spelt if level != "TRUST_PARENT"]
    parents = len(own) < len(spelt)
    ours = (own[-1] if parents else own[0]) if own else None  # ours in its place: the first's, or after a parent's
    replaced = set(own)
    merged: dict[str, str] = {}
    for rule, level in rules.items():
        if rule not in replaced:
            merged[rule] = level
        elif rule == ours:
            _add_ours(merged, mine)
    if ours is None:
        _add_ours(merged, mine)
    return path, before, json.dumps(merged, indent=2, ensure_ascii=False) + "\n"


def _add_ours(merged: dict[str, str], mine: str) -> None:
    """``mine``: TRUST_FOLDER at the end of ``merged``; spelt ``mine/.`` (one key to Gemini) when a TRUST_PARENT of
    the folder has the plain spelling."""
    key = mine
    while key in merged:
        key += "/."
    merged[key] = "TRUST_FOLDER"


def write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, keeping the file's mode; a new file is the user's only (0600), as
    Gemini CLI makes it."""
    dest = path.resolve() if path.is_symlink() else path
    dest.parent.mkdir(parents=True, exist_ok=True)
    mode = (dest.stat().st_mode & 0o7777) if dest.exists() else 0o600
    handle, temp = tempfile.mkstemp(prefix=f".{dest.name}.", dir=dest.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        Path(temp).chmod(mode)
        Path(temp).replace(dest)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def user_hint() -> str:
    return ("Gemini CLI runs the user's hooks too only in folders it trusts: trust each project when gemini asks, "
            "or run `boundread init --agent gemini --trust` in it")


def change(folder: Path, home: Path | None = None) -> install.Change:
    """The change to the user's trustedFolders.json that trusts ``folder`` (see :func:`trusted_folders`)."""
    path, before, after = trusted_folders(folder.absolute(), home or Path.home())
    return install.Change(path, before, after)


def apply(planned: install.Change) -> None:
    if planned.changed and planned.after is not None:
        write(planned.path, planned.after)


# init --trust (the Truster Protocol, agents/base.py) ---------------------------------------------------------
def trust_change(root: Path, home: Path, user: bool, hooks: install.Change) -> install.Change:
    """The trustedFolders.json change that trusts ``root``; a UsageError with ``user``: Gemini CLI runs even the
    user's hooks only in folders it trusts, and --user names none."""
    if user:
        from boundread.errors import UsageError

        raise UsageError("--trust trusts a folder, and --user names none (Gemini CLI runs even the user's hooks only "
                         "in folders it trusts)", "run `boundread init --agent gemini --trust` in each project instead")
    return change(root, home)


def trust_apply(change: install.Change) -> None:
    apply(change)


def trust_hint(root: Path, home: Path, user: bool, hooks: Path) -> str:
    """How to trust each folder (--user), or ``root`` when Gemini does not trust it yet; '' when it does."""
    if user:
        return user_hint()
    return "" if check(root, home).trusted else hint(root)
