"""The backstop's cap in the real Claude Code (2.1.332): an output over 25,000 tokens reaches the model as the
short answer, one under it whole.

Claude Code keeps Bash output over 30,000 characters in its own file and shows the model a 2 KB preview; a user
can raise that to 128,000 (the ``bashOutputMaxChars`` setting; ``BASH_MAX_OUTPUT_LENGTH`` alone no longer
does: 87.9 KB was persisted with it at 150000), and then up to 32,000 tokens reach the model inline. The
backstop's old cap (256 kB) let all of that through; the result goal (100,000 bytes) does not.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e import claude
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn

OVER = "seq -f 'line %08g of the slipped output' 1 3300"  # 118,800 bytes: ~29,700 tokens
UNDER = "seq -f 'line %08g of the slipped output' 1 2500"  # 90,000 bytes: ~22,500 tokens


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    done = workspace.boundread("init")
    assert done.returncode == 0, done.stderr
    path = workspace.project / ".claude" / "settings.json"
    settings = json.loads(path.read_text(encoding="utf-8"))
    settings["bashOutputMaxChars"] = 128_000  # Claude Code's own inline limit, at its most
    path.write_text(json.dumps(settings, indent=2), encoding="utf-8")
    return workspace


def test_an_output_over_25k_tokens_is_replaced_and_one_under_reaches_the_model_whole(project: Workspace) -> None:
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Bash", {"command": OVER, "description": "over"}),)),
                     Turn(calls=(Call("Bash", {"command": UNDER, "description": "under"}),)),
                     Turn(text="ok"))
        claude.run(project, model, "Generate the lines")
        over, under = claude.results(model)
    assert over.startswith("Not an error: the Bash call ran") and "over the 100.0 kB cap" in over, over[:300]
    assert len(over) < 1500 and "3,300 lines" in over
    assert len(under) >= 89_000 and "line 00002500 of the slipped output" in under  # whole, inline
    assert "persisted-output" not in under and "Not an error" not in under
