"""GitHub Copilot CLI (1.0.102) with the real client: its folder trust, and the guard through its own rewrite.

In a folder it does not trust, Copilot runs none of the project's hooks (``.github/hooks``), without a word: a
whole ``view`` of a PDF reaches the model as Copilot reads it, and ``boundread doctor`` says the folder is not
trusted; ``boundread init --agent copilot --trust`` records it in ``~/.copilot/config.json`` and the guard fires.

In a trusted folder ``init`` registers redirect mode: a preToolUse answer's ``modifiedArgs`` (verified here for
``view`` and ``bash``) runs the bounded read in the same call, and ``additionalContext`` tells the model what it
got. Each session is measured as in tests/e2e/test_redirect.py: tool calls until the model has the first part's
text (the sentinel), and the characters of every request up to that one, for Copilot on its own (no hook), with
boundread's deny, and with its redirect; boundread must need no more calls than Copilot alone.
"""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from boundread.agents import copilot as copilot_module
from boundread.agents import copilot_trust
from tests.e2e import copilot
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.server import Call, Turn
from tests.e2e.files import project_files

PAGE_1 = "PAGE-1."  # in the text of report.pdf's first page
LINE_1 = "request 00000001 served"  # huge.log's first line
LINE_LATE = "request 00001000 served"  # far past any bounded first part of huge.log
HEADER = "[boundread redirect] report.pdf: PDF"
VIEW_MAX = 20 * 1024  # Copilot's view: a whole file over 20 KB is refused, a range cut at 20 KB


@dataclass(frozen=True)
class Measure:
    """One session up to the first tool result that holds the sentinel."""

    scenario: str
    mode: str
    tool_calls: int | None  # None: the text never reached the model
    input_chars: int  # every agent-loop request's body up to the one with the text (or all), billed as input
    results: tuple[str, ...]


def prepare(workspace: Workspace, mode: str) -> dict[str, Path]:
    """The test files in a trusted project; ``init --agent copilot`` and ``mode`` unless ``native`` (no hook)."""
    workspace.out = workspace.project / "boundread-out"
    files = project_files(workspace.project)
    copilot.trust(workspace)
    if mode != "native":
        done = workspace.boundread("init", "--agent", "copilot")
        assert done.returncode == 0, done.stderr
        (workspace.project / ".boundread.toml").write_text(f'[guard]\nmode = "{mode}"\n', encoding="utf-8")
    return files


def view(path: Path, **extra: object) -> Call:
    return Call("view", {"path": str(path), **extra})


def bash(command: str) -> Call:
    return Call("bash", {"command": command, "description": "run"})


def script(scenario: str, mode: str, workspace: Workspace) -> tuple[Turn, ...]:
    """The first call, then what the answer tells the model to do (Copilot's own refusal, or boundread's deny
    reason), step by step, until the first part's text can have arrived."""
    pdf, log, out = workspace.project / "report.pdf", workspace.project / "huge.log", workspace.out
    first = {"view-pdf": view(pdf), "view-log": view(log), "cat-pdf": bash("cat report.pdf"),
             "cat-log": bash("cat huge.log")}[scenario]
    turns = [Turn(calls=(first,))]
    if mode == "native" and scenario == "view-log":  # "File too large to read at once ... view with view_range"
        turns.append(Turn(calls=(view(log, view_range=[1, 200]),)))
    elif mode == "native" and scenario == "cat-log":  # "Output too large to read at once ... Saved to: F"
        turns.append(Turn(calls=(bash("head -n 200 huge.log"),)))
    elif mode == "native" and "pdf" in scenario:  # the raw PDF: no text of a page in it
        turns.append(Turn(calls=(bash("pdftotext -l 5 report.pdf - 2>&1 | head -c 20000"),)))
    elif mode == "deny" and scenario == "view-log":  # the reason names view_range
        turns.append(Turn(calls=(view(log, view_range=[1, 200]),)))
    elif mode == "deny":
        command, written = (("boundread pages report.pdf 1-5", "report.pdf.pages-1-5.txt") if "pdf" in scenario
                            else ("boundread extract huge.log --lines 1-200", "huge.log.lines-1-200.txt"))
        turns += [Turn(calls=(bash(command),)), Turn(calls=(view(out / written),))]
    return (*turns, Turn(text="Done."))


def session(workspace: Workspace, scenario: str, mode: str, *, must: bool = True) -> Measure:
    """The scripted session; ``must``: the text has to reach the model (else ``tool_calls`` is None)."""
    prepare(workspace, mode)
    sentinel = PAGE_1 if "pdf" in scenario else LINE_1
    with copilot.fake_model() as model:
        model.script(*script(scenario, mode, workspace))
        copilot.run(workspace, model, f"Read the file ({scenario})")
        results = copilot.results(model)
        bodies = [len(json.dumps(exchange.body)) for exchange in model.loop()]
    seen = next((n for n, text in enumerate(results) if sentinel in text), None)
    assert seen is not None or not must, f"{scenario} {mode}: the text never reached the model: {results}"
    if seen is None:
        return Measure(scenario, mode, None, sum(bodies), tuple(results))
    return Measure(scenario, mode, seen + 1, sum(bodies[:seen + 2]), tuple(results[:seen + 1]))


def test_an_untrusted_folder_runs_no_hook_until_init_trust(workspace: Workspace) -> None:
    files = project_files(workspace.project)
    done = workspace.boundread("init", "--agent", "copilot")
    assert done.returncode == 0, done.stderr
    assert "copilot: Copilot CLI runs no hook" in done.stdout and "init --agent copilot --trust" in done.stdout
    workspace.deny_mode()
    read = (view(files["huge.log"]),)
    with copilot.fake_model() as model:
        model.script(Turn(calls=read), Turn(text="ok"))
        copilot.run(workspace, model, "Read the log")
        (native,) = copilot.results(model)
    assert "boundread" not in native and "File too large to read at once" in native, "untrusted: no hook ran"
    doctor = workspace.boundread("doctor", "--agent", "copilot")
    assert doctor.returncode == 2, doctor.stdout
    assert "problem  trusted: Copilot CLI does not trust" in doctor.stdout
    assert "init --agent copilot --trust" in doctor.stdout

    trust = workspace.boundread("init", "--agent", "copilot", "--trust")
    assert trust.returncode == 0, trust.stderr
    config = workspace.home / ".copilot" / "config.json"
    assert f"wrote: {config}" in trust.stdout
    doctor = workspace.boundread("doctor", "--agent", "copilot")
    assert doctor.returncode == 0, doctor.stdout
    with copilot.fake_model() as model:
        model.script(Turn(calls=read), Turn(text="ok"))
        copilot.run(workspace, model, "Read the log")
        (denied,) = copilot.results(model)
    assert "Not an error: boundread refused this on purpose" in denied, "trusted: the guard refuses the whole read"
    assert copilot_trust.check(workspace.project, workspace.home).trusted is True, "Copilot kept our entry"


@pytest.mark.parametrize("scenario", ["view-pdf", "view-log", "cat-pdf", "cat-log"])
def test_redirect_gives_the_bounded_first_part_in_one_call(workspace: Workspace, scenario: str) -> None:
    got = session(workspace, scenario, "redirect")
    assert got.tool_calls == 1, got.results
    (text,) = got.results
    assert "Not an error" not in text and "too large to read at once" not in text
    if scenario == "view-pdf":
        assert HEADER in text and "12 pages" in text and "--grep PATTERN" in text
    elif scenario == "view-log":
        assert LINE_LATE not in text and len(text.encode()) <= VIEW_MAX + 400
    elif scenario == "cat-pdf":
        assert "--- page 1 / 12 ---" in text and "%PDF-1." not in text
    else:  # boundread's bounded output, within what Copilot shows of a shell output (not kept in a file)
        assert LINE_1 in text and LINE_LATE not in text and "boundread" in text
        assert copilot_module.SHELL_MAX_CHARS is not None and len(text) <= copilot_module.SHELL_MAX_CHARS + 100


def test_redirect_tells_the_model_what_it_got_in_view_s_words(workspace: Workspace) -> None:
    """A whole view of the log runs as a view_range; the model's own call shows the range, and the hook's context
    names the next part as view_range (not the start_line/end_line of another client)."""
    prepare(workspace, "redirect")
    log = workspace.project / "huge.log"
    with copilot.fake_model() as model:
        model.script(Turn(calls=(view(log),)), Turn(text="Done."))
        copilot.run(workspace, model, "Read the log")
        (call,) = copilot.calls(model)
        context = "\n".join(copilot.hook_context(model))
    first, last = call["view_range"]
    assert call["name"] == "view" and first == 1 and last > 1
    assert "boundread redirect" in context and f"view_range=[{last + 1}, " in context
    assert "start_line" not in context


@pytest.mark.parametrize("scenario", ["view-pdf", "view-log", "cat-pdf", "cat-log"])
def test_boundread_needs_no_more_calls_than_copilot_alone(tmp_path_factory: pytest.TempPathFactory,
                                                          scenario: str) -> None:
    """Calls until the model has the first part: with the redirect no more than Copilot on its own (which refuses
    a whole view over 20 KB and keeps a long shell output in a file; a PDF it hands over raw, with no page text:
    only a pdftotext on the machine gets it, a call later), and fewer than with the deny."""
    measured = {mode: session(Workspace(tmp_path_factory.mktemp(mode)), scenario, mode, must=mode != "native")
                for mode in ("native", "deny", "redirect")}
    print(scenario, {mode: (m.tool_calls, m.input_chars) for mode, m in measured.items()})
    native, deny, redirect = measured["native"], measured["deny"], measured["redirect"]
    assert redirect.tool_calls == 1
    if "pdf" in scenario:  # .ci/run installs poppler-utils (the reference sweep): then the model's pdftotext works
        assert native.tool_calls == (2 if shutil.which("pdftotext") else None)
    else:
        assert native.tool_calls is not None
    assert deny.tool_calls is not None and redirect.tool_calls < deny.tool_calls
    assert native.tool_calls is None or redirect.tool_calls <= native.tool_calls
    assert redirect.input_chars < deny.input_chars


def test_a_workbook_an_archive_and_a_grep_of_the_tree_fit_copilots_limits(workspace: Workspace) -> None:
    """Copilot alone hands the model a workbook's or an archive's raw bytes in a whole view, and keeps a long
    grep output in a file (a preview and its path); with boundread each comes back bounded, in the same call."""
    files = prepare(workspace, "redirect")
    calls = [view(files["prices.xlsx"]), view(files["catalogue.zip"]), bash("unzip -p catalogue.zip"),
             bash("grep -r served .")]
    with copilot.fake_model() as model:
        model.script(*(Turn(calls=(call,)) for call in calls), Turn(text="Done."))
        copilot.run(workspace, model, "Read them")
        workbook, archive, unzipped, grep = copilot.results(model)
    assert "[boundread redirect] prices.xlsx: Excel workbook" in workbook and "PK\x03\x04" not in workbook
    assert "[boundread redirect] catalogue.zip: zip archive" in archive
    assert "catalogue.zip: zip archive, 3 entries" in unzipped
    assert "served" in grep
    assert copilot_module.SHELL_MAX_CHARS is not None
    for text in (workbook, archive, unzipped, grep):
        assert "too large to read at once" not in text and len(text) <= copilot_module.SHELL_MAX_CHARS + 100


@pytest.mark.parametrize(("matcher", "fired"), [("*", []), (".*", ["view", "glob"]),
                                                (copilot_module.PRE_MATCHER, ["view"])])
def test_copilot_reads_a_matcher_as_a_regex(workspace: Workspace, matcher: str, fired: list[str]) -> None:
    """Why init --budget registers ".*" for Copilot (agents/copilot.py BUDGET_MATCHER): "*", every tool for the
    other clients, matches no tool in Copilot CLI, ".*" every one."""
    project_files(workspace.project)
    copilot.trust(workspace)
    seen = workspace.root / "seen.jsonl"
    probe = f"{sys.executable} -c \"import sys; open('{seen}', 'a').write(sys.stdin.read() + chr(10))\""
    hooks = workspace.project / ".github" / "hooks" / "probe.json"
    hooks.parent.mkdir(parents=True)
    hooks.write_text(json.dumps({"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": probe, "matcher": matcher, "timeoutSec": 30}]}}), encoding="utf-8")
    with copilot.fake_model() as model:
        model.script(Turn(calls=(view(workspace.project / "server.log"),)),
                     Turn(calls=(Call("glob", {"pattern": "*.log"}),)), Turn(text="Done."))
        copilot.run(workspace, model, "Look around")
    lines = seen.read_text(encoding="utf-8").splitlines() if seen.exists() else []
    assert [json.loads(line)["toolName"] for line in lines if line] == fired
    if matcher == ".*":
        budget = workspace.boundread("init", "--agent", "copilot", "--budget")
        assert budget.returncode == 0, budget.stderr
        ours = json.loads((hooks.parent / "boundread.json").read_text(encoding="utf-8"))
        assert ours["hooks"]["preToolUse"][0]["matcher"] == matcher
