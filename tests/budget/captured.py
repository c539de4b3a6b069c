"""The captured Codex and Gemini CLI logs in fixtures/ (see fixtures/README.md), copied where a test may change them."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED: dict[str, dict[str, Any]] = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))


@dataclass
class Case:
    name: str
    dir: Path  # the copy
    payloads: list[dict[str, Any]]  # the hooks' stdin as captured, pointing into the copy
    expected: dict[str, Any]

    def files(self) -> list[Path]:
        """Every log of the case."""
        return sorted(p for p in self.dir.rglob("*.jsonl") if p.name != "payloads.jsonl")

    @property
    def main(self) -> Path:
        """The main agent's log: the rollout named by the session, or Gemini's ``session-*.jsonl``."""
        sid = str(self.expected["session"])
        return next(p for p in self.files() if sid in p.name or p.name.startswith("session-"))

    def events(self, name: str) -> list[dict[str, Any]]:
        return [p for p in self.payloads if p.get("hook_event_name") == name]

    @property
    def tokens(self) -> int:
        """What the server billed for the whole case."""
        each = self.expected["ledger_each"]
        return int(self.expected["requests"]) * sum(int(v) for v in each.values())


def case(name: str, tmp_path: Path) -> Case:
    """A fresh copy of fixtures/<name> under ``tmp_path``, and its payloads with ``{dir}`` filled in."""
    target = tmp_path / name
    shutil.copytree(FIXTURES / name, target)
    text = (target / "payloads.jsonl").read_text(encoding="utf-8").replace("{dir}", str(target))
    payloads = [json.loads(line) for line in text.splitlines() if line.strip()]
    return Case(name, target, payloads, EXPECTED[name])


def lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)
