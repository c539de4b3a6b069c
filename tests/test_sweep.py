"""The hostile-input sweep: every corpus file through every command that applies, as the installed script.

Each command runs as a child process of `.venv/bin/boundread` with --json and --timeout, and must:
print no traceback, end before its timeout (plus a margin: the hard kill), exit with a code from the
documented table, print one JSON object on stdout, and peak under 100 MB of resident memory.
`guard-check` gets a Claude Code Read payload and a Bash `cat FILE` payload naming each file: exit 0
with one JSON object or nothing. tests/test_corpus.py checks the expected answers in-process; this
sweep checks the process-level promises across all commands.

Also here: archives never write outside the output folder, whatever their member names, and bombs are
capped (`extract --member` refuses or stays within --max-chars, in little memory).
"""

from __future__ import annotations

import collections
import gzip
import io
import json
import tarfile
import zipfile
from collections.abc import Iterator
from multiprocessing.pool import ThreadPool
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CORPUS
from tests.sweep_helpers import DOCUMENTED, MB, Ran, child_env, run_measured

TIMEOUT = 15.0  # --timeout given to every command
MARGIN = 10.0  # start-up, the last chunk of work and the atomic write after the alarm fires
PEAK_LIMIT = 100 * MB

ARCHIVES = {"zip", "7z", "tar", "gz", "bz2", "xz"}
SHEETS = {"xlsx", "xls", "ods"}
PAGED = {"pdf", "pptx"}


def corpus_files() -> list[str]:
    manifest = CORPUS / "manifest.json"
    if not manifest.is_file():
        return ["(corpus absent)"]
    return [entry["file"] for entry in json.loads(manifest.read_text(encoding="utf-8"))]


@pytest.fixture(scope="module")
def tally() -> Iterator[collections.Counter[str]]:
    """Counts across the whole sweep, printed at the end (`pytest -s` shows them)."""
    counts: collections.Counter[str] = collections.Counter()
    yield counts
    if counts["files"]:
        codes = ", ".join(f"exit {k[5:]}: {v}" for k, v in sorted(counts.items()) if k.startswith("exit "))
        print(f"\nsweep: {counts['files']} files, {counts['commands']} commands "
              f"({counts['guard']} of them guard-check); {codes}; peak RSS max {counts['peak_max'] / MB:.1f} MB")


def _is_zip(path: Path) -> bool:
    with open(path, "rb") as fh:
        return fh.read(2) == b"PK"


def _claude(tool: str, tool_input: dict[str, Any], cwd: Path) -> bytes:
    return json.dumps({
        "session_id": "sweep", "transcript_path": str(cwd / "t.jsonl"), "cwd": str(cwd),
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": tool,
        "tool_input": tool_input, "tool_use_id": "toolu_sweep",
    }).encode()


def _check(ran: Ran, guard: bool) -> None:
    why = ran.describe()
    assert not ran.killed, "hung past its --timeout: " + why
    assert "Traceback" not in ran.stderr and "Traceback" not in ran.stdout, why
    assert ran.peak_rss < PEAK_LIMIT, why
    if guard:
        # Claude Code's dialect: allow is exit 0 and nothing; deny is exit 0 and one JSON object
        assert ran.code == 0, why
        if ran.stdout.strip():
            assert isinstance(ran.json(), dict), why
        return
    assert ran.code in DOCUMENTED, why
    data = ran.json()  # exactly one JSON object: json.loads rejects trailing data
    assert isinstance(data, dict) and data.get("schema") == 1, why
    if ran.code != 0:
        assert data["error"]["exit_code"] == ran.code, why
    elif "chars" in data and data.get("output"):
        assert data["chars"] <= 100_000, why


def _first_member(listing: Ran) -> str | None:
    if listing.code != 0:
        return None
    entries = listing.json().get("entries", [])
    return next((e["name"] for e in entries if not e["is_dir"] and not e["is_symlink"]), None)


@pytest.mark.corpus
@pytest.mark.parametrize("name", corpus_files())
def test_every_command_on_every_corpus_file(
    name: str, corpus_dir: Path, tmp_path: Path, tally: collections.Counter[str]
) -> None:
    path = str(corpus_dir / name)
    env = child_env()
    common = ("--json", "--timeout", str(TIMEOUT))

    def run(*args: str, stdin: bytes | None = None) -> Ran:
        return run_measured(args if stdin is not None else (*args, *common), cwd=tmp_path, env=env,
                            hard_timeout=TIMEOUT + MARGIN, stdin=stdin)

    info = run("info", path)
    _check(info, guard=False)
    kind = info.json()["kind"]
    listing = run("list-zip", path) if kind in ARCHIVES or _is_zip(Path(path)) else None
    done = [info] + ([listing] if listing else [])
    if listing:
        _check(listing, guard=False)

    commands: list[tuple[tuple[str, ...], bytes | None]] = [
        (("extract", path), None),
        (("extract", path, "--grep", "e|the|ERROR", "--context", "1"), None),
        (("extract", path, "--lines", "2-40"), None),
    ]
    if kind in PAGED:
        commands.append((("pages", path, "1-3"), None))
    if kind in SHEETS:
        commands += [(("sheets", path), None), (("sheets", path, "1", "--max-rows", "50"), None)]
    if kind in ARCHIVES and listing is not None and (member := _first_member(listing)) is not None:
        commands.append((("extract", path, "--member", member), None))
    guard: list[tuple[tuple[str, ...], bytes | None]] = [
        (("guard-check",), _claude("Read", {"file_path": path}, tmp_path)),
        (("guard-check",), _claude("Bash", {"command": f"cat '{path}'"}, tmp_path)),
    ]
    with ThreadPool(2) as pool:
        ran = pool.starmap(lambda args, stdin: run(*args, stdin=stdin), commands + guard)
    for result in ran[:len(commands)]:
        _check(result, guard=False)
    for result in ran[len(commands):]:
        _check(result, guard=True)

    everything = done + ran
    tally["files"] += 1
    tally["commands"] += len(everything)
    tally["guard"] += len(guard)
    for result in everything:
        tally[f"exit {result.code}"] += 1
    tally["peak_max"] = max(tally["peak_max"], *(r.peak_rss for r in everything))


# --- archives never write outside the output folder -------------------------------------------------------

EVIL_NAMES = ("../evil.txt", "/abs/evil.txt", "C:\\evil.txt", "..\\..\\evil.txt", "../../../../evil.txt")
EVIL_TEXT = b"EVIL-SENTINEL must never land on disk outside the output folder\n"
LINK = "link-out"
LINK_TARGET = "../" * 12 + "etc/passwd"  # exists (py7zr needs that); must never be read through the link


def _evil_zip(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        for name in EVIL_NAMES:
            zf.writestr(zipfile.ZipInfo(name), EVIL_TEXT)
        link = zipfile.ZipInfo(LINK)
        link.create_system = 3  # unix, so the mode bits below mean a symlink
        link.external_attr = (0o120777 << 16)
        zf.writestr(link, LINK_TARGET)


def _evil_tar(path: Path) -> None:
    with tarfile.open(path, "w:gz") as tf:
        for name in EVIL_NAMES:
            info = tarfile.TarInfo(name)
            info.size = len(EVIL_TEXT)
            tf.addfile(info, io.BytesIO(EVIL_TEXT))
        link = tarfile.TarInfo(LINK)
        link.type = tarfile.SYMTYPE
        link.linkname = LINK_TARGET
        tf.addfile(link)
        hard = tarfile.TarInfo("hard-out")
        hard.type = tarfile.LNKTYPE
        hard.linkname = "../../evil.txt"
        tf.addfile(hard)


def _evil_7z(path: Path, scratch: Path) -> None:
    import py7zr

    scratch.mkdir(exist_ok=True)
    (scratch / LINK).symlink_to(LINK_TARGET)
    with py7zr.SevenZipFile(path, "w") as sz:
        sz.write(scratch / LINK, LINK)  # first: py7zr looks links up among the members written before
        for name in EVIL_NAMES:
            sz._writestr(EVIL_TEXT, name)  # writestr() refuses hostile names: that is the point here


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file() or p.is_symlink()}


def _no_evil_anywhere(box: Path) -> None:
    for where in (box, box.parent, box.parent.parent, Path("/"), Path("/abs"), Path.cwd()):
        assert not (where / "evil.txt").exists(), where
    assert not any(p.name.endswith("evil.txt") for p in _files(box) if "out" not in p.relative_to(box).parts)


@pytest.mark.parametrize("fmt", ["zip", "tar.gz", "7z"])
def test_hostile_member_names_never_escape(fmt: str, tmp_path: Path) -> None:
    box = tmp_path / "box"
    work, out, archives = box / "work" / "deeper" / "still", box / "out", box / "archives"
    for folder in (work, out, archives):
        folder.mkdir(parents=True)
    archive = archives / f"evil.{fmt}"
    {"zip": _evil_zip, "tar.gz": _evil_tar}.get(fmt, lambda p: _evil_7z(p, box / "scratch"))(archive)
    env = child_env(BOUNDREAD_OUT_DIR=str(out))
    members = [*EVIL_NAMES, LINK] + (["hard-out"] if fmt == "tar.gz" else [])

    def run(*args: str) -> Ran:
        return run_measured((*args, "--json", "--timeout", "10"), cwd=work, env=env, hard_timeout=20)

    before = _files(box)
    listing = run("list-zip", str(archive))
    assert listing.code == 0, listing.describe()
    listed = {e["name"] for e in listing.json()["entries"]}
    assert len(listed) >= len(EVIL_NAMES), listed  # every hostile name is shown (as stored or normalised)
    assert any(e["warnings"] for e in listing.json()["entries"]), listing.describe()
    assert run("info", str(archive)).code == 0
    assert _files(box) == before  # listing and info write nothing

    for member in members:
        for old in out.iterdir():  # two hostile names may slug to the same output name
            old.unlink()
        snapshot = _files(box)
        ran = run("extract", str(archive), "--member", member)
        assert ran.code in DOCUMENTED and "Traceback" not in ran.stderr, ran.describe()
        new = _files(box) - snapshot
        assert all(p.parent == out for p in new), (member, new)
        assert len(new) <= 1, (member, new)
        if ran.code == 0:
            assert new and (work / ran.json()["output"]).resolve().parent == out.resolve(), ran.describe()
            assert "root:" not in (work / ran.json()["output"]).read_text(encoding="utf-8"), member
        _no_evil_anywhere(box)
    _no_evil_anywhere(box)


# --- bombs are capped ---------------------------------------------------------------------------------------

BOMB_BYTES = 200 * MB


@pytest.fixture(scope="module")
def bombs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bombs")
    chunk = b"\0" * MB
    zpath = folder / "bomb.zip"
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        zf.writestr("readme.txt", "a small member first\n")
        with zf.open("zeros.txt", "w", force_zip64=True) as member:
            for _ in range(BOMB_BYTES // MB):
                member.write(chunk)
    gpath = folder / "bomb.txt.gz"
    with gzip.open(gpath, "wb", compresslevel=9) as gz:
        for _ in range(BOMB_BYTES // MB):
            gz.write(b"A" * MB)  # text, so a reader that did not cap it would happily hold it all
    return {"zip": zpath, "gz": gpath}


@pytest.mark.parametrize(("which", "args"), [
    ("zip", ("extract", "{}", "--member", "zeros.txt")),
    ("zip", ("extract", "{}")),
    ("zip", ("list-zip", "{}")),
    ("zip", ("info", "{}")),
    ("gz", ("extract", "{}")),
    ("gz", ("extract", "{}", "--member", "bomb.txt")),
    ("gz", ("extract", "{}", "--lines", "1-100")),
    ("gz", ("info", "{}")),
])
def test_bombs_are_capped(which: str, args: tuple[str, ...], bombs: dict[str, Path], tmp_path: Path) -> None:
    argv = tuple(a.format(bombs[which]) for a in args)
    ran = run_measured((*argv, "--json", "--timeout", "20"), cwd=tmp_path, env=child_env(),
                       hard_timeout=35)
    why = ran.describe()
    assert not ran.killed and "Traceback" not in ran.stderr, why
    assert ran.code in (0, 7), why
    assert ran.peak_rss < PEAK_LIMIT, why
    data = ran.json()
    if ran.code == 0 and "chars" in data:
        assert data["chars"] <= 100_000, why
        if data.get("output"):
            assert (tmp_path / data["output"]).stat().st_size <= 4 * 100_000, why
    if args[0] == "info":
        assert ran.code == 0, why
