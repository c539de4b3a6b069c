"""Copilot CLI's folder trust: which folder it trusts, `init --agent copilot [--trust]`, doctor's check, and trust
as a capability the registry finds (agents.TRUSTED, the Truster Protocol) rather than a list of names in the CLI.

That Copilot really skips the project's hooks in an untrusted folder, and runs them once trusted, is checked
against the real client in tests/e2e/test_copilot.py.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boundread import agents
from boundread.agents import checked, copilot, copilot_trust
from boundread.cli.app import app
from boundread.errors import Corrupt

HEADER = "// User settings belong in settings.json.\n// This file is managed automatically.\n"


@pytest.fixture(autouse=True)
def _no_copilot_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("COPILOT_HOME", "COPILOT_ALLOW_ALL"):
        monkeypatch.delenv(name, raising=False)


def _home(tmp_path: Path) -> Path:
    home = Path(os.environ["HOME"])
    assert home == tmp_path / "home", "tests/conftest.py pins HOME under tmp_path"
    return home


def _config(home: Path, data: dict[str, object] | str) -> Path:
    path = home / ".copilot" / "config.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else HEADER + json.dumps(data, indent=2), encoding="utf-8")
    return path


def _project(tmp_path: Path) -> Path:
    folder = tmp_path / "work" / "proj"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _trusted(path: Path) -> list[str]:
    return json.loads(copilot_trust.strip_comments(path.read_text(encoding="utf-8")))["trustedFolders"]


def test_no_file_is_not_trusted(tmp_path: Path) -> None:
    trust = copilot_trust.check(_project(tmp_path), _home(tmp_path))
    assert trust.trusted is False and "is not in trustedFolders" in trust.detail


@pytest.mark.parametrize(("rule", "trusted"), [
    ("{work}/proj", True),
    ("{work}/proj/", True),  # a trailing slash is the same folder
    ("{work}", True),  # a folder's subfolders are trusted with it
    ("{work}/proj/sub", False),  # a subfolder's trust is not the folder's
    ("{work}/pro", False),  # a name that starts the same is another folder
    ("proj", False),  # a relative entry trusts nothing
])
def test_a_listed_folder_and_what_it_holds_are_trusted(tmp_path: Path, rule: str, trusted: bool) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    _config(home, {"firstLaunchAt": "2026-01-01", "trustedFolders": [rule.format(work=tmp_path / "work")]})
    assert copilot_trust.check(folder, home).trusted is trusted


def test_copilot_home_and_allow_all_decide_as_copilot_reads_them(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    elsewhere = tmp_path / "copilot-home"
    (elsewhere / "config.json").parent.mkdir()
    (elsewhere / "config.json").write_text(json.dumps({"trustedFolders": [str(folder)]}), encoding="utf-8")
    assert copilot_trust.check(folder, home).trusted is False
    monkeypatch.setenv("COPILOT_HOME", str(elsewhere))
    assert copilot_trust.check(folder, home).trusted is True
    monkeypatch.delenv("COPILOT_HOME")
    monkeypatch.setenv("COPILOT_ALLOW_ALL", "1")  # only "true" trusts the folder; "1" approves tools
    assert copilot_trust.check(folder, home).trusted is False
    monkeypatch.setenv("COPILOT_ALLOW_ALL", "true")
    trust = copilot_trust.check(folder, home)
    assert trust.trusted is True and trust.variable == "COPILOT_ALLOW_ALL"


def test_trusting_adds_only_our_entry_and_keeps_the_rest(tmp_path: Path) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    path = _config(home, {"firstLaunchAt": "2026-01-01", "trustedFolders": ["/elsewhere"],
                          "installedPlugins": [{"name": "x"}], "staff": False})
    change = copilot_trust.change(folder)
    assert change.path == path and change.changed and change.after is not None
    assert change.after.startswith(HEADER), "Copilot's header stays on top"
    after = json.loads(copilot_trust.strip_comments(change.after))
    assert after == {"firstLaunchAt": "2026-01-01", "trustedFolders": ["/elsewhere", str(folder.resolve())],
                     "installedPlugins": [{"name": "x"}], "staff": False}
    copilot_trust.trust_apply(change)
    assert copilot_trust.check(folder, home).trusted is True
    assert not copilot_trust.change(folder).changed, "trusted already: nothing to add"


def test_a_new_file_is_the_users_only_and_an_old_one_keeps_its_mode(tmp_path: Path) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    copilot_trust.trust_apply(copilot_trust.change(folder))
    path = home / ".copilot" / "config.json"
    assert path.stat().st_mode & 0o777 == 0o600, "Copilot keeps credentials in it"
    assert path.read_text(encoding="utf-8").startswith(HEADER) and _trusted(path) == [str(folder.resolve())]
    other = _project(tmp_path).parent / "other"
    other.mkdir()
    path.chmod(0o640)
    copilot_trust.trust_apply(copilot_trust.change(other))
    assert path.stat().st_mode & 0o777 == 0o640 and len(_trusted(path)) == 2


@pytest.mark.parametrize("text", ["{oops", '{"trustedFolders": "/x"}', '["/x"]', '{"trustedFolders": [1]}'])
def test_a_config_boundread_cannot_merge_is_left_untouched(tmp_path: Path, text: str) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    path = _config(home, text)
    with pytest.raises(Corrupt):
        copilot_trust.change(folder)
    done = CliRunner().invoke(app, ["init", "--dir", str(folder), "--agent", "copilot", "--trust"])
    assert done.exit_code == 6 and isinstance(done.exception, SystemExit), done.output  # no traceback
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"boundread: error: {path}") and " - fix it by hand" in line
    assert path.read_text(encoding="utf-8") == text
    assert not (folder / ".github").exists(), "nothing written: the hooks neither"
    assert copilot_trust.check(folder, home).trusted is False


def test_cli_init_says_copilot_skips_the_hooks_until_the_folder_is_trusted(tmp_path: Path) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    runner = CliRunner()
    done = runner.invoke(app, ["init", "--dir", str(folder), "--agent", "copilot"])
    assert done.exit_code == 0, done.output
    assert f"copilot: {copilot_trust.hint(folder)}" in done.stdout
    assert not (home / ".copilot" / "config.json").exists(), "trust only when asked"
    doctor = runner.invoke(app, ["doctor", "--dir", str(folder), "--agent", "copilot", "--json"])
    assert doctor.exit_code == 2, doctor.output
    (report,) = json.loads(doctor.stdout)["agents"]
    (trusted,) = [check for check in report["checks"] if check["name"] == "trusted"]
    assert trusted["ok"] is False and "init --agent copilot --trust" in trusted["fix"]

    done = runner.invoke(app, ["init", "--dir", str(folder), "--agent", "copilot", "--trust"])
    assert done.exit_code == 0, done.output
    assert f"wrote: {home / '.copilot' / 'config.json'}" in done.stdout and "copilot:" not in done.stdout
    again = runner.invoke(app, ["init", "--dir", str(folder), "--agent", "copilot"])
    assert "copilot:" not in again.stdout, "a trusted folder needs no advice"
    doctor = runner.invoke(app, ["doctor", "--dir", str(folder), "--agent", "copilot", "--json"])
    (report,) = json.loads(doctor.stdout)["agents"]
    assert {check["name"]: check["ok"] for check in report["checks"]}["trusted"] is True


def test_the_users_own_hooks_need_no_trust(tmp_path: Path) -> None:
    home = _home(tmp_path)
    settings = home / ".copilot" / "hooks" / "boundread.json"
    (check,) = copilot.checks(settings, _project(tmp_path), home)
    assert check.ok is True
    done = CliRunner().invoke(app, ["init", "--agent", "copilot", "--user"])
    assert done.exit_code == 0 and "copilot:" not in done.stdout, done.output


@pytest.mark.parametrize(("args", "message"), [
    (["--agent", "copilot", "--user", "--trust"], "--trust trusts a folder, and --user names none (Copilot CLI"),
    (["--agent", "copilot", "--uninstall", "--trust"], "--trust is for"),
    (["--agent", "cursor", "--trust"],
     "--trust is for `init --agent codex` and `init --agent gemini` and `init --agent copilot`"),
])
def test_cli_trust_where_it_means_nothing_is_a_usage_error(tmp_path: Path, args: list[str], message: str) -> None:
    done = CliRunner().invoke(app, ["init", "--dir", str(_project(tmp_path)), *args])
    assert done.exit_code == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"boundread: error: {message}") and " - " in line
    assert not (_home(tmp_path) / ".copilot").exists()


def test_the_trust_modules_are_the_registry() -> None:
    """Each client that has trust has its ``<name>_trust.py`` (the Truster Protocol, checked by mypy through
    agents/checked.py); init asks the registry, so a client with trust plugs in by its module and one line."""
    assert [module.__name__ for module in checked.TRUSTERS] == \
        [f"boundread.agents.{name}_trust" for name in agents.TRUSTED]
    assert [agents.truster_of(name) for name in agents.TRUSTED] == list(checked.TRUSTERS)
    assert set(agents.TRUSTED) <= set(agents.INSTALLABLE)
