"""What ``boundread doctor`` found: per agent its checks and whether it is ready, the guard's settings with the
layer that set each, and the human view of it all (the JSON view is ``Report.as_dict``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boundread.agents.base import Check


@dataclass(frozen=True)
class AgentReport:
    agent: str
    checks: tuple[Check, ...]

    @property
    def ready(self) -> bool:
        return all(check.ok is not False for check in self.checks)

    def as_dict(self) -> dict[str, Any]:
        return {"agent": self.agent, "ready": self.ready, "checks": [check.as_dict() for check in self.checks]}


@dataclass(frozen=True)
class Setting:
    """One guard setting as a hook call sees it: its value as a config file would write it, and ``origin``:
    the file that set it, ``env`` (its ``BOUNDREAD_GUARD_*`` variable) or ``defaults``."""

    key: str
    value: str
    origin: str

    def as_dict(self) -> dict[str, str]:
        return {"key": self.key, "value": self.value, "from": self.origin}


@dataclass(frozen=True)
class Report:
    agents: tuple[AgentReport, ...]
    root: Path
    user: bool
    settings: tuple[Setting, ...] = ()
    notes: tuple[str, ...] = ()  # values a config layer could not set, and why

    @property
    def ready(self) -> bool:
        return bool(self.agents) and all(agent.ready for agent in self.agents)

    def as_dict(self) -> dict[str, Any]:
        return {"agents": [agent.as_dict() for agent in self.agents],
                "settings": [setting.as_dict() for setting in self.settings], "notes": list(self.notes)}


SETTINGS_HEADER = "guard settings (each with the file that set it):"


def lines(report: Report) -> list[str]:
    """The human view: per agent one line per check, then whether it is ready; then the guard's settings."""
    if not report.agents:
        where = "the user's settings" if report.user else str(report.root)
        return [f"no agent settings or boundread hook in {where} - run `boundread init --agent NAME`"
                + ("" if report.user else " (or check the user's settings with `boundread doctor --user`)"),
                *_settings_lines(report)]
    out = []
    for agent in report.agents:
        out.append(f"{agent.agent}:")
        for check in agent.checks:
            mark = {True: "ok", False: "problem", None: "unknown"}[check.ok]
            out.append(f"  {mark:<8} {check.name}: {check.detail}" + (f" - {check.fix}" if check.fix else ""))
        problems = sum(check.ok is False for check in agent.checks)
        out.append(f"  {agent.agent} is ready" if agent.ready else
                   f"  {agent.agent} is not ready: {problems} problem{'s' if problems != 1 else ''}")
    return out + _settings_lines(report)


def _settings_lines(report: Report) -> list[str]:
    if not report.settings:
        return []
    width = max(len(setting.key) for setting in report.settings)
    out = [SETTINGS_HEADER]
    out += [f"  {setting.key:<{width}} = {setting.value}  ({setting.origin})" for setting in report.settings]
    return out + [f"  note: {note}" for note in report.notes]
