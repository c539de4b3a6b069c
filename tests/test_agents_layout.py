"""One room per agent (issue 20): the clients live in boundread/agents/, and the guard's decision knows none.

The decision core judges a path or a command; which client sent it, and how its answer is worded, is the agents'
business. The client modules are loaded on guard-check's path (the one of the agent that sent the payload), so
they import nothing at module level that the hook cannot afford.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from boundread import agents
from boundread.agents import checked
from tests.test_imports import HEAVY, import_graph

#: The guard's decision: a path or a command in, a Decision out, whatever the client.
DECISION_CORE = ("decide", "shell", "bounds", "reason", "facts", "config", "tools", "estimate")
#: What guard-check cannot afford to import at start-up (tests/hook/test_speed.py's SLOW).
SLOW = ("dataclasses", "typing", "pathlib", "zipfile", "json", "re", "argparse", "contextlib", "inspect", "shlex",
        "enum")
SRC = Path(agents.__file__).parent


def _in_core(module: str) -> bool:
    parts = module.split(".")
    return parts[:2] == ["boundread", "guard"] and len(parts) > 2 and parts[2] in DECISION_CORE


def test_the_decision_core_imports_no_agent() -> None:
    graph = import_graph()
    assert any(_in_core(module) for module in graph)  # the names above are real modules
    leaks = sorted(f"{module} -> {target}" for module, targets in graph.items() if _in_core(module)
                   for target in targets if target.startswith("boundread.agents"))
    assert leaks == []


def test_the_checked_list_is_the_registry() -> None:
    """agents/checked.py holds every installable client, so mypy checks each against the Agent Protocol."""
    assert [client.NAME for client in checked.AGENTS] == list(agents.INSTALLABLE)
    assert {agents.module(name).__name__ for name in agents.INSTALLABLE} == {c.__name__ for c in checked.AGENTS}


def test_the_checked_loggers_are_the_registry() -> None:
    """agents/checked.py holds every client whose log ``budget ingest`` reads, in the order sessionfiles asks them,
    so mypy checks each log module against the Logger Protocol; Claude Code's is last, the default."""
    assert [log.__name__ for log in checked.LOGGERS] == [f"boundread.agents.{name}log" for name in agents.LOGGERS]
    assert [agents.logger_of(name) for name in agents.LOGGERS] == list(checked.LOGGERS)
    assert agents.LOGGERS[-1] == "claude"


def test_every_module_in_the_room_is_a_client_s_or_shared() -> None:
    """A module is a registered client, a helper they share, or one client's own (its name first: codex_trust.py,
    codexlog.py): a client module nobody iterates over would be a room nobody visits."""
    clients = set(agents.MODULES.values())
    shared = {"__init__", "base", "checked", "install", "doctor", "locate", "rulefiles", "sessionfiles", "stopanswer"}
    for path in SRC.glob("*.py"):
        owner = next((name for name in sorted(clients | shared, key=len, reverse=True)
                      if path.stem == name or path.stem.startswith(name)), None)
        assert owner is not None, f"{path.name}: not a registered client's (agents.MODULES), nor shared"


def _loaded(module: str) -> set[str]:
    probe = f"import sys\nbefore = set(sys.modules)\nimport {module}\nprint('\\n'.join(set(sys.modules) - before))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    return {line.split(".")[0] for line in out.stdout.splitlines()} | set(out.stdout.split())


def test_the_client_modules_load_nothing_slow() -> None:
    """Importing a client module (what guard-check does for the agent that sent the payload) loads no slow
    standard module and no third-party library; the setup helpers may, but nothing heavy either."""
    for name in sorted(set(agents.MODULES.values())):
        loaded = _loaded(f"boundread.agents.{name}")
        assert not loaded & {*SLOW, *HEAVY, "typer", "rich", "click"}, (name, sorted(loaded & {*SLOW, *HEAVY}))
    for name in sorted({path.stem for path in SRC.glob("*.py")} - set(agents.MODULES.values()) - {"__init__"}):
        loaded = _loaded(f"boundread.agents.{name}")
        assert not loaded & {*HEAVY, "typer", "rich", "click"}, (name, sorted(loaded & set(HEAVY)))
