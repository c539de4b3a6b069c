"""What every bench section needs: the console script, the inputs, a scratch folder, the peers, and the
lists that collect each boundread measurement (for the memory rows) and the notes printed under the table."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from measure import Measure, measure


@dataclass(frozen=True)
class Ctx:
    exe: Path
    files: dict[str, Path]
    folder: Path
    work: Path
    repeat: int
    peers: dict[str, str | None]
    env: dict[str, str]
    memory: list[tuple[str, Measure]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    mapped: list[Measure] = field(default_factory=list)  # rg alone on the file the greps map: the mapping's RSS

    @classmethod
    def create(cls, exe: Path, files: dict[str, Path], folder: Path, repeat: int,
               found: dict[str, str | None]) -> Ctx:
        work = folder / "work"
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        empty = work / "state-none"  # no ledger file: the guard rows measure the guard alone
        empty.mkdir()
        env = {"NO_COLOR": "1", "COLUMNS": "120", "BOUNDREAD_STATE_DIR": str(empty)}
        return cls(exe, files, folder, work, repeat, found, env)

    def peer(self, name: str) -> str | None:
        return self.peers.get(name)

    def run(self, label: str, argv: Sequence[str], *, repeat: int | None = None, stdin: Path | None = None,
            ok: Sequence[int] = (0,), env: dict[str, str] | None = None) -> Measure:
        print(f"bench: {label} ...", end=" ", file=sys.stderr, flush=True)
        m = measure(argv, repeat=repeat or self.repeat, stdin=stdin, cwd=self.work, env={**self.env, **(env or {})},
                    ok_codes=ok)
        print(f"{m.best:.3f} s, {m.peak_mb:.0f} MB" if m.ok else m.error, file=sys.stderr, flush=True)
        return m

    def br(self, label: str, *args: object, repeat: int | None = None, stdin: Path | None = None,
           ok: Sequence[int] = (0,), env: dict[str, str] | None = None, record: bool = True) -> Measure:
        """A boundread command through the installed console script; its peak RSS gets a memory row."""
        m = self.run(f"boundread {label}", [str(self.exe), *map(str, args)], repeat=repeat, stdin=stdin, ok=ok,
                     env=env)
        if record:
            self.memory.append((label, m))
        return m

    def has_command(self, name: str) -> bool:
        done = subprocess.run([str(self.exe), name, "--help"], capture_output=True, env={**os.environ, **self.env},
                              check=False)
        return done.returncode == 0

    def payload(self, name: str, tool_input: dict[str, object], tool: str = "Read") -> Path:
        """A Claude Code PreToolUse payload for the Read tool (or ``tool``)."""
        path = self.work / name
        path.write_text(json.dumps({"session_id": "bench-guard", "transcript_path": str(self.work / "t.jsonl"),
                                    "cwd": str(self.work), "hook_event_name": "PreToolUse", "tool_name": tool,
                                    "tool_input": tool_input}), encoding="utf-8")
        return path

    def fresh_state(self, name: str) -> Path:
        path = self.work / name
        shutil.rmtree(path, ignore_errors=True)
        path.mkdir(parents=True)
        return path

    def status(self, session: str, env: dict[str, str]) -> str:
        """What ``budget status --json`` says a session spent, in one line for the notes."""
        done = subprocess.run([str(self.exe), "budget", "status", "--session", session, "--json"],
                              capture_output=True, text=True, env={**os.environ, **self.env, **env}, check=False)
        try:
            spent = json.loads(done.stdout)["scopes"][0]["spent"]
        except (ValueError, KeyError, IndexError, TypeError):
            return " ".join((done.stdout or done.stderr).split())[:200] or f"exit {done.returncode}"
        return ", ".join(f"{k} {v:,}" if isinstance(v, int) else f"{k} {v}" for k, v in spent.items())

    def decision(self, payload: Path, env: dict[str, str] | None = None) -> str:
        """The guard's answer to a payload: Claude's permissionDecision, or allow when it prints nothing."""
        with open(payload, "rb") as stdin:
            done = subprocess.run([str(self.exe), "guard-check"], stdin=stdin, capture_output=True, text=True,
                                  env={**os.environ, **self.env, **(env or {})}, check=False)
        if not done.stdout.strip():
            return f"exit {done.returncode}, no output (allow)"
        try:
            out = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecision"]
        except (ValueError, KeyError, TypeError):
            out = " ".join(done.stdout.split())[:120]
        return f"exit {done.returncode}, {out}"
