"""The agent cannot lift its own cap (issue 18, budget/selfcap.py): each attempt the issue reports, and the
spellings around it, go through guard-check as the hook payload of a session that has a budget, and are denied
with one line that sends the user, not the agent, to their terminal; the limits and the count stay as they were.
What an agent needs to go on (status, reads, its own work) is still allowed.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boundread.budget.ledger import ledger_path
from boundread.budget.selfcmd import judge
from boundread.budget.selfwords import Protected
from boundread.budget.sidecar import path_for, seal_for
from boundread.cli.budget import budget_app
from boundread.hook.main import run as guard_check

_CALL_IDS = itertools.count(1)  # a new tool_use_id per call, as the clients give

SESSION = "capped-1"
CAP = 30
USER = "ask the user to do it from their own terminal"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project, and session SESSION capped at CAP calls, set by the user."""
    monkeypatch.delenv("BOUNDREAD_DEPTH", raising=False)
    folder = tmp_path / "proj"
    folder.mkdir()
    (folder / "notes.txt").write_text("hello\n", encoding="utf-8")
    done = CliRunner().invoke(budget_app, ["set", "--session", SESSION, "--max-calls", str(CAP)])
    assert done.exit_code == 0, done.stderr
    return folder


def _answer(project: Path, tool: str, tool_input: dict[str, object], session: str = SESSION) -> str | None:
    """guard-check on one PreToolUse payload: the deny reason, or None when the call may run."""
    payload = {"session_id": session, "transcript_path": str(project / "t.jsonl"), "cwd": str(project),
               "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": tool_input,
               "tool_use_id": f"t{next(_CALL_IDS)}"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = guard_check([], stdin=io.StringIO(json.dumps(payload)))
    assert code == 0
    text = out.getvalue()
    if not text:
        return None
    hook = json.loads(text)["hookSpecificOutput"]
    return str(hook["permissionDecisionReason"]) if hook.get("permissionDecision") == "deny" else None


def _bash(project: Path, command: str, session: str = SESSION) -> str | None:
    return _answer(project, "Bash", {"command": command, "description": "x"}, session)


def _limits() -> list[tuple[object, ...]]:
    with sqlite3.connect(ledger_path()) as db:
        return db.execute("SELECT scope, max_calls FROM limits ORDER BY scope").fetchall()


def _allowed_calls(session: str = SESSION) -> int:
    with sqlite3.connect(ledger_path()) as db:
        row = db.execute("SELECT calls FROM sessions WHERE id = ?", (session,)).fetchone()
    return int(row[0]) if row else 0


def _state() -> Path:
    return ledger_path().parent


# Each attempt the issue reports, and the spellings around it. @STATE@, @LEDGER@, @SIDE@, @SEAL@, @EXE@: the state
# folder, the ledger, its limits file, their sealed copy, the installed console script.
ATTEMPTS = [
    # budget set / reset, by name, full path, python -m and the wrappers around them
    f"boundread budget set --session {SESSION} --max-calls 1000000",
    f"@EXE@ budget set --session {SESSION} --max-calls 1000000",
    "boundread budget reset",
    f"@EXE@ budget reset --session {SESSION}",
    "python3 -m boundread budget reset",
    "python3.11 -m boundread.cli budget set --global --max-calls 5",
    f"uvx boundread budget reset --session {SESSION}",
    "uv run --with boundread boundread budget reset",
    "pipx run boundread budget reset",
    "env FOO=1 boundread budget reset",
    "sudo -u nobody boundread budget reset",
    "timeout 5 nohup boundread budget reset",
    "bash -c 'boundread budget reset'",
    "sh -c \"eval 'boundread budget reset'\"",
    "echo boundread budget reset | sh",
    "sh <<'EOF'\nboundread budget reset\nEOF",
    "bash <<< 'boundread budget reset'",
    f"echo {SESSION} | xargs -I{{}} boundread budget reset --session {{}}",
    "echo reset | xargs boundread budget",
    "find . -maxdepth 0 -exec boundread budget reset \\;",
    "$(which boundread) budget reset",
    "B=boundread; $B budget reset",
    "bound''read bud\"\"get re\\set",
    f"boundread budget exec -- boundread budget set --session {SESSION} --max-calls 999",
    "if true; then boundread budget reset; fi",
    "for s in reset; do boundread budget $s; done",
    "x=$(boundread budget reset)",
    f"boundread budget add --session {SESSION} --model m --input 1",
    "boundread budget ingest --transcript t.jsonl",
    "python3 -c \"import subprocess; subprocess.run(['boundread', 'budget', 'set', '--max-calls', '9'])\"",
    "python3 -c 'from boundread.budget.sqlite import SqliteLedger; SqliteLedger().reset(None)'",
    # the ledger, its limits file, their seal, the state folder, the user config
    "rm @LEDGER@ @SIDE@",
    "rm -f @LEDGER@",
    "rm -rf @STATE@",
    "rm -rf @STATE@/..",
    "rm -rf ~",
    "cd @STATE@ && rm -f *",
    "cd @STATE@/.. && rm -rf st*",
    "find @STATE@ -delete",
    "find @STATE@ -name '*.json' -exec rm {} +",
    "mv @STATE@ /tmp/elsewhere",
    "mv @LEDGER@ @LEDGER@.bak",
    ": > @LEDGER@",
    "echo '{}' > @SIDE@",
    "cat /dev/null >> @SIDE@",
    "truncate -s 0 @LEDGER@",
    "cp /dev/null @SIDE@",
    "cp -r /tmp/empty @STATE@/..",
    "install -m 644 /dev/null @LEDGER@",
    "ln -sf /dev/null @LEDGER@",
    "tee @SIDE@ < /dev/null",
    "dd if=/dev/zero of=@LEDGER@ count=1",
    "sqlite3 @LEDGER@ \"UPDATE sessions SET calls = 0\"",
    "sqlite3 @LEDGER@ \"DELETE FROM limits\"",
    "python3 -c \"import os; os.remove('@LEDGER@')\"",
    "perl -e 'unlink \"@SIDE@\"'",
    "python3 - <<'EOF'\nimport shutil\nshutil.rmtree('@STATE@')\nEOF",
    "rm @SEAL@",
    "D=@STATE@; rm -rf \"$D\"",
    "rm -rf $(echo @STATE@)",
    "tar xf /tmp/evil.tar -C @STATE@",
    "cd @STATE@ && unzip -o /tmp/evil.zip",
    "echo '[budget.prices]' > ~/.config/boundread/config.toml",
    "mkdir -p ~/.config/boundread && cp /tmp/x.toml ~/.config/boundread/config.toml",
    "python3 -c \"open(os.path.expanduser('~/.config/boundread/config.toml'), 'w')\"",
    "perl -MFile::Path=remove_tree -e 'remove_tree(\"@STATE@\")'",
    "ruby -e 'File.delete(\"@LEDGER@\")'",
    "node -e \"require('fs').rmSync('@STATE@', {recursive: true})\"",
    "awk 'BEGIN { system(\"boundread budget reset\") }'",
    "find ~ -name budget.sqlite3 -delete",
    "find / -name 'budget.*' -delete",
    "cd @STATE@ && python3 -c 'import os; [os.remove(f) for f in os.listdir()]'",
    "cp /tmp/backup.sqlite3 @LEDGER@",
    "rsync -a --delete /tmp/empty/ @STATE@/",
    "chmod 000 @STATE@",
    "ln -s @LEDGER@ /tmp/l && : > /tmp/l",
    "D=$(echo @STATE@); rm -rf \"$D\"",
    "sqlite3 \"$BOUNDREAD_STATE_DIR/budget.sqlite3\" 'DELETE FROM limits'",
    "nohup sh -c 'sleep 1; boundread budget reset' &",
    "printf reset | xargs -I% boundread budget %",
    # variables that move a nested run out of this budget
    "BOUNDREAD_STATE_DIR=/tmp/empty claude -p 'go on'",
    "export XDG_STATE_HOME=/tmp/empty",
    "XDG_CONFIG_HOME=/tmp/cfg boundread budget status",
    "BOUNDREAD_LEDGER_URL= claude -p 'go on'",
    "BOUNDREAD_BUDGET_PRICES='{\"claude-sonnet-4-5\": {\"input\": 0}}' claude -p 'go on'",
    "env BOUNDREAD_STATE_DIR=/tmp/empty claude -p 'go on'",
    "unset BOUNDREAD_STATE_DIR; claude -p 'go on'",
    # a $(...), backtick or <(...) that is a whole word runs too (each of these ran in the review)
    f"echo $(boundread budget set --session {SESSION} --max-calls 1000000)",
    "echo $(rm -rf @STATE@)",
    ": $(sqlite3 @LEDGER@ \"DELETE FROM limits\")",
    "echo `rm -f @SIDE@`",
    "cat <(boundread budget reset)",
    "for x in $(boundread budget reset); do :; done",
    "for x in `rm -f @LEDGER@`; do :; done",
    "cat <<EOF\n`boundread budget reset`\nEOF",
    # wrappers whose first word is not the command, and the commands tar runs
    "flock /tmp/l boundread budget reset",
    "flock -w 5 /tmp/l -c 'boundread budget reset'",
    "chrt 10 boundread budget reset",
    "taskset 0x1 boundread budget reset",
    "taskset -c 0 boundread budget reset",
    "tar cf /tmp/x.tar --checkpoint=1 --checkpoint-action=exec='boundread budget reset' notes.txt",
    # programs that read their files but write one too: sed in place or with `w`/`e`, uniq's and xxd's second
    "sed -Ei '$a [budget.prices]' ~/.config/boundread/config.toml",
    "sed -ni 's/a/b/' @SIDE@",
    "sed -ri 's/a/b/' @SIDE@",
    "sed -zi 's/a/b/' @SIDE@",
    "sed -si 's/a/b/' @SIDE@",
    "sed --in-place=.bak 's/a/b/' @SIDE@",
    "sed -ie 's/a/b/' @SIDE@",
    "sed -n 'w @SIDE@' /tmp/prices.toml",
    "sed 's/x/y/w @SIDE@' notes.txt",
    "sed -e '1e boundread budget reset' notes.txt",
    "sed 's/.*/boundread budget reset/e' notes.txt",
    "printf '[budget.prices]\\n' | uniq - ~/.config/boundread/config.toml",
    "xxd -r -p /tmp/hex @SIDE@",
    "tar czf @LEDGER@ notes.txt",
    "tar czf /tmp/b.tgz --remove-files @STATE@",
    "sqlite3 :memory: \"select writefile('@SIDE@', '{}')\"",
    "sqlite3 other.db \"ATTACH '@LEDGER@' AS l; DELETE FROM l.limits\"",
    "sqlite3 -readonly @LEDGER@ '.shell rm -f @LEDGER@'",
    "sqlite3 -readonly @LEDGER@ < /tmp/commands.sql",
    # the PostgreSQL ledger's address (its password, often): psql or psycopg with it can DELETE FROM limits
    "psql \"$BOUNDREAD_LEDGER_URL\" -c 'DELETE FROM limits'",
    "python3 -c \"import os, psycopg; psycopg.connect(os.environ['BOUNDREAD_LEDGER_URL']).execute('DELETE FROM x')\"",
    "python3 -c 'import os; print(os.getenv(\"BOUNDREAD_LEDGER_URL\"))'",
    "printenv BOUNDREAD_LEDGER_URL",
    "sh -c 'echo ${BOUNDREAD_LEDGER_URL}'",
    "v=BOUNDREAD_LEDGER_URL; echo ${!v}",
]

# What an agent under a budget still does: look at the budget, read its files, its own work.
ALLOWED = [
    "boundread budget status",
    f"boundread budget status --session {SESSION} --json",
    "boundread budget check",
    "boundread budget prices claude-sonnet-4-5",
    "boundread budget --help",
    "boundread budget set --help",
    "boundread info notes.txt",
    "boundread budget exec -- echo deeper",
    "cat @SIDE@",
    "ls -la @STATE@",
    "cp @LEDGER@ /tmp/a-copy.sqlite3",
    "grep -c max_calls @SIDE@",
    "rm -rf build/ && mkdir build",
    "echo 'the user runs: boundread budget set --max-calls 100'",
    "git commit -m 'boundread budget reset: docs'",
    "sqlite3 other.db 'select 1'",
    "python3 -c 'print(1)'",
    "find . -name '*.pyc' -delete",
    "XDG_CACHE_HOME=/tmp/c make test",
    "BOUNDREAD_DEPTH=1 claude -p 'a child'",
    "rm -rf \"$HOME/.config/nvim\"",
    "python3 -c \"open(os.path.expanduser('~/.config/other.json'))\"",
    "python3 -m pytest tests/budget -q",
    "perl -ne 'print' notes.txt",
    "boundread budget status --json | jq .",
    "grep -rn budget.sqlite3 src/ | head -3",
    # everyday commands the wider walk now follows
    "echo $(date) `git rev-parse HEAD`",
    "for f in $(ls); do wc -l $f; done",
    "cat <<'EOF'\n`boundread budget reset` is what the user runs\nEOF",
    "flock /tmp/l echo hi",
    "timeout 5 make -n",
    "/usr/bin/env ls",
    "./configure --help",
    # reads that looked like writes
    "tar czf /tmp/backup.tgz -C @STATE@/.. state",
    "tar tzf /tmp/backup.tgz",
    "sqlite3 -readonly @LEDGER@ 'select * from limits'",
    "sqlite3 -readonly -header @LEDGER@ .tables 'select scope from limits'",
    "sed -n '1,5p' @SIDE@",
    "sed -i 's/budget.sqlite3/ledger.sqlite3/' notes.txt",
    "sed -e 's/new/old/' notes.txt",
    "uniq -c @SIDE@",
    "xxd @LEDGER@ | head",
    "sort notes.txt | uniq -c",
    # the ledger URL's name as a word, and the environment where the URL is not set
    "grep -rn BOUNDREAD_LEDGER_URL src/ | head -3",
    "env | grep PATH",
]


def _fill(command: str) -> str:
    state = _state()
    ledger = state / "budget.sqlite3"
    seal = seal_for(path_for(str(ledger)))
    for mark, value in (("@STATE@", state), ("@LEDGER@", ledger), ("@SIDE@", state / "budget.limits.json"),
                        ("@SEAL@", seal), ("@EXE@", shutil.which("boundread") or "/usr/local/bin/boundread")):
        command = command.replace(mark, str(value))
    return command


@pytest.mark.parametrize("command", ATTEMPTS)
def test_each_attempt_to_lift_the_cap_is_refused(project: Path, command: str) -> None:
    before, counted = _limits(), _allowed_calls()
    reason = _bash(project, _fill(command))
    assert reason is not None and USER in reason, (command, reason)
    assert "\n" not in reason  # one line
    assert _limits() == before and _allowed_calls() == counted  # nothing changed; the refusal is not a call


@pytest.mark.parametrize("command", ALLOWED)
def test_what_the_agent_needs_stays_allowed(project: Path, command: str) -> None:
    assert _bash(project, _fill(command)) is None


def test_the_same_commands_are_allowed_where_no_budget_applies(project: Path) -> None:
    """The check is for the sessions a budget binds: an unbudgeted one is not watched (a global cap would be). The
    state folder is the guard's own ground in any guarded session, though (hook/ground.py), with its reason."""
    for command in ATTEMPTS[:3]:
        assert _bash(project, _fill(command), session="free") is None, command
    for command in ("rm -f @LEDGER@", "echo '{}' > @SIDE@"):
        reason = _bash(project, _fill(command), session="free") or ""
        assert "boundread's state folder" in reason and "may not change the guard that watches it" in reason


def test_depth_may_only_go_deeper(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOUNDREAD_DEPTH", "1")
    for command in ("BOUNDREAD_DEPTH=0 claude -p 'go on'", "env -u BOUNDREAD_DEPTH claude -p 'go on'",
                    "unset BOUNDREAD_DEPTH && claude -p x", "export BOUNDREAD_DEPTH=-1", "env -i claude -p x",
                    "BOUNDREAD_DEPTH=x claude -p 'go on'"):
        reason = _bash(project, command)
        assert reason is not None and USER in reason, command
    assert _bash(project, "BOUNDREAD_DEPTH=2 claude -p 'a child'") is None
    assert _bash(project, "BOUNDREAD_DEPTH=1 claude -p 'a sibling'") is None


def test_a_write_tool_on_the_budget_files_is_refused(project: Path) -> None:
    side = _state() / "budget.limits.json"
    config = Path(os.environ["XDG_CONFIG_HOME"]) / "boundread" / "config.toml"
    for tool, tool_input in (("Write", {"file_path": str(side), "content": "{}"}),
                             ("Edit", {"file_path": str(config), "old_string": "a", "new_string": "b"}),
                             ("write_file", {"file_path": str(_state() / "budget.sqlite3"), "content": ""}),
                             ("apply_patch", {"input": f"*** Begin Patch\n*** Delete File: {side}\n*** End Patch"})):
        reason = _answer(project, tool, tool_input)
        assert reason is not None and USER in reason, tool
    assert _answer(project, "Write", {"file_path": str(project / "x.txt"), "content": "boundread budget"}) is None
    assert _answer(project, "Read", {"file_path": str(side)}) is None


def test_refused_attempts_leave_the_cap_where_it_was(project: Path) -> None:
    """The issue's run: the next 45 calls passed a cap of 30. Now the cap still stops call CAP + 1."""
    for at in range(CAP // 2):
        assert _bash(project, f"echo {at}") is None
    for command in ATTEMPTS[:10]:
        assert _bash(project, _fill(command)) is not None
    for at in range(CAP // 2, CAP):
        assert _bash(project, f"echo {at}") is None, at
    reason = _bash(project, "echo one-more")
    assert reason is not None and f"call limit reached: call {CAP + 1} of max {CAP}" in reason


CONSOLE = "import sys; sys.argv[1:] = ['guard-check']; from boundread.__main__ import main; main()"
SLOW = {"dataclasses", "typing", "json", "re", "pathlib", "inspect", "contextlib", "decimal", "hashlib", "enum"}


def _imports(project: Path, command: str, session: str = SESSION) -> tuple[set[str], str]:
    """The modules one guard-check process imports for a Bash call, and its answer."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BOUNDREAD_GUARD_")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2] / "src")
    payload = {"session_id": session, "cwd": str(project), "hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": command}, "tool_use_id": f"t{next(_CALL_IDS)}", "transcript_path": "/t"}
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", CONSOLE], input=json.dumps(payload),
                          capture_output=True, text=True, env=env, cwd=project, timeout=60, check=True)
    return {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}, \
        done.stdout


def test_the_check_costs_nothing_without_a_budget_and_little_with_one(project: Path, tmp_path: Path) -> None:
    """No budget file anywhere: the self-cap check is not even imported. A budget, and a command that names
    nothing it is about: the cheap test only - no shell parse, no slow import. A suspect one is judged."""
    names, out = _imports(project, "git status")
    assert "boundread.budget.selfcap" in names and "boundread.budget.selfcmd" not in names and out == ""
    assert not names & SLOW, sorted(names & SLOW)
    names, out = _imports(project, "boundread budget status")
    assert "boundread.budget.selfcmd" in names and out == ""  # judged, and allowed
    names, out = _imports(project, "boundread budget reset")
    assert "deny" in out and USER in out
    shutil.rmtree(_state())
    Path(seal_for(path_for(str(ledger_path()))) or "").unlink()
    names, out = _imports(project, "boundread budget reset")
    assert "boundread.budget.selfcap" not in names and out == ""  # budgets were never set (as far as any file says)


def test_codex_and_gemini_shell_calls_are_judged_the_same(project: Path) -> None:
    """Codex sends an argv list (``bash -lc SCRIPT``), Gemini CLI ``run_shell_command``: the same refusals."""
    from boundread.budget.enforce import check_tool_call

    payload = {"session_id": SESSION, "cwd": str(project)}
    codex = check_tool_call(payload, "shell", {"command": ["bash", "-lc", "boundread budget reset"]})
    gemini = check_tool_call(payload, "run_shell_command", {"command": _fill("rm -rf @STATE@"), "dir_path": "."})
    assert codex is not None and USER in codex and gemini is not None and USER in gemini
    assert check_tool_call(payload, "shell", {"command": ["bash", "-lc", "boundread budget status"]}) is None


def test_a_script_run_by_its_path_is_read_as_bash_reads_it(project: Path) -> None:
    """`bash r.sh` was read and refused; `./r.sh`, `. ./r.sh` and the like ran the same script unread."""
    script = project / "r.sh"
    script.write_text("#!/bin/sh\nboundread budget reset\n", encoding="utf-8")
    script.chmod(0o755)
    code = project / "r.py"
    code.write_text("#!/usr/bin/env python3\nimport subprocess\nsubprocess.run(['boundread', 'budget', 'set',"
                    " '--max-calls', '9'])\n", encoding="utf-8")
    code.chmod(0o755)
    (project / "r2.py").write_text(code.read_text(encoding="utf-8"), encoding="utf-8")
    for command in ("bash r.sh", "./r.sh", ". ./r.sh", ". r.sh", "nohup ./r.sh &", "X=1 ./r.sh", str(script),
                    "if true; then ./r.sh; fi", "timeout 5 ./r.sh", "./r.py", "python3 -m r2"):
        reason = _bash(project, command)
        assert reason is not None and USER in reason, command
    fine = project / "ok.sh"
    fine.write_text("#!/bin/sh\necho fine\n", encoding="utf-8")
    fine.chmod(0o755)
    tool = project / "tool"
    shutil.copy(shutil.which("true") or "/bin/true", tool)  # a compiled program: nothing to read
    for command in ("./ok.sh", ". ./ok.sh", "./tool --version", "python3 -m pytest --version"):
        assert _bash(project, command) is None, command


def test_a_script_too_big_to_read_whole_is_refused(project: Path) -> None:
    """Only its first 64 KiB were read: a budget change after them ran unseen. Now it is not followed at all."""
    big = project / "big.sh"
    big.write_text("#!/bin/sh\n" + "# padding\n" * 7000 + "boundread budget reset\n", encoding="utf-8")
    big.chmod(0o755)
    for command in ("./big.sh", "bash big.sh", "source big.sh", "cat big.sh | sh"):
        reason = _bash(project, command)
        assert reason is not None and "too big" in reason and USER in reason, command


def test_a_command_padded_past_what_the_walk_follows_is_refused(project: Path) -> None:
    """The walk stops after a budget of steps; what came after them was not looked at. 25,000 no-op commands (50 KB,
    under the size limit) in a script, or in the command itself, and then the budget change."""
    padded = project / "pad.sh"
    padded.write_text("#!/bin/sh\n" + ":\n" * 25_000 + "boundread budget reset\n", encoding="utf-8")
    padded.chmod(0o755)
    inline = ": ;" * 25_000 + " boundread budget reset"
    protected = Protected(str(_state()), str(ledger_path()))
    for command in ("./pad.sh", "bash pad.sh", ". ./pad.sh", "cat pad.sh | sh", inline):
        assert _bash(project, command) is not None, command[:40]  # (the read guard may say no first)
        reason = judge(command, str(project), protected)
        assert reason is not None and "could not" in reason and USER in reason, command[:40]


def test_make_runs_the_recipes_of_its_targets(project: Path) -> None:
    """`make reset` ran a Makefile recipe `boundread budget reset`. The targets asked for (and what they need) are
    read; another target's recipe does not refuse `make test`."""
    (project / "Makefile").write_text(_fill(
        "test:\n\techo testing\n\nreset:\n\t@boundread budget reset\n\nall: clean\n\nclean:\n\trm -rf @STATE@\n"
        "\nwipe:\n\t$(RM) @LEDGER@\n"), encoding="utf-8")
    for command in ("make reset", "make all", "make -C . clean", "gmake wipe", "make -j 4 reset"):
        reason = _bash(project, command)
        assert reason is not None and USER in reason, command
    for command in ("make", "make test", "make -n test"):
        assert _bash(project, command) is None, command


def test_a_find_that_could_reach_the_budget_says_why(project: Path) -> None:
    reason = _bash(project, "find ~ -name '*.orig' -delete") or ""
    assert "could delete or change the budget's own files: it searches ~, which holds them" in reason
    assert USER in reason
    assert _bash(project, "find . -name '*.orig' -delete") is None


def test_a_refusal_is_one_line_whatever_the_command(project: Path) -> None:
    """The could-not-follow refusal showed the whole command, a here-document or a patch over many lines."""
    command = _fill("echo @LEDGER@ )\n" + "".join(f"line {n}\n" for n in range(30)))
    reason = _bash(project, command)
    assert reason is not None and "could not be followed whole" in reason and "\n" not in reason


def test_where_the_ledger_url_is_set_printing_the_environment_is_refused(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """BOUNDREAD_LEDGER_URL in the environment (the agent's too): `env`, `printenv`, `export -p`, `set`,
    /proc/self/environ would show it. Judged directly: with the variable set, guard-check would use that
    server (the PostgreSQL test below goes through guard-check)."""
    dumps = ("env", "env | grep -i url", "printenv", "printenv -0 | tr '\\0' '\\n'", "export -p", "declare -px",
             "set | grep BOUND", "cat /proc/self/environ", "typeset -x")
    others = ("printenv HOME", "env FOO=1 make -n", "declare -f", "set -e; echo hi", "declare -A seen")
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", "postgresql://hook:secret@db/fleet")
    protected = Protected(str(_state()), str(ledger_path()))
    for command in dumps:
        assert USER in (judge(command, str(project), protected) or ""), command
    for command in others:
        assert judge(command, str(project), protected) is None, command
    monkeypatch.delenv("BOUNDREAD_LEDGER_URL")
    protected = Protected(str(_state()), str(ledger_path()))
    for command in dumps:
        assert judge(command, str(project), protected) is None, command


def test_on_postgresql_the_server_says_whether_a_session_has_a_budget(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """The local copy of the fleet's limits is written when a call meets one: before that (a new machine, a
    budget set elsewhere) the check took the session for unbudgeted and let `budget reset` through."""
    monkeypatch.delenv("BOUNDREAD_DEPTH", raising=False)
    monkeypatch.setenv("BOUNDREAD_LEDGER_URL", request.getfixturevalue("pg_url"))
    folder = tmp_path / "proj"
    folder.mkdir()
    done = CliRunner().invoke(budget_app, ["set", "--session", SESSION, "--max-calls", str(CAP)])
    assert done.exit_code == 0, done.stderr
    cache = Path(os.environ["BOUNDREAD_STATE_DIR"]) / "budget.postgres.limits.json"
    cache.unlink()  # as on another machine of the fleet
    reason = _bash(folder, "boundread budget reset")
    assert reason is not None and USER in reason
    assert _bash(folder, "boundread budget reset", session="free") is None  # asked, and it has none
    assert _bash(folder, "echo hi") is None  # a call that names nothing: no question asked


def test_the_budgets_refusal_wins_over_the_guards_own_ground_and_ends_the_session(project: Path) -> None:
    """Both refuse `rm LEDGER` (the state folder is the guard's own ground too): a session with a budget gets the
    budget's refusal, which ends it; a session without one gets the guard's, which does not."""
    def hook(session: str) -> dict[str, object]:
        payload = {"session_id": session, "transcript_path": str(project / "t.jsonl"), "cwd": str(project),
                   "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": f"rm -f {ledger_path()}"}, "tool_use_id": f"t{next(_CALL_IDS)}"}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert guard_check([], stdin=io.StringIO(json.dumps(payload))) == 0
        return dict(json.loads(out.getvalue()))

    capped, free = hook(SESSION), hook("free")
    assert capped["continue"] is False and "change its own budget" in str(capped["hookSpecificOutput"])
    assert "continue" not in free and "may not change the guard that watches it" in str(free["hookSpecificOutput"])
    assert ledger_path().exists()
