"""False allows once found in the shell guard: a trailing redirection taken for the whole ``&&`` list,
known text cut by characters, brace sequences, a process substitution or here-string as a loop's input, and the
cost of ``find`` walks and continued lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("review2")
    (root / "logs").mkdir()
    (root / "logs" / "app.log").write_text("2026-12-01 INFO request served in 12 ms\n" * 130_000)  # ~5 MB
    (root / "logs" / "small.log").write_text("ok\n")
    (root / "logs" / "app1.log").write_text("y" * 400_000)
    (root / "logs" / "app01.log").write_text("y" * 400_000)
    (root / "logs" / "appc.log").write_text("y" * 400_000)
    (root / "log").write_text("")  # what `head -5` of the names once cut to: five characters
    return root


def decide(command: str, cwd: Path) -> str:
    return check_command(command, cwd=cwd).decision


# --- 1. a trailing redirection belongs to the last command of a list or pipeline ----------------------------------

REDIRECT_DUMPS = [
    "cat logs/app.log && echo done > /dev/null",
    "cd logs && cat < app.log",
    'cd logs && while read l; do echo "$l"; done < app.log',
    "true && cat logs/app.log || echo failed > /dev/null",
    "echo x | cat < logs/app.log",  # `<` is cat's stdin, not echo's
    "true && echo x | cat < logs/app.log",
]

REDIRECT_LEGIT = [
    "cat logs/app.log | tr a b > /dev/null",  # the pipe's last stage writes to /dev/null
    "true && cat logs/app.log > /dev/null",
    "cd logs && cat app.log > /dev/null",
    "cd logs && { cat app.log; } > /dev/null",
    "cd logs && wc -l < app.log",
]


@pytest.mark.parametrize("command", REDIRECT_DUMPS)
def test_a_trailing_redirect_applies_to_the_last_command_only(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert "app.log" in decision.reason


@pytest.mark.parametrize("command", REDIRECT_LEGIT)
def test_a_redirect_that_hides_the_output_still_allows(work: Path, command: str) -> None:
    assert decide(command, work) == "allow", command


# --- 2. known text through head/tail is cut by lines (or bytes) ---------------------------------------------------

def test_head_of_known_names_keeps_whole_lines(work: Path) -> None:
    assert decide('find . -name "*.log" | head -5 | while read f; do cat "$f"; done', work) == "deny"
    assert decide('ls logs | head -n 1 | while read f; do cat "logs/$f"; done', work) == "deny"  # app01.log


def test_tail_of_known_names_keeps_the_last_lines(work: Path) -> None:
    assert decide('ls logs | tail -n 1 | while read f; do cat "logs/$f"; done', work) == "allow"  # small.log
    assert decide('ls logs | tail -n 2 | while read f; do cat "logs/$f"; done', work) == "deny"  # appc.log


def test_known_text_cut_by_lines_and_bytes() -> None:
    from boundread.guard.bounds import BYTES, LINES, Bound
    from boundread.guard.shell.reads import bounded
    from boundread.guard.shell.state import Stream

    text = "one\ntwo\nthree\nfour\n"
    assert bounded(Stream(text=text), Bound(LINES, 2), "head").text == "one\ntwo\n"
    assert bounded(Stream(text=text), Bound(LINES, 2, from_end=True), "tail").text == "three\nfour\n"
    assert bounded(Stream(text=text), Bound(LINES, 1, 2), "sed").text == "three\n"  # sed -n 3p
    assert bounded(Stream(text=text), Bound(LINES, 9), "head").text == text
    assert bounded(Stream(text=text), Bound(BYTES, 5), "head").text == "one\nt"
    assert bounded(Stream(text=text), Bound(BYTES, 3, from_end=True), "tail").text == "ur\n"
    cut = bounded(Stream(text="é\n"), Bound(BYTES, 1), "head")  # half a character: not the text as it is
    assert not cut.exact


def test_read_stores_its_line_without_the_newline(work: Path) -> None:
    assert decide('read x <<< "logs/app.log"; cat "$x"', work) == "deny"
    assert decide('read x <<< "logs/small.log"; cat "$x"', work) == "allow"


# --- 3. brace sequences expand -------------------------------------------------------------------------------------

SEQUENCE_DUMPS = [
    ("cat logs/app{1..3}.log", "app1.log"),
    ("for i in {1..3}; do cat logs/app$i.log; done", "app1.log"),
    ("cat logs/app{3..1..2}.log", "app1.log"),  # 3, 1
    ("cat logs/app{01..03}.log", "app01.log"),  # zero-padded as bash pads
    ("for c in {a..c}; do cat logs/app$c.log; done", "appc.log"),
    ("cat logs/{x,app{0..1}}.log", "app1.log"),  # inside alternatives
]


@pytest.mark.parametrize(("command", "name"), SEQUENCE_DUMPS)
def test_a_brace_sequence_expands_to_each_name(work: Path, command: str, name: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert name in decision.reason


def test_brace_sequences_as_bash_expands_them() -> None:
    from boundread.guard.shell.state import Ctx, Stream
    from boundread.guard.shell.words import _braces as expand

    ctx = Ctx("/", lambda *_: Stream(), lambda *_: Stream(), lambda *_: Stream())

    def _braces(word: str) -> list[str]:
        return expand(word, ctx)

    assert _braces("a{1..3}b") == ["a1b", "a2b", "a3b"]
    assert _braces("{01..10..3}") == ["01", "04", "07", "10"]
    assert _braces("{-2..2}") == ["-2", "-1", "0", "1", "2"]
    assert _braces("{10..1..4}") == ["10", "6", "2"]
    assert _braces("{a..e..2}") == ["a", "c", "e"]
    assert _braces("{c..a}") == ["c", "b", "a"]
    assert _braces("{1..x}") == ["{1..x}"]  # no sequence: the word as it is
    assert _braces("{1..\u00b2}") == ["{1..\u00b2}"]  # a superscript two is no digit to bash


def test_a_long_sequence_is_cut_at_the_cap_and_says_so(work: Path) -> None:
    from boundread.guard.shell import FANOUT

    decision = check_command("for i in {1..100000}; do cat logs/small.log; done", cwd=work)
    assert decision.decision == "deny"
    assert f"more than {FANOUT} words" in decision.reason
    assert decide("for i in {1..5}; do cat logs/small.log; done", work) == "allow"


# --- 4. a process substitution or a here-string as input -----------------------------------------------------------

SUBSTITUTION_DUMPS = [
    "while read f; do cat \"$f\"; done < <(find . -name '*.log')",
    'while read f; do cat "$f"; done <<< "$(git ls-files)"',  # not known: the names are unchecked
    'while read f; do cat "$f"; done < "$LIST"',
    "cat < <(cat logs/app.log)",
    "cat logs/app.log > >(cat)",  # what reads the substitution prints it on
]

SUBSTITUTION_LEGIT = [
    "while read f; do wc -l \"$f\"; done < <(find . -name '*.log')",
    "while read f; do echo \"$f\"; done < <(find . -name '*.log')",
    'while read f; do head -n 5 "$f"; done <<< "$(git ls-files)"',  # a bounded read of an unknown name
    "cat logs/app.log > >(wc -l)",
    "cat logs/app.log > >(head -n 3)",
    "wc -l < <(cat logs/app.log)",
]


@pytest.mark.parametrize("command", SUBSTITUTION_DUMPS)
def test_what_a_substitution_feeds_the_loop_is_read(work: Path, command: str) -> None:
    assert decide(command, work) == "deny", command


@pytest.mark.parametrize("command", SUBSTITUTION_LEGIT)
def test_a_substitution_that_prints_no_file_is_allowed(work: Path, command: str) -> None:
    assert decide(command, work) == "allow", command


def test_known_text_with_an_unknown_part_is_not_known(work: Path) -> None:
    from boundread.guard.shell.state import UNKNOWN, Ctx, Stream, known_text

    ctx = Ctx(str(work), lambda *_: Stream(), lambda *_: Stream(), lambda *_: Stream())
    assert known_text(Stream(text=f"logs/small.log\n{UNKNOWN}\n"), ctx) is None
    assert known_text(Stream(text="logs/small.log\n"), ctx) == "logs/small.log\n"


# --- 5. what walks and globs cost ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def wide(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("wide")
    (root / "many").mkdir()
    for number in range(4_000):
        (root / "many" / f"f{number:04}.txt").touch()
    (root / "names64").write_text("".join(f"n{number}\n" for number in range(64)))
    return root


def test_a_walk_is_charged_for_the_entries_it_looks_at(wide: Path) -> None:
    from boundread.guard.shell.fanout import walk
    from boundread.guard.shell.state import ENTRIES_PER_STEP, Ctx, Env, Stream

    ctx = Ctx(str(wide), lambda *_: Stream(), lambda *_: Stream(), lambda *_: Stream())
    before = ctx.steps
    walk(["many"], ["-name", "x*"], Env(str(wide)), ctx)
    assert before - ctx.steps >= 4_000 // ENTRIES_PER_STEP
    again = ctx.steps
    assert walk(["many"], ["-name", "f0001.txt"], Env(str(wide)), ctx)[0] == ["many/f0001.txt"]
    walk(["many"], ["-name", "x*"], Env(str(wide)), ctx)  # done before: the disk has not changed since
    assert again - ctx.steps < 4_000 // ENTRIES_PER_STEP * 2


@pytest.mark.parametrize("command", [
    'for a in $(cat names64); do find many -name "$a*" > /dev/null; done',  # a new walk on each pass
    'for a in $(cat names64); do ls many/$a* > /dev/null; done',  # a new glob on each pass
])
def test_a_loop_of_walks_runs_out_of_budget_and_says_so(wide: Path, command: str) -> None:
    decision = check_command(command, cwd=wide)
    assert decision.decision == "allow", decision.reason
    assert "was checked for its first" in decision.reason  # stopped before the 64 passes, as a cap


def test_the_same_walk_in_a_loop_is_done_once(wide: Path) -> None:
    decision = check_command("for a in $(cat names64); do find many -name '*.txt' > /dev/null; done", cwd=wide)
    assert "was checked for its first" not in decision.reason, decision.reason


def test_maxdepth_lists_no_deeper_entry(work: Path) -> None:
    (work / "deep" / "sub").mkdir(parents=True, exist_ok=True)
    (work / "deep" / "sub" / "big.log").write_text("z" * 400_000)
    assert decide("find deep -maxdepth 1 -name '*.log' -exec cat {} +", work) == "allow"
    assert decide("find deep -maxdepth 2 -name '*.log' -exec cat {} +", work) == "deny"
    assert decide("find deep -name '*.log' -exec cat {} +", work) == "deny"


@pytest.mark.parametrize("pattern", ["*.h", "a*", "*a*b*", "abc", "*", "**x", "a*b*c", "[ab]*", "?x*", "*.tar.gz"])
def test_the_compiled_matcher_agrees_with_the_pattern(pattern: str) -> None:
    from boundread.guard.shell.pattern import compile_part, matcher, matches

    names = ["", "a", "b", "x", "ax", "abc", "ab.h", ".h", "aabbc", "axbxc", "abab", "x.tar.gz", "tar.gz", "bx"]
    test = matcher(pattern)
    assert [test(name) for name in names] == [matches(compile_part(pattern), name) for name in names]


def test_continued_lines_join_as_read_joins_them() -> None:
    from boundread.guard.shell.loops import _lines

    assert _lines("a\\\nb\nc\\\\\nd\n", raw=False) == ["ab", "c\\\\", "d"]
    assert _lines("\\\nx\n", raw=False) == ["x"]  # a lone backslash continues the line too
    assert _lines("a\\\n" * 9_000 + "z\n", raw=False) == ["a" * 9_000 + "z"]
    assert _lines("a\\\nb\n", raw=True) == ["a\\", "b"]


def test_find_of_a_file_finds_the_file(work: Path) -> None:
    assert decide("find logs/app.log -exec cat {} \\;", work) == "deny"
    assert decide("find logs/app.log -name '*.log' -exec cat {} +", work) == "deny"
    assert decide("find logs/app.log -name '*.txt' -exec cat {} +", work) == "allow"  # the name does not match
    assert decide("find logs/app.log -type d -exec cat {} +", work) == "allow"
