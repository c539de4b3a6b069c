"""A zip entry with an empty header name and no Unicode Path field (issue 22) was listed as '' and could not
be named to --member: it is listed by its place, ``(entry N, no name)``, flagged, and --member takes that."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from tests.helpers import run


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    path = tmp_path / "bundle.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("a.txt", "first\n")
        archive.writestr(zipfile.ZipInfo(""), "SENTINEL nameless\n")
        archive.writestr("c.txt", "third\n")
    return path


def test_it_is_listed_by_its_place_and_flagged(bundle: Path) -> None:
    done = run("list-zip", str(bundle), "--json")
    assert done.exit_code == 0, done.stderr
    data = json.loads(done.stdout)
    names = [entry["name"] for entry in data["entries"]]
    assert names == ["a.txt", "(entry 2, no name)", "c.txt"]
    assert data["entries"][1]["warnings"] == ["no name in the zip"]
    assert any("no name in the zip" in warning and "--member" in warning for warning in data["warnings"])


def test_member_takes_the_made_up_name(bundle: Path) -> None:
    done = run("extract", str(bundle), "--member", "(entry 2, no name)", "--stdout")
    assert done.exit_code == 0, done.stderr
    assert done.stdout == "SENTINEL nameless\n"


def test_the_made_up_name_of_a_named_entry_is_no_member(bundle: Path) -> None:
    done = run("extract", str(bundle), "--member", "(entry 1, no name)", "--stdout")
    assert done.exit_code != 0 and "SENTINEL" not in done.stdout and "first" not in done.stdout
