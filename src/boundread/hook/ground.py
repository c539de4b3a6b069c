"""The guard protects its own ground: what guard-check refuses in any guarded session, budget or not.

The model
---------
The user sets the guard up (``boundread init``, a user config, the hook's environment); the agent it watches runs
as the same OS user and could switch it off with one Write. So a PreToolUse call is refused when it would change:

- the agents' hook settings: Claude Code's ``.claude/settings.json`` and ``settings.local.json`` (in a project,
  in ``~/.claude`` or ``CLAUDE_CONFIG_DIR``), ``disableAllHooks`` included; Codex's ``hooks.json`` and
  ``config.toml`` (``.codex/``, ``CODEX_HOME``); Gemini CLI's ``settings.json`` and ``trustedFolders.json``
  (``.gemini/``, ``/etc/gemini-cli``); Cursor's, Copilot's, Windsurf's and Qwen Code's hook files, opencode's
  plugin folder, Claude Code's plugins folder and ``claude plugin disable|uninstall`` of boundread's plugin;
  ``boundread init`` (it writes them; ``--dry-run`` and ``--help`` stay allowed);
- boundread's config: the user config folder (``$XDG_CONFIG_HOME/boundread``), a ``--config`` file, a project's
  ``.boundread.toml``, and the ``[tool.boundread]`` table of a ``pyproject.toml`` (a Write or Edit that leaves
  that table as it was stays allowed: a project's dependencies are everyday work; a shell command that writes a
  ``pyproject.toml`` holding one is refused, as what it writes is not known);
- boundread's state folder (the budget ledger, its sidecar) and the seal beside it;
- the environment the hooks run with: a command may not set, export or unset ``BOUNDREAD_STATE_DIR``,
  ``BOUNDREAD_GUARD_*``, ``XDG_STATE_HOME``, ``XDG_CONFIG_HOME``, ``CLAUDE_CONFIG_DIR`` or ``CODEX_HOME`` (a nested
  agent would read other hook settings, guard settings or state), nor clear it (``env -i``) while one is set.

Through every client's own tools: a file tool (Claude Code's Write/Edit/MultiEdit/NotebookEdit, Gemini's
write_file/replace, Copilot's create/edit, Cursor's, Cline's and Windsurf's edits, an MCP write or move) by the
paths it is given, as named and as the disk resolves them (a link into ``.claude/``); Codex's ``apply_patch`` by
the files its patch adds, updates, deletes or moves to; a shell command (Bash, Codex's shell, Gemini's
run_shell_command, PowerShell...) by the budget's self-cap judge (budget/selfcmd.py) over the wider set
(hook/groundset.py): redirections, ``rm``/``mv``/``cp``/``ln``/``tee``/``sed -i``/``dd``, code an interpreter
runs that names one of the files, an archive unpacked into a hook folder, a folder removed that holds one.
Reading them stays allowed. Each refusal names what was refused and says the user must do it from their own
terminal.

What cannot be prevented is what the budget's model says (budget/selfcap.py): a path built at run time, a program
the judge does not model, a script written with one tool and run by a program found on ``PATH``. Project config
loosening is closed apart from this check: a project file may only tighten the guard (guard/config.py).

Cost: a call whose text names no trigger word (``.claude``, ``settings.json``, ``boundread``, the state folder...)
and runs no program that may change files passes a substring test (``suspect``); a redirection or a ``tee`` to a
file named as it is (``| tee -a run.log``) passes it too, once the disk says the name is no link into the ground.
Only a suspect call builds the set and, for a command, parses the shell. Standard library only.
"""

# os.path on purpose, not pathlib: this runs on the hook path (guard-check), where pathlib costs start-up.
# ruff: noqa: PTH109, PTH111, PTH118, PTH119, PTH120
from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

    from boundread.agents.dialect import Call
    from boundread.guard.config import GuardConfig
    from boundread.guard.decide import Decision
    from boundread.hook.groundset import Ground

RULE = "own-ground"
#: Tools that change no file (a read, a search, a fetch, a sub-agent's prompt): never looked at here.
_READS = frozenset({"read", "read_file", "read_many_files", "glob", "grep", "ls", "list_directory",
                    "search_file_content", "view", "notebookread", "webfetch", "web_fetch", "websearch",
                    "google_web_search", "todowrite", "task", "agent", "exitplanmode", "save_memory"})
#: The keys a file tool names its file (or a move's two files) by.
_PATH_KEYS = ("file_path", "path", "absolute_path", "notebook_path", "target_file", "filename", "source",
              "destination", "target", "old_path", "new_path")
_COMMAND_KEYS = ("command", "command_line", "cmd")
_PATCH_HEADS = ("*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: ")
#: The trigger words of the cheap test, besides the state and config folders' own words (lower case).
_TRIGGERS = (".claude", ".codex", ".gemini", ".cursor", ".copilot", ".windsurf", ".codeium", ".github",
             "settings.json", "settings.local.json", "hooks.json", "config.toml", "config.json", "trustedfolders",
             "pyproject", "boundread", "xdg_", "claude_config_dir", "codex_home", "limits.json", "budget.sqlite",
             "disableallhooks", "*** begin patch")


class _Words:
    """What ``selfwords.suspect`` asks of a set, without building it (no disk, no imports)."""

    __slots__ = ("triggers", "url_env")

    def __init__(self) -> None:
        from boundread.budget.enforce import _state_dir
        from boundread.budget.selfwords import places_words
        from boundread.guard.config import user_file

        names, loose = places_words([os.path.normpath(_state_dir()), os.path.dirname(user_file())])
        self.triggers = tuple({*_TRIGGERS, *(word.lower() for word in names | loose if len(word) >= 4)})
        self.url_env = False


def check(call: Call, cfg: GuardConfig) -> Decision | None:
    """The refusal of a call that would change the guard's own ground, or None (most calls: after a substring
    test). Reads (the agent's own read tool, the read tools agents/dialect.py knows) are never refused here."""
    from boundread.agents.dialect import COMMAND, READ

    if call.action == READ or call.tool.lower() in _READS:
        return None
    texts = [call.command] if call.action == COMMAND else _texts(call.tool_input)  # not a Bash call's description
    if not any(texts):
        return None
    from boundread.budget.selfwords import suspect

    words = _Words()
    if call.action == COMMAND:  # a program that may change files, a script run by its path: the judge looks
        picked = any(suspect(text, words, call.cwd or os.getcwd()) for text in texts)
    else:  # a file tool: what its texts name, and where its path leads
        lows = [text.lower() for text in texts]
        picked = any(word in low for low in lows for word in words.triggers) or _named_by_link(call, words)
    if not picked:
        return None
    why = _judge(call, texts, cfg)
    if why is None:
        return None
    from boundread.guard.decide import DENY, Decision

    return Decision(DENY, why, rule=RULE)


def _texts(tool_input: Mapping[str, Any]) -> list[str]:
    """The strings a tool is given (a MultiEdit's edits included), where a path or a command may be."""
    found = []
    for value in tool_input.values():
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, (list, tuple)):
            found += [v for v in value if isinstance(v, str)]
            found += [t for v in value if isinstance(v, dict) for t in v.values() if isinstance(t, str)]
    return found


def _named_by_link(call: Call, words: _Words) -> bool:
    """Whether a file tool's path resolves, through a link, into a place the trigger words would have named."""
    for key in _PATH_KEYS:
        value = call.tool_input.get(key)
        if isinstance(value, str) and value:
            absolute = _absolute(value, call.cwd)
            real = os.path.realpath(absolute)
            if real != absolute and any(word in real.lower() for word in words.triggers):
                return True
    return False


def _absolute(path: str, cwd: str) -> str:
    return os.path.normpath(os.path.join(cwd or os.getcwd(), os.path.expanduser(path)))


def _judge(call: Call, texts: list[str], cfg: GuardConfig) -> str | None:
    from boundread.agents.dialect import COMMAND
    from boundread.hook.groundset import Ground

    ground = Ground("\n".join(texts), tuple(source for source in cfg.sources if os.sep in source))
    patch = next((text for text in texts if "*** Begin Patch" in text), None)
    if patch is not None:
        refused = _patch(call, patch, ground)
        if refused or call.action != COMMAND:
            return refused
    if call.action == COMMAND:
        from boundread.budget.selfcmd import judge

        return judge(call.command, call.cwd or None, ground) or _hooks_off(call.command, ground)
    return _file_tool(call, ground)


#: `claude plugin ...` verbs that switch the boundread plugin (its hooks) off or remove it.
_PLUGIN_OFF = ("disable", "uninstall", "remove", "rm", "marketplace remove", "marketplace rm")


def _hooks_off(command: str, ground: Ground) -> str | None:
    """A command that hands Claude Code ``disableAllHooks: true`` some other way than a file the judge sees
    (``claude --settings '{"disableAllHooks": true}'``, ``claude config set disableAllHooks true``), or that
    disables or removes the boundread plugin (``claude plugin disable boundread@boundread``)."""
    low = " ".join(command.lower().replace('"', " ").replace("'", " ").split())
    at = low.find("disableallhooks")
    if at >= 0 and "true" in low[at:at + 40]:
        return ground.reason(command, "would turn the agents' hooks off (disableAllHooks), the guard's with them")
    at = low.find("claude plugin ")
    if at >= 0 and "boundread" in low[at:] and low[at + len("claude plugin "):].startswith(_PLUGIN_OFF):
        return ground.reason(command, "would switch the boundread plugin off (its hooks are the guard)")
    return None


def _file_tool(call: Call, ground: Ground) -> str | None:
    """A Write, Edit or other file tool whose path (or a move's other path) is on the ground; a pyproject.toml
    only when the tool changes its ``[tool.boundread]`` table."""
    for key in _PATH_KEYS:
        value = call.tool_input.get(key)
        if not isinstance(value, str) or not value:
            continue
        why = _changes(_absolute(value, call.cwd), ground, lambda path: _pyproject(call, path, ground))
        if why:
            return ground.reason(f"{call.tool} on {value}", f"would change {why}")
    command = next((v for k in _COMMAND_KEYS if isinstance(v := call.tool_input.get(k), str) and v), None)
    if command is not None and "*** Begin Patch" not in command:  # a tool unknown here that runs a command
        from boundread.budget.selfcmd import judge

        return judge(command, call.cwd or None, ground)
    return None


def _changes(absolute: str, ground: Ground, pyproject: Callable[[str], str]) -> str:
    """What a tool that writes ``absolute`` (as named, and as the disk resolves it) would change on the ground
    ('' when nothing); ``pyproject`` answers for a ``pyproject.toml``."""
    for path in dict.fromkeys([absolute, os.path.realpath(absolute)]):
        if os.path.basename(path).lower() == "pyproject.toml":
            why = pyproject(path)
        else:
            hit = ground.place(path)
            why = "" if hit is None or hit[0] != "inside" else hit[1]
        if why:
            return why
    return ""


def _pyproject(call: Call, path: str, ground: Ground) -> str:
    """What a file tool would change in ``path``: boundread's project config when the ``[tool.boundread]``
    table it leaves differs from the one there (or cannot be told), else ''."""
    from boundread.hook.groundset import PROJECT, read_text, table

    old = read_text(path)
    new = _new_text(call.tool, call.tool_input, old)
    if new is None:
        return PROJECT if table(old) is not None or ground.mentions else ""
    return PROJECT if table(new) != table(old) else ""


def _new_text(tool: str, tool_input: Mapping[str, Any], old: str) -> str | None:
    """The file's text after a Write or an Edit (Claude, Gemini, Copilot shapes), or None when not known."""
    for key in ("content", "file_text", "new_source"):
        value = tool_input.get(key)
        if isinstance(value, str) and tool.lower() != "notebookedit":
            return value
    edits = tool_input.get("edits")
    steps = edits if isinstance(edits, list) else [tool_input]
    text = old
    for step in steps:
        if not isinstance(step, dict):
            return None
        before = step.get("old_string", step.get("old_str"))
        after = step.get("new_string", step.get("new_str"))
        if not isinstance(before, str) or not isinstance(after, str) or (before and before not in text):
            return None
        text = text.replace(before, after) if step.get("replace_all") or not before else \
            text.replace(before, after, 1)
    return text if steps else None


def _patch(call: Call, patch: str, ground: Ground) -> str | None:
    """Codex's apply_patch (as its own tool, or run by a shell): each file it adds, updates, deletes or moves
    to, judged as a file tool's path is."""
    head = None
    hunks: dict[str, list[str]] = {}
    for line in patch.splitlines():
        found = next((h for h in _PATCH_HEADS if line.startswith(h)), None)
        if found is not None:
            head = line[len(found):].strip()
            hunks.setdefault(head, [])
        elif head is not None and not line.startswith("*** "):
            hunks[head].append(line)
    for name, lines in hunks.items():
        why = _changes(_absolute(name, call.cwd), ground,
                       lambda path: _patched_pyproject(path, lines, ground))  # noqa: B023 - called at once
        if why:
            return ground.reason(f"{call.tool} on {name}", f"would change {why}")
    return None


def _patched_pyproject(path: str, lines: list[str], ground: Ground) -> str:
    """A patch's hunk on a pyproject.toml: boundread's project config when the text it leaves has another
    ``[tool.boundread]`` table (a hunk whose lines are not found is taken as changing it, if there is one)."""
    from boundread.hook.groundset import PROJECT, read_text, table

    old = read_text(path)
    text = old
    for hunk in _hunks(lines):
        before = "\n".join(line[1:] for line in hunk if line[:1] in (" ", "-"))
        after = "\n".join(line[1:] for line in hunk if line[:1] in (" ", "+"))
        if before and before not in text:
            return PROJECT if table(old) is not None or ground.mentions else ""
        text = text.replace(before, after, 1) if before else text + after
    return PROJECT if table(text) != table(old) else ""


def _hunks(lines: list[str]) -> list[list[str]]:
    found: list[list[str]] = [[]]
    for line in lines:
        if line.startswith("@@"):
            found.append([])
        elif line[:1] in (" ", "-", "+"):
            found[-1].append(line)
    return [hunk for hunk in found if hunk]
