"""The real agent CLIs, driven by a scripted model server on 127.0.0.1 (tests/e2e/fakemodel).

The clients are the npm packages pinned in tests/e2e/clients/package.json, installed by ``.ci/run`` into
``$BOUNDREAD_E2E_DIR`` (default ``~/.cache/boundread-e2e``). Every test here is marked ``e2e``:
``pytest -m "not e2e"`` leaves them out. Without the clients they skip, saying how to install them;
under CI (``CI`` set) a missing client is a failure, so CI cannot pass without running them.

Each test gets a throwaway HOME and project folder, and ``boundread`` on PATH from this interpreter's
environment, the way a user's hook finds it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

CLIENTS = Path(os.environ.get("BOUNDREAD_E2E_DIR", Path.home() / ".cache" / "boundread-e2e"))
PINS = json.loads((Path(__file__).parent / "clients" / "package.json").read_text(encoding="utf-8"))["dependencies"]
BIN = Path(sys.executable).parent  # where `boundread` is installed, next to this python
RUN_TIMEOUT = 180


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


def client(name: str, package: str) -> Path:
    """The installed CLI ``name`` of the pinned ``package``, or a skip (a failure under CI) saying how."""
    exe = CLIENTS / "node_modules" / ".bin" / name
    manifest = CLIENTS / "node_modules" / package / "package.json"
    wanted = PINS[package]
    found = json.loads(manifest.read_text(encoding="utf-8")).get("version") if manifest.is_file() else None
    if exe.exists() and found == wanted:
        return exe
    why = (f"{package}@{wanted} is not installed in {CLIENTS} (found {found}): run "
           f"`npm ci --prefix {CLIENTS}` with tests/e2e/clients/package*.json there, as .ci/run does")
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)


@dataclass
class Workspace:
    """A throwaway HOME and project folder, and the environment a client runs with."""

    root: Path
    home: Path = field(init=False)
    project: Path = field(init=False)
    out: Path = field(init=False)
    state: Path = field(init=False)

    def __post_init__(self) -> None:
        self.home = self.root / "home"
        self.project = self.root / "project"
        self.out = self.root / "out"
        self.state = self.root / "state"
        for folder in (self.home, self.project):
            folder.mkdir(parents=True)

    def env(self, **extra: str) -> dict[str, str]:
        path = os.pathsep.join([str(BIN), "/usr/local/bin", "/usr/bin", "/bin"])
        env = {
            "PATH": path, "HOME": str(self.home), "LANG": "C.UTF-8", "TERM": "dumb", "NO_COLOR": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1",
            "BOUNDREAD_OUT_DIR": str(self.out), "BOUNDREAD_STATE_DIR": str(self.state),
            "XDG_CONFIG_HOME": str(self.home / ".config"), "XDG_STATE_HOME": str(self.home / ".local" / "state"),
        }
        env.update(extra)
        return env

    def deny_mode(self) -> None:
        """Plain refusals, as before redirect mode (what ``init`` writes now): tests/e2e/test_redirect.py
        covers the rewrite, these tests the deny and its reason."""
        (self.project / ".boundread.toml").write_text('[guard]\nmode = "deny"\n', encoding="utf-8")

    def boundread(self, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        """Run the installed ``boundread`` in the project, with this workspace's environment; no ``stdin``:
        an empty one (never pytest's own, which a command that reads stdin would wait on)."""
        return subprocess.run([str(BIN / "boundread"), *args], cwd=self.project, env=self.env(), input=stdin or "",
                              capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False)

    def run(self, argv: list[str], **extra: str) -> subprocess.CompletedProcess[str]:
        """Run a client in the project folder, no terminal, with a hard time limit."""
        return subprocess.run(argv, cwd=self.project, env=self.env(**extra), stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=RUN_TIMEOUT, check=False)


@pytest.fixture
def workspace(tmp_path: Path) -> Workspace:
    return Workspace(tmp_path)
