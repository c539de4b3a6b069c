"""The CLI end to end, in-process: stdout, stderr and exit codes apart."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from boundread.errors import ExitCode
from tests.helpers import run, run_json

LOG_LINES = 5000


@pytest.fixture
def log(tmp_path: Path) -> Path:
    path = tmp_path / "server.log"
    path.write_text("".join(f"{n} {'FATAL disk full' if n % 1000 == 0 else 'GET /index'}\n"
                            for n in range(1, LOG_LINES + 1)), encoding="utf-8")
    return path


def test_info_on_text_counts_lines_and_suggests_next(log: Path) -> None:
    code, data = run_json("info", str(log))
    assert code == 0 and data["schema"] == 1 and data["kind"] == "text"
    assert data["fields"]["lines"] == LOG_LINES and data["fields"]["encoding"] == "utf-8"
    assert any("--lines 1-" in step for step in data["next"])


def test_extract_writes_to_the_default_folder_and_summarises(log: Path, tmp_path: Path) -> None:
    result = run("extract", str(log), "--lines", "10-12")
    assert result.exit_code == 0
    out = tmp_path / "out" / "server.log.lines-10-12.txt"
    assert out.read_text(encoding="utf-8") == "10 GET /index\n11 GET /index\n12 GET /index\n"
    assert f"wrote {out}" in result.stdout and "truncated: no" in result.stdout
    assert result.stderr == ""
    assert (tmp_path / "out" / ".gitignore").read_text(encoding="utf-8") == "*\n"


def test_stdout_mode_keeps_data_and_words_apart(log: Path) -> None:
    result = run("extract", str(log), "--grep", "FATAL", "--max-matches", "2", "--stdout")
    assert result.stdout == "1000:1000 FATAL disk full\n2000:2000 FATAL disk full\n"
    assert "truncated: max_matches 2 reached" in result.stderr
    assert "--grep FATAL --lines 2001-" in result.stderr


def test_max_chars_truncation_gives_the_continuing_command(log: Path) -> None:
    code, data = run_json("extract", str(log), "--max-chars", "1000")
    assert code == 0 and data["truncated"] and data["chars"] == 1000
    assert data["next"] == [f"boundread extract {log} --lines {data['lines']}-{2 * data['lines'] - 2}"]
    assert Path(data["output"]).stat().st_size == 1000


def test_output_path_and_atomic_write_never_touch_the_input(log: Path, tmp_path: Path) -> None:
    before = log.read_bytes()
    result = run("extract", str(log), "-o", str(log))
    assert result.exit_code == ExitCode.USAGE and "is the input file" in result.stderr
    assert log.read_bytes() == before
    target = tmp_path / "deep" / "slice.txt"
    assert run("extract", str(log), "--lines", "1-2", "-o", str(target)).exit_code == 0
    assert target.read_text(encoding="utf-8").count("\n") == 2
    assert not [p for p in target.parent.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize(("args", "code", "words"), [
    (("info", "missing.pdf"), ExitCode.NOT_FOUND, "no such file"),
    (("extract", "LOG", "--lines", "9-2"), ExitCode.USAGE, "run forwards"),
    (("extract", "LOG", "--grep", "("), ExitCode.USAGE, "bad --grep pattern"),
    (("pages", "LOG", "1-5"), ExitCode.USAGE, "not pdf or pptx"),
    (("sheets", "LOG"), ExitCode.USAGE, "not a workbook"),
])
def test_errors_are_one_line_naming_the_fix(log: Path, args: tuple[str, ...], code: int, words: str) -> None:
    result = run(*[str(log) if a == "LOG" else a for a in args])
    assert result.exit_code == code
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("boundread: error: ")
    assert words in result.stderr and " - " in result.stderr
    assert result.stdout == ""


def test_errors_in_json_mode_are_json_on_stdout(tmp_path: Path) -> None:
    code, data = run_json("info", str(tmp_path / "nope.pdf"))
    assert code == ExitCode.NOT_FOUND
    assert data["error"]["code"] == "not_found" and data["error"]["exit_code"] == 3


def test_directories_and_fifos_are_not_read(tmp_path: Path) -> None:
    assert run("info", str(tmp_path)).exit_code == ExitCode.NOT_FOUND
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    result = run("extract", str(fifo))
    assert result.exit_code == ExitCode.NOT_FOUND and "not a regular file" in result.stderr


def test_symlink_is_followed_and_named(log: Path, tmp_path: Path) -> None:
    link = tmp_path / "latest.log"
    link.symlink_to(log)
    code, data = run_json("info", str(link))
    assert code == 0 and data["symlink_target"] == str(log.resolve()) and data["kind"] == "text"


def test_mislabelled_file_is_handled_as_what_it_is(tmp_path: Path) -> None:
    fake = tmp_path / "archive.zip"
    fake.write_text("just a note, not an archive\n", encoding="utf-8")
    code, data = run_json("info", str(fake))
    assert code == 0 and data["kind"] == "text" and "named like a zip" in data["mislabelled"]


def test_info_on_several_files_reports_each_and_the_worst_code(log: Path, tmp_path: Path) -> None:
    code, data = run_json("info", str(log), str(tmp_path / "gone.txt"))
    assert code == ExitCode.NOT_FOUND
    assert data["files"][0]["kind"] == "text" and data["files"][1]["error"]["code"] == "not_found"


def test_binary_is_reported_never_dumped(tmp_path: Path) -> None:
    elf = tmp_path / "tool"
    elf.write_bytes(b"\x7fELF\x02\x01\x01" + bytes(range(256)) * 40)
    result = run("extract", str(elf))
    assert result.exit_code == ExitCode.UNSUPPORTED and "binary" in result.stderr
    assert not (tmp_path / "out").exists()


def test_timeout_writes_what_it_has_and_exits_8(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    big = tmp_path / "big.txt"
    big.write_text("a line without the word we look for\n" * 1_000_000, encoding="utf-8")
    # no literal in the pattern for the byte search to look for: every line is matched in Python, so 0.1 s
    # runs out (a literal such as "needle" is found in 36 MB faster than that, and so is anything by rg, whose
    # deadline tests/test_grep_engine_stops.py holds)
    monkeypatch.setenv("BOUNDREAD_GREP_ENGINE", "python")
    code, data = run_json("extract", str(big), "--grep", r"\d{7}", "--timeout", "0.1")
    assert code == ExitCode.TIMEOUT and data["timed_out"] and data["truncated"]
    assert any(reason.startswith("timeout") for reason in data["truncated_reasons"])
    assert Path(data["output"]).exists()


def test_demo_runs_the_protocol_on_the_bundled_sample(tmp_path: Path) -> None:
    code, data = run_json("demo", "--dir", str(tmp_path / "demo"))
    assert sorted(Path(p).name for p in data["samples"]) == ["catalogue.zip", "prices.xlsx", "report.pdf", "server.log"]
    assert code == 0 and data["info"]["fields"]["pages"] == 12
    assert "PAGE-2" in Path(data["pages"]["output"]).read_text(encoding="utf-8")
    assert data["pages"]["next"] == [data["pages"]["next"][0]] and data["pages"]["next"][0].endswith(" 3-4")


def test_version() -> None:
    result = run("--version")
    assert result.exit_code == 0 and result.stdout.startswith("boundread ")


# --- the parser's own errors cross the same boundary ----------------------------------------------------

@pytest.mark.parametrize("args", [("pages",), ("pages", "x.pdf"), ("extract", "x", "--bogus"),
                                  ("extract", "--max-chars", "many", "x"), ("budget", "bogus")])
def test_usage_errors_are_one_line_exit_2(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.exit_code == ExitCode.USAGE and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("boundread: error: ")
    assert "--help`" in result.stderr and "╭" not in result.stderr


@pytest.mark.parametrize("args", [("pages", "x.pdf"), ("extract", "x", "--bogus"), ("info", "--timeout", "0")])
def test_usage_errors_in_json_mode_are_json(args: tuple[str, ...]) -> None:
    result = run(*args, "--json")
    assert result.exit_code == ExitCode.USAGE and result.stderr == ""
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "usage" and error["exit_code"] == 2 and " - see `boundread " in error["message"]


@pytest.mark.parametrize("command", ["info", "extract", "pages", "sheets", "list-zip", "demo", "init", "doctor",
                                     "guard-check", "budget", "budget status"])
def test_dash_h_is_help_everywhere(command: str) -> None:
    result = run(*command.split(), "-h")
    assert result.exit_code == 0 and f"Usage: boundread {command}" in result.stdout


@pytest.mark.parametrize(("command", "usage"), [
    ("pages", "boundread pages [OPTIONS] FILE RANGE"), ("extract", "boundread extract [OPTIONS] FILE"),
    ("sheets", "boundread sheets [OPTIONS] FILE [SHEET]..."), ("list-zip", "boundread list-zip [OPTIONS] ARCHIVE"),
    ("budget prices", "boundread budget prices [OPTIONS] MODEL"),
    ("budget exec", "boundread budget exec [OPTIONS] COMMAND..."), ("guard-check", "boundread guard-check [OPTIONS]"),
])
def test_usage_lines_name_the_arguments_plainly(command: str, usage: str) -> None:
    result = run(*command.split(), "--help")
    line = next(line for line in result.stdout.splitlines() if "Usage:" in line)
    assert line.strip() == f"Usage: {usage}"


@pytest.mark.parametrize("command", ["info", "extract", "pages", "sheets", "list-zip", "init", "doctor",
                                     "guard-check", "budget set", "budget add"])
def test_option_types_read_as_words(command: str) -> None:
    text = run(*command.split(), "--help").stdout.partition("Options")[2]
    assert "<int" not in text and "<float" not in text and "<str>" not in text and "x>=" not in text


def test_option_words_in_help() -> None:
    text = run("extract", "--help").stdout
    for words in ("--max-chars              N ", "--timeout                SECONDS", "--grep                   PATTERN",
                  "--lines                  A-B", "--max-member-mb          MB", "--output         -o      PATH"):
        assert words in text, words


@pytest.mark.parametrize(("args", "words"), [(("--max-chars", "0"), "0 is below 1"),
                                             (("--timeout", "0"), "0 is below 0.1"),
                                             (("--context", "x"), "'x' is not a whole number")])
def test_a_number_below_its_floor_is_a_usage_error(log: Path, args: tuple[str, ...], words: str) -> None:
    result = run("extract", str(log), *args)
    assert result.exit_code == ExitCode.USAGE and words in result.stderr


def test_main_help_lines_end_at_a_sentence() -> None:
    text = run("--help").stdout.replace("│", " ")
    assert "for an agent; --budget also records what a session spends and ends it at a cap." in " ".join(text.split())
    words = " ".join(text.split())
    assert "Exit status" not in text and "the budget hooks, Codex's hook trust, Gemini's folder trust." in words


def test_a_reader_that_stops_early_is_not_an_error(log: Path) -> None:
    script = Path(sys.executable).parent / "boundread"
    for args in (["info", str(log)], ["extract", str(log), "--stdout", "--max-chars", "200000"]):
        proc = subprocess.run(f"{shlex.join([str(script), *args])} | head -c 1; exit ${{PIPESTATUS[0]}}",
                              shell=True, executable="/bin/bash", capture_output=True, text=True, check=False)
        assert proc.returncode == 0 and "Error" not in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


# --- an option that does not apply to the file's kind ------------------------------------------------

@pytest.mark.parametrize(("args", "misfit", "takes"), [
    (("extract", "LOG", "--pages", "2"), "--pages does not apply", "text takes only --lines A-B"),
    (("extract", "LOG", "--sheet", "1", "--format", "markdown"), "--sheet and --format do not apply", "--grep"),
    (("extract", "LOG", "--password", "x"), "--password does not apply", "--max-chars"),
    (("extract", "LOG", "--engine", "pdfminer"), "--engine does not apply", "--lines"),
])
def test_an_option_that_does_not_fit_is_a_usage_error(log: Path, tmp_path: Path, args: tuple[str, ...],
                                                      misfit: str, takes: str) -> None:
    result = run(*[str(log) if a == "LOG" else a for a in args])
    assert result.exit_code == ExitCode.USAGE and result.stdout == ""
    assert misfit in result.stderr and takes in result.stderr and result.stderr.count("\n") == 1
    assert not (tmp_path / "out").exists()  # nothing written under a name that lies


def test_the_error_names_the_options_that_do_fit(tmp_path: Path) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    pdf.cell(text="PDF-SENTINEL")
    path = tmp_path / "one.pdf"
    pdf.output(str(path))
    code, data = run_json("extract", str(path), "--sheet", "Notes")
    assert code == ExitCode.USAGE and data["error"]["code"] == "usage"
    assert "--sheet does not apply" in data["error"]["message"] and "pdf takes --pages, --layout" in \
        data["error"]["message"]
    assert run("extract", str(path), "--pages", "1", "--layout", "--stdout").exit_code == 0


def test_stdout_text_ends_with_a_newline(tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("no newline at the end", encoding="utf-8")
    result = run("extract", str(note), "--stdout")
    assert result.exit_code == 0 and result.stdout == "no newline at the end\n"


def test_one_is_singular(tmp_path: Path) -> None:
    note = tmp_path / "note.txt"
    note.write_text("x\n", encoding="utf-8")
    result = run("extract", str(note))
    assert " · 2 chars · 1 line · ~1 token" in result.stdout
    archive = tmp_path / "one.zip"
    import zipfile

    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("a.txt", "a\n")
    assert "zip archive, 1 entry," in run("list-zip", str(archive)).stdout


def test_dir_shows_the_public_api() -> None:
    import boundread

    assert {"info", "extract", "pages", "sheets", "list_zip", "Limits", "ExitCode"} <= set(dir(boundread))


@pytest.mark.parametrize(("args", "name"), [(("pages", "{}", "10-99"), "report.pdf.pages-10-12.txt"),
                                            (("pages", "{}", "1,11-99", "--layout"),
                                             "report.pdf.pages-1_11-12-layout.txt"),
                                            (("extract", "{}", "--pages", "12-40"), "report.pdf.pages-12.txt"),
                                            (("pages", "{}", "2-5"), "report.pdf.pages-2-5.txt")])
def test_the_output_name_says_the_pages_read_when_the_range_was_clamped(tmp_path: Path, args: tuple[str, ...],
                                                                        name: str) -> None:
    from boundread.core.demo import write_samples

    report = write_samples(tmp_path / "demo")["report.pdf"]
    code, data = run_json(*(a.format(report) for a in args))
    assert code == 0 and Path(data["output"]).name == name
    clamped = name != "report.pdf.pages-2-5.txt"
    assert any("clamped to" in warning for warning in data["warnings"]) is clamped


# --- what a person sees on a terminal -----------------------------------------------------------------

def test_list_zip_breaks_long_names_between_words_at_60_columns(tmp_path: Path) -> None:
    import zipfile

    from tests import terminal

    archive = tmp_path / "long.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("documentation/specifications/engineering-requirements-final-version.pdf", b"x" * 5000)
        zf.writestr("src/boundread/formats/archives/zipfiles.py", b"y" * 300)
    code, screen = terminal.run(["list-zip", str(archive)], columns=60)
    lines = screen.splitlines()
    assert code == 0 and all(len(line) <= 60 for line in lines), screen
    names = [line[line.index(word):] for line in lines for word in ("documentation", "specifications",
                                                                     "engineering", "src/", "archives/")
             if word in line]
    assert names == ["documentation/", "specifications/", "engineering-", "src/boundread/formats/",
                     "archives/zipfiles.py"], screen


def test_fit_name_breaks_after_a_slash() -> None:
    from boundread.render.views import fit_name

    assert fit_name("a/b/c", 10) == "a/b/c"
    assert fit_name("docs/specifications/x.pdf", 16) == "docs/\nspecifications/\nx.pdf"
    assert fit_name("averyveryverylongname", 8) == "averyver\nyverylon\ngname"


def test_summary_wraps_at_the_terminal_width_and_stays_whole_piped(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from boundread import render

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("COLUMNS", "40")
    long = "  truncated: max_chars 500 reached; the time limit of 60 seconds reached"
    command = "  boundread extract some/long/path/to/a/file.log --lines 11-20"
    folded = render.fold([long, command], Terminal())
    assert folded[:-1] == ["  truncated: max_chars 500 reached; the", "    time limit of 60 seconds reached"]
    assert folded[-1] == command
    assert render.fold([long, command], io.StringIO()) == [long, command]
