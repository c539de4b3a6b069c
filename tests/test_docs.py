"""The checked-in completions and man page match the live app; every command and option is documented."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from boundread.cli import docs
from boundread.cli.app import app
from boundread.errors import ExitCode

ROOT = Path(__file__).resolve().parents[1]
REGENERATE = "out of date: run `python -m boundread.cli.docs` and commit the result"


@pytest.fixture(scope="module")
def generated() -> dict[str, str]:
    return docs.generate(ROOT)


@pytest.fixture(scope="module")
def nodes() -> list[tuple[tuple[str, ...], Any]]:
    return list(docs.walk(docs.cli()))


def test_checked_in_files_match_the_app(generated: dict[str, str]) -> None:
    assert set(generated) == {*docs.COMPLETIONS.values(), docs.MAN}
    for path, text in generated.items():
        on_disk = (ROOT / path).read_text(encoding="utf-8") if (ROOT / path).is_file() else None
        assert on_disk == text, f"{path} {REGENERATE}"


def test_generation_is_deterministic(generated: dict[str, str]) -> None:
    assert docs.generate(ROOT) == generated


def test_check_mode_names_the_stale_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / docs.REFERENCE).write_text((ROOT / docs.REFERENCE).read_text(encoding="utf-8"), encoding="utf-8")
    assert docs.main(["--root", str(tmp_path)]) == 0
    assert docs.main(["--check", "--root", str(tmp_path)]) == 0
    (tmp_path / docs.MAN).write_text(".TH OLD 1\n", encoding="utf-8")
    capsys.readouterr()
    assert docs.main(["--check", "--root", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert docs.MAN in err and "python -m boundread.cli.docs" in err
    assert docs.COMPLETIONS["bash"] not in err


def test_every_command_has_help_and_an_example(nodes: list[tuple[tuple[str, ...], Any]]) -> None:
    names = {" ".join(words) for words, _ in nodes}
    assert {"", "info", "extract", "pages", "sheets", "list-zip", "demo", "init", "guard-check", "mcp", "budget",
            "budget set", "budget check", "budget exec"} <= names
    for words, cmd in nodes:
        label = " ".join(("boundread", *words))
        assert (cmd.help or "").strip(), f"{label} has no help text"
        assert "Example" in (cmd.epilog or ""), f"{label} has no example in its epilog"
        assert all(example.startswith("boundread ") for example in docs.examples(cmd.epilog)), label


def test_every_option_and_argument_has_help(nodes: list[tuple[tuple[str, ...], Any]]) -> None:
    for words, cmd in nodes:
        for param in cmd.params:
            assert (param.help or "").strip(), f"boundread {' '.join(words)} {param.opts[0]} has no help text"


def test_man_page_documents_every_command_option_and_exit_code(
        generated: dict[str, str], nodes: list[tuple[tuple[str, ...], Any]]) -> None:
    man = generated[docs.MAN]
    for section in ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "ENVIRONMENT",
                    "FILES", "EXAMPLES", "SEE ALSO"):
        assert f"\n.SH {section}\n" in man or f'\n.SH "{section}"\n' in man, section
    for words, cmd in nodes[1:]:
        assert f".SS \"boundread {' '.join(words)}".replace("-", "\\-") in man, words
        for param in cmd.params:
            if param.param_type_name == "option":
                for opt in param.opts:
                    assert f"\\fB{opt.replace('-', chr(92) + '-')}\\fR" in man, (words, opt)
    for code in ExitCode:
        assert f".TP\n\\fB{int(code)}\\fR\n" in man
    for name in ("BOUNDREAD_OUT_DIR", "BOUNDREAD_STATE_DIR", "BOUNDREAD_DEPTH", "BOUNDREAD_BUDGET_PRICES",
                 "BOUNDREAD_GUARD_ON_ERROR", "NO_COLOR", "NO_PROGRESS", "XDG_STATE_HOME", "XDG_CONFIG_HOME"):
        assert f"\\fB{name}\\fR" in man, name
    assert "BOUNDREAD_CORPUS" not in man
    assert "boundread init \\-\\-agent gemini \\-\\-dry\\-run" in man
    assert man.isascii()


def test_exit_codes_need_every_code_in_the_reference() -> None:
    readme = (ROOT / docs.REFERENCE).read_text(encoding="utf-8")
    assert [code for code, _ in docs.exit_codes(readme)] == [int(c) for c in ExitCode]
    with pytest.raises(ValueError, match="lacks 7"):
        docs.exit_codes(readme.replace("| 7 |", "| 70 |"))


def test_man_page_renders_without_warnings(generated: dict[str, str], tmp_path: Path) -> None:
    if shutil.which("groff") is None:
        pytest.skip("groff is not installed (apt-get install groff-base)")
    page = tmp_path / "boundread.1"
    page.write_text(generated[docs.MAN], encoding="utf-8")
    run = subprocess.run(["groff", "-man", "-ww", "-z", str(page)], capture_output=True, text=True, check=False)
    assert (run.returncode, run.stderr) == (0, "")


@pytest.mark.parametrize(("words", "cword", "expected"), [
    ("boundread ", 1, {"info", "extract", "pages", "sheets", "list-zip", "demo", "view", "chunks", "init", "doctor",
                        "guard-check", "mcp", "stats", "budget"}),
    ("boundread budget s", 2, {"set", "status"}),
    ("boundread extract --max-c", 2, {"--max-chars", "--max-cols"}),
    ("boundread guard-check --ex", 2, {"--explain"}),
    ("boundread extract x --engine ", 4, {"auto", "pdfium", "pdfminer"}),
    ("boundread pages x 1 --ocr ", 5, {"auto", "force", "never"}),
    ("boundread sheets x --format m", 4, {"markdown"}),
    ("boundread init --agent c", 3, {"claude", "codex", "cursor", "copilot"}),
    ("boundread doctor --agent a", 3, {"all"}),
    ("boundread guard-check --agent claude", 3, {"claude", "claude-sdk"}),
])
def test_bash_completion_protocol_lists_commands_and_options(words: str, cword: int, expected: set[str]) -> None:
    env = {"COMP_WORDS": words, "COMP_CWORD": str(cword), docs.COMPLETE_VAR: "complete_bash"}
    result = CliRunner().invoke(app, [], env=env, prog_name="boundread")
    assert set(result.output.split()) == expected


def test_bash_script_completes_with_the_installed_console_script(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "boundread"
    if shutil.which("bash") is None or not script.is_file():
        pytest.skip("needs bash and the installed console script (pip install -e .)")
    probe = (f"source {ROOT / docs.COMPLETIONS['bash']}; COMP_WORDS=(boundread budget ''); COMP_CWORD=2; "
             "_boundread_completion boundread; printf '%s\\n' \"${COMPREPLY[@]}\"")
    env = {**os.environ, "PATH": f"{script.parent}{os.pathsep}{os.environ['PATH']}"}
    run = subprocess.run(["bash", "--norc", "--noprofile", "-c", probe], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=60, check=False)
    budget = {"set", "add", "ingest", "status", "check", "prices", "reset", "recover", "exec"}
    assert set(run.stdout.split()) == budget, run.stderr


def test_bash_script_completes_option_values(tmp_path: Path) -> None:
    script = Path(sys.executable).parent / "boundread"
    if shutil.which("bash") is None or not script.is_file():
        pytest.skip("needs bash and the installed console script (pip install -e .)")
    probe = (f"source {ROOT / docs.COMPLETIONS['bash']}; COMP_WORDS=(boundread extract x --engine ''); COMP_CWORD=4; "
             "_boundread_completion boundread; printf '%s\\n' \"${COMPREPLY[@]}\"")
    env = {**os.environ, "PATH": f"{script.parent}{os.pathsep}{os.environ['PATH']}"}
    run = subprocess.run(["bash", "--norc", "--noprofile", "-c", probe], capture_output=True, text=True,
                         env=env, cwd=tmp_path, timeout=60, check=False)
    assert set(run.stdout.split()) == {"auto", "pdfium", "pdfminer"}, run.stderr


def test_scripts_use_the_documented_protocol(generated: dict[str, str]) -> None:
    assert generated[docs.COMPLETIONS["zsh"]].startswith("#compdef boundread\n")
    for shell, path in docs.COMPLETIONS.items():
        assert f"{docs.COMPLETE_VAR}=complete_{shell}" in generated[path]


def test_wheel_installs_the_man_page() -> None:
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shared = config["tool"]["hatch"]["build"]["targets"]["wheel"]["shared-data"]
    assert shared.get(docs.MAN) == "share/man/man1/boundread.1"
