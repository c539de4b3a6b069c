"""Gemini CLI's folder trust: which folder it trusts, `init --agent gemini [--trust]`, and doctor's check.

That Gemini really skips the hooks in an untrusted folder, and runs them once trusted, is checked against the
real client in tests/e2e/test_gemini_trust.py.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boundread.agents import gemini_trust
from boundread.cli.app import app
from boundread.errors import Corrupt

VARIABLES = ("GEMINI_CLI_TRUST_WORKSPACE", "GEMINI_RESTRICTED_MODE", "GEMINI_CLI_HOME",
             "GEMINI_CLI_TRUSTED_FOLDERS_PATH", "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "GEMINI_CLI_SYSTEM_DEFAULTS_PATH")


@pytest.fixture(autouse=True)
def _no_gemini_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(gemini_trust, "SYSTEM_SETTINGS", str(tmp_path / "etc-gemini-cli" / "settings.json"))


def _home(tmp_path: Path) -> Path:
    home = Path(os.environ["HOME"])
    assert home == tmp_path / "home", "tests/conftest.py pins HOME under tmp_path"
    return home


def _rules(home: Path, rules: dict[str, str] | str) -> Path:
    path = home / ".gemini" / "trustedFolders.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(rules if isinstance(rules, str) else json.dumps(rules), encoding="utf-8")
    return path


def _project(tmp_path: Path, *parts: str) -> Path:
    folder = tmp_path.joinpath("work", *parts) if parts else tmp_path / "work" / "proj"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_no_file_is_not_trusted(tmp_path: Path) -> None:
    trust = gemini_trust.check(_project(tmp_path), _home(tmp_path))
    assert trust.trusted is False and "is not in" in trust.detail


@pytest.mark.parametrize(("rules", "trusted"), [
    ({"{work}/proj": "TRUST_FOLDER"}, True),
    ({"{work}": "TRUST_FOLDER"}, True),  # a folder's subfolders are trusted with it
    ({"{work}/proj/sub": "TRUST_FOLDER"}, False),  # a subfolder's trust is not the folder's
    ({"{work}/other": "TRUST_PARENT"}, True),  # TRUST_PARENT: the rule's parent folder, and all in it
    ({"{work}/other": "TRUST_FOLDER"}, False),
    ({"{work}": "TRUST_FOLDER", "{work}/proj": "DO_NOT_TRUST"}, False),  # the longest rule wins
    ({"{work}": "DO_NOT_TRUST", "{work}/proj": "TRUST_FOLDER"}, True),
    ({"{work}/pro": "TRUST_FOLDER"}, False),  # a prefix of the name is not a parent folder
])
def test_the_longest_rule_that_holds_the_folder_decides(tmp_path: Path, rules: dict[str, str],
                                                         trusted: bool) -> None:
    work = tmp_path / "work"
    _rules(_home(tmp_path), {key.format(work=work): level for key, level in rules.items()})
    assert gemini_trust.check(_project(tmp_path), _home(tmp_path)).trusted is trusted


def test_a_symlinked_folder_is_trusted_by_its_real_path(tmp_path: Path) -> None:
    real = _project(tmp_path)
    link = tmp_path / "link"
    link.symlink_to(real)
    _rules(_home(tmp_path), {str(real): "TRUST_FOLDER"})
    assert gemini_trust.check(link, _home(tmp_path)).trusted is True


def test_the_environment_comes_first(tmp_path: Path) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    _rules(home, {str(folder): "TRUST_FOLDER"})
    off = gemini_trust.check(folder, home, {"GEMINI_CLI_TRUST_WORKSPACE": "false"})
    assert off.trusted is False and off.variable == "GEMINI_CLI_TRUST_WORKSPACE"
    assert gemini_trust.check(folder, home, {"GEMINI_RESTRICTED_MODE": "true"}).trusted is False
    (home / ".gemini" / "trustedFolders.json").unlink()
    assert gemini_trust.check(folder, home, {"GEMINI_CLI_TRUST_WORKSPACE": "true"}).trusted is True
    assert gemini_trust.check(folder, home, {}).trusted is False


def test_folder_trust_turned_off_in_the_users_settings_trusts_every_folder(tmp_path: Path) -> None:
    home = _home(tmp_path)
    settings = home / ".gemini" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"security": {"folderTrust": {"enabled": False}}}), encoding="utf-8")
    assert gemini_trust.check(_project(tmp_path), home).trusted is True
    settings.write_text(json.dumps({"security": {"folderTrust": {"enabled": True}}}), encoding="utf-8")
    assert gemini_trust.check(_project(tmp_path), home).trusted is False


def _trust_setting(file: Path, enabled: bool | None) -> None:
    file.parent.mkdir(parents=True, exist_ok=True)
    body = {"security": {"folderTrust": {}}} if enabled is None else {"security": {"folderTrust": {"enabled": enabled}}}
    file.write_text(json.dumps(body), encoding="utf-8")


@pytest.mark.parametrize(("defaults", "user", "system", "trusted"), [
    (False, None, None, True),  # the system defaults turn it off
    (False, True, None, False),  # the user's settings win over the defaults
    (None, False, True, False),  # the system's win over the user's: it stays on
    (True, None, False, True),
    (None, False, None, True),
])
@pytest.mark.parametrize("by_variable", [False, True])
def test_folder_trust_setting_merged_as_gemini_merges_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         defaults: bool | None, user: bool | None,
                                                         system: bool | None, trusted: bool, by_variable: bool) -> None:
    home = _home(tmp_path)
    if by_variable:  # GEMINI_CLI_SYSTEM_SETTINGS_PATH, its defaults beside it
        chosen = tmp_path / "chosen" / "system.json"
        monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(chosen))
    else:
        chosen = Path(gemini_trust.SYSTEM_SETTINGS)
    _trust_setting(chosen.parent / "system-defaults.json", defaults)
    _trust_setting(home / ".gemini" / "settings.json", user)
    _trust_setting(chosen, system)
    assert gemini_trust.check(_project(tmp_path), home).trusted is trusted


def test_the_system_defaults_file_may_be_elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    defaults = tmp_path / "defaults.json"
    _trust_setting(defaults, False)
    assert gemini_trust.check(_project(tmp_path), _home(tmp_path)).trusted is False
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_DEFAULTS_PATH", str(defaults))
    assert gemini_trust.check(_project(tmp_path), _home(tmp_path)).trusted is True


def test_the_files_gemini_looks_for(tmp_path: Path) -> None:
    folder = _project(tmp_path)
    other = tmp_path / "elsewhere.json"
    other.write_text(json.dumps({str(folder): "TRUST_FOLDER"}), encoding="utf-8")
    home = _home(tmp_path)
    assert gemini_trust.check(folder, home, {"GEMINI_CLI_TRUSTED_FOLDERS_PATH": str(other)}).trusted is True
    alt = tmp_path / "alt"
    _rules(alt, {str(folder): "TRUST_FOLDER"})
    assert gemini_trust.check(folder, home, {"GEMINI_CLI_HOME": str(alt)}).trusted is True
    assert gemini_trust.check(folder, home, {}).trusted is False


@pytest.mark.parametrize("text", ["[]", '{"/x": "YES"}', "{oops"])
def test_a_file_gemini_would_refuse_is_a_problem(tmp_path: Path, text: str) -> None:
    path = _rules(_home(tmp_path), text)
    trust = gemini_trust.check(_project(tmp_path), _home(tmp_path))
    assert trust.trusted is False and str(path) in trust.detail
    with pytest.raises(Corrupt):
        gemini_trust.trusted_folders(_project(tmp_path), _home(tmp_path))
    assert path.read_text(encoding="utf-8") == text


def test_trusting_adds_only_our_entry_and_is_idempotent(tmp_path: Path) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    mine = {"/z/last": "DO_NOT_TRUST", "/a/first": "TRUST_PARENT"}
    path = _rules(home, json.dumps(mine, indent=4))
    path.chmod(0o640)
    change = gemini_trust.change(folder)
    assert change.changed and change.before == json.dumps(mine, indent=4)
    gemini_trust.apply(change)
    after = json.loads(path.read_text(encoding="utf-8"))
    assert list(after.items()) == [*mine.items(), (str(folder.resolve()), "TRUST_FOLDER")]
    assert path.stat().st_mode & 0o777 == 0o640, "the file keeps its mode"
    assert not [p for p in path.parent.iterdir() if p.name != path.name], "no temporary file left"
    assert gemini_trust.check(folder, home).trusted is True
    assert not gemini_trust.change(folder).changed


def test_trusting_replaces_a_do_not_trust_of_the_folder_and_keeps_a_parents_trust(tmp_path: Path) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    _rules(home, {str(folder): "DO_NOT_TRUST"})
    gemini_trust.apply(gemini_trust.change(folder))
    assert json.loads((home / ".gemini" / "trustedFolders.json").read_text()) == {str(folder): "TRUST_FOLDER"}
    _rules(home, {str(folder.parent): "TRUST_FOLDER"})
    assert not gemini_trust.change(folder).changed, "already trusted by its parent's rule: nothing to add"


def test_a_new_file_is_the_users_only(tmp_path: Path) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    gemini_trust.apply(gemini_trust.change(folder))
    path = home / ".gemini" / "trustedFolders.json"
    assert path.stat().st_mode & 0o777 == 0o600
    assert json.loads(path.read_text()) == {str(folder.resolve()): "TRUST_FOLDER"}


def test_cli_init_says_gemini_ignores_the_hooks_until_the_folder_is_trusted(tmp_path: Path) -> None:
    folder = _project(tmp_path)
    runner = CliRunner()
    done = runner.invoke(app, ["init", "--dir", str(folder), "--agent", "gemini"])
    assert done.exit_code == 0, done.output
    assert f"gemini: {gemini_trust.hint(folder)}" in done.stdout
    assert "does not trust" in done.stdout and "init --agent gemini --trust" in done.stdout
    assert not (_home(tmp_path) / ".gemini" / "trustedFolders.json").exists(), "trust only when asked"
    trusted = runner.invoke(app, ["init", "--dir", str(folder), "--agent", "gemini", "--trust"])
    assert trusted.exit_code == 0, trusted.output
    assert f"wrote: {_home(tmp_path) / '.gemini' / 'trustedFolders.json'}" in trusted.stdout
    assert gemini_trust.check(folder, _home(tmp_path)).trusted is True
    again = runner.invoke(app, ["init", "--dir", str(folder), "--agent", "gemini"])
    assert "gemini:" not in again.stdout, "a trusted folder needs no advice"
    user = runner.invoke(app, ["init", "--agent", "gemini", "--user"])
    assert f"gemini: {gemini_trust.user_hint()}" in user.stdout


def test_cli_init_dry_run_trust_writes_nothing(tmp_path: Path) -> None:
    folder = _project(tmp_path)
    done = CliRunner().invoke(app, ["init", "--dir", str(folder), "--agent", "gemini", "--trust", "--dry-run"])
    assert done.exit_code == 0, done.output
    assert f'"{folder.resolve()}": "TRUST_FOLDER"' in done.stdout
    assert not (_home(tmp_path) / ".gemini").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--agent", "gemini", "--user", "--trust"], "--trust trusts a folder, and --user names none"),
    (["--agent", "cursor", "--trust"], "--trust is for `init --agent codex` and `init --agent gemini`"),
    (["--agent", "gemini", "--uninstall", "--trust"], "--trust is for"),
])
def test_cli_trust_where_it_means_nothing_is_a_usage_error(tmp_path: Path, args: list[str], message: str) -> None:
    done = CliRunner().invoke(app, ["init", "--dir", str(_project(tmp_path)), *args])
    assert done.exit_code == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"boundread: error: {message}") and " - " in line
    assert not (_home(tmp_path) / ".gemini").exists()


def test_cli_trust_refuses_a_broken_trusted_folders_file(tmp_path: Path) -> None:
    path = _rules(_home(tmp_path), "{oops")
    done = CliRunner().invoke(app, ["init", "--dir", str(_project(tmp_path)), "--agent", "gemini", "--trust"])
    assert done.exit_code != 0
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"boundread: error: {path} is not JSON Gemini CLI reads") and line.endswith("fix it by hand")
    assert path.read_text() == "{oops"


@pytest.mark.parametrize(("text", "stripped"), [  # as strip-json-comments in Gemini CLI 0.61's bundle gives them
    ('{"a": "//x", // c\n "b": 1 /* d */}', '{"a": "//x",     \n "b": 1        }'),
    ('"\\\\"//c', '"\\\\"   '),  # an escaped backslash ends the string's escapes: the quote closes it
    ('\\"//x\n"s//"', '\\"   \n"s//"'),  # a quote after one backslash opens no string
    ("/* open", "       "),
    ("// x\r\n{}", "    \r\n{}"),
    ("{} /*\xa0x*/ //\ty", "{}   \xa0      \t "),  # JavaScript's white space stays
])
def test_comments_are_stripped_as_gemini_strips_them(text: str, stripped: str) -> None:
    assert gemini_trust.strip_comments(text) == stripped


def _trust_init(folder: Path) -> Any:
    return CliRunner().invoke(app, ["init", "--dir", str(folder), "--agent", "gemini", "--trust"])


@pytest.mark.parametrize("raw", [b'\xff\xfe{\x00}\x00', b"[" * 100_000, b'{"/x": "YES"}'])
def test_init_trust_on_a_file_gemini_refuses_writes_nothing_at_all(tmp_path: Path, raw: bytes) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    path = _rules(home, "")
    path.write_bytes(raw)
    done = _trust_init(folder)
    assert done.exit_code == 6 and isinstance(done.exception, SystemExit), done.output  # no traceback
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"boundread: error: {path}") and line.endswith(" - fix it by hand")
    assert "wrote:" not in done.stdout and not (folder / ".gemini").exists() and not (folder / "GEMINI.md").exists()
    assert path.read_bytes() == raw
    trust = gemini_trust.check(folder, home)
    assert trust.trusted is False and str(path) in trust.detail and "refuses to start" in trust.detail
    plain = CliRunner().invoke(app, ["init", "--dir", str(folder), "--agent", "gemini"])
    assert plain.exit_code == 0 and f"gemini: {gemini_trust.hint(folder)}" in plain.stdout, plain.output
    doctor = CliRunner().invoke(app, ["doctor", "--dir", str(folder), "--agent", "gemini", "--json"])
    assert doctor.exit_code == 2 and isinstance(doctor.exception, SystemExit), doctor.output
    (agent,) = json.loads(doctor.stdout)["agents"]
    assert {check["name"]: check["ok"] for check in agent["checks"]}["trusted"] is False


def test_init_trust_replaces_every_spelling_of_the_folder(tmp_path: Path) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    link = tmp_path / "link"
    link.symlink_to(folder)
    other = str(tmp_path / "other")
    path = _rules(home, {f"{folder}/": "DO_NOT_TRUST", other: "TRUST_FOLDER", str(link): "DO_NOT_TRUST"})
    assert gemini_trust.check(folder, home).trusted is False
    done = _trust_init(folder)
    assert done.exit_code == 0, done.output
    after = json.loads(path.read_text(encoding="utf-8"))
    assert after == {str(folder.resolve()): "TRUST_FOLDER", other: "TRUST_FOLDER"}
    assert gemini_trust.check(folder, home).trusted is True


@pytest.mark.parametrize(("rules", "trusted"), [
    ({"{proj}/": "TRUST_FOLDER", "{proj}": "DO_NOT_TRUST"}, False),  # one key to Gemini: the later level counts
    ({"{proj}": "DO_NOT_TRUST", "{proj}/.": "TRUST_FOLDER"}, True),
])
def test_two_spellings_of_one_folder_are_one_rule_the_later_counts(tmp_path: Path, rules: dict[str, str],
                                                                   trusted: bool) -> None:
    folder = _project(tmp_path)
    _rules(_home(tmp_path), {key.format(proj=folder): level for key, level in rules.items()})
    assert gemini_trust.check(folder, _home(tmp_path)).trusted is trusted


def test_a_commented_file_is_read_as_gemini_reads_it_and_never_rewritten(tmp_path: Path) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    text = f'{{\n  // my folders\n  "{folder}": "TRUST_FOLDER" /* mine */\n}}\n'
    path = _rules(home, text)
    assert gemini_trust.check(folder, home).trusted is True
    done = _trust_init(folder)
    assert done.exit_code == 0 and f"unchanged: {path}" in done.stdout, done.output  # trusted already
    doctor = CliRunner().invoke(app, ["doctor", "--dir", str(folder), "--agent", "gemini", "--json"])
    (agent,) = json.loads(doctor.stdout)["agents"]
    assert {check["name"]: check["ok"] for check in agent["checks"]}["trusted"] is True
    other = _project(tmp_path, "other")
    refused = _trust_init(other)
    assert refused.exit_code == 6, refused.output
    (line,) = refused.stderr.splitlines()
    assert line.startswith(f"boundread: error: {path} has comments") and "/permissions" in line
    assert path.read_text(encoding="utf-8") == text and not (other / ".gemini").exists()


def test_init_trust_keeps_a_trust_parent_of_the_folder_that_trusts_it_already(tmp_path: Path) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    sibling = _project(tmp_path, "sibling")
    mine = {str(folder): "TRUST_PARENT", "/z/other": "DO_NOT_TRUST"}
    path = _rules(home, mine)
    assert gemini_trust.check(folder, home).trusted is True and gemini_trust.check(sibling, home).trusted is True
    done = _trust_init(folder)
    assert done.exit_code == 0 and f"unchanged: {path}" in done.stdout, done.output
    assert json.loads(path.read_text(encoding="utf-8")) == mine
    assert gemini_trust.check(sibling, home).trusted is True, "the sibling keeps its trust"


def test_init_trust_changes_nothing_where_folder_trust_is_off(tmp_path: Path) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    (home / ".gemini").mkdir(parents=True)
    (home / ".gemini" / "settings.json").write_text('{"security": {"folderTrust": {"enabled": false}}}')
    _rules(home, {str(folder): "DO_NOT_TRUST"})
    assert gemini_trust.check(folder, home).trusted is True  # Gemini reads no trust file then
    assert not gemini_trust.change(folder).changed
    (home / ".gemini" / "trustedFolders.json").unlink()
    gemini_trust.apply(gemini_trust.change(folder))
    assert not (home / ".gemini" / "trustedFolders.json").exists()


def test_init_trust_writes_its_entry_after_a_trust_parent_it_keeps(tmp_path: Path) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    sibling = _project(tmp_path, "sibling")
    # one key to Gemini: the later level (DO_NOT_TRUST) counts, so neither the folder nor its sibling is trusted
    path = _rules(home, {str(folder): "TRUST_PARENT", f"{folder}/": "DO_NOT_TRUST", "/z/other": "TRUST_FOLDER"})
    assert gemini_trust.check(folder, home).trusted is False and gemini_trust.check(sibling, home).trusted is False
    gemini_trust.apply(gemini_trust.change(folder))
    after = json.loads(path.read_text(encoding="utf-8"))
    assert list(after.items()) == [(str(folder), "TRUST_PARENT"), (f"{folder.resolve()}/.", "TRUST_FOLDER"),
                                   ("/z/other", "TRUST_FOLDER")]
    assert gemini_trust.check(folder, home).trusted is True
    assert gemini_trust.check(sibling, home).trusted is False, "trusting the folder trusts no sibling"


@pytest.mark.parametrize("spelling", ["//{proj}", "///{proj}/", "//{proj}/."])
def test_leading_slashes_collapse_as_in_node(tmp_path: Path, spelling: str) -> None:
    folder, home = _project(tmp_path), _home(tmp_path)
    # one key to Gemini (path.resolve gives /proj): the later level counts
    _rules(home, {str(folder): "TRUST_FOLDER", spelling.format(proj=str(folder).lstrip("/")): "DO_NOT_TRUST"})
    assert gemini_trust.check(folder, home).trusted is False
    _rules(home, {spelling.format(proj=str(folder).lstrip("/")): "DO_NOT_TRUST", str(folder): "TRUST_FOLDER"})
    assert gemini_trust.check(folder, home).trusted is True
