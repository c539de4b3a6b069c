"""Redirect mode's parts, checked by running what it suggests: the header's commands, the rewritten shell
commands, in the folder the call came from (hook/redirect.py)."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from boundread.hook import redirect, slices
from tests.hook.test_redirect import claude_bash, claude_read, gemini_read, hook
from tests.hookproject import SENTINEL

RULE = "-" * 72
LABELS = ("Warning", "Next part", "Search the whole document", "Read a member", "Find a member among all")


@pytest.fixture(autouse=True)
def _out(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name in ("BOUNDREAD_GUARD_MODE", "BOUNDREAD_OUT_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    out = tmp_path / "out"  # absolute: every call shares it, whatever its folder
    monkeypatch.setenv("BOUNDREAD_OUT_DIR", str(out))
    return out


@pytest.fixture(scope="module")
def long_pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """60 pages of 40 lines: more than one slice, so the header names a next part."""
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("helvetica", size=10)
    for page in range(1, 61):
        pdf.add_page()
        for line in range(40):
            pdf.cell(text=f"{SENTINEL} page {page} line {line} and words to fill it", new_x="LMARGIN",
                     new_y="NEXT")
    path = tmp_path_factory.mktemp("long") / "long.pdf"
    pdf.output(str(path))
    return path


def redirected(payload: dict[str, Any], capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    body: dict[str, Any] = hook(payload, capsys, "--mode", "redirect", *argv)["hookSpecificOutput"]
    assert body["permissionDecision"] == "allow"
    return body


def header(sliced: Path) -> tuple[str, dict[str, str]]:
    """The header's first line and its commands by label (a command may hold a quoted newline)."""
    top = sliced.read_text(encoding="utf-8").split(RULE, 1)[0]
    first, _, rest = top.partition("\n")
    starts = "|".join(re.escape(label) for label in LABELS)
    found = re.findall(rf"^({starts})[^:\n]*: (.*?)\n(?=(?:{starts})|\Z)", rest, re.M | re.S)
    return first, dict(found)


def run(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A suggested command as the agent's shell runs it, with this boundread first on the PATH."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(["/bin/sh", "-c", command], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=120, check=False)


def ran(command: str, cwd: Path) -> str:
    result = run(command, cwd)
    assert result.returncode == 0, (command, result.stderr)
    return result.stdout


@pytest.mark.parametrize("name", ["--x.pdf", "-n\nx.pdf"])
def test_a_name_that_starts_with_a_dash_gives_commands_that_run(long_pdf: Path, tmp_path: Path, name: str,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(long_pdf, work / name)
    word = shlex.quote("./" + name)
    body = redirected(claude_read(work / name, work), capsys)
    _first, commands = header(Path(body["updatedInput"]["file_path"]))
    assert f"boundread pages {word} " in commands["Next part"]
    assert "--- page 12 / 60 ---" in ran(commands["Next part"], work)
    printed = run(commands["Next part"], work).stderr  # and the next part's own next line
    after = printed.split("next:\n", 1)[1].split("\n  boundread ")[0].strip()
    assert after.startswith(f"boundread pages {word} ") and ran(after, work).startswith("wrote ")
    assert f"{SENTINEL} page 60 line 39" in ran(commands["Search the whole document"].replace("PATTERN", "line.39"),
                                                work)
    denied = hook(claude_read(work / name, work), capsys)["hookSpecificOutput"]["permissionDecisionReason"]
    assert f"boundread pages {word} 1-5" in denied
    assert "--- page 5 / 60 ---" in ran(f"boundread pages {word} 1-5 --stdout", work)
    if "\n" not in name:  # a command with a newline in it is more than a dump: it keeps the deny
        shell = redirected(claude_bash(f"cat -- {shlex.quote(name)}", work), capsys)["updatedInput"]["command"]
        assert f"extract {word} " in shell and "page 1 line 0" in ran(shell, work)


def test_a_cached_slice_is_only_given_to_calls_from_the_folder_it_was_written_for(
        long_pdf: Path, tmp_path: Path, _out: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    project = tmp_path / "project"
    elsewhere = project / "elsewhere"  # another folder of the same project: the agent ran cd
    elsewhere.mkdir(parents=True)
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    shutil.copy(long_pdf, project / "doc.pdf")
    seen = []
    for cwd in (project, elsewhere, project):
        body = redirected(claude_read(project / "doc.pdf", cwd), capsys)
        sliced = Path(body["updatedInput"]["file_path"])
        assert sliced.parent == _out
        _first, commands = header(sliced)
        assert "--- page 12 / 60 ---" in ran(commands["Next part"], cwd)
        assert "page 60 line 39" in ran(commands["Search the whole document"].replace("PATTERN", "60.line.39"), cwd)
        seen.append((sliced, sliced.read_text(encoding="utf-8")))
    assert seen[0] == seen[2]  # the same folder: the cached slice
    assert seen[0][0] != seen[1][0] and f"pages {project / 'doc.pdf'} " in seen[1][1]


def _workbook_declaring(path: Path, dimension: str) -> None:
    """A two-row sheet whose dimension claims ``dimension`` (as some exporters write it)."""
    import xlsxwriter

    plain = path.with_suffix(".plain.xlsx")
    book = xlsxwriter.Workbook(str(plain))
    sheet = book.add_worksheet("Data")
    sheet.write(0, 0, SENTINEL)
    sheet.write(1, 0, "second")
    book.close()
    with zipfile.ZipFile(plain) as source, zipfile.ZipFile(path, "w") as target:
        for info in source.infolist():
            data = source.read(info.filename)
            if info.filename.endswith("sheet1.xml"):
                data = re.sub(rb'<dimension ref="[^"]*"', f'<dimension ref="{dimension}"'.encode(), data)
            target.writestr(info, data)


def test_a_part_that_skipped_or_may_lack_something_says_so_and_never_all_of_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import xlsxwriter

    book = xlsxwriter.Workbook(str(tmp_path / "hidden.xlsx"))
    book.add_worksheet("Shown").write(0, 0, SENTINEL)
    secret = book.add_worksheet("Secret")
    secret.write(0, 0, "hidden rows")
    secret.hide()
    book.close()
    _workbook_declaring(tmp_path / "declared.xlsx", "A1:A1048576")
    hidden = redirected(claude_read(tmp_path / "hidden.xlsx", tmp_path), capsys)
    first, commands = header(Path(hidden["updatedInput"]["file_path"]))
    assert "all of it" not in first and "hidden sheet" in commands["Warning"] and "'Secret'" in commands["Warning"]
    assert "additionalContext" not in hidden
    declared = redirected(claude_read(tmp_path / "declared.xlsx", tmp_path), capsys)
    first, _commands = header(Path(declared["updatedInput"]["file_path"]))
    assert "1,048,576 rows" in first and "all of it" not in first


def test_tail_gets_the_end_of_the_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "huge.log").write_text("".join(f"line {n} of the log\n" for n in range(1, 200_001)))
    for command in ("tail -n 200000 huge.log", "tail -c 99999999 huge.log", "tail -150000 huge.log"):
        new = redirected(claude_bash(command, tmp_path), capsys)["updatedInput"]["command"]
        printed = ran(new, tmp_path)
        shown = redirect.shown_chars("claude")  # what Claude Code itself shows of a big Bash output
        assert printed.endswith("line 200000 of the log\n") and len(printed) <= shown
        assert len(printed) > shown * 0.9  # the most lines that fit, not a token few
    assert ran(redirected(claude_bash("tail -n +199990 huge.log", tmp_path), capsys)["updatedInput"]["command"],
               tmp_path).startswith("line 199990 of the log\n")


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("archives")
    with zipfile.ZipFile(root / "catalogue.zip", "w") as zf:
        for number in range(3000):
            zf.writestr(f"some/deeper/folder/name/file-number-{number:05d}.txt", "x" * number)
    with zipfile.ZipFile(root / "long-names.zip", "w") as zf:  # names wider than the page: they fold
        for number in range(300):
            zf.writestr(f"{number:04d}-" + "/very-long-folder-name" * 90 + ".txt", "x")
    return root


@pytest.mark.parametrize("name", ["catalogue.zip", "long-names.zip"])
def test_an_archive_listing_fits_the_cap(archives: Path, name: str, capsys: pytest.CaptureFixture[str]) -> None:
    total = 3000 if name == "catalogue.zip" else 300
    assert len(ran(f"boundread list-zip {name} --max-entries {total}", archives)) > redirect.SLICE_CHARS
    new = redirected(claude_bash(f"cat {name}", archives), capsys)["updatedInput"]["command"]
    printed = ran(new, archives)
    listed = re.search(rf"listed ([\d,]+) of {total:,} entries", printed)
    assert listed and len(printed) <= redirect.SLICE_CHARS
    assert int(listed[1].replace(",", "")) * 2 > int(new.rsplit(" ", 1)[-1])  # the ones asked for, listed
    if name == "catalogue.zip":
        assert len(printed) > redirect.SLICE_CHARS * 0.75  # the cap filled, not a token few


@pytest.mark.parametrize("agent", ["claude", "gemini"])
def test_a_read_of_an_archive_reads_its_listing(archives: Path, agent: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    payload = claude_read(archives / "catalogue.zip", archives) if agent == "claude" else \
        gemini_read(archives / "catalogue.zip", archives)
    answer = hook(payload, capsys, "--mode", "redirect", "--agent", agent)
    given = answer["hookSpecificOutput"]["updatedInput" if agent == "claude" else "tool_input"]
    sliced = Path(given["file_path"])
    text = sliced.read_text(encoding="utf-8")
    first, commands = header(sliced)
    assert len(text) <= redirect.SLICE_CHARS and "catalogue.zip: zip archive" in first
    assert re.search(r"its listing, entries 1-\d{3} of 3,000\.$", first)
    assert "file-number-00000.txt" in text.split(RULE, 1)[1]
    found = ran(commands["Find a member among all"].replace("PATTERN", "02999"), archives)
    assert "file-number-02999.txt" in found
    member = commands["Read a member"].replace("NAME", "some/deeper/folder/name/file-number-00009.txt")
    assert ran(member, archives).startswith("x" * 9)


def test_a_small_archive_is_listed_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with zipfile.ZipFile(tmp_path / "five.zip", "w") as zf:
        for number in range(5):
            zf.writestr(f"doc{number}.txt", SENTINEL)
    answer = hook(gemini_read(tmp_path / "five.zip", tmp_path), capsys, "--mode", "redirect", "--agent", "gemini")
    assert answer["decision"] == "allow"
    first, commands = header(Path(answer["hookSpecificOutput"]["tool_input"]["file_path"]))
    assert first.endswith("its listing, entries 1-5 of 5 (all of them).") and "Find a member among all" not in commands


def test_an_extraction_past_the_deadline_keeps_the_deny_and_leaves_nothing(
        long_pdf: Path, tmp_path: Path, _out: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from boundread.formats.pdf import handler

    real = handler.extract
    calls = []

    def slow(src: Any, req: Any, sink: Any) -> Any:  # reads, then stalls as a hostile or huge file does
        calls.append(req.limits.timeout)
        outcome = real(src, req, sink)
        time.sleep(5)
        return outcome

    monkeypatch.setattr(handler, "extract", slow)
    monkeypatch.setattr(slices, "DEADLINE", 0.2)
    shutil.copy(long_pdf, tmp_path / "long.pdf")
    body = hook(claude_read(tmp_path / "long.pdf", tmp_path), capsys, "--mode", "redirect")["hookSpecificOutput"]
    assert calls == [0.2]  # the extraction ran, under the redirect's deadline
    assert body["permissionDecision"] == "deny" and "Not an error" in body["permissionDecisionReason"]
    assert not _out.exists() or {p.name for p in _out.iterdir()} <= {".gitignore"}


def test_a_compressed_file_gives_its_first_part_not_a_one_row_listing(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import gzip

    with gzip.open(tmp_path / "huge.log.gz", "wt") as fh:
        fh.write("".join(f"line {n} of the log\n" for n in range(1, 200_001)))
    new = redirected(claude_bash("cat huge.log.gz", tmp_path), capsys)["updatedInput"]["command"]
    assert ran(new, tmp_path).startswith("line 1 of the log\nline 2 of the log\n")
    body = redirected(claude_read(tmp_path / "huge.log.gz", tmp_path), capsys)
    first, commands = header(Path(body["updatedInput"]["file_path"]))
    assert "its first part, lines 1-" in first and "Read a member" not in commands
    assert ran(commands["Next part"], tmp_path).startswith("line ")


@pytest.mark.parametrize("name", ["pdf-aes-256-r6.pdf", "xlsx-pass_protected.xlsx", "gz-textfile_broken_gz.txt.gz"])
def test_a_dump_of_a_file_the_read_cannot_slice_keeps_the_deny(name: str, corpus_dir: Path, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(corpus_dir / name, tmp_path / name)  # encrypted, password-protected, a broken stream
    assert run(f"boundread extract {name} --max-chars 19000 --stdout", tmp_path).returncode in (5, 6)
    for payload in (claude_bash(f"cat {name}", tmp_path), claude_read(tmp_path / name, tmp_path)):
        body = hook(payload, capsys, "--mode", "redirect")["hookSpecificOutput"]
        assert body["permissionDecision"] == "deny" and "Not an error" in body["permissionDecisionReason"]
        assert body == hook(payload, capsys)["hookSpecificOutput"]  # the deny mode's own answer


def test_a_scanned_pdf_keeps_the_deny_its_page_markers_are_no_text(corpus_dir: Path, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    name = "pdf-MEDRPT_medical_report_scan.pdf"
    shutil.copy(corpus_dir / name, tmp_path / name)
    printed = run(f"boundread extract {name} --ocr never --max-chars 19000 --stdout", tmp_path)
    assert "--- page 3 / 3 ---" in printed.stdout and "no text layer" in printed.stderr  # markers, no text
    for payload in (claude_bash(f"cat {name}", tmp_path), claude_read(tmp_path / name, tmp_path)):
        body = hook(payload, capsys, "--mode", "redirect")["hookSpecificOutput"]
        assert body["permissionDecision"] == "deny"
        assert body == hook(payload, capsys)["hookSpecificOutput"]  # the deny mode's own answer


@pytest.mark.parametrize(("text", "found"), [
    ("--- page 1 / 3 ---\n\n--- page 2 / 3 ---\n   \n--- slide 3 / 3 ---\n", False),
    ("", False),
    (None, False),
    ("--- page 1 / 3 ---\nPatient: J. Doe\n", True),
    ("--- page 1 / 3 --- and more\n", True),  # not a marker line
])
def test_what_counts_as_text(text: str | None, found: bool) -> None:
    assert slices.has_text(text) is found
