"""Redirect mode inside the real clients, against deny mode and against no boundread at all (native).

Each session starts with one whole read of a file (a Read of report.pdf, ``cat big.log``, ``unzip -p`` of a big
member, a recursive grep over a tree...). Then the scripted model does what the client's answer leads it to:
in deny mode what the deny reason says (its first command that reads, then the file it wrote), natively what an
agent does without boundread (a Read where the shell printed binary, a script where the client cannot read a
workbook, a range after a size error), until the asked text - the file's first page, line, row or match -
reaches it; in redirect mode that text arrives with the first tool result. What is measured is what the fake
server saw: the agent-loop requests up to the first one that carries the text (``Measure``).
bench/redirect.py prints the same sessions side by side.

Tokens: ``input_chars`` is every loop request's body up to that one - what a provider bills as input without
caching, since each turn re-sends the system prompt, the tools and the history; ``input_tokens`` the same as
tokens, ~4 characters a token, but for a PDF the client sends as a file (natively: Claude Code's document block,
Gemini CLI's inlineData), which is billed by the page, not by its base64: Anthropic counts each page's text and an
image of it, "1,500-3,000 tokens a page" (the low end is used), Google 258 tokens a page. ``overhead_chars`` is the
tool results before the one with the text (the deny reason, "wrote ..." summaries).
"""

from __future__ import annotations

import base64
import json
import shlex
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e import claude, codex, gemini
from tests.e2e.conftest import Workspace
from tests.e2e.fakemodel.anthropic import tool_results
from tests.e2e.fakemodel.openai_responses import tool_outputs
from tests.e2e.fakemodel.server import Call, FakeModel, Turn
from tests.e2e.files import project_files

PAGE_1 = "PAGE-1."  # in the text of report.pdf's first page
LINE_1 = "request 00000001 served"  # big.log's first line
HEADER = "[boundread redirect] report.pdf: PDF"
BIG_LOG_MB = 50  # over Gemini CLI's 20 MB read_file limit
MEMBER_1 = "member line 000001"  # logs.zip's app.log's first line
ROW_1 = "Widget model 1"  # prices.xlsx's first row
MATCH = "TODO-7"  # on every line of the files under src/ (the pattern the first turn greps for)
MATCHED = "line of part"  # the rest of those lines: only in what the grep printed
#: What shows the model has a PDF's text natively: the client sends the PDF itself (Claude Code's document block,
#: Gemini CLI's inlineData), or images of its pages (Claude Code with poppler: a pages range rendered by pdftoppm)
PDF_SENT = ('"type": "document"', '"mimeType": "application/pdf"', '"type": "image"')
MODES = ("native", "deny", "redirect")
SENTINELS = {"pdf": (PAGE_1, *PDF_SENT), "log": (LINE_1,), "xlsx": (ROW_1,), "member": (MEMBER_1,),
             "grep": (MATCHED,)}
#: The shell commands of the first turn, and the file each reads.
SHELL = {"cat-pdf": "cat report.pdf", "cat-log": "cat big.log", "cat-xlsx": "cat prices.xlsx",
         "member": "unzip -p logs.zip app.log", "grep-tree": f"grep -rn {MATCH} src"}
READ = {"read-pdf": "report.pdf", "read-log": "big.log", "read-xlsx": "prices.xlsx"}
#: poppler's pdftoppm, with which Claude Code renders PDF pages (and refuses a whole read of more than 10)
POPPLER = shutil.which("pdftoppm") is not None
#: What an agent without boundread does next, per scenario (and client): a Read of the PDF whose bytes the shell
#: printed, a script for a workbook no tool reads, a shell head of a log the read tool refused.
PDF_TEXT = "python3 -c \"from pdfminer.high_level import extract_text; print(extract_text('report.pdf'))\""
XLSX_ROWS = ("python3 -c \"import openpyxl; ws = openpyxl.load_workbook('prices.xlsx', read_only=True).worksheets[0]; "
             "[print(*row) for row in ws.iter_rows(values_only=True)]\"")


@dataclass(frozen=True)
class Measure:
    """One session up to the moment the model has the asked text."""

    client: str
    scenario: str
    mode: str
    requests: int  # agent-loop requests up to and including the first one that carries the text
    tool_chars: int  # characters of the tool results the model got on the way
    input_chars: int  # characters of those requests' bodies, all of them
    results: tuple[str, ...]  # those tool results, in order
    sent: str = ""  # what the request with the text added (its new tool results, as JSON)
    input_tokens: int = 0  # those requests as tokens (a PDF sent as a file by its pages)
    first_tokens: int = 0  # the first request's: the prompt, the tools and what the client always sends

    @property
    def overhead_chars(self) -> int:
        return sum(len(text) for text in self.results[:-1])

    @property
    def tool_calls(self) -> int:
        return self.requests - 1


@dataclass(frozen=True)
class Client:
    name: str
    init: tuple[str, ...]
    read: str  # the read tool ("" when the client has none: Codex)
    shell: str
    run: Callable[[Workspace, FakeModel, str], object]
    results: Callable[[FakeModel], list[str]]
    fake_model: Callable[[], FakeModel]
    fresh: Callable[[dict[str, Any]], Any]  # a request's new tool results (and what came with them)

    def read_call(self, path: str, **extra: object) -> Call:
        return Call(self.read, {"file_path": path, **extra})

    def shell_call(self, command: str) -> Call:
        if self.name == "codex":
            return codex.shell(command)
        return Call(self.shell, {"command": command, "description": "run"})


def _gemini_fresh(body: dict[str, Any]) -> Any:
    contents = body.get("contents") or []
    return contents[-1] if contents and contents[-1].get("role") == "user" else {}


CLIENTS = {
    "claude": Client("claude", ("init",), "Read", "Bash", claude.run, claude.results, claude.fake_model,
                     tool_results),
    "gemini": Client("gemini", ("init", "--agent", "gemini"), "read_file", "run_shell_command", gemini.run,
                     gemini.results, gemini.fake_model, _gemini_fresh),
    "codex": Client("codex", ("init", "--agent", "codex"), "", "exec_command", codex.run, codex.results,
                    codex.fake_model, tool_outputs),
}
#: (client, scenario) for every session; Codex has a shell tool only.
SESSIONS = [(c, s) for c in ("claude", "gemini")
            for s in ("read-pdf", "cat-pdf", "read-log", "cat-log", "read-xlsx", "member", "grep-tree")] + \
    [("codex", s) for s in ("cat-pdf", "cat-log", "cat-xlsx", "member", "grep-tree")]
#: Claude Code refuses a Read of a workbook itself, before any hook: its PostToolBatch advice is the redirect.
CLIENT_REFUSES = {("claude", "read-xlsx")}


def _family(scenario: str) -> str:
    return {"member": "member", "grep-tree": "grep"}.get(scenario, scenario.split("-")[-1])


def _files(folder: Path) -> None:
    """Besides the demo's samples: a 50 MB log, a zip with a 2 MB log in it, and a tree of 40 sources that a
    recursive grep prints 3 MB of."""
    project_files(folder)
    line = "2026-11-29T08:00:{s:02d}Z INFO worker-{w} request {n:08d} served in 12 ms, upstream=backend-{b}\n"
    with (folder / "big.log").open("w", encoding="utf-8") as log:
        block: list[str] = []
        for n in range(1, BIG_LOG_MB * 1024 * 1024 // 90 + 1):
            block.append(line.format(s=n % 60, w=n % 4, n=n, b=n % 7))
            if len(block) == 10_000:
                log.write("".join(block))
                block = []
        log.write("".join(block))
    import zipfile

    with zipfile.ZipFile(folder / "logs.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("app.log", "".join(f"{MEMBER_1[:-6]}{n:06d} of the app log, nothing to see\n"
                                            for n in range(1, 40_001)))
        archive.writestr("README.txt", "the logs\n")
    (folder / "src").mkdir()
    for number in range(40):
        (folder / "src" / f"part{number:02d}.txt").write_text(f"{MATCH} {MATCHED} {number}\n" * 2500,
                                                               encoding="utf-8")


def prepare(workspace: Workspace, client: Client, mode: str, extra: str = "") -> Workspace:
    """The test files, and (but natively) ``boundread init`` for the client and ``mode`` in the project's
    .boundread.toml.

    The output folder is inside the project: Gemini CLI reads no file outside its workspace."""
    workspace.out = workspace.project / "boundread-out"
    _files(workspace.project)
    if client.name == "codex":
        codex.trust_project(workspace)
    if mode == "native":
        return workspace
    done = workspace.boundread(*client.init)
    assert done.returncode == 0, done.stderr
    (workspace.project / ".boundread.toml").write_text(f'[guard]\nmode = "{mode}"\n{extra}', encoding="utf-8")
    if client.name == "codex":
        codex.trust_hooks(workspace)
    return workspace


def _advised(workspace: Workspace, client: Client, scenario: str) -> tuple[str, str | None]:
    """(the first command of the deny reason that reads the text, the file it writes or None when it prints)."""
    if (client.name, scenario) in CLIENT_REFUSES:  # refused by the client itself: its PostToolBatch advice
        batch = {"session_id": "s", "transcript_path": "/t", "cwd": str(workspace.project), "prompt_id": "p",
                 "hook_event_name": "PostToolBatch", "tool_calls": [{
                     "tool_name": "Read", "tool_input": {"file_path": str(workspace.project / READ[scenario])},
                     "tool_use_id": "u", "tool_response": "<tool_use_error>This tool cannot read binary files."}]}
        done = workspace.boundread("guard-check", stdin=json.dumps(batch))
        reason = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    else:
        argv = ("--command", SHELL[scenario]) if scenario in SHELL else ("--path", READ[scenario])
        done = workspace.boundread("guard-check", *argv)
        reason = done.stderr + done.stdout
    commands = [line.strip().split("   (")[0] for line in reason.splitlines() if line.startswith("  boundread ")]
    command = next(c for c in commands if c.split()[1] in ("pages", "extract", "sheets"))
    command = command.replace("--member NAME", "--member app.log")  # the member the first turn named
    if "--stdout" in command:
        return command, None
    ran = workspace.boundread(*shlex.split(command)[1:])
    assert ran.returncode == 0, ran.stderr
    written = Path(ran.stdout.split("wrote ", 1)[1].split("\n", 1)[0].strip())
    written.unlink()
    return command, str(written if written.is_absolute() else workspace.project / written)


def script(client: Client, scenario: str, mode: str, workspace: Workspace) -> tuple[Turn, ...]:
    """The first turn, then what the client's answer leads the model to do, step by step."""
    path = READ.get(scenario)
    first = client.read_call(str(workspace.project / path)) if path else client.shell_call(SHELL[scenario])
    turns = [Turn(calls=(first,))]
    if mode == "deny" or (mode == "redirect" and (client.name, scenario) in CLIENT_REFUSES):
        if scenario == "read-log" and client.name == "claude":  # the reason names the client's own range
            turns.append(Turn(calls=(client.read_call(str(workspace.project / "big.log"), offset=1, limit=500),)))
        else:
            command, written = _advised(workspace, client, scenario)
            turns.append(Turn(calls=(client.shell_call(command),)))
            if written is not None:
                then = client.read_call(written) if client.read else client.shell_call(f"cat {written}")
                turns.append(Turn(calls=(then,)))
    elif mode == "native":
        # with poppler on the machine (.ci/run installs it for the reference sweep) Claude Code reads a PDF over 10
        # pages only with a pages range: its whole Read says "too many to read at once ... pages: 1-5"
        pdf = client.read_call(str(workspace.project / "report.pdf"), **({"pages": "1-5"} if POPPLER else {}))
        follow = {
            ("claude", "read-pdf"): pdf if POPPLER else None,
            ("claude", "cat-pdf"): pdf,
            ("gemini", "cat-pdf"): client.read_call(str(workspace.project / "report.pdf")),
            ("codex", "cat-pdf"): client.shell_call(PDF_TEXT),
            ("claude", "read-log"): client.read_call(str(workspace.project / "big.log"), offset=1, limit=500),
            ("gemini", "read-log"): client.shell_call("head -n 500 big.log"),
            ("gemini", "cat-log"): client.shell_call("head -n 500 big.log"),  # it keeps the last 16 MB of an output
            ("claude", "read-xlsx"): client.shell_call(XLSX_ROWS),
            ("gemini", "read-xlsx"): client.shell_call(XLSX_ROWS),
            ("codex", "cat-xlsx"): client.shell_call(XLSX_ROWS),
        }.get((client.name, scenario))
        if follow is not None:
            turns.append(Turn(calls=(follow,)))
    return (*turns, Turn(text="Done."))


def session(workspace: Workspace, client_name: str, scenario: str, mode: str) -> Measure:
    """Run one scripted session with the real client; what reached the model, up to the asked text."""
    client = CLIENTS[client_name]
    prepare(workspace, client, mode)
    sentinels = SENTINELS[_family(scenario)]
    with client.fake_model() as model:
        model.script(*script(client, scenario, mode, workspace))
        client.run(workspace, model, f"Read the file ({scenario})")
        results = client.results(model)
        exchanges = model.loop()
    bodies = [len(json.dumps(exchange.body)) for exchange in exchanges]
    tokens = [_tokens(exchange.body) for exchange in exchanges]
    sent = [json.dumps(client.fresh(exchange.body)) for exchange in exchanges]
    seen = next((n for n, text in enumerate(sent) if n and any(s in text for s in sentinels)), None)
    assert seen is not None, f"{client_name} {scenario} {mode}: the text never reached the model: " + \
        " | ".join(text[:300] for text in results)
    return Measure(client_name, scenario, mode, seen + 1, sum(len(text) for text in results[:seen]),
                   sum(bodies[:seen + 1]), tuple(results[:seen]), sent[seen], sum(tokens[:seen + 1]), tokens[0])


#: Input tokens a page of a PDF sent as a file costs: Anthropic "1,500-3,000 tokens per page" (its text and an
#: image of it; the low end), Google "258 tokens per page".
PDF_PAGE_TOKENS = {"document": 1_500, "inlineData": 258}
#: Input tokens of an image Claude Code sends (a PDF page pdftoppm rendered): Anthropic's width x height / 750,
#: about 1,600 for an image in its 1.15-megapixel box (the high end, as a page is rendered to fill it)
IMAGE_TOKENS = 1_600


def _tokens(body: dict[str, Any]) -> int:
    """A request's input tokens: its characters / 4, but each PDF sent as a file by its pages."""
    chars, pages = len(json.dumps(body)), 0
    for data, rate in _pdfs(body):
        pdf = base64.b64decode(data)
        chars -= len(data)
        pages += rate * max(1, pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages"))
    for data in _images(body):
        chars -= len(data)
        pages += IMAGE_TOKENS
    return -(-chars // 4) + pages


def _images(value: Any) -> list[str]:
    """The base64 of every image block in a request body."""
    if isinstance(value, dict):
        source = value.get("source") if value.get("type") == "image" else None
        found = [str(source.get("data") or "")] if isinstance(source, dict) else []
        return found + [data for item in value.values() for data in _images(item)]
    if isinstance(value, list):
        return [data for item in value for data in _images(item)]
    return []


def _pdfs(value: Any) -> list[tuple[str, int]]:
    """(the base64, its tokens a page) of every PDF sent as a file in a request body."""
    found: list[tuple[str, int]] = []
    if isinstance(value, dict):
        source = value.get("source") if value.get("type") == "document" else None
        if isinstance(source, dict) and source.get("media_type") == "application/pdf":
            found.append((str(source.get("data") or ""), PDF_PAGE_TOKENS["document"]))
        inline = value.get("inlineData")
        if isinstance(inline, dict) and inline.get("mimeType") == "application/pdf":
            found.append((str(inline.get("data") or ""), PDF_PAGE_TOKENS["inlineData"]))
        for item in value.values():
            found += _pdfs(item)
    elif isinstance(value, list):
        for item in value:
            found += _pdfs(item)
    return found


@pytest.mark.parametrize(("client_name", "scenario"), SESSIONS)
def test_redirect_gives_the_asked_text_in_the_first_tool_result(workspace: Workspace, client_name: str,
                                                                scenario: str) -> None:
    got = session(workspace, client_name, scenario, "redirect")
    assert got.tool_calls == 1 + ((client_name, scenario) in CLIENT_REFUSES), got.results
    text = got.results[-1]
    assert "Not an error" not in text  # not a deny
    if scenario == "read-pdf":
        assert HEADER in text and "12 pages" in text and "pages 1-12 of 12" in text
        assert "--grep PATTERN" in text
    elif scenario == "read-log" and client_name == "claude":
        assert LINE_1 in text and "request 00001000 served" not in text  # a bounded range of the log
    elif scenario == "read-log":  # over Gemini CLI's 20 MB: a slice file, which it reads
        assert "[boundread redirect] big.log: text file, 5" in text and "request 00001000 served" not in text
    elif scenario == "cat-pdf":
        assert "--- page 1 / 12 ---" in text and "%PDF-1." not in text
    elif scenario == "cat-log":  # its overview: the first and last lines, the commands for more
        assert "its first 6 and last 6 lines" in text and "boundread extract big.log --lines 7-206" in text
        assert len(text) < 2_500


#: The one row where redirect costs more input than no boundread: Gemini CLI sends a 12-page PDF as a file, at 258
#: tokens a page - about what its text costs - so what is left is what ``init`` adds to every request, the
#: instructions in GEMINI.md (a PDF of 100 pages natively costs 25,800 tokens, its redirected first part ~5,000).
INSTRUCTIONS_ONLY = {("gemini", "read-pdf")}


@pytest.mark.parametrize(("client_name", "scenario"), SESSIONS)
def test_redirect_is_never_worse_than_no_boundread(tmp_path_factory: pytest.TempPathFactory, client_name: str,
                                                   scenario: str) -> None:
    """Per client and scenario: no more calls until the model has the asked text, and no more input tokens, than
    the client without boundread (issue 21 item 4); where the client reads the file natively about as cheaply
    (INSTRUCTIONS_ONLY), no more than the instructions ``init`` adds to each request."""
    native = session(Workspace(tmp_path_factory.mktemp("native")), client_name, scenario, "native")
    redirect = session(Workspace(tmp_path_factory.mktemp("redirect")), client_name, scenario, "redirect")
    assert redirect.tool_calls <= native.tool_calls, (native.results, redirect.results)
    allowance = 0
    if (client_name, scenario) in INSTRUCTIONS_ONLY:  # what init adds to each request: the first ones differ by it
        allowance = redirect.requests * (redirect.first_tokens - native.first_tokens)
        assert 0 < allowance <= redirect.requests * 1_000  # GEMINI.md's instructions, and no more
    assert redirect.input_tokens <= native.input_tokens + allowance, (native.input_tokens, redirect.input_tokens)


@pytest.mark.parametrize(("client_name", "scenario"), SESSIONS)
def test_deny_mode_needs_more_turns_and_more_tokens(tmp_path_factory: pytest.TempPathFactory, client_name: str,
                                                    scenario: str) -> None:
    deny = session(Workspace(tmp_path_factory.mktemp("deny")), client_name, scenario, "deny")
    redirect = session(Workspace(tmp_path_factory.mktemp("redirect")), client_name, scenario, "redirect")
    if (client_name, scenario) in CLIENT_REFUSES:  # the same advice in both modes
        assert deny.tool_calls == redirect.tool_calls
        return
    assert "Not an error: boundread refused this on purpose" in deny.results[0]
    if (client_name, scenario) == ("gemini", "read-log"):  # over its 20 MB: no range of it works, a command does
        assert "start_line" not in deny.results[0] and "refuses a file this big" in deny.results[0]
    assert deny.tool_calls > redirect.tool_calls
    assert redirect.overhead_chars == 0 < deny.overhead_chars
    assert deny.input_chars > redirect.input_chars, (deny.input_chars, redirect.input_chars)


@pytest.mark.parametrize("scenario", ["read-pdf", "read-log", "cat-log"])
def test_post_tool_batch_is_silent_about_what_it_redirected(workspace: Workspace, scenario: str) -> None:
    """Claude Code's PostToolBatch sees the call as the model made it (a whole Read, ``cat huge.log``); after a
    redirect the model has the first part and the next step, so no "read them in bounded parts instead"."""
    client = CLIENTS["claude"]
    prepare(workspace, client, "redirect")
    with client.fake_model() as model:
        model.script(*script(client, scenario, "redirect", workspace))
        client.run(workspace, model, "Read the file")
        assert len(client.results(model)) == 1
        sent = json.dumps([exchange.body for exchange in model.loop()])
    assert "boundread redirect" in sent  # the redirect's own context reached the model
    assert "should not) read these files whole" not in sent and "PostToolBatch hook" not in sent


def test_redirect_falls_back_to_deny_for_a_read_with_a_range(workspace: Workspace) -> None:
    """The agent asked for that part: the deny says why it is too much (Claude Code itself refuses over 20
    pages, so the guard's cap is lowered here)."""
    prepare(workspace, CLIENTS["claude"], "redirect", "pdf_page_cap = 5\n")
    pdf = str(workspace.project / "report.pdf")
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Read", {"file_path": pdf, "pages": "1-10"}),)), Turn(text="ok"))
        claude.run(workspace, model, "Read pages")
        (answer,) = claude.results(model)
    assert "Not an error: boundread refused this on purpose" in answer


def test_a_repeated_redirect_reuses_the_cached_slice(workspace: Workspace) -> None:
    prepare(workspace, CLIENTS["claude"], "redirect")
    pdf = str(workspace.project / "report.pdf")
    with claude.fake_model() as model:
        model.script(Turn(calls=(Call("Read", {"file_path": pdf}),)), Turn(calls=(Call("Read", {"file_path": pdf}),)),
                     Turn(text="ok"))
        claude.run(workspace, model, "Read it twice")
        first, second = claude.results(model)
    assert HEADER in first and HEADER in second
    index = json.loads((workspace.out / ".boundread-redirect.json").read_text(encoding="utf-8"))
    assert len(index) == 1
    assert sorted(p.name for p in workspace.out.iterdir()) == [
        ".boundread-redirect.json", ".gitignore", next(iter(index.values()))["file"]]
