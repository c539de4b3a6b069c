"""What no guarded agent may change, budget or not: the guard's own ground (hook/ground.py has the model).

``Ground`` widens the budget's protected set (budget/selfwords.py ``Protected``: the state folder, the seal beside
it, the user config folder) with files known by their names wherever they are - each agent's hook settings and
boundread's project config - the config files the guard read for this call, and the variables the hooks and a
nested agent's hooks run with. The shell judge (budget/selfcmd.py) asks it the same questions it asks the budget's
set; what differs is said by the class: no budget commands, no ledger address, and a script too big to follow is
not refused for that alone (``strict``).

Standard library only, strings first: the disk is asked for a path a command or tool names, never up front.
"""

# os.path on purpose, not pathlib: this runs on the hook path (guard-check), where pathlib costs start-up.
# ruff: noqa: PTH100, PTH118, PTH119, PTH120
from __future__ import annotations

import os

from boundread.budget.selfwords import Protected, places_words

ACTION = ("an agent may not change the guard that watches it (its hook settings, boundread's config and state):"
          " stop, and ask the user to do it from their own terminal (outside this agent)")
#: Variables a command may not set, export or unset: where the hooks find their settings and state, and where a
#: nested agent finds its own hook settings (``CLAUDE_CONFIG_DIR=/tmp/x claude -p`` runs with no hooks).
ENV = ("BOUNDREAD_STATE_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME")
ENV_PREFIX = "BOUNDREAD_GUARD_"
CLAUDE = "Claude Code's settings (its hooks)"
CODEX = "Codex's hook settings"
GEMINI = "Gemini CLI's settings (its hooks and trusted folders)"
CURSOR = "Cursor's hooks"
COPILOT = "Copilot's hooks"
WINDSURF = "Windsurf's hooks"
QWEN = "Qwen Code's settings (its hooks and trusted folders)"
OPENCODE = "opencode's plugins (the guard's plugin)"
CLAUDE_PLUGINS = "Claude Code's plugins (the boundread plugin's hooks)"
PROJECT = "boundread's project config"
USER = "boundread's user config"
BUDGET = "boundread's state folder (the budget ledger and its seal)"
#: A folder of hook settings, by its name (and its parent's, where the name alone says little).
FOLDERS = {".claude": CLAUDE, ".codex": CODEX, ".gemini": GEMINI, ".cursor": CURSOR, ".copilot": COPILOT,
           ".windsurf": WINDSURF, ".github/hooks": COPILOT, ".github/copilot": COPILOT, ".codeium/windsurf": WINDSURF,
           ".qwen": QWEN, ".opencode/plugin": OPENCODE, "opencode/plugin": OPENCODE, ".opencode": OPENCODE,
           ".claude/plugins": CLAUDE_PLUGINS}
#: What a folder holds that makes removing it a removal of hook settings or a project config (looked for on disk).
HELD = ((".claude/settings.json", CLAUDE), (".claude/settings.local.json", CLAUDE), (".codex", CODEX),
        (".gemini", GEMINI), (".cursor/hooks.json", CURSOR), (".github/hooks", COPILOT), (".github/copilot", COPILOT),
        (".copilot", COPILOT), (".windsurf", WINDSURF), (".qwen", QWEN), (".opencode/plugin", OPENCODE),
        (".claude/plugins", CLAUDE_PLUGINS), (".boundread.toml", PROJECT))
#: What code and a word of unknown value must not name (lower case), besides the protected places.
NAMES = (".claude/settings", ".codex/hooks.json", ".codex/config.toml", ".gemini/settings.json",
         ".gemini/trustedfolders.json", ".cursor/hooks.json", ".github/hooks/", ".github/copilot/settings",
         ".copilot/hooks/", ".copilot/config.json", ".windsurf/hooks.json", "windsurf/hooks.json", ".boundread.toml",
         ".qwen/settings.json", ".qwen/trustedfolders.json", "opencode/plugin/", ".claude/plugins/",
         "tool.boundread", "disableallhooks", "hooksconfig")
#: What the cheap first test looks for, besides NAMES and the places' names.
TRIGGERS = (".claude", ".codex", ".gemini", ".cursor", ".copilot", ".windsurf", ".codeium", ".github", ".qwen",
            "opencode", "settings.json",
            "settings.local.json", "hooks.json", "config.toml", "config.json", "trustedfolders", "pyproject",
            "boundread", "xdg_", "claude_config_dir", "codex_home")
#: Names a ``find`` may delete or change a hook settings file or project config through (tried on its patterns).
_SAMPLES = ("settings.json", "settings.local.json", "hooks.json", "config.toml", "trustedFolders.json", "config.json",
            ".boundread.toml", "pyproject.toml", "boundread.json", "boundread", "budget.sqlite3", "budget.sqlite3-wal",
            "budget.limits.json", ".boundread-budget.limits.json", "budget.postgres.limits.json", ".claude", ".codex",
            ".gemini", ".cursor", ".github", ".copilot", ".windsurf", ".codeium", ".config", ".local", "state", "hooks",
            ".qwen", ".opencode", "opencode", "plugin", "plugins", "boundread.js", "installed_plugins.json")


class Ground(Protected):
    """The guard's own ground for one call. ``text``: what the call says (its command, its tool input's texts): a
    ``pyproject.toml`` it writes is protected when the text names a ``[tool.boundread]`` table, or the file has one.
    ``configs``: the guard config files read for this call (the user's, an explicit ``--config``, the project's)."""

    __slots__ = ("_pyprojects", "_users", "homes", "mentions")
    own = "the guard's own ground (the agents' hook settings, boundread's config and state)"
    action = ACTION
    budget = False
    strict = False
    env_why = ("would change the environment boundread's hooks run with (a nested agent would read other hook"
               " settings, guard settings or state)")

    def __init__(self, text: str = "", configs: tuple[str, ...] = ()) -> None:
        from boundread.budget.enforce import _state_dir

        state = _state_dir()
        super().__init__(state, os.path.join(state, "budget.sqlite3"))
        self.url_env = False  # printing the environment is the budget's concern (its ledger's password)
        extra = [os.path.normpath(os.path.abspath(path)) for path in configs
                 if path and os.path.basename(path) != "pyproject.toml"]
        self._places += [path for path in extra if path not in self._places]
        users = [self._places[1], *(path for path in extra if os.path.basename(path) != ".boundread.toml")]
        self._users = frozenset({*users, *(os.path.realpath(path) for path in users)})
        names, loose = places_words(self._places)
        self.homes = {os.path.normpath(os.path.abspath(folder.strip())): label
                      for var, label in (("CLAUDE_CONFIG_DIR", CLAUDE), ("CODEX_HOME", CODEX))
                      for folder in os.environ.get(var, "").split(",") if folder.strip()}
        self.names = tuple(sorted({*self.names, *NAMES, *(n.lower() for n in names if len(n) >= 4)}))
        self.triggers = tuple(sorted({*self.triggers, *self.names, *TRIGGERS,
                                      *(n.lower() for n in loose if len(n) >= 4)}))
        low = text.lower()
        self.mentions = "tool.boundread" in low or ("[tool]" in low and "boundread" in low)
        self._pyprojects: dict[str, bool] = {}

    def guards_env(self, name: str) -> bool:
        return name in ENV or name.startswith(ENV_PREFIX)

    def place(self, path: str, deep: bool = False) -> tuple[str, str, bool] | None:
        hit = super().place(path, deep)
        if hit is not None:  # a folder above the state or config folder is judged as a hook folder is: removing it
            return hit[0], hit[1], hit[0] != "inside"  # is refused, a copy into it or `find ~ -name '*.pyc'` is not
        label = self.file_label(path)
        if label:
            return "inside", label, True
        name, parent = os.path.basename(path).lower(), os.path.basename(os.path.dirname(path)).lower()
        label = FOLDERS.get(name) or FOLDERS.get(f"{parent}/{name}") or self.homes.get(path, "")
        if label:
            return "folder", label, True
        if deep:
            for held, label in HELD:
                if os.path.lexists(os.path.join(path, held)):
                    return "ancestor", label, True
        return None

    def file_label(self, path: str) -> str:
        """What ``path`` is, when it is a hook settings file or a project config, else ''."""
        name = os.path.basename(path).lower()
        folder = os.path.dirname(path)
        parent, grand = os.path.basename(folder).lower(), os.path.basename(os.path.dirname(folder)).lower()
        json = name.endswith(".json")
        home = self.homes.get(folder)
        if (parent == ".claude" or home == CLAUDE) and name.startswith("settings") and json:
            return CLAUDE
        if (parent == ".codex" or home == CODEX) and name in ("hooks.json", "config.toml"):
            return CODEX
        if parent in (".gemini", "gemini-cli") and name in ("settings.json", "trustedfolders.json"):
            return GEMINI
        if parent == ".cursor" and name == "hooks.json":
            return CURSOR
        if json and ((parent == "hooks" and grand in (".github", ".copilot")) or (parent == ".copilot" and name ==
                     "config.json") or (parent == "copilot" and grand == ".github" and name.startswith("settings"))):
            return COPILOT
        if name == "hooks.json" and (parent == ".windsurf" or (parent == "windsurf" and grand == ".codeium")):
            return WINDSURF
        if parent == ".qwen" and name in ("settings.json", "trustedfolders.json"):
            return QWEN
        if parent == "plugin" and grand in (".opencode", "opencode"):
            return OPENCODE
        if _under_claude_plugins(folder, self.homes):
            return CLAUDE_PLUGINS
        if name == ".boundread.toml" or (name == "pyproject.toml" and self.guarded_pyproject(path)):
            return PROJECT
        return ""

    def guarded_pyproject(self, path: str) -> bool:
        """Whether a ``pyproject.toml`` is boundread's config: it has a ``[tool.boundread]`` table now, or the call
        names one (``echo '[tool.boundread.guard]' >> pyproject.toml``)."""
        if self.mentions:
            return True
        if path not in self._pyprojects:
            self._pyprojects[path] = has_table(read_text(path))
        return self._pyprojects[path]

    def label(self, root: str) -> str:
        if root in self._users:
            return USER  # the user config's folder (Protected's second place), a --config file
        return PROJECT if os.path.basename(root) == ".boundread.toml" else BUDGET

    def found_by(self, patterns: list[str] | None) -> bool:
        """Whether a ``find`` with these ``-name``/``-path`` patterns may reach a hook settings file, a project
        config, boundread's state or config, or a folder that holds one (``find . -name '*.pyc' -delete`` may not;
        ``-name '*.json'`` may)."""
        if patterns is None:
            return True
        from boundread.guard.shell.pattern import fnmatch

        samples = [*_SAMPLES, *(os.path.basename(place) for place in self._places)]
        for pattern in patterns:
            low = pattern.lower()
            if "/" in low or any(fnmatch(sample.lower(), low) for sample in samples):
                return True
        return False

    def run_in(self, label: str) -> str:
        return "boundread's state folder" if label == BUDGET else "boundread's config folder" if label == USER \
            else f"a folder of {label}"


def _under_claude_plugins(folder: str, homes: dict[str, str]) -> bool:
    """Whether ``folder`` is in Claude Code's plugins folder (``~/.claude/plugins``, ``$CLAUDE_CONFIG_DIR/plugins``):
    the installed plugins' list and their cached hooks."""
    low = folder.lower() + os.sep
    if f"{os.sep}.claude{os.sep}plugins{os.sep}" in low:
        return True
    return any(low.startswith(os.path.join(home, "plugins").lower() + os.sep) for home, label in homes.items()
               if label == CLAUDE)


def read_text(path: str, limit: int = 1024 * 1024) -> str:
    """A file's first ``limit`` bytes as text ('' when it cannot be read)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(limit).decode("utf-8", "replace")
    except (OSError, ValueError):
        return ""


def has_table(text: str) -> bool:
    """Whether TOML ``text`` holds a ``[tool.boundread]`` table (text that does not parse: whether it names one)."""
    return table(text) is not None


def table(text: str) -> object:
    """The ``[tool.boundread]`` table of TOML ``text`` (None when there is none); text that does not parse but names
    boundread gives its boundread lines, so that two broken texts compare by what they say about it."""
    if "boundread" not in text:
        return None
    from boundread import tomlread

    try:
        data = tomlread.loads(text)
    except (tomlread.TOMLError, RecursionError):
        return tuple(line.strip() for line in text.splitlines() if "boundread" in line)
    tool = data.get("tool")
    return tool.get("boundread") if isinstance(tool, dict) else None
