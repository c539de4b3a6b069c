"""``boundread doctor``: is the guard set up so that the agent really runs it?

Per agent, one check per line: the settings file, the hook on each event ``init`` registers, the
command in it (found on this PATH - the agent inherits the PATH of the shell that starts it -, runs,
same version as this boundread), the skill or AGENTS.md section, for Claude Code, Codex, Gemini CLI and
Copilot CLI the budget ingest hooks (all of them when any is there, or when the ledger has limits for this
project: a cap that never sees what is spent never trips), and the agent's own checks (its module's ``checks``:
whether Codex trusts the hooks, whether Gemini CLI trusts the folder - it runs no settings hook in one it does
not). Nothing here raises
for a broken settings file: that is a problem to report, with its fix.

Then the guard's settings as a hook call in the project would see them, each with the layer that set it (the
defaults, the user config, the project config, a ``BOUNDREAD_GUARD_*`` variable: guard/config.py), and the
notes of the values a layer could not set (a project file may only tighten the guard unless the user's own
config says ``project_may_loosen``).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boundread import agents
from boundread.agents import claudeplugin, doctor_mcp, doctor_probe, install, locate
from boundread.agents.base import Check, Target
from boundread.agents.doctor_program import Scope as Scope  # doctor.Scope: where opencode_doctor and tests name it
from boundread.agents.doctor_program import program_checks
from boundread.agents.doctor_report import AgentReport, Report, Setting
from boundread.agents.doctor_report import lines as lines  # doctor.lines: the CLI's human view
from boundread.errors import BoundreadError, UsageError


def codex_trust_hint(settings: Path) -> str:
    """How to make Codex run the hooks registered in ``settings`` (``<project>/.codex/hooks.json``)."""
    from boundread.agents import codex_trust

    return codex_trust.hint(settings.parent.parent)


def diagnose(agents: Sequence[str] | None = None, root: Path | None = None, *, user: bool = False,
             home: Path | None = None, path: str | None = None) -> Report:
    """Check ``agents`` (None or "all": every agent set up here), for the project ``root`` or the user."""
    program = locate.program(lambda name: shutil.which(name, path=path))
    scope = Scope((root or Path.cwd()).absolute(), home or Path.home(), user, program.command, path)
    wanted = list(dict.fromkeys(agents or ["all"]))
    for name in wanted:
        if name != "all" and name not in install.AGENTS:
            raise UsageError(f"unknown agent {name!r}", f"use all or one of: {', '.join(install.AGENTS)}")
    names = detect(scope) if "all" in wanted else wanted
    settings, notes = guard_settings(scope.root)
    return Report(tuple(AgentReport(name, tuple(check_agent(name, scope))) for name in names), scope.root, user,
                  settings, notes)


def guard_settings(root: Path) -> tuple[tuple[Setting, ...], tuple[str, ...]]:
    """The guard's settings for a hook call in ``root``, each with the layer that set it, and the config notes."""
    from boundread.guard import config

    loaded = config.load(root)
    return tuple(Setting(key, _shown(key, getattr(loaded, key)), config.origin(loaded, key))
                 for key in config.KEYS), loaded.notes


def _shown(key: str, value: object) -> str:
    """A setting's value as a config file would write it (sizes in their units, lists as lists)."""
    from boundread.guard.config import SIZE_KEYS, shown_size

    if key in SIZE_KEYS and isinstance(value, int):
        return repr(shown_size(value).replace(",", "").replace(" ", ""))
    if isinstance(value, (tuple, frozenset)):
        return "[" + ", ".join(repr(item) for item in (sorted(value) if isinstance(value, frozenset) else value)) + "]"
    return repr(value) if isinstance(value, str) else str(value)


def detect(scope: Scope) -> list[str]:
    """The agents with a settings file, or a boundread skill/section in a file of their own, in this scope.

    A file that several agents share (a project's AGENTS.md: Codex, Cursor, Copilot) tells nothing about which
    of them is set up: after `init --agent codex`, Cursor and Copilot are not."""
    specs = {agent: install.target(agent, scope.root, scope.home, scope.user) for agent in install.AGENTS}
    skills = [spec.skill for spec in specs.values() if spec.skill is not None]
    found = []
    for agent, spec in specs.items():
        own = spec.skill is not None and skills.count(spec.skill) == 1
        plugin = agent == "claude" and not scope.user and claudeplugin.find(scope.root, scope.home) is not None
        if spec.settings.exists() or (own and _skill_present(spec)) or plugin:
            found.append(agent)
    return found


def check_agent(agent: str, scope: Scope) -> list[Check]:
    spec = install.target(agent, scope.root, scope.home, scope.user)
    if agent == "claude" and not scope.user and (plugin := claudeplugin.find(scope.root, scope.home)) is not None:
        return _with_plugin(spec, scope, plugin)
    if install.is_plugin(spec):  # opencode: our plugin file, which its module checks
        checks = agents.module(agent).checks(spec.settings, scope.root, scope.home)
        return checks + ([_skill(agent, spec, scope)] if spec.skill is not None else [])
    checks, data = _settings(agent, spec, scope)
    if data is not None:
        hooks = data.get("hooks")
        hooks = hooks if isinstance(hooks, dict) else {}
        events = agents.module(agent).INGEST_EVENTS
        budget = any(_entries(hooks, event, "budget ingest") for event in events)
        wanted = install.target(agent, scope.root, scope.home, scope.user, budget=True).hooks if budget else spec.hooks
        checks += [_guard_hook(agent, event, entry, hooks, scope, budget) for event, entry in wanted]
        checks += _commands(agent, hooks, scope)
        checks += doctor_probe.check(agent, hooks, spec.hooks[0][0], scope.root, scope.path) if spec.hooks else []
        if events:
            checks.append(_ingest(agent, hooks, scope))
    if spec.skill is not None:
        checks.append(_skill(agent, spec, scope))
    if data is not None:
        checks += agents.module(agent).checks(spec.settings, scope.root, scope.home)
    checks += doctor_mcp.checks(agent, scope.root, scope.home, scope.user, scope.path)  # the server init --mcp added
    return checks


def _with_plugin(spec: Target, scope: Scope, plugin: claudeplugin.Plugin) -> list[Check]:
    """Claude Code with the boundread plugin (agents/claudeplugin.py): the plugin's own checks and a run of its
    guard hook, the settings layers that switch hooks off, and a problem where init registered the guard too -
    Claude Code then runs every guard-check twice (and a budget counts each call twice)."""
    checks = claudeplugin.checks(plugin, scope.path)
    data = claudeplugin.hooks_of(plugin)
    if plugin.enabled and data:
        checks += doctor_probe.check("claude", data, spec.hooks[0][0], scope.root, scope.path)
    try:
        _text, settings = install.load(spec.settings)
    except (BoundreadError, OSError, UnicodeDecodeError):
        settings = {}
    hooks = settings.get("hooks") if isinstance(settings, dict) else None
    if isinstance(hooks, dict) and any(install.ours(entry, "guard-check") for entries in hooks.values()
                                       if isinstance(entries, list) for entry in entries):
        checks.append(Check("one registration", False, f"both the plugin and {spec.settings} run guard-check: "
                            "Claude Code runs each, so every call is checked (and counted by a budget) twice",
                            f"keep one: {scope.init('claude', '--uninstall')} (keeps the plugin), or "
                            f"`claude plugin uninstall {plugin.id}`"))
    return checks + agents.module("claude").checks(spec.settings, scope.root, scope.home)


def _settings(agent: str, spec: Target, scope: Scope) -> tuple[list[Check], dict[str, Any] | None]:
    try:
        text, data = install.load(spec.settings)
    except BoundreadError as exc:
        return [Check("settings", False, exc.what, exc.fix)], None
    except (OSError, UnicodeDecodeError) as exc:
        return [Check("settings", False, f"cannot read {spec.settings}: {exc}", "check its permissions")], None
    if text is None:
        return [Check("settings", False, f"no {spec.settings}", f"run {scope.init(agent)}")], None
    hooks = data.get("hooks", {})
    if not isinstance(hooks, dict):
        return [Check("settings", False, f'{spec.settings}: "hooks" is not an object', "fix it by hand")], None
    checks = [Check("settings", True, f"found {spec.settings}")]
    if agent != "claude" and data.get("disableAllHooks") is True:  # Claude Code's every layer: claude_settings
        checks.append(Check("hooks enabled", False, f'"disableAllHooks": true in {spec.settings}: no hook runs',
                            "remove it (or set it to false)"))
    return checks, data


def _entries(hooks: dict[str, Any], event: str, what: str) -> list[Any]:
    entries = hooks.get(event)
    return [entry for entry in entries if install.ours(entry, what)] if isinstance(entries, list) else []


def _names(matcher: str) -> list[str]:
    return [name for name in re.split(r"[|,]", matcher) if name]


#: Clients that read a matcher as a regular expression only: Copilot CLI's "*" matches no tool (".*" every one).
REGEX_MATCHERS = frozenset({"copilot"})


def _covers(matcher: object, tool: str, agent: str = "") -> bool:
    """Whether a hook matcher selects ``tool``: empty or "*" is all (but where the client reads a regex only), a
    plain list is exact names, else a regex."""
    if matcher in (None, ""):
        return True
    if matcher == "*":
        return agent not in REGEX_MATCHERS
    if not isinstance(matcher, str):
        return False
    if re.fullmatch(r"[\w ,|-]+", matcher):
        return tool in (name.strip() for name in re.split(r"[|,]", matcher))
    try:
        return re.search(matcher, tool) is not None
    except re.error:
        return False


def _guard_hook(agent: str, event: str, wanted: dict[str, Any], hooks: dict[str, Any], scope: Scope,
                budget: bool = False) -> Check:
    """``budget``: the budget is on (ingest registered), so the PreToolUse guard must see every tool."""
    tools = _names(str(wanted.get("matcher", "")))
    shown_tools = "every tool" if tools == [install.BUDGET_MATCHER] else ", ".join(tools)
    name = f"guard hook on {event}" + (f" ({shown_tools})" if tools else "")
    found = _entries(hooks, event, "guard-check")
    if not found:
        return Check(name, False, f"boundread guard-check is not registered on {event}", f"run {scope.init(agent)}")
    for entry in found:
        missing = [tool for tool in tools if not _covers(entry.get("matcher"), tool, agent)]
        if not missing:
            return Check(name, True, f"{event} runs `{_command(entry)}`")
    shown = found[0].get("matcher")
    if budget and tools == [install.BUDGET_MATCHER]:
        return Check(name, False, f"registered on {event} for {shown!r} only: a budget cap, --deny-tool and "
                     "--max-calls do not see the other tools (Agent, Write, WebFetch, MCP)",
                     f'run {scope.init(agent, "--budget")} (matcher "*")')
    return Check(name, False, f"registered on {event}, but its matcher {shown!r} leaves out {', '.join(missing)}",
                 f"put {'|'.join(tools)} in the matcher, or run {scope.init(agent, '--uninstall')} then "
                 f"{scope.init(agent)}")


def _command(entry: Any) -> str:
    """The command line of our handler in ``entry`` (a group of handlers or one flat handler)."""
    group = entry.get("hooks") if isinstance(entry, dict) else None
    for handler in group if isinstance(group, list) else [entry]:
        if isinstance(handler, dict):
            for key in ("command", "bash"):
                value = handler.get(key)
                if isinstance(value, str) and locate.ours(value):
                    return value
    return ""


def _commands(agent: str, hooks: dict[str, Any], scope: Scope) -> list[Check]:
    """Found, runs, same version: once for each distinct program in our hook commands."""
    programs: dict[tuple[str, ...], str] = {}
    for event, entries in hooks.items():
        for entry in entries if isinstance(entries, list) else ():
            line = _command(entry) if install.ours(entry) else ""
            words = locate.argv(line) if line else None
            if words:
                programs.setdefault(tuple(words), f"{line} (on {event})")
    checks: list[Check] = []
    for program, example in programs.items():
        checks += program_checks(agent, list(program), example, scope)
    return checks


def _ingest(agent: str, hooks: dict[str, Any], scope: Scope) -> Check:
    """``budget ingest`` on every event ``init --budget`` registers for ``agent``; optional unless the ledger has
    limits for this project (or all): then a missing ingest leaves the token and USD caps blind."""
    events = agents.module(agent).INGEST_EVENTS
    fix = f"run {scope.init(agent, '--budget')}"
    there = [event for event in events if _entries(hooks, event, "budget ingest")]
    if not there:
        limited = [] if scope.user else _limits_here(scope.root)
        if limited:
            return Check("budget ingest", False, f"not registered, yet the ledger has limits for {limited[0]}: "
                         f"{agents.label(agent)}'s spend never reaches them, so a token or USD cap never "
                         "trips", fix)
        return Check("budget ingest", True, f"not registered (optional: `{scope.init(agent, '--budget')[1:-1]}` "
                                            "records what sessions spend)")
    missing = [event for event in events if event not in there]
    if missing:
        return Check("budget ingest", False, f"on {', '.join(there)} but not on {', '.join(missing)}", fix)
    return Check("budget ingest", True, f"on {', '.join(there)}")


def _limits_here(root: Path) -> list[str]:
    """The ledger's limited scopes that cover a session in ``root`` (this project, all sessions); [] when there is
    no ledger or it cannot be read (doctor creates none)."""
    from boundread.budget.ledger import ledger_path, ledger_url, open_ledger

    try:
        if not (ledger_url() or ledger_path().exists()):
            return []
        with open_ledger() as ledger:
            limited = ledger.all_limits()
    except (BoundreadError, OSError):
        return []
    wanted = {f"project:{os.path.realpath(root)}": f"this project ({root})", "global": "all sessions (--global)"}
    return [label for key, label in wanted.items() if key in limited]


def _skill_present(spec: Target) -> bool:
    assert spec.skill is not None
    try:
        text = spec.skill.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if spec.section:
        return install.BEGIN in text and install.END in text
    return re.search(r"^name:\s*boundread\s*$", text, re.MULTILINE) is not None


def _skill(agent: str, spec: Target, scope: Scope) -> Check:
    assert spec.skill is not None
    name = "AGENTS section" if spec.section else "skill"
    if not _skill_present(spec):
        what = f"no boundread section in {spec.skill}" if spec.section else f"no {spec.skill}"
        return Check(name, False, what, f"run {scope.init(agent)}")
    change = install.skill_change(spec, uninstall=False)
    stale = " (differs from this version's text: init updates it)" if change and change.changed else ""
    return Check(name, True, f"installed in {spec.skill}{stale}")
