"""A runaway inside the real Claude Code ends at the cap (issue 18).

The scripted model never gives up on its own: every answer asks for one more tool call (a steady runaway, the same
usage per request). Without boundread's stop the session would run all of its turns; a refused call alone is one
more billed turn. Each test asserts where the session ended, counted by the model server itself: the requests it
answered and the usage it reported.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from tests.e2e import claude
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, FakeModel, Turn, Usage

TURNS = 40  # far more than any cap below allows
SUBTASK = "SUBTASK-RUNAWAY"


@pytest.fixture
def project(workspace: Workspace) -> Workspace:
    done = workspace.boundread("init", "--budget")
    assert done.returncode == 0, done.stderr
    return workspace


def runaway(model: FakeModel, marker: str = "") -> None:
    """A model that asks for one more command at every turn."""
    model.script(*(Turn(calls=(Call("Bash", {"command": f"echo step {n}", "description": "step"}),))
                   for n in range(TURNS)), marker=marker)


def cap(workspace: Workspace, *args: str) -> None:
    done = workspace.boundread("budget", "set", "--project", *args)
    assert done.returncode == 0, done.stderr


def ended(workspace: Workspace, run: claude.ClaudeRun, why: str) -> bool:
    """Whether the run ended by a hook's continue:false, with ``why`` in the reason boundread gave."""
    reasons = claude.stop_reasons(workspace)
    return run.result.get("terminal_reason") == "hook_stopped" and any(why in r for r in reasons)


def ledger_usd(workspace: Workspace, session: str) -> Decimal:
    done = workspace.boundread("budget", "status", "--json", "--session", session)
    (scope,) = json.loads(done.stdout)["scopes"]
    return Decimal(scope["spent"]["usd"])


def test_without_a_cap_the_runaway_runs_all_its_turns(project: Workspace) -> None:
    """The baseline the caps are measured against: the same model, the same hooks, no limit."""
    with claude.fake_model() as model:
        runaway(model)
        claude.run(project, model, "Keep going")
        assert len(model.loop("")) == TURNS + 1


def test_a_token_cap_ends_the_session_before_the_request_that_would_cross_it(project: Workspace) -> None:
    cap(project, "--max-tokens", "1000")  # 150 tokens a request: 6 fit, the 7th would pass
    with claude.fake_model() as model:
        runaway(model)
        run = claude.run(project, model, "Keep going")
        requests, spent = len(model.loop("")), model.spent()
    assert (requests, spent) == (6, 900), "overshoot 0: the session ended before the 7th request"
    assert ended(project, run, "the next request would pass the token cap")


def test_a_usd_cap_ends_the_session_before_the_request_that_would_cross_it(project: Workspace) -> None:
    cap(project, "--max-usd", "0.55")
    with claude.fake_model() as model:
        model.usage_per_turn = Usage(input_tokens=15_000, output_tokens=1_000)
        runaway(model)
        run = claude.run(project, model, "Keep going")
        requests = len(model.loop(""))
    (theirs,) = (Decimal(str(m["costUSD"])) for m in run.result["modelUsage"].values())  # Claude Code's own count
    each = theirs / requests
    assert 1 < requests < TURNS and ledger_usd(project, run.session_id) == theirs.quantize(Decimal("1e-9"))
    assert theirs <= Decimal("0.55") < theirs + each, "overshoot 0: it ended before the request that would pass"
    assert ended(project, run, "the next request would pass the cost cap")


def test_with_overshoot_allowed_the_session_ends_after_the_request_that_crossed(project: Workspace) -> None:
    cap(project, "--max-tokens", "1000", "--allow-overshoot")
    with claude.fake_model() as model:
        runaway(model)
        run = claude.run(project, model, "Keep going")
        requests = len(model.loop(""))
    assert requests == 7, "spend after the cap is the one request whose usage crossed it"
    assert ended(project, run, "token cap reached")


def test_a_call_limit_ends_the_session_after_the_last_allowed_call(project: Workspace) -> None:
    cap(project, "--max-calls", "5")
    with claude.fake_model() as model:
        runaway(model)
        run = claude.run(project, model, "Keep going")
        requests = len(model.loop(""))
        ran = claude.results(model)
    assert requests == 5 and len(ran) == 4, "five calls ran; the session ended before sending the fifth's result"
    assert ended(project, run, "call limit reached")


def test_a_repeat_ends_the_session_at_the_refused_call(project: Workspace) -> None:
    cap(project, "--max-repeat", "3")
    with claude.fake_model() as model:
        model.script(*(Turn(calls=(Call("Bash", {"command": "echo same", "description": "same"}),))
                       for _ in range(TURNS)))
        run = claude.run(project, model, "Keep going")
        requests = len(model.loop(""))
    assert requests == 3, "the third identical call is refused and the session ends with it"
    assert ended(project, run, "repeat policy")


def test_a_new_prompt_in_a_capped_session_reaches_no_model(project: Workspace) -> None:
    cap(project, "--max-tokens", "1000")
    with claude.fake_model() as model:
        runaway(model)
        first = claude.run(project, model, "Keep going")
        model.log.clear()
        again = claude.run_args(project, model, ["--resume", first.session_id, "-p", "Carry on"])
        requests = len(model.loop(None))
    assert requests == 0
    assert "token cap" in again.result["result"] and "boundread budget set" in again.result["result"]


def test_a_project_cap_stops_a_parent_and_its_sub_agents(project: Workspace) -> None:
    """A model that keeps spawning: the project's cap ends the whole session, sub-agents included."""
    cap(project, "--max-tokens", "3000")
    spawn = Turn(calls=(Call("Agent", {"description": "more", "subagent_type": "general-purpose",
                                       "prompt": f"{SUBTASK}: keep going"}),))
    with claude.fake_model() as model:
        model.script(*(spawn for _ in range(TURNS)))
        runaway(model, marker=SUBTASK)
        run = claude.run(project, model, "Keep spawning")
        spent, children = model.spent(), sum(1 for e in model.loop(SUBTASK) if e.turn == 0)
    assert 2000 <= spent <= 3000, f"{spent} tokens spent under a 3,000 cap (150 a request)"
    assert children >= 3, "sub-agents ran before the cap"
    assert any("token cap" in reason for reason in claude.stop_reasons(project)), run.result


def test_the_ledger_and_the_stop_agree(project: Workspace) -> None:
    """What `budget status` shows for the ended session is what the server reported."""
    cap(project, "--max-tokens", "1000")
    with claude.fake_model() as model:
        runaway(model)
        run = claude.run(project, model, "Keep going")
        spent = model.spent()
    done = project.boundread("budget", "status", "--json", "--session", run.session_id)
    (scope,) = json.loads(done.stdout)["scopes"]
    assert scope["spent"]["tokens"] == spent


KID, GRANDKID = "SPAWN-KID", "SPAWN-NEXT-LEVEL"  # markers: neither contains the other (the server matches substrings)


def spawning(prompt: str) -> Turn:
    return Turn(calls=(Call("Agent", {"description": "help", "subagent_type": "general-purpose",
                                      "prompt": f"{prompt}: go on"}),))


def test_max_depth_1_refuses_the_grandchild_in_the_real_client(project: Workspace) -> None:
    """Claude Code lets a sub-agent spawn its own; every sub-agent used to count as depth 1. Its meta file says 2."""
    cap(project, "--max-depth", "1")
    with claude.fake_model() as model:
        model.script(spawning(KID), Turn(text="parent done"))
        model.script(spawning(GRANDKID), Turn(text="kid done"), marker=KID)
        model.script(Turn(text="grandkid done"), marker=GRANDKID)
        run = claude.run(project, model, "Delegate")
        kid, grandkid = len(model.loop(KID)), len(model.loop(GRANDKID))
    assert kid >= 1 and grandkid == 0, "the child ran; its own child never reached the model"
    assert any("depth limit reached: depth 2 of max 1" in r for r in claude.stop_reasons(project)), run.result


def test_max_agents_lets_that_many_sub_agents_start(project: Workspace) -> None:
    cap(project, "--max-agents", "3")
    with claude.fake_model() as model:
        model.script(*(spawning(KID) for _ in range(TURNS)))
        model.script(Turn(text="kid done"), marker=KID)
        claude.run(project, model, "Keep delegating")
        started = sum(1 for e in model.loop(KID) if e.turn == 0)
    assert started == 3
    assert any("sub-agent limit reached: sub-agent 4 of max 3" in r for r in claude.stop_reasons(project))


def test_max_agents_per_minute_holds_a_spawning_burst(project: Workspace) -> None:
    cap(project, "--max-agents-per-minute", "2")
    with claude.fake_model() as model:
        model.script(*(spawning(KID) for _ in range(TURNS)))
        model.script(Turn(text="kid done"), marker=KID)
        claude.run(project, model, "Keep delegating")
        started = sum(1 for e in model.loop(KID) if e.turn == 0)
    assert started == 2, "the run takes seconds: the third spawn is within the minute"
    assert any("sub-agent rate reached: 3 started within a minute" in r for r in claude.stop_reasons(project))
