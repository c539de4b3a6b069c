"""Real files of the kinds boundread learnt in issue 25 - JSON, JSON Lines, CSV/TSV, SQLite, Parquet, Arrow, web
pages, EPUB, email, notebooks - written by other programs (tests/realfiles/SOURCES.md says which and where from),
through `info`, `extract`, the kind's own slice (--path, --rows, sheets, pages, --member, list-zip), `chunks`, the
MCP tools and the guard. tests/realfiles/manifest.json says what a correct tool gives for each: the kind and the
counts info reports, the words each read must show (and must not), the exit code.

A check the manifest lists under an entry's ``known_bug`` is expected to fail (strict xfail: when the bug is fixed
the test says so, and the entry's ``known_bug`` goes); /tmp/notes/real-requests.md went to the owners.
"""

from __future__ import annotations

import json
import shlex
import shutil
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import pytest

from boundread.guard import check_read
from boundread.guard.command import check_command
from boundread.guard.config import GuardConfig
from tests.helpers import run

REAL = Path(__file__).resolve().parent / "realfiles"
ENTRIES: list[dict[str, Any]] = json.loads((REAL / "manifest.json").read_text(encoding="utf-8"))
#: The guard's text cap in these tests: every real text file over 1 KB stands for its big copy (a 5 MB export of
#: the same shape), which the default 256 KB cap would deny the same way.
BIG = GuardConfig(text_max_bytes=1_024)
PLACEHOLDERS = {"PATTERN", "TABLE", "NAME", "SHEET", "PATH", "QUERY"}
NEEDS_PYARROW = {"parquet", "arrow"}


def _marks(entry: dict[str, Any], check: str) -> list[pytest.MarkDecorator]:
    marks = []
    if entry["kind"] in NEEDS_PYARROW and find_spec("pyarrow") is None:
        marks.append(pytest.mark.skip(reason="needs the parquet extra: pip install 'boundread[parquet]'"))
    bug = entry.get("known_bug")
    if bug and check in bug["checks"]:
        marks.append(pytest.mark.xfail(reason=bug["why"], strict=True))
    return marks


def cases(check: str, needs: str | None = None) -> list[Any]:
    return [pytest.param(entry, id=entry["file"], marks=_marks(entry, check))
            for entry in ENTRIES if needs is None or needs in entry]


def json_of(*args: str) -> tuple[int, dict[str, Any]]:
    result = run(*args, "--json", "--timeout", "30")
    assert result.stderr == "", result.stderr  # --json: errors too are JSON on stdout, and never a traceback
    return result.exit_code, json.loads(result.stdout)


def shows(text: str, expect: dict[str, Any]) -> None:
    """``text`` holds each of ``must_include`` (in that order with ``in_order``) and none of ``must_not_include``."""
    for word in expect.get("must_include", []):
        assert word in text, f"{word!r} missing from:\n{text[:1500]}"
    for word in expect.get("must_not_include", []):
        assert word not in text, f"{word!r} shown in:\n{text[:1500]}"
    if expect.get("in_order"):
        places = [text.index(word) for word in expect["must_include"]]
        assert places == sorted(places), places


def test_every_file_is_in_the_manifest_as_it_came() -> None:
    import hashlib

    listed = {entry["file"]: entry for entry in ENTRIES}
    present = {path.name for path in REAL.iterdir() if path.is_file()} - {"manifest.json", "SOURCES.md",
                                                                          ".gitattributes"}
    assert present == set(listed)
    sources = (REAL / "SOURCES.md").read_text(encoding="utf-8")
    for name, entry in listed.items():
        data = (REAL / name).read_bytes()
        assert (len(data), hashlib.sha256(data).hexdigest()) == (entry["bytes"], entry["sha256"]), name
        assert len(data) < 300 * 1024 and entry["license"] and entry["commit"] and name in sources
    assert sum(entry["bytes"] for entry in ENTRIES) < 3 * 1024 * 1024
    kinds = {entry["kind"] for entry in ENTRIES}
    assert kinds == {"json", "jsonl", "csv", "tsv", "sqlite", "parquet", "arrow", "html", "epub", "eml", "ipynb"}


@pytest.mark.parametrize("entry", cases("info"))
def test_info_names_the_kind_and_counts(entry: dict[str, Any]) -> None:
    code, data = json_of("info", str(REAL / entry["file"]))
    assert code == 0, data
    assert data["kind"] == entry["kind"], entry["expect"]
    fields = data.get("fields") or {}
    assert {key: fields.get(key) for key in entry.get("fields", {})} == entry.get("fields", {})
    assert data["next"] or data["problem"], data


@pytest.mark.parametrize("entry", cases("extract"))
def test_extract_shows_the_words(entry: dict[str, Any], tmp_path: Path) -> None:
    expect = entry["extract"]
    code, data = json_of("extract", str(REAL / entry["file"]), "-o", str(tmp_path / "slice.txt"))
    assert code == expect["exit"], data
    if code == 0:
        text = (tmp_path / "slice.txt").read_text(encoding="utf-8")
        assert len(text) == data["chars"] <= 100_000
        shows(text, expect)
    else:
        assert data["error"]["exit_code"] == code and " - " in data["error"]["message"]
        shows(data["error"]["message"], expect)


def _cli(entry: dict[str, Any], words: list[str], out: Path) -> list[str]:
    """The slice's command on this file: its path after the command's name, its output to ``out``."""
    command, *rest = words
    return [command, str(REAL / entry["file"]), *rest, *([] if command == "list-zip" else ["-o", str(out)])]


@pytest.mark.parametrize("entry", cases("slice", needs="slice"))
def test_the_kinds_own_slice_shows_the_part(entry: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "part.txt"
    code, data = json_of(*_cli(entry, entry["slice"]["cli"], out))
    assert code == 0, data
    shows(out.read_text(encoding="utf-8") if out.exists() else json.dumps(data, ensure_ascii=False), entry["slice"])


@pytest.mark.parametrize("entry", cases("chunks", needs="chunks"))
def test_chunks_cover_the_document(entry: dict[str, Any], tmp_path: Path) -> None:
    expect = entry["chunks"]
    code, data = json_of("chunks", str(REAL / entry["file"]), "--tokens", "4000", "-o", str(tmp_path / "c"))
    assert code == expect.get("exit", 0), data
    if code == 0:
        assert data["complete"] is True and data["chunks"], data
        assert all(chunk["est_tokens"] <= 4000 for chunk in data["chunks"])
        shows("\n".join((tmp_path / "c" / chunk["file"]).read_text(encoding="utf-8") for chunk in data["chunks"]),
              expect)


def _suggested(reason: str) -> list[list[str]]:
    return [shlex.split(line.strip())[1:] for line in reason.splitlines() if line.strip().startswith("boundread ")]


@pytest.mark.parametrize("entry", cases("guard"))
def test_the_guard_denies_a_big_copy_and_its_commands_work(entry: dict[str, Any], tmp_path: Path) -> None:
    """Read and `cat` of the file as a big copy: denied where the manifest says so, with commands that run; at the
    default caps only what is binary (or over 256 KB) is denied."""
    name = entry["file"]
    shutil.copy(REAL / name, tmp_path / name)
    assert check_read(str(tmp_path / name), cwd=tmp_path).decision == entry.get("guard_default", "allow")
    read = check_read(str(tmp_path / name), cwd=tmp_path, config=BIG)
    assert read.decision == entry["guard"], read.reason
    if read.decision == "allow":
        return
    assert check_command(f"cat {shlex.quote(name)}", cwd=tmp_path, config=BIG).decision == "deny"
    commands = [words for words in _suggested(read.reason)
                if not PLACEHOLDERS & set(words) and not any("..." in word for word in words)]  # templates
    assert commands, read.reason
    for words in commands:
        code, data = json_of(*[str(tmp_path / w) if w == name else w for w in words])
        assert code == 0, (words, data)
        if words[0] in ("extract", "pages", "sheets"):
            assert data["chars"] <= 20_000, words


def test_the_mcp_tools_read_every_file(tmp_path: Path) -> None:
    """One server, every file: info names the kind, extract shows the words (or fails as the CLI does), and the
    slice's tool call shows the part. A check listed in ``known_bug`` must still fail - strict, as the xfails."""
    pytest.importorskip("mcp.server.mcpserver", reason="needs the mcp extra: pip install 'boundread[mcp]'")
    from tests.test_mcp import talk, text

    folder = tmp_path / "project"
    folder.mkdir()
    entries = [e for e in ENTRIES if e["kind"] not in NEEDS_PYARROW or find_spec("pyarrow") is not None]
    for entry in entries:
        shutil.copy(REAL / entry["file"], folder / entry["file"])
    failed: dict[str, set[str]] = {}

    def check(entry: dict[str, Any], name: str, ok: bool) -> None:
        if not ok:
            failed.setdefault(entry["file"], set()).add(name)

    def holds(body: str, expect: dict[str, Any]) -> bool:
        try:
            shows(body, expect)
        except AssertionError:
            return False
        return True

    async def work(client: Any) -> None:
        for entry in entries:
            path = entry["file"]
            about = await client.call_tool("info", {"path": path})
            kind = (about.structured_content or {}).get("kind")
            check(entry, "mcp_info", not about.is_error and kind == entry["kind"])
            read = await client.call_tool("extract", {"path": path})
            expect = entry["extract"]
            check(entry, "mcp_extract", read.is_error == (expect["exit"] != 0) and holds(text(read), expect))
            if "slice" in entry:
                tool, args = entry["slice"]["mcp"]
                part = await client.call_tool(tool, {"path": path, **args})
                check(entry, "mcp_slice", not part.is_error and holds(text(part), entry["slice"]))

    talk(folder, work)
    expected = {e["file"]: {c for c in e["known_bug"]["checks"] if c.startswith("mcp_")}
                for e in entries if "known_bug" in e}
    assert failed == {name: checks for name, checks in expected.items() if checks}, (
        "fails now (left) vs the manifest's known bugs (right): fix the file's reader, or its known_bug")


@pytest.mark.parametrize("entry", [case for case in cases("redirect") if case.values[0]["guard"] == "deny"])
def test_redirect_mode_gives_the_first_part(entry: dict[str, Any], tmp_path: Path) -> None:
    """In redirect mode the refused Read gets the file's first part (hook/slices): the beginning of its text, with
    a header - or nothing where there is nothing to give (encrypted), and then the deny stands."""
    from boundread.hook import slices

    name = entry["file"]
    shutil.copy(REAL / name, tmp_path / name)
    read = check_read(str(tmp_path / name), cwd=tmp_path, config=BIG)
    made = slices.first_part(str(tmp_path / name), name, str(tmp_path), read.rule, read.kind)
    if entry.get("redirect") is False:
        assert made is None
        return
    assert made is not None, read.reason
    part = Path(made[0]).read_text(encoding="utf-8")
    assert len(part) <= slices.SLICE_CHARS + 1_000 and entry["extract"]["must_include"][0] in part, part[:1500]


def test_a_listing_with_nothing_in_it_says_so(tmp_path: Path) -> None:
    """An email without attachments (Thunderbird's .eml, Tika's .msg) and an empty zip: one plain line, not
    "no entries in 1- of 0", and not "the archive is empty" for a message."""
    import zipfile

    zipfile.ZipFile(tmp_path / "empty.zip", "w").close()
    for path, words in ((REAL / "eml-tika-testThunderbirdEml.eml", "no attachments"),
                        (REAL / "msg" / "testMSG.msg", "no attachments"),
                        (tmp_path / "empty.zip", "no entries: the archive is empty")):
        result = run("list-zip", str(path))
        assert result.exit_code == 0 and words in result.stdout and " 1- " not in result.stdout, result.stdout
        code, data = json_of("list-zip", str(path))
        assert code == 0 and data["listed"] == words and data["entries"] == []
