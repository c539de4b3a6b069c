"""list-zip pages through a long listing: ``--entries A-B``, ``--match GLOB``, and a ``next`` that is the exact
next page, for zip, tar.gz and 7z alike (they share one Collector)."""

from __future__ import annotations

import io
import shlex
import tarfile
import zipfile
from pathlib import Path

import py7zr
import pytest
from tests.helpers import run, run_json

import boundread
from boundread.errors import ExitCode
from boundread.formats.archives import common, zipfiles

COUNT = 1_200
NAMES = [f"docs/{n:04d}.{'pdf' if n % 3 == 0 else 'txt'}" for n in range(COUNT)]
PDFS = [name for name in NAMES if name.endswith(".pdf")]


def _write(path: Path, names: list[str]) -> Path:
    if path.suffix == ".zip":
        with zipfile.ZipFile(path, "w") as zf:
            for name in names:
                zf.writestr(name, name)
    elif path.name.endswith(".tar.gz"):
        with tarfile.open(path, "w:gz") as tf:
            for name in names:
                data = name.encode()
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
    else:
        with py7zr.SevenZipFile(path, "w") as archive:
            for name in names:
                archive.writestr(name.encode(), name)
    return path


@pytest.fixture(scope="module", params=["many.zip", "many.tar.gz", "many.7z"])
def many(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _write(tmp_path_factory.mktemp("pages") / request.param, NAMES)


def _pages(first: list[str]) -> tuple[list[str], list[list[str]]]:
    """Follow ``next`` from the command ``first`` (its words after ``boundread``): every name listed, and the
    commands run."""
    names: list[str] = []
    commands = [first]
    while True:
        code, data = run_json(*commands[-1])
        assert code == 0, data
        names += [entry["name"] for entry in data["entries"]]
        if not data["next"]:
            return names, commands
        assert len(data["next"]) == 1 and len(commands) < 10
        words = shlex.split(data["next"][0])
        assert words[:2] == ["boundread", "list-zip"]
        commands.append(words[1:])


def test_following_next_lists_every_entry_exactly_once(many: Path) -> None:
    names, commands = _pages(["list-zip", str(many)])
    assert names == NAMES
    assert [c[2:] for c in commands] == [[], ["--entries", "501-1000"], ["--entries", "1001-1500"]]


def test_a_page_says_what_it_holds_and_the_next_page(many: Path) -> None:
    result = run("list-zip", str(many), "--entries", "501-1000")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert NAMES[500] in result.stdout and NAMES[499] not in result.stdout
    assert NAMES[999] in result.stdout and NAMES[1000] not in result.stdout
    assert "raise --max-entries" not in result.stdout
    assert lines[-2:] == ["next:", f"  boundread list-zip {many} --entries 1001-1500"]
    if many.suffix == ".zip" or many.suffix == ".7z":  # tar stops reading at the page: it cannot count the rest
        assert f"listed 500 of {COUNT:,} entries (501-1000)" in lines
    else:
        assert "listed 500 entries (501-1000); more follow" in lines


def test_the_last_page_has_no_next(many: Path) -> None:
    code, data = run_json("list-zip", str(many), "--entries", "1001-")
    assert code == 0 and data["next"] == [] and not data["truncated"]
    assert [e["name"] for e in data["entries"]] == NAMES[1000:]
    assert data["listed"] == f"listed 200 of {COUNT:,} entries (1001-1200)"


def test_a_range_past_the_end_says_so_and_exits_ok(many: Path) -> None:
    result = run("list-zip", str(many), "--entries", "1300-1400")
    assert result.exit_code == 0 and result.stderr == ""
    assert f"no entries in 1300-1400 of {COUNT:,} entries" in result.stdout and "next:" not in result.stdout
    code, data = run_json("list-zip", str(many), "--entries", "1300-1400")
    assert code == 0 and data["entries"] == [] and data["next"] == [] and data["total_entries"] == COUNT


def test_match_keeps_matching_names_and_counts_them(many: Path) -> None:
    code, data = run_json("list-zip", str(many), "--match", "*.pdf", "--max-entries", "150")
    assert code == 0 and [e["name"] for e in data["entries"]] == PDFS[:150]
    if many.name.endswith(".tar.gz"):  # tar reads headers up to the page only
        assert data["matching"] == 150 and data["listed"] == "listed 150 matching '*.pdf' (1-150); more follow"
    else:
        assert data["matching"] == len(PDFS) == 400 and data["total_entries"] == COUNT
        assert data["listed"] == f"listed 150 of 400 matching '*.pdf' of {COUNT:,} entries (1-150)"
    names, commands = _pages(["list-zip", str(many), "--match", "*.pdf", "--max-entries", "150"])
    assert names == PDFS  # the ranges count the matching entries only
    assert commands[1][2:] == ["--entries", "151-300", "--match", "*.pdf", "--max-entries", "150"]


def test_match_star_crosses_folders_and_is_case_sensitive(tmp_path: Path) -> None:
    archive = _write(tmp_path / "m.zip", ["a/b/c.PDF", "a/b/c.pdf", "top.pdf", "a/readme.txt"])
    listing = boundread.list_zip(archive, match="*.pdf")
    assert [e.name for e in listing.entries] == ["a/b/c.pdf", "top.pdf"] and listing.matching == 2
    assert [e.name for e in boundread.list_zip(archive, match="a/*").entries] == ["a/b/c.PDF", "a/b/c.pdf",
                                                                                 "a/readme.txt"]
    result = run("list-zip", str(archive), "--match", "*.docx")
    assert result.exit_code == 0 and "no entries matching '*.docx' of 4" in result.stdout


def test_next_carries_match_password_and_max_entries(tmp_path: Path) -> None:
    archive = _write(tmp_path / "many.zip", NAMES)
    code, data = run_json("list-zip", str(archive), "--match", "*.txt", "--max-entries", "100",
                          "--password", "s3cret")
    assert code == 0
    assert data["next"] == [f"boundread list-zip {archive} --entries 101-200 --match '*.txt' --max-entries 100 "
                            "--password PASSWORD"]


def test_a_range_wider_than_max_entries_goes_on_inside_it(tmp_path: Path) -> None:
    archive = _write(tmp_path / "many.zip", NAMES)
    code, data = run_json("list-zip", str(archive), "--entries", "101-1000", "--max-entries", "300")
    assert code == 0 and [e["name"] for e in data["entries"]] == NAMES[100:400]
    assert data["next"] == [f"boundread list-zip {archive} --entries 401-700 --max-entries 300"]
    assert any("max_entries 300" in w for w in data["warnings"])


@pytest.mark.parametrize("name", ["hostile.zip", "hostile.tar.gz"])
def test_hostile_names_before_the_page_still_warn(tmp_path: Path, name: str) -> None:
    hostile = ["../../etc/evil.sh", "/abs/path.txt", "inner/nested.zip"]
    archive = _write(tmp_path / name, [*hostile, *NAMES])
    code, data = run_json("list-zip", str(archive), "--entries", "1001-1100")
    assert code == 0 and len(data["entries"]) == 100
    assert not {e["name"] for e in data["entries"]} & set(hostile)
    warnings = " ".join(data["warnings"])
    assert "2 entries would escape the folder if extracted (zip slip)" in warnings
    assert "'../../etc/evil.sh'" in warnings and "1 nested archive" in warnings


def test_extract_of_an_archive_names_the_listings_next_page_and_a_member(tmp_path: Path) -> None:
    archive = _write(tmp_path / "many.zip", NAMES)
    code, data = run_json("extract", str(archive), "--stdout")
    assert code == 0 and data["done"] == f"entries 1-500 of {COUNT:,}"
    assert data["next"] == [f"boundread list-zip {archive} --entries 501-1000",
                            f"boundread extract {archive} --member docs/0000.pdf"]


def test_a_whole_listing_has_no_page_words_and_no_next(tmp_path: Path) -> None:
    archive = _write(tmp_path / "few.zip", NAMES[:3])
    result = run("list-zip", str(archive))
    assert result.exit_code == 0 and "listed" not in result.stdout and "next:" not in result.stdout
    code, data = run_json("list-zip", str(archive))
    assert code == 0 and data["next"] == [] and data["listed"] is None and data["matching"] is None


def test_a_bad_range_is_a_usage_error(tmp_path: Path) -> None:
    archive = _write(tmp_path / "few.zip", NAMES[:3])
    result = run("list-zip", str(archive), "--entries", "0-5")
    assert result.exit_code == ExitCode.USAGE and result.stdout == ""
    assert result.stderr.startswith("boundread: error: bad entries range '0-5'")


def test_the_walk_to_a_far_page_passes_the_totals_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """TOTALS_CAP bounds the records counted after the page, not the walk to it."""
    monkeypatch.setattr(zipfiles, "TOTALS_CAP", 200)
    archive = _write(tmp_path / "many.zip", NAMES)
    listing = boundread.list_zip(archive, entries="901-950")
    assert [e.name for e in listing.entries] == NAMES[900:950]
    assert listing.resume is not None and listing.resume[2:] == ("--entries", "951-1000")
    assert listing.total_entries == COUNT and any("cover the first 1,150 of 1,200" in w for w in listing.warnings)


def test_a_walk_out_of_time_before_the_page_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common.Collector, "late", lambda self, share: True)
    archive = _write(tmp_path / "long.zip", [f"f{n:05d}.txt" for n in range(5_000)])
    result = run("list-zip", str(archive), "--entries", "4501-4600")
    assert result.exit_code == ExitCode.TIMEOUT
    assert "no entries listed: the listing ran out of time before entry 4,501" in result.stdout
    assert "ran out of time after 4,096 entries of 5,000, before entry 4,501" in result.stdout
    assert result.stdout.splitlines()[-1] == f"  boundread list-zip {archive} --entries 4501-4600 --timeout 60"
