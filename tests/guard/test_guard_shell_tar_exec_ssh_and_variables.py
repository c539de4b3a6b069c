"""Dumps the shell guard once let through, each with the reason it must give, and their ordinary look-alikes.

``tar -c`` of a folder, ``exec >file``, ``bash -c '...' _ ARG``, ``grep -a``, ``git show REV:PATH``,
``ssh HOST cat FILE``, ``mapfile``/``read`` into a variable, unquoted ``$VAR`` split and globbed,
and the fan-out caps. Files are made in the test; a small git repository holds a PDF and a log.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from boundread.guard import check_command

SAMPLE = Path(__file__).resolve().parents[2] / "src" / "boundread" / "data" / "sample-report.pdf"


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gaps")
    log = "2026-12-01T05:51:05Z INFO worker-3 request served in 12 ms\n" * 86_000  # ~5 MB
    (root / "app.log").write_text(log)
    shutil.copy(SAMPLE, root / "report.pdf")
    (root / "small.txt").write_text("hello\n" * 10)
    docs = root / "docs"
    docs.mkdir()
    shutil.copy(SAMPLE, docs / "report.pdf")
    (docs / "notes.txt").write_text("notes\n")
    texts = root / "texts"
    texts.mkdir()
    (texts / "a.txt").write_text("a\n")
    (texts / "b.txt").write_text("b\n")
    many = root / "many"
    many.mkdir()
    for number in range(300):
        (many / f"f{number:03}.txt").write_text("x\n")
    shutil.copy(SAMPLE, many / "z-last.pdf")  # sorted after the first 256
    jp = root / "jp"
    jp.mkdir()
    shutil.copy(SAMPLE, jp / "報告書\u3000最終.pdf")  # an ideographic space: not a blank to bash's IFS
    (jp / "a.txt").write_text("a\n")  # the listing has a newline, so it is split
    repo = root / "repo"
    (repo / "sub").mkdir(parents=True)
    shutil.copy(SAMPLE, repo / "sub" / "big.pdf")
    (repo / "big.log").write_text(log)
    (repo / "readme.md").write_text("# readme\n")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "x"], check=True)
    return root


DUMPS = [
    # tar -c of a folder to stdout
    ("tar -cf - docs", "report.pdf"),
    ("tar -c docs", "report.pdf"),
    ("tar -czf - docs", "report.pdf"),
    ("tar cf - docs", "report.pdf"),
    ("tar -C docs -cf - .", "report.pdf"),
    ("tar --create --file=- docs", "report.pdf"),
    ("tar -cf /dev/stdout docs", "report.pdf"),
    # exec: the shell replaced by a dump
    ("exec cat report.pdf", "report.pdf"),
    ("exec > /dev/null; exec > /dev/tty; cat app.log", "app.log"),
    # positional parameters of bash -c / sh -c / a script
    ("bash -c 'cat \"$1\"' _ report.pdf", "report.pdf"),
    ("sh -c 'cat $0' app.log", "app.log"),
    ("bash -c 'for f; do cat \"$f\"; done' _ small.txt report.pdf", "report.pdf"),
    ("bash -c 'cat \"$@\"' sh report.pdf", "report.pdf"),
    ("cat > s.sh <<'EOF'\ncat \"$1\"\nEOF\nbash s.sh report.pdf", "report.pdf"),
    # grep -a prints a binary file's lines as text
    ("grep -a obj report.pdf", "report.pdf"),
    ("grep --text obj report.pdf", "report.pdf"),
    ("grep --binary-files=text Type report.pdf", "report.pdf"),
    ("grep --binary-files text Type report.pdf", "report.pdf"),
    ("grep -ai type report.pdf", "report.pdf"),
    ("cat report.pdf | grep -a obj", "report.pdf"),
    # git show / cat-file of a big or binary path (judged by its worktree file)
    ("cd repo && git show HEAD:sub/big.pdf", "big.pdf"),
    ("cd repo && git show :big.log", "big.log"),
    ("cd repo && git cat-file -p HEAD:big.log", "big.log"),
    ("cd repo/sub && git show HEAD:./big.pdf", "big.pdf"),
    ("git -C repo show main:big.log", "big.log"),
    ("cd repo && git --no-pager show HEAD~0:sub/big.pdf", "big.pdf"),
    ("cd repo && git cat-file blob HEAD:sub/big.pdf", "big.pdf"),
    # ssh: the remote file is judged by its name
    ("ssh host cat /srv/report.pdf", "report.pdf"),
    ("ssh host 'cat /srv/report.pdf'", "report.pdf"),
    ("ssh -p 2222 -i key user@host cat data/q3.xlsx", "q3.xlsx"),
    ("ssh host 'cd /srv && cat report.docx'", "report.docx"),
    ("ssh host -- cat backup.zip", "backup.zip"),
    # mapfile / read into a variable, then printed
    ("mapfile -t lines < app.log; printf '%s\\n' \"${lines[@]}\"", "app.log"),
    ("readarray L < report.pdf; echo \"${L[@]}\"", "report.pdf"),
    ("read -r -d '' X < app.log; echo \"$X\"", "app.log"),
    ("IFS= read -rd '' X < report.pdf; echo $X", "report.pdf"),
    # unquoted expansions: split on blanks and globbed, as bash does
    ('F="small.txt report.pdf"; cat $F', "report.pdf"),
    ('D=.; F="small.txt report.pdf"; cat $D/$F', "report.pdf"),
    ('P="*.pdf"; cat $P', "report.pdf"),
    ('P="docs/*"; cat $P', "report.pdf"),
    ("F=$(echo small.txt report.pdf); cat $F", "report.pdf"),
    # caps: a checked match refused, or whole files printed past the cap
    ("cat many/*", "more than"),
    ("cat many/*.txt many/z-last.pdf", "z-last.pdf"),
    ("find many -type f -exec cat {} +", "more than"),
    ("cd many && cat $(ls)", "more than"),  # ls cuts its listing at the cap
    ("cd many && ls | xargs cat", "more than"),
    ('cd many && for f in $(ls); do cat "$f"; done', "more than"),
    # exec's descriptors: `>&N` is a copy of what N was, not a file named N; an unknown N is the output
    ("exec 3>&1 >/dev/null; exec >&3; cat report.pdf", "report.pdf"),
    ("exec 3>&1; cat report.pdf >&3", "report.pdf"),
    ("exec 3>&1 >/dev/null; cat report.pdf >&3", "report.pdf"),
    ("cat report.pdf >&5", "report.pdf"),
    ("exec 4>&1; exec 3>&4 >/dev/null; exec 1>&3; cat app.log", "app.log"),
    # an exec that may not run hides nothing after it
    ('if [ -n "$QUIET" ]; then exec >/dev/null; fi; cat report.pdf', "report.pdf"),
    ('case "$Q" in y) exec >/dev/null;; esac; cat report.pdf', "report.pdf"),
    ("while false; do exec >/dev/null; done; cat report.pdf", "report.pdf"),
    ('[ -n "$Q" ] && exec >/dev/null; cat report.pdf', "report.pdf"),
    ("false || exec >/dev/null; cat app.log", "app.log"),
    ("exec >/dev/null & cat report.pdf", "report.pdf"),
    # writes add to what a file holds: `>>`, and each command after `exec >FILE`
    ("exec >x.out; cat report.pdf; echo ok; exec >/dev/stderr; cat x.out", "report.pdf"),
    ("cat report.pdf >x.out; echo ok >>x.out; cat x.out", "report.pdf"),
    ("echo ok >> report.pdf; cat report.pdf", "report.pdf"),
    # word splitting on IFS: space, tab and newline only - or what the command set IFS to
    ("cd jp && cat $(ls)", "最終.pdf"),
    ("cd jp && F=$(ls); cat $F", "最終.pdf"),
    ('IFS=,; F="small.txt,report.pdf"; cat $F', "report.pdf"),
    ('IFS=,; unset IFS; F="small.txt report.pdf"; cat $F', "report.pdf"),
    # shift and set -- move the positional parameters
    ('bash -c "shift; cat \\$1" _ small.txt report.pdf', "report.pdf"),
    ('bash -c "shift 2; cat \\$1" _ a b app.log', "app.log"),
    ('set -- report.pdf; cat "$1"', "report.pdf"),
    ('f() { shift; cat "$1"; }; f small.txt report.pdf', "report.pdf"),
    # a default in quotes is a word like any other
    ('cat ${F:-"report.pdf"}', "report.pdf"),
    ("cat ${F:-'report.pdf'}", "report.pdf"),
    ('D=docs; cat "${F:-$D/report.pdf}"', "report.pdf"),
    # ${F:=default} also sets F, for the commands after it
    (': "${F:=report.pdf}"; cat "$F"', "report.pdf"),
    ('echo "${F=report.pdf}" >/dev/null; cat "$F"', "report.pdf"),
    # grep -r prints the lines of each file under the folder
    ("grep -r . docs", "report.pdf"),
    ("grep -ra obj docs", "report.pdf"),
    ("grep --recursive -a Type docs", "report.pdf"),
    ("cd docs && grep -R '' .", "report.pdf"),
]

LEGIT = [
    "tar -cf - texts | wc -c",
    "tar -czf docs.tgz docs",
    "tar -cf - docs | gzip > docs.tgz",
    "tar -tf x.tar",
    "tar -cf - texts",  # small text files only
    "exec > out.txt; cat app.log",
    "exec 1> out.txt; cat report.pdf",
    "exec >/dev/null 2>&1; cat app.log",
    "exec >> log.txt && cat report.pdf && echo done",
    "bash -c 'wc -l \"$1\"' _ app.log",
    "bash -c 'cat \"$1\"' _ small.txt",
    "sh -c 'head -n 5 \"$0\"' app.log",
    "grep -a ERROR app.log",
    "grep -c -a obj report.pdf",
    "grep obj report.pdf",
    "cd repo && git show HEAD:readme.md",
    "cd repo && git show HEAD:sub/big.pdf | wc -c",
    "cd repo && git show HEAD:big.log | head -n 20",
    "cd repo && git show HEAD --stat",
    "cd repo && git log --oneline -3",
    "cd repo && git cat-file -t HEAD",
    "cd repo && git cat-file -s HEAD:big.log",
    "cd repo && git show HEAD:sub/big.pdf > /tmp/out.pdf",
    "ssh host cat /etc/hostname",
    "ssh host 'tail -n 50 /var/log/app.log'",
    "ssh host 'head -c 1000 /srv/report.pdf'",
    "ssh host ls /srv",
    "ssh host",
    "ssh host 'pdfinfo /srv/report.pdf'",
    "mapfile -t lines < app.log; echo ${#lines[@]}",
    "readarray -t L < small.txt; echo \"${L[@]}\"",
    "read -r first < app.log; echo \"$first\"",
    'F="small.txt texts/a.txt"; cat $F',
    'F="app.log report.pdf"; wc -c $F',
    'F="report.pdf"; cat "$F" | head -c 100',
    'P="*.pdf"; ls $P',
    "ls many/*",
    "wc -l many/*",
    "for f in many/*; do wc -c \"$f\"; done",
    "find many -name '*.txt' | wc -l",
    "exec 3>&1 >/dev/null; cat report.pdf",
    "exec 3>/dev/null; cat report.pdf >&3",
    "exec 3>&1 >/dev/null; exec >&3; wc -c report.pdf",
    'exec >/dev/null; if [ -n "$Q" ]; then echo hi; fi; cat report.pdf',
    "exec >/dev/null && cat report.pdf",
    "exec >x.out; cat report.pdf; echo ok; exec >/dev/stderr; wc -c x.out",
    "cd jp && ls",
    "cd jp && wc -c $(ls)",
    'IFS=,; F="small.txt,texts/a.txt"; cat $F',
    'IFS=,; F="small.txt report.pdf"; cat $F',  # one name with a space in it: no such file
    "cd many && ls | head -n 5",
    "cd many && ls; cat ../small.txt",  # a long listing shown is no cap: only names read past it are
    'bash -c "shift; cat \\$1" _ report.pdf small.txt',
    'set -- small.txt; cat "$1"',
    'set -e; echo "$1"',
    'cat ${F:-"small.txt"}',
    ': "${F:-report.pdf}"; cat "$F"',  # :- does not set F: cat of an empty name
    'F=small.txt; : "${F:=report.pdf}"; cat "$F"',  # F is set: the default is not taken
    'F=report.pdf true; cat "$F"',  # a prefix sets F for `true` only
    'F=small.txt; F=report.pdf cat "$F"',  # $F is expanded before the prefix applies
    "grep -r . texts",
    "grep -rn ERROR .",
    "grep -rl obj docs",
    "grep -r --include='*.txt' . docs",
    "grep -ra obj texts",
]


@pytest.mark.parametrize(("command", "names"), DUMPS)
def test_dump_is_denied(work: Path, command: str, names: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", (command, decision)
    assert "boundread " in decision.reason and names in decision.reason, decision.reason


@pytest.mark.parametrize("command", LEGIT)
def test_look_alike_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


def test_a_remote_read_says_why(work: Path) -> None:
    reason = check_command("ssh build@ci 'cat /srv/out/report.pdf'", cwd=work).reason
    assert "ci" in reason and "remote" in reason and "scp" in reason


def test_a_cap_is_said_when_it_denies_and_when_it_allows(work: Path) -> None:
    refused = check_command("cat many/*.txt many/z-last.pdf", cwd=work)
    assert refused.rule == "pdf" and "first 256" in refused.reason  # the refused file, and the cap said
    printed = check_command("cat many/*", cwd=work)
    assert printed.rule == "capped" and "more than 256" in printed.reason
    listed = check_command("ls many/*", cwd=work)
    assert listed.decision == "allow" and listed.rule == "command-ok-capped" and "256" in listed.reason


def test_git_show_judges_the_worktree_file_of_that_path(work: Path) -> None:
    decision = check_command("cd repo && git show HEAD:sub/big.pdf", cwd=work)
    assert decision.kind == "pdf" and "git show" in decision.reason


def _scandir_place(folder: Path, name: str) -> int:
    return [entry.name for entry in os.scandir(folder)].index(name)


def test_a_glob_that_stops_before_its_first_match_is_unchecked(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """`cat *.pdf` in a folder whose PDF lies past the directory-entry cap: not the literal `*.pdf`
    (a missing file, allowed) but an unchecked print, refused as capped."""
    from boundread.guard.shell import pattern

    for number in range(40):
        (tmp_path / f"f{number:02}.txt").write_text("")
    shutil.copy(SAMPLE, tmp_path / "late.pdf")
    place = _scandir_place(tmp_path, "late.pdf")
    if place == 0:  # the cap must stop before the PDF: put it after the first entry
        (tmp_path / "late.pdf").rename(tmp_path / "late2.pdf")
        place = _scandir_place(tmp_path, "late2.pdf")
    assert place > 0
    monkeypatch.setattr(pattern, "SCAN", place)
    printed = check_command("cat *.pdf", cwd=tmp_path)
    assert (printed.decision, printed.rule) == ("deny", "capped"), printed
    listed = check_command("ls *.pdf", cwd=tmp_path)
    assert (listed.decision, listed.rule) == ("allow", "command-ok-capped"), listed


def test_find_exec_past_its_cap_is_unchecked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from boundread.guard.shell import fanout

    for number in range(40):
        (tmp_path / f"f{number:02}.txt").write_text("")
    shutil.copy(SAMPLE, tmp_path / "late.pdf")
    place = next(k for k, name in enumerate(next(os.walk(tmp_path))[2]) if name == "late.pdf")
    if place == 0:
        (tmp_path / "late.pdf").rename(tmp_path / "late2.pdf")
        place = next(k for k, name in enumerate(next(os.walk(tmp_path))[2]) if name == "late2.pdf")
    monkeypatch.setattr(fanout, "WALK", place)
    printed = check_command("find . -name '*.pdf' -exec cat {} +", cwd=tmp_path)
    assert (printed.decision, printed.rule) == ("deny", "capped"), printed
    counted = check_command("find . -name '*.pdf' -exec wc -c {} +", cwd=tmp_path)
    assert counted.decision == "allow", counted
    searched = check_command("grep -r . .", cwd=tmp_path)  # grep -r walks as find does
    assert (searched.decision, searched.rule) == ("deny", "capped"), searched


def test_a_missing_file_next_to_a_cap_is_refused(work: Path) -> None:
    decision = check_command("ls many/*; cat no-such-file.txt", cwd=work)
    assert (decision.decision, decision.rule) == ("deny", "capped"), decision
