"""``boundread init``: register the guard-check hook and install the skill text for one agent.

Where each agent keeps its hooks, on which events and for which tools, is its own module's ``target``
(boundread/agents/<agent>.py); this module is what they share: the command lines, the settings merge, the skill
text, the writer. Settings JSON is merged (nothing else lost or reordered), written atomically, and only when it
changes, so running init twice adds nothing. With ``budget`` (the clients whose logs ``budget ingest`` reads: an
agent module with ``INGEST_EVENTS``) the ingest command is registered after every tool call, on each new prompt
and when the agent stops, and the pre-tool guard sees every tool (Copilot's matcher is a regex: its own). The
program in front of the commands is ``boundread`` when the PATH finds this installation, else its absolute path
(:mod:`boundread.agents.locate`); running init again updates it. ``uninstall`` removes only handlers whose
command is ``boundread guard-check`` or ``boundread budget ingest``, with or without a path in front (both, with
or without ``budget``: uninstalling leaves nothing of ours).
A settings file that is not valid JSON is reported and left untouched. A written file keeps the
mode of the file it replaces (a new one gets 0644); a symlinked settings file stays a symlink.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any

from boundread import agents
from boundread.agents import locate
from boundread.agents.base import Change as Change  # install.Change: where the trust modules and tests name it
from boundread.agents.base import Hook, Target
from boundread.errors import Corrupt, UsageError

MARK = "boundread guard-check"
INGEST = "boundread budget ingest"
#: The pre-tool matcher with ``budget``: every tool, so that a cap also stops an Agent/Task spawn, Write,
#: WebFetch and MCP calls, ``--deny-tool`` applies to any tool, and ``--max-calls`` counts them all. The guard
#: decides the tools it knows and allows the others (the budget check is then the only work). Claude Code and
#: Codex read "*" as every tool, Gemini CLI "*" (or "") too.
BUDGET_MATCHER = "*"
#: What earlier inits wrote as the pre-tool matcher: an init replaces these with each agent's PRE_MATCHER (they
#: were not widened by the user, and they leave the file tools, and so the guard's own ground, unguarded).
OLD_PRE_MATCHERS = frozenset({"Read|Bash", "Bash", "read_file|run_shell_command"})
INGEST_TIMEOUT = 60  # seconds: a first ingest of a long log reads it all, and a timed-out ingest blocks nothing
BEGIN, END = "<!-- boundread:begin -->", "<!-- boundread:end -->"
AGENTS = agents.INSTALLABLE
NEW_FILE_MODE = 0o644

def target(agent: str, root: Path, home: Path, user: bool, program: str = locate.NAME, *,
           budget: bool = False) -> Target:
    """Where ``agent`` keeps its hooks and instructions, for a project (root) or the user (home): its own
    module's ``target`` (boundread/agents/<agent>.py).

    ``program`` starts boundread in the hook commands: the bare name or this installation's script.
    ``budget``: the pre-tool guard-check for every tool, not only the file and shell tools.
    """
    if agent not in AGENTS:
        raise UsageError(f"unknown agent {agent!r}", f"use one of: {', '.join(AGENTS)}")
    return agents.module(agent).target(root, home, user, program, budget)


def command(agent: str, program: str) -> str:
    """The guard-check command line in ``agent``'s hook: with ``--mode redirect`` where its pre-tool answer can
    rewrite the call (verified with the real clients, tests/e2e/test_redirect.py; ``mode`` in a config file still
    wins), and ``--agent`` unless the payload is Claude Code's."""
    mode = " --mode redirect" if agents.module(agent).REDIRECT else ""
    return f"{program} guard-check{mode}" + ("" if agent == "claude" else f" --agent {agent}")


def pre_matcher(agent: str, budget: bool) -> str:
    """The pre-tool matcher: every tool with ``budget``, else the agent's read, shell, file-writing and MCP tools."""
    return BUDGET_MATCHER if budget else agents.module(agent).PRE_MATCHER


def ingest_hooks(events: tuple[str, ...], handler: Callable[[], dict[str, Any]], *, flat: bool = False
                 ) -> tuple[Hook, ...]:
    """``budget ingest`` (``handler()``, one per event) on an agent's INGEST_EVENTS: after every tool call (the
    first event, matcher "*"), on a new prompt, when the agent (or a sub-agent) stops, when the session ends.
    ``flat``: handlers without groups (Copilot's; with no matcher one runs for every tool).

    Stop can fire before the last assistant message is in Claude Code's transcript; SessionEnd gives ingest a
    later look (Claude Code gives SessionEnd hooks about 1.5 s, enough for an ingest, which reads only the new
    bytes).
    """
    if flat:
        return tuple((event, handler()) for event in events)
    return tuple((event, {"matcher": BUDGET_MATCHER, "hooks": [handler()]} if event == events[0] else
                  {"hooks": [handler()]}) for event in events)


def ingest_handler(program: str) -> dict[str, Any]:
    """The usual ``budget ingest`` handler (Claude Code's and Codex's shape)."""
    return {"type": "command", "command": f"{program} budget ingest", "timeout": INGEST_TIMEOUT}


def agent_name(agent: str) -> str:
    """How the agent calls itself, for messages."""
    return agents.label(agent)


def strings(entry: object) -> list[str]:
    """Every string inside a hook entry (its commands, wherever the agent keeps them)."""
    if isinstance(entry, str):
        return [entry]
    if isinstance(entry, dict):
        return [text for value in entry.values() for text in strings(value)]
    if isinstance(entry, list):
        return [text for value in entry for text in strings(value)]
    return []


def _kind(entry: object) -> str:
    return "budget ingest" if ours(entry, "budget ingest") else "guard-check"


def ours(entry: object, what: str | None = None) -> bool:
    """True when ``entry`` runs boundread's guard-check or budget ingest (``what``: only that one)."""
    return any(locate.ours(text, what) for text in strings(entry))


def _canonical(entry: Any) -> Any:
    """``entry`` with the program of our commands spelled bare: equal for the same handler from two installs."""
    if isinstance(entry, str):
        return locate.canonical(entry)
    if isinstance(entry, dict):
        return {key: _canonical(value) for key, value in entry.items()}
    if isinstance(entry, list):
        return [_canonical(value) for value in entry]
    return entry


def load(path: Path) -> tuple[str | None, dict[str, Any]]:
    """The text of a settings file (None: missing) and its JSON object; Corrupt when it is not one."""
    if not path.exists():
        return None, {}
    text = path.read_text(encoding="utf-8")
    if not text.strip():
        return text, {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Corrupt(f"{path} is not valid JSON (line {exc.lineno}: {exc.msg}); left untouched",
                      "fix it by hand, then run boundread init again") from None
    if not isinstance(data, dict):
        raise Corrupt(f"{path} is not a JSON object; left untouched", "fix it by hand, then run init again")
    return text, data


def json_indent(text: str | None) -> int:
    match = re.search(r"^( +)\S", text or "", re.MULTILINE)
    return len(match.group(1)) if match else 2


def _merge_settings(spec: Target, wanted: tuple[Hook, ...], uninstall: bool) -> Change:
    before, data = load(spec.settings)
    if uninstall and before is None:
        return Change(spec.settings, None, None)
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        raise Corrupt(f"{spec.settings}: \"hooks\" is not an object; left untouched", "fix it by hand")
    touched = False
    for event in dict.fromkeys(event for event, _ in wanted):
        entries = hooks.get(event, [])
        if not isinstance(entries, list):
            raise Corrupt(f"{spec.settings}: hooks.{event} is not a list; left untouched", "fix it by hand")
        if uninstall:
            kept = [entry for entry in (_strip(entry) for entry in entries) if entry is not None]
        else:
            kept = list(entries)
            for hook_event, entry in wanted:
                if hook_event == event:
                    _add(kept, entry)
        if kept == entries:
            continue
        touched = True
        if kept:
            hooks[event] = kept
        else:
            hooks.pop(event, None)
    if not touched:
        return Change(spec.settings, before, before)
    if not uninstall:
        data = {**spec.header, **data, "hooks": hooks} if not data else {**data, "hooks": hooks}
    elif hooks:
        data["hooks"] = hooks
    else:
        data.pop("hooks", None)
        if spec.settings.name == "boundread.json" and set(data) <= set(spec.header):
            return Change(spec.settings, before, None)  # our own file (Copilot): remove it
    return Change(spec.settings, before, json.dumps(data, indent=json_indent(before), ensure_ascii=False) + "\n")


def _add(entries: list[Any], entry: dict[str, Any]) -> None:
    """Add ``entry`` unless one of ours is there; our own earlier entry gets this init's program.

    An earlier entry that differs only in its matcher keeps that matcher (the user may have widened it), unless
    ``entry`` asks for every tool (``init --budget``) or the old one is what an earlier init wrote
    (OLD_PRE_MATCHERS): a plain init after ``--budget`` narrows nothing.
    """
    key = _unmatched(_unmoded(_canonical(entry)))
    same = [index for index, old in enumerate(entries) if _unmatched(_unmoded(_canonical(old))) == key]
    if same:
        old = entries[same[0]]
        if isinstance(old, dict) and "matcher" in entry and entry["matcher"] != BUDGET_MATCHER and \
                old.get("matcher") not in OLD_PRE_MATCHERS:
            entry = {**_unmatched(entry), **({"matcher": old["matcher"]} if "matcher" in old else {})}
        entries[same[0]] = entry
    elif not any(ours(old, _kind(entry)) for old in entries):
        entries.append(entry)


def _unmatched(entry: Any) -> Any:
    """``entry`` without its matcher: the same handler whatever tools it is registered for."""
    return {key: value for key, value in entry.items() if key != "matcher"} if isinstance(entry, dict) else entry


def _unmoded(entry: Any) -> Any:
    """``entry`` without the ``--mode`` of our guard-check: an init from before redirect mode (or after a
    user's own ``--mode deny``) is the same handler, updated in place."""
    if isinstance(entry, str):
        return re.sub(r"(\bguard-check) --mode (?:deny|redirect)\b", r"\1", entry)
    if isinstance(entry, dict):
        return {key: _unmoded(value) for key, value in entry.items()}
    if isinstance(entry, list):
        return [_unmoded(value) for value in entry]
    return entry


def _strip(entry: Any) -> Any:
    """``entry`` without our handlers; None when nothing of it is left (or it was all ours)."""
    if isinstance(entry, dict) and isinstance(entry.get("hooks"), list):
        handlers = [hook for hook in entry["hooks"] if not ours(hook)]
        if len(handlers) == len(entry["hooks"]):
            return entry
        return {**entry, "hooks": handlers} if handlers else None
    return None if ours(entry) else entry


def _text(name: str) -> str:
    return (files("boundread") / "data" / name).read_text(encoding="utf-8")


def skill_change(spec: Target, uninstall: bool) -> Change | None:
    if spec.skill is None:
        return None
    before = spec.skill.read_text(encoding="utf-8") if spec.skill.exists() else None
    if not spec.section:
        if uninstall:
            ours = before is not None and re.search(r"^name:\s*boundread\s*$", before, re.MULTILINE)
            return Change(spec.skill, before, None if ours else before)
        return Change(spec.skill, before, _text("SKILL.md"))
    block = f"{BEGIN}\n{_text('AGENTS-section.md').strip()}\n{END}\n"
    current = before or ""
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END) + r"\n?", re.DOTALL)
    if uninstall:
        after = pattern.sub("", current).rstrip("\n")
        return Change(spec.skill, before, (after + "\n") if after.strip() else None)
    if pattern.search(current):
        return Change(spec.skill, before, pattern.sub(lambda _: block, current, count=1))
    joiner = "" if not current else ("\n" if current.endswith("\n") else "\n\n")
    return Change(spec.skill, before, current + joiner + ("\n" if current else "") + block)


def plan(agent: str = "claude", root: Path | None = None, *, user: bool = False, uninstall: bool = False,
         home: Path | None = None, budget: bool = False, program: locate.Program | None = None) -> list[Change]:
    """Every file change ``init`` would make (nothing is written).

    ``budget`` also registers ``boundread budget ingest`` (Claude Code, Codex, Gemini CLI, Copilot); ``uninstall``
    removes the ingest registration whether or not ``budget`` is given. ``program`` (default:
    :func:`locate.program`) starts boundread in the commands.
    """
    budgeted = agents.budgeted()
    if budget and agent not in budgeted:
        raise UsageError(f"--budget works with --agent {', '.join(budgeted)}: `budget ingest` reads their"
                         f" logs, not {agent_name(agent)}'s",
                         "drop --budget and record usage by hand with `boundread budget add --session S --model M"
                         " --input N --output N`")
    command = (program or locate.program()).command
    spec = target(agent, (root or Path.cwd()).absolute(), home or Path.home(), user, command, budget=budget)
    wanted = spec.hooks + (spec.ingest if budget or uninstall else ())
    changes = [plugin_change(spec, uninstall) if is_plugin(spec) else _merge_settings(spec, wanted, uninstall)]
    skill = skill_change(spec, uninstall)
    if skill is not None:
        changes.append(skill)
    return changes


def is_plugin(spec: Target) -> bool:
    """Is ``spec``'s hook a plugin file of ours (opencode's), not a registration in JSON settings?"""
    return spec.settings.suffix == ".js"


def plugin_text(spec: Target) -> str:
    """Our plugin for ``spec`` (data/opencode-plugin.js) running its guard-check command."""
    return _text("opencode-plugin.js").replace("__COMMAND__", json.dumps(spec.hooks[0][1]["command"]))


def plugin_command(text: str) -> str | None:
    """The guard-check command our plugin runs (None: not a plugin of ours)."""
    match = re.search(r"^const COMMAND = (\".*\")$", text, re.MULTILINE)
    try:
        command = json.loads(match.group(1)) if match else None
    except json.JSONDecodeError:
        return None
    return command if isinstance(command, str) and locate.ours(command, "guard-check") else None


def plugin_change(spec: Target, uninstall: bool) -> Change:
    """Our plugin file, written whole (init again updates it); removed whole on uninstall. A file of the same name
    that is not ours is left alone."""
    before = spec.settings.read_text(encoding="utf-8") if spec.settings.exists() else None
    mine = before is not None and plugin_command(before) is not None
    if uninstall:
        return Change(spec.settings, before, None if mine else before)
    if before is not None and not mine:
        raise UsageError(f"{spec.settings} is not boundread's plugin; left untouched",
                         "rename or remove it, then run init again")
    return Change(spec.settings, before, plugin_text(spec))


def codex_trust_change(hooks: Change, *, user: bool = False, home: Path | None = None) -> Change:
    """The change to the user's Codex config.toml that trusts the boundread hooks of ``hooks`` (the planned
    .codex/hooks.json), and the project folder unless ``user`` (the user's own hooks have none)."""
    return agents.truster_of("codex").trust_change(hooks.path.parent.parent, home or Path.home(), user, hooks)


def apply(changes: list[Change]) -> None:
    """Write (atomically) or delete each changed file; a written file keeps the old file's mode, else 0644."""
    for change in changes:
        if not change.changed:
            continue
        if change.after is None:
            change.path.unlink(missing_ok=True)
            _prune(change.path.parent)
            continue
        dest = change.path.resolve() if change.path.is_symlink() else change.path  # keep a dotfiles symlink
        dest.parent.mkdir(parents=True, exist_ok=True)
        mode = (dest.stat().st_mode & 0o7777) if dest.exists() else NEW_FILE_MODE
        handle, temp = tempfile.mkstemp(prefix=f".{dest.name}.", dir=dest.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as fh:
                fh.write(change.after)
            Path(temp).chmod(mode)  # mkstemp makes 0600
            Path(temp).replace(dest)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise


def _prune(folder: Path) -> None:
    """Remove the skill folder (or opencode's plugin folder, and its .opencode) we created when it is left empty."""
    if folder.name in ("boundread", "plugin") and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        if folder.parent.name == ".opencode" and not any(folder.parent.iterdir()):
            folder.parent.rmdir()
