"""The backstop inside the real Gemini CLI (0.61) for an output whose AfterTool payload is over guard-check's
32 MiB stdin cap: Gemini sends the output twice (``llmContent`` and ``returnDisplay``), and guard-check used to
refuse such a payload (``on_error=allow``), so the output went on unreplaced. Now it is read as it streams
(hook/bigpayload.py) and the model gets the short answer.

Measured: Gemini keeps the last 16 MiB of a shell output (here 16.8 MB of the 21 MB printed); with the quotes
of each line written as ``\\"``, twice over, its payload was 37.9 MB, read in under a second. (``seq 1 3000000``
is no test of it: Gemini kept only its first 5,021 lines.)
"""

from __future__ import annotations

import pytest

from boundread.hook import stdin
from tests.e2e import gemini
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn

LINE = '"line" %08g "of" "the" "slipped" "output", "padded" "with" "quoted" "words" "to" "about" "a" "hundred"'
SEQ = f"seq -f '{LINE}' 1 200000"


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    done = workspace.boundread("init", "--agent", "gemini")
    assert done.returncode == 0, done.stderr
    return workspace


def test_an_output_over_the_stdin_cap_reaches_the_model_as_the_short_answer(project: Workspace) -> None:
    with gemini.fake_model() as model:
        model.script(Turn(calls=(Call("run_shell_command", {"command": SEQ, "description": "print"}),)),
                     Turn(text="ok"))
        run = gemini.run(project, model, "Print the lines")
        (answer,) = gemini.results(model)
    assert run.response == "ok"
    (saved,) = sorted(p for p in project.out.iterdir() if p.name != ".gitignore")
    assert answer.startswith("Not an error: the run_shell_command call ran"), answer[:300]
    assert len(answer) < 1500 and "over the 100.0 kB cap" in answer and "could not read" not in answer
    assert f"boundread extract {saved} --lines 1-200" in answer
    text = saved.read_text(encoding="utf-8")
    assert 2 * (len(text) + text.count('"') + text.count("\n")) > stdin.MAX_PAYLOAD  # twice, each " as \"
    assert LINE.replace("%08g", "00200000") + "\n" in text[-500:]  # whole to the end
    assert text.endswith("[GEMINI_CLI_WARNING: Output truncated. The buffer is limited to 16MB.]")
