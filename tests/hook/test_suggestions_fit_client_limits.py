"""Every suggestion fits the client it is made for: no deny reason or redirect rewrite offers a command, a range or a
slice the client's own tools would refuse or cut, and every suggested command carries its bound.

The limits are the clients' own, in their modules (``READ_MAX_BYTES``: the whole-file cap of the read tool;
``READ_FILE_MAX_BYTES``: the size past which it refuses any range; ``READ_MAX_LINES``, ``READ_MAX_TOKENS``,
``SHELL_MAX_CHARS``; None where a client has none). Each client's payloads go through guard-check in deny mode and
in redirect mode, and everything the model would be told to run or given to read is checked against them.
"""

from __future__ import annotations

import io
import json
import re
import shlex
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

from boundread import agents
from boundread.guard.reason import FIT_CHARS, OPENING
from boundread.hook import main as guard_main
from boundread.hook import slices

CLIENTS = ("claude", "codex", "gemini", "copilot", "cursor")
MB = 1024 * 1024
LOG_LINE = "2026-11-29T08:00:{s:02d}Z INFO worker-{w} request {n:08d} served in 12 ms, upstream=backend-{b}\n"


def _log(path: Path, size: int) -> Path:
    block = "".join(LOG_LINE.format(s=n % 60, w=n % 4, n=n, b=n % 7) for n in range(10_000))
    with path.open("w", encoding="utf-8") as out:
        for _ in range(size // len(block) + 1):
            out.write(block)
    return path


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A PDF, a workbook, a Word file, a 6 MB and a 50 MB log (over Gemini CLI's 20 MB), a zip with a big text
    member, and a source tree a recursive grep prints too much of."""
    root = tmp_path_factory.mktemp("limits")
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("helvetica", size=9)
    for number in range(30):
        pdf.add_page()
        pdf.multi_cell(0, 4, text=f"PAGE-{number + 1}. " + "Revenue rose while costs held steady. " * 60)
    pdf.output(str(root / "report.pdf"))
    import xlsxwriter

    book = xlsxwriter.Workbook(str(root / "prices.xlsx"))
    sheet = book.add_worksheet("Prices")
    for row in range(3000):
        sheet.write_row(row, 0, [f"item {row}", row * 1.5, "a long description of the item " * 3])
    book.close()
    import docx

    document = docx.Document()
    for number in range(400):
        document.add_paragraph(f"Paragraph {number}: " + "the memo says a great deal about little. " * 10)
    document.save(str(root / "memo.docx"))
    _log(root / "app.log", 6 * MB)
    _log(root / "big.log", 50 * MB)
    with zipfile.ZipFile(root / "bundle.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("notes.txt", (root / "app.log").read_text(encoding="utf-8")[:400_000])
        for number in range(300):
            archive.writestr(f"docs/part-{number:03d}.txt", "x")
    src = root / "src"
    src.mkdir()
    for number in range(40):
        (src / f"module{number}.py").write_text("request = handle(request)  # the request goes on\n" * 2000,
                                                encoding="utf-8")
    return root


def _payload(client: str, root: Path, *, path: str = "", command: str = "") -> dict[str, Any]:
    """The client's own pre-tool payload for a whole read of ``path`` or a run of ``command``."""
    cwd = str(root)
    if client in ("claude", "codex"):
        tool, args = ("Read", {"file_path": path}) if path else ("Bash", {"command": command})
        extra = {"turn_id": "t"} if client == "codex" else {"tool_use_id": "u"}
        return {"session_id": "s", "transcript_path": "/t", "cwd": cwd, "hook_event_name": "PreToolUse",
                "tool_name": tool, "tool_input": args, **extra}
    if client == "gemini":
        tool, args = ("read_file", {"file_path": path}) if path else ("run_shell_command", {"command": command})
        return {"session_id": "s", "cwd": cwd, "hook_event_name": "BeforeTool", "timestamp": "2026-12-01T00:00:00Z",
                "tool_name": tool, "tool_input": args}
    if client == "copilot":
        tool, args = ("view", {"path": path}) if path else ("bash", {"command": command})
        return {"sessionId": "s", "timestamp": 1, "cwd": cwd, "toolName": tool, "toolArgs": json.dumps(args)}
    if path:
        return {"hook_event_name": "beforeReadFile", "conversation_id": "c", "file_path": path, "cwd": cwd}
    return {"hook_event_name": "beforeShellExecution", "conversation_id": "c", "command": command, "cwd": cwd}


def _answer(client: str, payload: dict[str, Any], mode: str) -> dict[str, Any]:
    out = io.StringIO()
    import contextlib

    with contextlib.redirect_stdout(out):
        guard_main.run(["--mode", mode, "--agent", client, "--json"], io.StringIO(json.dumps(payload)))
    answer: dict[str, Any] = json.loads(out.getvalue())
    return answer


def _limit(client: str, name: str) -> int | None:
    value = getattr(agents.module(client), name, None)
    return value if isinstance(value, int) else None


#: (scenario, the whole read's path or None, the command)
SCENARIOS = [
    ("pdf", "report.pdf", "cat report.pdf"),
    ("xlsx", "prices.xlsx", "cat prices.xlsx"),
    ("docx", "memo.docx", "cat memo.docx"),
    ("log", "app.log", "cat app.log"),
    ("log over 20 MB", "big.log", "cat big.log"),
    ("log's end", None, "tail -n 100000 big.log"),
    ("zip member", "bundle.zip", "unzip -p bundle.zip notes.txt"),
    ("grep over a tree", None, "grep -rn request src"),
    ("grep of one log", None, "grep INFO app.log"),
]
#: A command line where a reason, a context or a header names one: at a line's start, or after a colon
_COMMAND = re.compile(r"(?:^|: )\s*((?:boundread|grep|wc|head|tail|sed) [^\n`]*)")
_COUNTS = ("grep -c", "wc -l", "wc ")
_VERBS = ("info", "extract", "pages", "sheets", "list-zip", "view", "chunks")


def _commands(text: str) -> list[str]:
    """The command lines a reason, a context or a slice's header tells the model to run."""
    found = []
    text = re.sub(r"`[^`]*`", "``", text)  # a command in backquotes is the one refused (or run), not suggested
    for line in text.splitlines():
        for match in _COMMAND.finditer(line):
            command = match.group(1).split("   (")[0].rstrip(" .;")
            if command.startswith("boundread ") and command.split()[1:2] not in ([verb] for verb in _VERBS):
                continue  # prose ("boundread refused this"), not a command
            found.append(command)
    return found


def _check_command(client: str, command: str) -> None:
    """A bound on what ``command`` prints (or writes, then read whole with the client's read tool), and the bound
    within the client's limits."""
    words = shlex.split(command)
    if command.startswith(_COUNTS):
        return  # a count: one line per file
    assert words[0] == "boundread" or "-m" in words or any(w.startswith(("-n", "-c")) for w in words), command
    if words[0] != "boundread":
        return
    verb = words[1]
    if verb in ("info",):
        return
    if verb == "list-zip":
        assert "--max-entries" in words, f"unbounded listing: {command}"
        assert int(words[words.index("--max-entries") + 1]) * 120 <= FIT_CHARS * 2, command
        return
    assert "--max-chars" in words, f"{client}: no bound on what it prints: {command}"
    chars = int(words[words.index("--max-chars") + 1])
    if "--stdout" in words:
        shell = _limit(client, "SHELL_MAX_CHARS")
        assert shell is None or chars <= shell, f"{client} shows {shell:,} characters of a shell output: {command}"
    else:  # written to a file the agent then reads whole with its read tool
        whole = _limit(client, "READ_MAX_BYTES")
        assert whole is None or chars <= whole, f"{client}'s read tool refuses a file over {whole:,}: {command}"
    tokens = _limit(client, "READ_MAX_TOKENS")
    assert tokens is None or chars // 3 <= tokens, command


def _check_read(client: str, root: Path, original: str, updated: dict[str, Any]) -> None:
    """A rewritten read: the file it reads and the part of it fit the client's read tool."""
    target = Path(str(updated.get("file_path") or updated.get("path") or updated.get("absolute_path")))
    target = target if target.is_absolute() else root / target
    size = target.stat().st_size
    cap = _limit(client, "READ_FILE_MAX_BYTES")
    assert cap is None or size <= cap, f"{client} refuses {target.name} ({size:,} bytes) whatever the range"
    module = agents.module(client)
    first, last = getattr(module, "READ_RANGE", ("", ""))
    lines = _limit(client, "READ_MAX_LINES")
    if first in updated:  # a range of the file: as many lines as it may read, their bytes within its caps
        count = int(updated[last]) - (int(updated[first]) - 1 if last != "limit" else 0)
        assert lines is None or count <= lines, (client, updated)
        with target.open("rb") as fh:
            part = b"".join(fh.readline() for _ in range(count))
        tokens = _limit(client, "READ_MAX_TOKENS")
        assert tokens is None or len(part) // 3 <= tokens, (client, len(part))
        return
    assert target.name != original, f"{client}: the whole file again: {updated}"
    whole = _limit(client, "READ_MAX_BYTES")
    assert whole is None or size <= whole, f"{client}'s read tool refuses a slice of {size:,} bytes"
    text = target.read_text(encoding="utf-8")
    assert lines is None or text.count("\n") <= lines, client
    header = text.split("-" * 72, 1)[0]
    for command in _commands(header):
        _check_command(client, command)


def _check_shell(client: str, root: Path, command: str) -> None:
    """A rewritten command: its output cut (``| head -c N``), a bounded boundread command, or a file the hook
    wrote printed whole - within what the client shows of a shell output."""
    shell = _limit(client, "SHELL_MAX_CHARS")
    cut = re.search(r"\| (?:head|tail) -c (\d+)$", command)
    if cut:
        assert shell is None or int(cut.group(1)) <= shell, (client, command)
        return
    if command.startswith("cat <<"):  # a text printed from a here-document: what it prints, and what that names
        printed = subprocess.run(["bash", "-c", command], cwd=root, capture_output=True, text=True, check=True,
                                 timeout=30).stdout
        assert shell is None or len(printed) <= shell, (client, len(printed))
        for suggested in _commands(printed.split("-" * 72)[0]):
            _check_command(client, suggested)
        return
    _check_command(client, command)


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize(("scenario", "path", "command"), SCENARIOS)
def test_what_the_guard_suggests_fits_the_client(tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 client: str, scenario: str, path: str | None, command: str) -> None:
    monkeypatch.setenv("BOUNDREAD_OUT_DIR", str(tmp_path / "out"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv("BOUNDREAD_GUARD_MODE", raising=False)
    calls = [{"command": command}] + ([{"path": str(tree / path)}] if path and client != "codex" else [])
    for call in calls:
        for mode in ("deny", "redirect"):
            answer = _answer(client, _payload(client, tree, **call), mode)
            what = f"{client} {scenario} {mode} {call}"
            assert answer["decision"] == "deny" or answer.get("updated_input"), f"{what}: allowed whole: {answer}"
            texts = [answer.get("reason", ""), answer.get("context", "")]
            updated = answer.get("updated_input")
            if updated is not None:
                assert mode == "redirect" and agents.rewrites(client), what
                shell = next((updated[k] for k in ("command", "cmd") if isinstance(updated.get(k), str)), None)
                if shell is not None:
                    _check_shell(client, tree, shell)
                else:
                    _check_read(client, tree, Path(str(path)).name, updated)
            elif answer["decision"] == "deny":
                assert answer["reason"].startswith(OPENING), what
            for text in texts:
                for suggested in _commands(text):
                    _check_command(client, suggested)
                cut = re.findall(r"(?:head|tail) -c (\d+)", text)
                shell_cap = _limit(client, "SHELL_MAX_CHARS")
                assert shell_cap is None or all(int(n) <= shell_cap for n in cut), what
            reason = answer.get("reason", "")
            range_params = agents.range_params(client)
            cap = _limit(client, "READ_FILE_MAX_BYTES")
            if path and "path" in call and cap is not None and (tree / path).stat().st_size > cap:
                assert range_params not in reason, f"{what}: a range of a file the client refuses"
            said = re.search(r"at most (\d+) lines", reason)
            lines = _limit(client, "READ_MAX_LINES")
            assert said is None or lines is None or int(said.group(1)) <= lines, what


def test_gemini_reads_a_slice_of_a_log_over_20_mb(tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Gemini CLI refuses read_file of any file over 20 MB whatever the range: the redirect gives it a slice
    file of the first part (in the output folder), and the deny names commands, not start_line/end_line."""
    monkeypatch.setenv("BOUNDREAD_OUT_DIR", str(tmp_path / "out"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    payload = _payload("gemini", tree, path=str(tree / "big.log"))
    answer = _answer("gemini", payload, "redirect")
    sliced = Path(answer["updated_input"]["file_path"])
    assert sliced.parent == tmp_path / "out" and set(answer["updated_input"]) == {"file_path"}
    text = sliced.read_text(encoding="utf-8")
    assert text.startswith("[boundread redirect] big.log: text file, 52.")
    assert "request 00000000 served" in text and len(text) <= slices.SLICE_CHARS + 1_000
    deny = _answer("gemini", payload, "deny")["reason"]
    assert "start_line" not in deny and "refuses a file this big" in deny
    assert "boundread extract big.log --lines 1-500" in deny
    ranged = _payload("gemini", tree, path=str(tree / "big.log"))
    ranged["tool_input"].update(start_line=1, end_line=100)  # a range Gemini refuses all the same
    answer = _answer("gemini", ranged, "redirect")
    assert answer["decision"] == "deny" and "start_line" not in answer["reason"]
    small = _payload("gemini", tree, path=str(tree / "app.log"))
    small["tool_input"].update(start_line=1, end_line=100)
    assert _answer("gemini", small, "deny")["decision"] == "allow"  # under 20 MB a range is read

