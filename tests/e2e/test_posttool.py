"""The second line inside the real clients: an output that slipped past the PreToolUse guard is replaced.

A command that reads no file (``seq``) prints 2.1 MB: no PreToolUse check can see that coming. What is asserted
is what reached the model (the tool result the client sent back) and the file boundread saved.

Measured without the post-tool hook, for the same 2.1 MB: Claude Code 2.1.332 keeps the output in its own file
and sends a 2 KB ``<persisted-output>`` preview; Gemini CLI 0.61 sends 40 KB (the first 8,000 and the last
32,000 characters). A binary output under 30,000 characters reaches Claude Code's model whole.
"""

from __future__ import annotations

import pytest

from tests.e2e import claude, gemini
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn

SEQ = "seq -f 'line %08g of the slipped output' 1 60000"
FULL = "".join(f"line {n:08d} of the slipped output\n" for n in range(1, 60001))  # 2,160,000 bytes
BINARY = "python3 -c \"import sys; sys.stdout.buffer.write(bytes(range(256)) * 40)\""


def _saved(workspace: Workspace) -> list[str]:
    folder = workspace.out
    return sorted(str(p) for p in folder.iterdir() if p.name != ".gitignore") if folder.is_dir() else []


def _short_answer(text: str, saved: str, tool: str) -> None:
    assert text.startswith(f"Not an error: the {tool} call ran"), text[:300]
    assert len(text) < 1500, len(text)
    assert "2.2 MB of text, 60,000 lines" in text  # 2,160,000 bytes, in decimal units
    assert f"Full output saved to: {saved}" in text
    assert f"boundread extract {saved} --lines 1-200" in text
    assert "line 00000001 of the slipped output" in text  # the five-line preview
    assert "line 00000006 " not in text and "line 00060000" not in text


@pytest.fixture
def claude_project(workspace: Workspace) -> Workspace:
    done = workspace.boundread("init")
    assert done.returncode == 0, done.stderr
    return workspace


@pytest.fixture
def gemini_project(workspace: Workspace) -> Workspace:
    done = workspace.boundread("init", "--agent", "gemini")
    assert done.returncode == 0, done.stderr
    return workspace


def test_claude_a_2_mb_output_reaches_the_model_as_the_short_answer(claude_project: Workspace) -> None:
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Bash", {"command": SEQ, "description": "generate"}),)), Turn(text="ok"))
        claude.run(claude_project, model, "Generate the lines")
        (answer,) = claude.results(model)
    (saved,) = _saved(claude_project)
    _short_answer(answer, saved, "Bash")
    assert "persisted-output" not in answer  # Claude Code's own preview is gone too
    with open(saved, encoding="utf-8") as fh:
        assert fh.read() == FULL  # copied whole from the file Claude Code kept


def test_claude_a_binary_output_is_replaced_and_a_small_one_is_untouched(claude_project: Workspace) -> None:
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Bash", {"command": BINARY, "description": "bytes"}),)),
                     Turn(calls=(Call("Bash", {"command": "seq 1 5", "description": "small"}),)),
                     Turn(text="ok"))
        claude.run(claude_project, model, "Print some bytes")
        binary, small = claude.results(model)
    (saved,) = _saved(claude_project)
    assert binary.startswith("Not an error: the Bash call ran") and "binary data" in binary
    assert f"boundread info {saved}" in binary and "\x00" not in binary and len(binary) < 1000
    assert small.strip() == "1\n2\n3\n4\n5"


def test_gemini_a_2_mb_output_reaches_the_model_as_the_short_answer(gemini_project: Workspace) -> None:
    with gemini.fake_model() as model:
        model.script(
            Turn(calls=(Call("run_shell_command", {"command": SEQ, "description": "generate"}),)),
            Turn(calls=(Call("run_shell_command", {"command": "seq 1 5", "description": "small"}),)),
            Turn(text="ok"))
        run = gemini.run(gemini_project, model, "Generate the lines")
        answer, small = gemini.results(model)
    assert run.response == "ok"
    (saved,) = _saved(gemini_project)
    _short_answer(answer, saved, "run_shell_command")  # Gemini sends it as the call's {"error": ...}
    assert "untrusted_context" not in answer
    with open(saved, encoding="utf-8") as fh:
        assert fh.read() == FULL.rstrip("\n")  # Gemini's raw output (it drops the last newline)
    assert "boundread" not in small and "Output: 1\n2\n3\n4\n5" in small
