"""Loops over names the shell reads: ``find ... | while read f; do cat "$f"; done``, ``done < list``,
``for f in $(cat list)``, ``cat $(cat list)`` and ``$(<file)``. The guard once ran their bodies with the names
unknown and let the dump through; now the body runs once per known line (at most FANOUT), and a cut says so."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from boundread.guard import check_command
from boundread.guard.shell import FANOUT

SAMPLE = Path(__file__).resolve().parents[2] / "src" / "boundread" / "data" / "sample-report.pdf"


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("loops")
    (root / "logs").mkdir()
    (root / "logs" / "app.log").write_text("2026-12-01 INFO request served in 12 ms\n" * 130_000)  # ~5 MB
    (root / "logs" / "small.log").write_text("ok\n")
    shutil.copy(SAMPLE, root / "report.pdf")
    (root / "list").write_text("logs/small.log\nlogs/app.log\n")
    (root / "smalls").write_text("logs/small.log\n")
    (root / "pair").write_text("1 logs/app.log\n")
    (root / "  padded").write_text("x\n")
    return root


DUMPS = [
    ('while read f; do cat "$f"; done < list', "app.log"),
    ('while IFS= read -r f; do cat -- "$f"; done < list', "app.log"),
    ('cat list | while read -r f; do cat "$f"; done', "app.log"),
    ('find logs -name "*.log" | while read f; do cat "$f"; done', "app.log"),
    ('find . -type f -name "*.pdf" | while read -r f; do cat "$f"; done', "report.pdf"),
    ('ls logs | while read f; do cat "logs/$f"; done', "app.log"),
    ('cd logs && ls | while read f; do cat "$f"; done', "app.log"),
    ('while read n f; do cat "$f"; done < pair', "app.log"),
    ('while read a b; do cat "$b"; done <<< "1 logs/app.log"', "app.log"),
    ('for f in $(cat list); do cat "$f"; done', "app.log"),
    ("cat $(cat list)", "app.log"),
    ("cat `cat list`", "app.log"),
    ('find logs | while read f; do [ -f "$f" ] && cat "$f"; done', "app.log"),
    # $(<file): bash reads the file itself, no cat needed
    ("printf '%s' \"$(<logs/app.log)\"", "app.log"),
    ('x=$(< logs/app.log); echo "$x"', "app.log"),
    ("cat $(<list)", "app.log"),
]

LEGIT = [
    'while read f; do wc -l "$f"; done < list',
    'while read -r f; do head -n 20 "$f"; done < list',
    'while read f; do cat "$f"; done < smalls',
    'find logs -name "*.log" | while read f; do echo "$f"; done',
    'ls logs | while read f; do stat "logs/$f" > /dev/null; done',
    'while read f; do cat "$f" > /dev/null; done < list',
    "cat $(cat smalls)",
    "x=$(<logs/app.log); echo ${#x}",
    "echo $(<list)",
    'printf "a b\\n" | while read x y; do cat "$y"; done',  # no file named b
    'while IFS= read -r f; do cat "$f"; done <<< "  padded"',  # IFS= keeps the blanks: the file "  padded"
]


@pytest.mark.parametrize(("command", "name"), DUMPS)
def test_a_loop_that_prints_a_big_file_is_denied(work: Path, command: str, name: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert name in decision.reason


@pytest.mark.parametrize("command", LEGIT)
def test_a_loop_that_does_not_dump_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


def test_read_trims_blanks_unless_ifs_is_empty(work: Path) -> None:
    (work / "padded.log").write_text("x" * 400_000)
    assert check_command('while read f; do cat "$f"; done <<< "  padded.log  "', cwd=work).decision == "deny"
    kept = check_command('while IFS= read -r f; do cat "$f"; done <<< "  padded.log  "', cwd=work)
    assert kept.decision == "allow"  # no file named "  padded.log  "


def test_a_long_list_is_cut_at_the_cap_and_says_so(tmp_path: Path) -> None:
    names = [f"f{number:04}.txt" for number in range(FANOUT + 10)]
    for name in names:
        (tmp_path / name).write_text("x\n")
    (tmp_path / "big.log").write_text("y" * 400_000)
    (tmp_path / "list").write_text("\n".join([*names, "big.log"]) + "\n")  # big.log past the cap
    decision = check_command('while read f; do cat "$f"; done < list', cwd=tmp_path)
    assert decision.decision == "deny"
    assert f"more than {FANOUT} lines" in decision.reason


def test_unknown_lines_keep_the_old_answer(work: Path) -> None:
    """A program's output cannot be known: the body runs once with the name unknown, as before."""
    assert check_command('ps aux | while read line; do echo "$line"; done', cwd=work).decision == "allow"


# --- after review: budgets, read's own rules, transformed lists, unknown lines, symlinks -------------------------

@pytest.fixture(scope="module")
def lists(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("lists")
    (root / "huge.log").write_text("".join(f"{n}\n" for n in range(1, 300_001)))  # ~2 MB
    missing = [f"nofile{n}" for n in range(1, FANOUT + 1)]
    (root / "l256").write_text("\n".join(missing) + "\n")
    (root / "l256h").write_text("\n".join([*missing[:-1], "huge.log"]) + "\n")  # huge.log is line 256
    (root / "fat").mkdir()
    for n in range(FANOUT):
        (root / "fat" / f"f{n}").write_text("a" * 60_000)
    (root / "bs").write_text("hu\\ge.log\n")  # `read` without -r drops the backslash
    (root / "big\u00a0").write_text("x" * 400_000)  # a name ending in a non-breaking space
    (root / "nbsp").write_text("big\u00a0\n")
    (root / "one").write_text("huge.log\n")
    (root / "pair").write_text("x huge.log\n")
    (root / "upper").write_text("HUGE.LOG\n")
    (root / "xfile").write_text("x\n")
    (root / "list300").write_text("".join(f"nofile{n}\n" for n in range(300)) + "huge.log\n")
    (root / "a" / "b").mkdir(parents=True)
    (root / "a" / "huge2.log").write_text("y" * 400_000)
    (root / "lnk").symlink_to("a/b")
    return root


def test_known_text_is_capped_in_total_and_charged_to_the_budget(lists: Path) -> None:
    """256 files of 60 KB are each small, but 15 MB together: no known text (each file of it once went through
    per-character loops, uncharged: an allow after seconds, or past the hook's timeout in a loop)."""
    from boundread.guard.shell.state import SMALL_SCRIPT, STEPS, Ctx, Stream, known_text

    def fresh() -> Ctx:
        return Ctx(str(lists), lambda *_: Stream(), lambda *_: Stream(), lambda *_: Stream())

    fat = sorted(str(path) for path in (lists / "fat").iterdir())
    ctx = fresh()
    assert known_text(Stream([(path, (), "cat") for path in fat]), ctx) is None
    assert known_text(Stream([(fat[0], (), "cat"), (fat[1], (), "cat")]), ctx) is None  # 120 KB > SMALL_SCRIPT
    assert known_text(Stream([(fat[0], (), "cat")], text="x" * SMALL_SCRIPT), ctx) is None
    one = known_text(Stream([(fat[0], (), "cat")]), ctx)
    assert one is not None and len(one) == 60_000
    assert ctx.steps == STEPS - 60_000 // 256  # what is handed on is paid for


@pytest.mark.parametrize("command", [
    'echo "$(cat fat/*)" | wc -l',
    "for a in $(cat l256); do x=$(cat fat/*); done",
])
def test_a_substitution_of_many_small_files_is_unknown_and_cheap(lists: Path, command: str) -> None:
    from boundread.guard.shell import file_uses

    uses = file_uses(command, lists)
    assert all(use.action != "capped" for use in uses), uses  # walked to the end within the budget
    assert check_command(command, cwd=lists).decision == "allow"


def test_nested_loops_that_run_out_of_budget_still_deny_the_dump(lists: Path) -> None:
    command = ('head -n 20 l256 > lo; cat lo | while read -r a; do cat l256h | while read -r b; do cat "$b"; '
               "done; done")
    decision = check_command(command, cwd=lists)
    assert decision.decision == "deny", decision.reason
    assert "huge.log" in decision.reason


def test_loops_stop_before_the_budget_and_say_so(lists: Path) -> None:
    loops = "for a in $(cat l256); do for b in $(cat l256); do for c in $(cat l256); do {}; done; done; done"
    quiet = check_command(loops.format('echo "$a$b$c"'), cwd=lists)
    assert quiet.decision == "allow" and "too big to follow further" in quiet.reason
    dump = check_command(loops.format('cat "$c"') + "; cat huge.log", cwd=lists)  # the rest is still walked
    assert dump.decision == "deny" and "huge.log" in dump.reason


def test_a_command_past_the_budget_is_refused_with_how_to_shorten_it(lists: Path) -> None:
    """Issue 19: a budget run out is never an allow - what the walk did not reach would run unguarded."""
    echoes = "\n".join(f"echo line {n}" for n in range(30_000))
    harmless = check_command(echoes, cwd=lists)
    assert harmless.decision == "deny" and harmless.rule == "too-big-to-check"
    assert "too big to follow" in harmless.reason and "split it into several calls" in harmless.reason
    dump = check_command(echoes + "\ncat huge.log", cwd=lists)  # past both the walk's budget and the scan's words
    assert dump.decision == "deny" and "too big to follow" in dump.reason


READ_DUMPS = [
    'cat bs | while read f; do cat "$f"; done',  # no -r: `hu\ge.log` is huge.log
    'while read -r f; do cat "$f"; done < nbsp',  # the non-breaking space is part of the name
    'while IFS=\'\' read -r f; do cat "$f"; done < one',
    'while IFS="" read f; do cat "$f"; done < one',
    'while read -r -- f; do cat "$f"; done < one',
    'while read -r f || [ -n "$f" ]; do cat "$f"; done < one',
    'while IFS=, read -r a b; do cat "$b"; done <<< "1,huge.log,"',
    'printf "huge.log\\n" | while read f; do cat "$f"; done',
    'while IFS=$\'\\n\' read -r f; do cat "$f"; done < one',
    'find . -name "huge.log" -print0 | while IFS= read -r -d "" f; do cat "$f"; done',
]


@pytest.mark.parametrize("command", READ_DUMPS)
def test_read_splits_and_unescapes_as_bash_does(lists: Path, command: str) -> None:
    decision = check_command(command, cwd=lists)
    assert decision.decision == "deny", command
    assert "huge.log" in decision.reason or "big" in decision.reason


def test_read_without_r_joins_a_line_ending_in_a_backslash(lists: Path) -> None:
    assert check_command('while read f; do cat "$f"; done <<< "hu\\\\\nge.log"', cwd=lists).decision == "deny"
    assert check_command('while read -r f; do cat "$f"; done <<< "hu\\\\\nge.log"', cwd=lists).decision == "allow"


@pytest.mark.parametrize("command", [
    'cut -d" " -f2 pair | while read -r f; do cat "$f"; done',
    'tr A-Z a-z < upper | while read f; do cat "$f"; done',
    'cat upper | tr A-Z a-z | while read f; do cat "$f"; done',
    'sed "s/x/huge.log/" xfile | while read f; do cat "$f"; done',
    'git ls-files | while read f; do cat "$f"; done',
    'git ls-files | while read f; do head -n 100000 "$f"; done',  # a bound past the caps is no bound
    'while read -r -u 3 f; do cat "$f"; done 3< one',  # another descriptor: not followed
])
def test_lines_a_program_changed_or_printed_are_unchecked_names(lists: Path, command: str) -> None:
    """Not the list file's own text: the names are unknown, and a whole print of one is refused as capped."""
    decision = check_command(command, cwd=lists)
    assert decision.decision == "deny", command
    assert decision.rule == "capped" and "cannot know" in decision.reason


@pytest.mark.parametrize("command", [
    'git ls-files | while read f; do wc -l "$f"; done',
    'git ls-files | while read f; do echo "$f"; done',
    'git ls-files | while read f; do cat "$f" > out; done',
    'cut -d" " -f2 pair | while read -r f; do stat "$f"; done',
    'git ls-files | while read f; do head -n 5 "$f"; done',  # a part of each, within the caps
    'git ls-files | while read f; do head -c 1000 "$f"; done',
])
def test_unchecked_names_that_print_nothing_whole_are_allowed(lists: Path, command: str) -> None:
    decision = check_command(command, cwd=lists)
    assert decision.decision == "allow", (command, decision.reason)


def test_a_transformed_list_is_not_taken_as_names(lists: Path) -> None:
    """`sed 's/x/huge.log/' xfile` prints huge.log, not xfile's `x`: its text is not known (not `x`)."""
    from boundread.guard.shell import file_uses

    uses = file_uses("cat $(sed 's/x/huge.log/' xfile)", lists)
    assert all(use.path != "x" for use in uses)
    assert check_command("cat $(cat one)", cwd=lists).decision == "deny"  # an unchanged list still is


def test_a_known_list_read_by_the_loop_is_not_printed(lists: Path) -> None:
    """The 301-line list is read by `read`, not printed: a cap is said, and nothing is refused."""
    decision = check_command('while read -r f; do wc -l "$f"; done < list300', cwd=lists)
    assert decision.decision == "allow", decision.reason
    assert f"more than {FANOUT} lines" in decision.reason


def test_dotdot_after_a_symlink_goes_up_from_its_target(lists: Path) -> None:
    decision = check_command("cat lnk/../huge2.log", cwd=lists)  # the kernel: a/b/../huge2.log
    assert decision.decision == "deny" and "huge2.log" in decision.reason
    assert check_command("cd lnk/.. && cat huge2.log", cwd=lists).decision == "allow"  # cd is logical: ./huge2.log
    assert check_command("cd lnk/.. && cat a/huge2.log", cwd=lists).decision == "deny"
