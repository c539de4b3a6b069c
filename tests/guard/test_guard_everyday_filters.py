"""Everyday filters judged by what they print (issue 19, the command sets' held-out part): an awk program whose
only output is in BEGIN/END prints a summary, not the file; ``sed -n '1p;$p'`` prints two lines; a dump in
the same shape stays denied."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("everyday")
    rows = "".join(f"{n},name-{n},city-{n % 9},2026-03-{n % 28 + 1:02d},{n * 1.5:.2f}\n" for n in range(30_000))
    (root / "data.csv").write_text("id,name,city,day,amount\n" + rows)  # ~1 MB of short lines
    (root / "bundle.min.js").write_text(";".join(f"var a{n}=function(b){{return b*{n}}}" for n in range(40_000)))
    return root


def _denied(command: str, cwd: Path) -> bool:
    return check_command(command, cwd=cwd).denied


@pytest.mark.parametrize("command", [
    "awk -F, 'NR>1 {sum += $5} END {printf \"%.2f\\n\", sum}' data.csv",
    "awk -F, '$5 > 100 {n++}; END {print n}' data.csv",
    "awk -F, '{ seen[$3]++ } END { for (c in seen) printf \"%s %d\\n\", c, seen[c] }' data.csv",
    "awk '{n += length($0)} END {print n}' data.csv",
    "awk -F, '/city-3/ {n++} END {print n+0}' data.csv",
])
def test_an_awk_program_that_prints_only_in_end_is_a_summary(command: str, folder: Path) -> None:
    assert not _denied(command, folder)


@pytest.mark.parametrize("command", [
    "awk 'NR>1' data.csv",  # a pattern with no action prints its lines
    "awk -F, 'NR>1 {printf \"%s\\n\", $0}' data.csv",  # printf prints as print does
    "awk '{a[NR] = $0} END {for (i = NR; i > 0; i--) print a[i]}' data.csv",  # lines kept, printed at the end
    "awk 'NR>1 {system(\"echo \" $0)}' data.csv",
])
def test_an_awk_program_that_prints_its_lines_is_still_denied(command: str, folder: Path) -> None:
    assert _denied(command, folder)


@pytest.mark.parametrize("command", [
    "sed -n '1p;$p' data.csv", "sed -n '1,3p;$p' data.csv", "sed -n -e 1p -e '$p' data.csv",
    "cat data.csv | sed -n '1p;$p'",
])
def test_sed_printing_a_few_addressed_lines_is_bounded_by_their_count(command: str, folder: Path) -> None:
    assert not _denied(command, folder)


@pytest.mark.parametrize("command", [
    "sed -n '1p;$p' bundle.min.js",  # one line of 1.5 MB: two lines of it are over the cap
    "sed -n '$!p' data.csv",  # every line but the last
    "sed -n '1p;5,$p' data.csv",  # to the end of the file
])
def test_sed_printing_long_or_many_lines_is_still_denied(command: str, folder: Path) -> None:
    assert _denied(command, folder)


@pytest.mark.parametrize("command", [
    "grep 'a39999=' bundle.min.js | cut -c1-80",  # one line of 1.5 MB, cut to 80 characters
    "grep return bundle.min.js | sort | cut -b1-100", "head -n 3 bundle.min.js | cut -c1-100",
    "cat data.csv | cut -c1-5",  # 30,000 lines x 6 bytes: under the cap
    "grep -n 'city-3' data.csv | cut -c 1-10",
])
def test_a_later_cut_bounds_each_line_the_stages_before_it_kept(command: str, folder: Path) -> None:
    assert not _denied(command, folder)


@pytest.mark.parametrize("command", [
    "grep -o . bundle.min.js | cut -c1-80",  # -o: each match a line of its own - 1.5 million lines
    "tr ';' '\\n' < bundle.min.js | cut -c1-80",  # lines split: cut's input has 40,000 of them
    "grep return bundle.min.js | tr ';' '\\n' | cut -c1-80",
    "cat data.csv | cut -c1-20",  # 30,000 lines x 21 bytes: over the cap
    "cat -A bundle.min.js | cut -c1-80",  # -A marks the line ends: not the file's lines as they are
])
def test_a_cut_after_a_stage_that_may_split_lines_bounds_nothing(command: str, folder: Path) -> None:
    assert _denied(command, folder)


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import os

    root = tmp_path_factory.mktemp("tree")
    (root / "src").mkdir()
    (root / "src" / "app.py").write_text("# TODO: split this\nprint('hi')\n")
    (root / "notes.txt").write_text("nothing to do\n")
    os.mkfifo(root / "pipe")  # a FIFO in the folder: a walk skips it, a read of it by name blocks
    (root / "app.min.js").write_text(";".join(f"var a{n}=function(b){{return b*{n}}}" for n in range(40_000)))
    return root


@pytest.mark.parametrize("command", ["rg -n TODO", "rg TODO .", "grep -rn TODO .", "grep -r TODO", "ag TODO"])
def test_a_folder_walk_skips_fifos_devices_and_sockets(command: str, tree: Path) -> None:
    assert not _denied(command, tree)


@pytest.mark.parametrize("command", ["rg TODO pipe", "grep TODO pipe", "grep -r -D read TODO .",
                                     "grep -rn --devices=read TODO .", "find . -exec cat {} +"])
def test_a_fifo_named_or_read_on_purpose_is_still_denied(command: str, tree: Path) -> None:
    assert _denied(command, tree)


@pytest.mark.parametrize("command", ["rg -n TODO", "grep -n TODO app.min.js", "grep -iF todo app.min.js",
                                     "rg -e TODO -e FIXME ."])
def test_a_fixed_string_found_nowhere_in_a_minified_file_prints_nothing(command: str, tree: Path) -> None:
    assert not _denied(command, tree)  # its one 1.5 MB line cannot be seen whole in the sample, but is scanned


@pytest.mark.parametrize("command", ["rg -n return", "grep return app.min.js", "grep -v TODO app.min.js",
                                     "grep 'TO.O' app.min.js"])
def test_a_minified_file_that_may_match_is_still_denied(command: str, tree: Path) -> None:
    assert _denied(command, tree)
