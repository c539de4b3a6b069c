"""The backstop inside the real Codex CLI (0.171): a PostToolUse ``{"decision": "block", "reason": R}`` puts R
where the shell output was, so the model gets the short answer instead of the output.

``boundread init --agent codex`` installs guard-check on PreToolUse and PostToolUse; here both are trusted as
``/hooks`` does.

Measured here: with ``tool_output_token_limit`` raised, 1 MB of the 2.1 MB output reached Codex's model, while
the PostToolUse payload held 41 kB of it (Codex cuts the hook's copy to its default policy, ~10,000 tokens)
opening with "Warning: truncated output (original token count: 540000)": that count is what the backstop
goes by.
"""

from __future__ import annotations

import json

import pytest

from tests.e2e import codex
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Turn

SEQ = "seq -f 'line %08g of the slipped output' 1 60000"  # 2,160,000 bytes, no file read
LIMIT = ("-c", "tool_output_token_limit=1000000")


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    done = workspace.boundread("init", "--agent", "codex")
    assert done.returncode == 0, done.stderr
    settings = json.loads((workspace.project / ".codex" / "hooks.json").read_text(encoding="utf-8"))
    assert settings["hooks"]["PostToolUse"][0]["matcher"] == "Bash"  # init registers the backstop
    codex.trust_project(workspace)
    hooks = codex.trust_hooks(workspace)
    assert sorted(h["eventName"] for h in hooks) == ["postToolUse", "preToolUse"]
    return workspace


def test_a_2_mb_shell_output_reaches_codexs_model_as_the_short_answer(project: Workspace) -> None:
    with codex.fake_model() as model:
        model.script(Turn(calls=(codex.shell(SEQ),)), Turn(calls=(codex.shell("seq 1 5"),)), Turn(text="ok"))
        run = codex.run(project, model, "Generate the lines", *LIMIT)
        answer, small = codex.results(model)
    assert "Not an error: the Bash call ran" in answer, answer[:500]
    assert len(answer) < 2000 and "line 00000006 " not in answer and "line 00060000" not in answer
    (saved,) = sorted(p for p in project.out.iterdir() if p.name != ".gitignore")
    assert f"boundread extract {saved} --lines 1-200" in answer
    assert "line 00000001 of the slipped output" in saved.read_text(encoding="utf-8")
    assert "1\n2\n3\n4\n5" in small and "boundread" not in small
    assert "PostToolUse" in run.process.stderr
