"""What a command prints when the file alone cannot say (issue 19 parts 2 and 3): a grep's output estimated
from a sample of the file (a common pattern pours most of it, a rare one a few lines), and the parts several
bounded reads print added up (``head -n 1000 logs/*.log``)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from boundread.guard import check_command, estimate
from boundread.guard.bounds import Grep

LEVELS = ["INFO"] * 18 + ["WARN", "DEBUG"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("estimates")
    lines = [f"2026-03-01T00:{n % 60:02d}:00Z {LEVELS[n % 20]} [worker-{n % 7}] GET /api/items/{n} 200 user=bob\n"
             for n in range(40_000)]
    lines[20_000] = lines[20_000].replace("INFO", "ERROR")  # one rare line, in the middle
    (root / "big.log").write_text("".join(lines))  # ~3.2 MB: INFO 90%, WARN/DEBUG 5% each, ERROR once
    with gzip.open(root / "big.log.gz", "wt") as fh:
        fh.write("".join(lines))
    (root / "marks.log").write_text("".join(f"{'MARK' if n % 25 == 0 else 'line'} {n:08d} {'x' * 86}\n"
                                            for n in range(40_000)))  # 4 MB, 1 line in 25 marked: 160 KB
    (root / "bundle.min.js").write_text(";".join(f"var a{n}=function(b){{return b*{n}}}" for n in range(40_000)))
    (root / "logs").mkdir()
    for k in range(1, 7):  # 120 KB each: any one is under the cap, all six are not
        (root / "logs" / f"app-{k}.log").write_text("".join(lines[:1500]))
    (root / "small.txt").write_text("hello\n")
    return root


def _deny(command: str, cwd: Path) -> str | None:
    decision = check_command(command, cwd=cwd)
    return decision.reason if decision.denied else None


@pytest.mark.parametrize("command", [
    "grep INFO big.log", "grep -E 'INFO|WARN' big.log", "grep 'INFO\\|WARN' big.log", "grep -F '[worker-' big.log",
    "grep -v ERROR big.log", "cat big.log | grep INFO", "grep INFO big.log | sort", "rg INFO big.log",
    "grep -i info big.log", "grep -e INFO -e WARN big.log", "grep -C 3 MARK marks.log",
    "grep -o 'var a[0-9]*' bundle.min.js", "grep return bundle.min.js", "zgrep INFO big.log.gz",
    "grep -P 'INFO|WARN' big.log", "grep '[[:upper:]]\\{4\\}' big.log",
    "zcat big.log.gz | grep INFO", "gzip -dc big.log.gz | grep INFO", "gunzip -c big.log.gz | grep -v ERROR",
])
def test_a_grep_that_prints_most_of_a_big_file_is_denied(command: str, folder: Path) -> None:
    reason = _deny(command, folder)
    assert reason is not None, command
    assert "boundread extract" in reason or "grep -v" in reason


@pytest.mark.parametrize("command", [
    "grep ERROR big.log", "grep -n ERROR big.log", "grep -c INFO big.log", "grep -l INFO big.log logs/app-1.log",
    "grep -q INFO big.log && echo yes", "grep -m 50 INFO big.log", "grep INFO big.log | head -n 20",
    "grep INFO big.log | wc -l", "grep MARK marks.log", "grep -v INFO small.txt", "grep INFO big.log > /tmp/x.log",
    "zgrep ERROR big.log.gz", "grep -c 'var a' bundle.min.js", "rg -l INFO", "grep -w nothing-like-this big.log",
    "grep -x 'INFO' big.log", "grep -v '' big.log",
    "zcat big.log.gz | grep ERROR", "zcat big.log.gz | grep -m 5 INFO", "zcat big.log.gz | grep -c INFO",
    "cat big.log.gz | grep INFO",  # the compressed bytes: grep says "binary file matches"
    "gzip -c big.log.gz | grep INFO", "pigz -c big.log.gz | grep INFO",  # compressed again, not unpacked
])
def test_a_grep_that_prints_a_little_is_allowed(command: str, folder: Path) -> None:
    assert _deny(command, folder) is None, command


def test_the_reason_names_the_bounded_grep(folder: Path) -> None:
    reason = _deny("grep -A2 INFO big.log", folder)
    assert reason is not None
    assert "boundread extract big.log --grep INFO --context 2 --max-matches 200 --max-chars 20000 --stdout" in reason
    assert "grep -c -A2 INFO big.log" in reason
    inverted = _deny("grep -v DEBUG big.log", folder)
    assert inverted is not None and "grep -v -m 200 -- DEBUG big.log" in inverted


@pytest.mark.parametrize(("command", "count"), [
    ("cat big.log | grep INFO", "grep -c INFO big.log"),
    ("zcat big.log.gz | grep INFO", "zgrep -c INFO big.log.gz"),  # of the text the pipe carried
    ("gzip -dc big.log.gz | egrep 'INFO|WARN'", "zegrep -c 'INFO|WARN' big.log.gz"),
])
def test_a_piped_greps_count_names_the_file(folder: Path, command: str, count: str) -> None:
    """A count without the file would count the agent's empty stdin: 0, a wrong answer it would build on."""
    reason = _deny(command, folder)
    assert reason is not None
    assert f"  {count}   (how many lines match)" in reason, reason


def test_a_basic_pattern_is_given_to_extract_in_its_python_form(folder: Path) -> None:
    reason = _deny("grep 'INFO\\|WARN' big.log", folder)
    assert reason is not None and "--grep 'INFO|WARN'" in reason


@pytest.mark.parametrize(("pattern", "syntax", "line", "matches"), [
    ("INFO\\|WARN", "basic", b"a WARN b", True),
    ("a+b", "basic", b"a+b", True),  # + is literal in a basic pattern
    ("a+b", "basic", b"aab", False),
    ("a+b", "extended", b"aab", True),
    ("x\\{2\\}", "basic", b"xx", True),
    ("[[:digit:]]\\+", "basic", b"abc 42", True),
    ("[[:digit:]]", "perl", b"abc", False),
    ("\\<the\\>", "extended", b"in the end", True),
    ("a.b", "fixed", b"axb", False),
    ("(?<year>\\d{4})-", "perl", b"2026-03", True),
    ("(unclosed", "perl", b"an unclosed one", True),  # re refuses it: its literal part decides
    ("^*star", "basic", b"*star", True),
    ("a$b", "basic", b"a$b", True),
])
def test_patterns_translate_to_python(pattern: str, syntax: str, line: bytes, matches: bool) -> None:
    matcher = estimate.compile_spec(Grep((pattern,), syntax))
    assert matcher is not None
    assert (matcher.search(line) is not None) == matches


def test_an_estimate_reads_a_bounded_sample(folder: Path) -> None:
    windows = estimate._windows(str(folder / "marks.log"), (folder / "marks.log").stat().st_size)
    assert sum(len(data) for data, _first, _last in windows) <= estimate.WINDOW * estimate.WINDOWS
    size = (folder / "marks.log").stat().st_size
    got = estimate.printed(str(folder / "marks.log"), size, Grep(("MARK",), "basic"))
    assert 0.02 * size < got < 0.06 * size  # 1 line in 25


@pytest.mark.parametrize("command", [
    "head -n 1000 logs/*.log", "tail -n 1000 logs/*.log", "for f in logs/*.log; do head -n 1000 \"$f\"; done",
    "cat logs/app-1.log logs/app-2.log logs/app-3.log", "grep -r INFO logs", "grep -h INFO logs/*.log",
    "head -n 1000 logs/app-1.log; head -n 1000 logs/app-2.log; head -n 1000 logs/app-3.log; "
    "head -n 1000 logs/app-4.log",
])
def test_bounded_reads_that_add_up_past_the_cap_are_denied(command: str, folder: Path) -> None:
    reason = _deny(command, folder)
    assert reason is not None, command
    assert "in all from" in reason and "one file at a time" in reason


@pytest.mark.parametrize("command", [
    "head -n 20 logs/*.log", "tail -n 10 logs/*.log", "cat logs/app-1.log", "head -n 1000 logs/app-1.log",
    "cat logs/app-1.log small.txt", "grep -c INFO logs/*.log", "grep ERROR logs/*.log",
])
def test_bounded_reads_that_stay_under_the_cap_together_are_allowed(command: str, folder: Path) -> None:
    assert _deny(command, folder) is None, command


def test_a_grep_over_files_names_the_bounded_grep_of_one(folder: Path) -> None:
    assert _deny("grep -r WARN logs", folder) is None  # WARN is 1 line in 20: 36 KB of the six
    reason = _deny("grep -r INFO logs", folder)
    assert reason is not None and "--grep INFO --max-matches 200" in reason


def _redirected(command: str, cwd: Path) -> str | None:
    """The command redirect mode runs instead (None: allowed as it is, or denied)."""
    import contextlib
    import io
    import json

    from boundread.hook import main

    payload = {"session_id": "s", "transcript_path": "/dev/null", "cwd": str(cwd), "hook_event_name": "PreToolUse",
               "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main.run(["--mode", "redirect", "--agent", "claude"], io.StringIO(json.dumps(payload))) == 0
    body = json.loads(out.getvalue() or "{}").get("hookSpecificOutput", {})
    updated = body.get("updatedInput")
    return str(updated["command"]) if updated and body.get("permissionDecision") == "allow" else None


def test_redirect_runs_the_bounded_grep_of_one_file(folder: Path) -> None:
    new = _redirected("grep INFO big.log", folder)
    assert new is not None and new.endswith("extract big.log --grep INFO --max-matches 200 --max-chars 1100 --stdout")
    assert _redirected("grep -v DEBUG big.log", folder) == "grep -v -m 200 -- DEBUG big.log | head -c 1100"


@pytest.mark.parametrize("command", ["grep INFO big.log | sort", "head -n 1000 logs/*.log", "grep -r INFO logs"])
def test_redirect_cuts_what_it_cannot_bound_otherwise(command: str, folder: Path) -> None:
    assert _redirected(command, folder) == f"(\n{command}\n) | head -c 1100"


def test_a_pattern_that_could_backtrack_for_ever_is_taken_by_its_literal_part() -> None:
    """``(x+x+)+y`` on a long line of x takes exponential time in ``re``, which cannot be stopped: its literal."""
    matcher = estimate.compile_spec(Grep(("(x+x+)+y",), "extended"))
    assert matcher is not None and matcher.pattern == b"(?:x)"
    assert matcher.search(b"x" * 5000) is not None


@pytest.mark.parametrize(("command", "new"), [
    ("docker logs web", "docker logs --tail 200 web 2>&1 | tail -c 1100"),
    ("journalctl --no-pager", "journalctl -n 200 --no-pager 2>&1 | tail -c 1100"),
    ("docker logs web | sort", "(\ndocker logs web | sort\n) | head -c 1100"),
])
def test_redirect_bounds_a_log(command: str, new: str, folder: Path) -> None:
    assert _redirected(command, folder) == new


def test_rg_keeps_to_the_repository_own_files(tmp_path: Path) -> None:
    """rg, ag and git grep skip hidden files and what .gitignore names; grep -r reads them all."""
    (tmp_path / "node_modules" / "x").mkdir(parents=True)
    (tmp_path / "node_modules" / "x" / "big.js").write_text("import x from 'y'\n" * 40_000)
    (tmp_path / ".cache").mkdir()
    (tmp_path / ".cache" / "big.txt").write_text("import z\n" * 40_000)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("import os\n")
    (tmp_path / ".gitignore").write_text("node_modules/\n*.pyc\n")
    assert _deny("rg import", tmp_path) is None
    assert _deny("ag import", tmp_path) is None
    assert _deny("grep -r import .", tmp_path) is not None
    assert _deny("rg import .cache", tmp_path) is not None  # named: its hidden folder is searched


def test_the_distinct_values_of_a_grep_are_few_and_a_log_lines_are_not(folder: Path) -> None:
    """A DISTINCT bound (sort -u, sort | uniq -c, once programs.py gives it): a grep -o of a few values is a few
    lines whatever the file; a log's own lines are all distinct, so the bound lets all of it through."""
    from boundread.guard import outputs
    from boundread.guard.bounds import DISTINCT, MATCHES, Bound
    from boundread.guard.config import GuardConfig

    cfg = GuardConfig()
    workers = Grep(("\\[worker-[0-9]\\] GET /api/items/",), "basic", only=True)
    grep = Bound(MATCHES, 0, words="grep -o ...", grep=workers)
    alone, over = outputs.part(str(folder / "big.log"), (grep,), cfg)
    assert alone is None and over > cfg.text_max_bytes  # grep -o alone: 40,000 matches of 30 bytes
    counted, _over = outputs.part(str(folder / "big.log"), (grep, Bound(DISTINCT, 0, words="sort -u")), cfg)
    assert counted is not None and counted < 7 * 40  # seven workers: seven lines
    lines, _none = outputs.part(str(folder / "big.log"), (Bound(DISTINCT, 0, words="sort -u"),), cfg)
    assert lines is None
