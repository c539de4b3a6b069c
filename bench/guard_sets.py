"""The guard against the command sets in tests/guard/sets: the pre-tool bypass and the false denies.

    .venv/bin/python bench/guard_sets.py                      # both parts, deny mode, a table per class
    .venv/bin/python bench/guard_sets.py --part tuning --failures
    .venv/bin/python bench/guard_sets.py --mode redirect --run   # what the rewrites print, run for real
    .venv/bin/python bench/guard_sets.py --run --labels       # check each label: run every command for real
    .venv/bin/python bench/guard_sets.py --backstop           # what reaches the model after both hooks

Each command goes to guard-check (``boundread.hook.main.run``, in this process) as a Claude Code PreToolUse
payload, from the folder tests/guard/sets/workspace.py builds (in ``--work DIR``, default a tmp folder; reused
when it is there). A dump that is allowed is a bypass; an everyday command that is denied is a false deny.

``--run`` runs commands for real (``bash -c`` in the folder, 10 s each, output read up to 4 MB): with ``--labels``
every case, to check that each dump prints over 256 KB and each everyday command under 25,000 characters (a
program that is not installed - exit 127 - or a remote host cannot say: "unverified"); in redirect mode the
command each rewrite runs instead, to show what reaches the model. Nothing here is asserted: the test
tests/guard/test_guard_heldout.py asserts the rates.

``--backstop`` runs every command the pre-tool guard lets run (in redirect mode, the rewrite; with ``--alone``
every command, the backstop alone), for real, and
hands its output to the PostToolUse/AfterTool backstop (``boundread.hook.posttool``) as each client would: a
Claude Code Bash ``tool_response`` (over 30,000 characters: the first 30,000, and the rest in the file Claude
Code keeps, ``persistedOutputPath``), a Gemini CLI ``AfterTool`` (``llmContent`` and ``returnDisplay``) and a
Codex ``PostToolUse`` (the output as one string). What reaches the model is the backstop's answer, or the
output itself when it gives none; counted in tokens as boundread counts them (4 characters a token), before
(the old cap: the guard's 256 kB text cap) and now (the result goal, 25,000 tokens). The clients' own cuts
(Claude Code's 30,000 characters inline, Gemini's 40,000, Codex's output policy) are left out: a user can
raise each. An output is read up to READ_MOST, which decides over or under the goal all the same.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "guard"))
sys.path.insert(0, str(ROOT / "src"))

from sets import cases, workspace  # noqa: E402

DUMP_BYTES = 256 * 1024
EVERYDAY_CHARS = 25_000
READ_MOST = 4 * 1024 * 1024


def measured(command: str, cwd: Path) -> tuple[int, int | None]:
    """(characters printed on stdout and stderr, exit code; None when it ran out of time) - read up to READ_MOST."""
    data, code = captured(command, cwd)
    return len(data), code


def captured(command: str, cwd: Path) -> tuple[bytes, int | None]:
    """(what it printed on stdout and stderr, exit code; None when it ran out of time) - read up to READ_MOST."""
    with subprocess.Popen(["bash", "-c", command], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          stdin=subprocess.DEVNULL, start_new_session=True) as proc:
        assert proc.stdout is not None
        got = 0
        parts: list[bytes] = []
        try:
            import selectors
            import time

            deadline = time.monotonic() + 10
            with selectors.DefaultSelector() as sel:
                sel.register(proc.stdout, selectors.EVENT_READ)
                while got < READ_MOST and time.monotonic() < deadline:
                    if not sel.select(max(0.0, deadline - time.monotonic())):
                        break
                    chunk = os.read(proc.stdout.fileno(), 65536)
                    if not chunk:
                        break
                    got += len(chunk)
                    parts.append(chunk)
        finally:
            timed_out = proc.poll() is None
            if timed_out:
                os.killpg(proc.pid, 9)
                proc.wait()
        return b"".join(parts)[:READ_MOST], None if timed_out else proc.returncode


def label_note(case: cases.Case, size: int, code: int | None) -> str:
    """'' when the real output fits the case's label, else what is off."""
    if case.kind == "dumps":
        if size > DUMP_BYTES or code is None:
            return ""
        return "unverified (not installed or no such host)" if code in (127, 255) or case.cls == "remote" \
            else f"printed only {size:,} (exit {code})"
    return f"printed {size:,} characters" if size > EVERYDAY_CHARS else ""


CLIENTS = ("claude", "gemini", "codex")
GOAL_TOKENS = 25_000  # the result goal: no tool output over this reaches the model
OLD_CAP = 256_000  # the backstop's cap before: the guard's text_max_bytes
CLAUDE_INLINE = 30_000  # characters of Bash output Claude Code keeps in the payload (BASH_MAX_OUTPUT_LENGTH)


def post_payload(client: str, case: cases.Case, output: str, cwd: Path, scratch: Path) -> dict[str, Any]:
    """The post-tool payload ``client`` sends for ``output`` (the shapes tests/e2e/test_posttool.py captured)."""
    command = {"command": case.command}
    if client == "gemini":
        wrapped = f"<untrusted_context>\nOutput: {output}\nProcess Group PGID: 7\n</untrusted_context>"
        return {"session_id": "sets", "cwd": str(cwd), "hook_event_name": "AfterTool",
                "tool_name": "run_shell_command", "tool_input": command,
                "tool_response": {"llmContent": wrapped, "returnDisplay": output}}
    if client == "codex":
        return {"session_id": "sets", "turn_id": "t1", "cwd": str(cwd), "hook_event_name": "PostToolUse",
                "tool_name": "Bash", "tool_input": command, "tool_response": output, "tool_use_id": "call_1"}
    response: dict[str, Any] = {"stdout": output, "stderr": "", "interrupted": False, "isImage": False,
                                "noOutputExpected": False}
    if len(output) > CLAUDE_INLINE:  # Claude Code keeps the whole in its own file
        kept = scratch / "claude-persisted.txt"
        kept.write_text(output, encoding="utf-8", errors="replace")
        response.update(stdout=output[:CLAUDE_INLINE], persistedOutputPath=str(kept),
                        persistedOutputSize=kept.stat().st_size)
    return {"session_id": "sets", "cwd": str(cwd), "hook_event_name": "PostToolUse", "tool_name": case.tool,
            "tool_input": command, "tool_response": response, "tool_use_id": "toolu_sets"}


def reaching(client: str, payload: dict[str, Any]) -> str | None:
    """What the backstop hands the model instead of the output; None when it lets the output through."""
    from boundread.hook import posttool

    reply = posttool.answer(payload)
    if not reply:
        return None
    body = json.loads(reply)
    return str(body["hookSpecificOutput"]["updatedToolOutput"]["stdout"] if client == "claude" else body["reason"])


def backstop(case: cases.Case, command: str, work: Path, scratch: Path) -> dict[str, tuple[int, int, int]]:
    """Per client: (tokens of the output, tokens that reached the model before, tokens that reach it now)."""
    data, _ = captured(command, work)
    output = data.decode("utf-8", "replace")
    tokens = -(-len(output) // 4)
    out: dict[str, tuple[int, int, int]] = {}
    for client in CLIENTS:
        now = reaching(client, post_payload(client, case, output, work, scratch))
        binary = now is not None and len(data) <= OLD_CAP and "binary data" in now
        before = tokens if len(data) <= OLD_CAP and not binary else -(-len(now or "") // 4)
        out[client] = (tokens, before, tokens if now is None else -(-len(now) // 4))
    return out


def backstop_report(part: str, runs: list[tuple[cases.Case, dict[str, tuple[int, int, int]]]],
                    failures: bool) -> None:
    """The per-client counts of outputs over the goal: produced, reaching the model before, reaching it now."""
    dumps = [(case, got) for case, got in runs if case.kind == "dumps"]
    print(f"\n{part} part, backstop: {len(dumps)} dumps ran, "
          f"{len(runs) - len(dumps)} everyday commands")
    print(f"{'client':<9}{'over 25k tokens':>17}{'reached before':>16}{'reach now':>11}{'everyday replaced':>19}")
    for client in CLIENTS:
        over = sum(got[client][0] > GOAL_TOKENS for _, got in dumps)
        before = sum(got[client][1] > GOAL_TOKENS for _, got in dumps)
        now = sum(got[client][2] > GOAL_TOKENS for _, got in dumps)
        everyday = sum(got[client][2] < got[client][0] for case, got in runs if case.kind == "everyday")
        print(f"{client:<9}{over:>17}{before:>16}{now:>11}{everyday:>19}")
        if failures:
            for case, got in runs:
                if got[client][2] > GOAL_TOKENS or (case.kind == "everyday" and got[client][2] < got[client][0]):
                    print(f"  [{client} {case.kind} {case.cls}] {case.command!r}: {got[client][0]:,} tokens -> "
                          f"{got[client][2]:,}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, help="the workspace folder (built there when missing)")
    parser.add_argument("--part", choices=(*cases.PARTS, "all"), default="all")
    parser.add_argument("--mode", choices=("deny", "redirect"), default="deny")
    parser.add_argument("--failures", action="store_true", help="list each bypass and false deny")
    parser.add_argument("--run", action="store_true", help="run commands for real (see above)")
    parser.add_argument("--labels", action="store_true", help="with --run: check every case's label")
    parser.add_argument("--backstop", action="store_true",
                        help="run what the pre-tool guard lets run and count what reaches the model (see above)")
    parser.add_argument("--alone", action="store_true",
                        help="with --backstop: run every command, as if there were no pre-tool hook")
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="boundread-sets-")
    for name, value in (("XDG_CONFIG_HOME", "config"), ("BOUNDREAD_STATE_DIR", "state"), ("BOUNDREAD_OUT_DIR", "out"),
                        ("XDG_STATE_HOME", "xstate")):
        os.environ[name] = str(Path(scratch) / value)
    for name in [name for name in os.environ if name.startswith("BOUNDREAD_GUARD_")]:
        del os.environ[name]
    work = args.work or Path(tempfile.gettempdir()) / "boundread-sets-work"
    if not (work / "repo").exists():
        print(f"building the workspace in {work} ...", file=sys.stderr)
        workspace.build(work)
    parts = cases.PARTS if args.part == "all" else (args.part,)
    for part in parts:
        table: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # dumps, bypass, everyday, false deny
        failures: list[str] = []
        notes: list[str] = []
        runs: list[tuple[cases.Case, dict[str, tuple[int, int, int]]]] = []
        for kind in cases.KINDS:
            for case in cases.load(kind, part):
                answer = cases.ask(case, work, args.mode)
                row = table[case.cls]
                wrong = (answer.decision == "allow" and answer.command == case.command) if kind == "dumps" \
                    else answer.decision == "deny"
                row[0 if kind == "dumps" else 2] += 1
                row[1 if kind == "dumps" else 3] += wrong
                if wrong:
                    failures.append(f"  {'bypass' if kind == 'dumps' else 'false deny'} [{case.cls}] {case.command}"
                                    + (f"\n      {answer.reason[:300]}" if kind == "everyday" else ""))
                if args.run and args.labels:
                    note = label_note(case, *measured(case.command, work))
                    if note:
                        notes.append(f"  [{kind} {case.cls}] {case.command!r}: {note}")
                if args.backstop and (answer.decision == "allow" or args.alone):
                    runs.append((case, backstop(case, answer.command, work, Path(scratch))))
                if args.run and answer.command != case.command:
                    size, code = measured(answer.command, work)
                    notes.append(f"  rewrite [{case.cls}] {case.command!r} -> {answer.command!r}: {size:,} characters "
                                 f"(exit {code})")
        dumps = sum(row[0] for row in table.values())
        bypass = sum(row[1] for row in table.values())
        everyday = sum(row[2] for row in table.values())
        false = sum(row[3] for row in table.values())
        print(f"\n{part} part, {args.mode} mode: bypass {bypass}/{dumps} = {100 * bypass / max(dumps, 1):.1f}%, "
              f"false denies {false}/{everyday} = {100 * false / max(everyday, 1):.1f}%")
        print(f"{'class':<14}{'dumps':>7}{'bypass':>8}{'everyday':>10}{'false deny':>12}")
        for cls, (n, b, e, f) in sorted(table.items()):
            print(f"{cls:<14}{n:>7}{b:>8}{e:>10}{f:>12}")
        if args.failures and failures:
            print("\n".join(failures))
        if notes:
            print("\n".join(notes))
        if args.backstop:
            backstop_report(part, runs, args.failures)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
