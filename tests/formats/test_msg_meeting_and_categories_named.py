"""A meeting request's place and times and a message's categories are named properties: their ids (0x8000 and
up) differ from file to file and come from the message's name-to-id map (``__nameid_version1.0``). info and
extract show them as Location, Start, End and Categories after the Subject; a map that points nowhere, or its
absence, shows nothing more and fails nothing."""

from __future__ import annotations

import struct
from pathlib import Path

from tests.formats.msg_fixtures import SYSTIME, UNICODE, fixed, message, save, text
from tests.helpers import run_json

APPOINTMENT = struct.pack("<IHH", 0x00062002, 0, 0) + bytes.fromhex("C000000000000046")
START, END = 134_407_008_000_000_000, 134_407_026_000_000_000  # 2026-12-02 16:00 and 16:30 UTC, as FILETIME


def _entry(ident: int, index: int, guid: int, named: bool = False) -> bytes:
    return struct.pack("<II", ident, index << 16 | guid << 1 | int(named))


def _meeting(tmp_path: Path, entries: bytes | None = None) -> Path:
    tree = message("Team sync SUBJ_MEET", body="Agenda BODY_MEET\n")
    tree["__properties_version1.0"] = fixed(
        {0x0039: (SYSTIME, 134_406_792_000_000_000), 0x8001: (SYSTIME, START), 0x8002: (SYSTIME, END)}, 32)
    name = "Keywords".encode("utf-16-le")
    tree["__nameid_version1.0"] = {
        "__substg1.0_00020102": APPOINTMENT,  # the first GUID of the file's own: index 3
        "__substg1.0_00030102": entries if entries is not None else (
            _entry(0x8208, 0, 3) + _entry(0x820D, 1, 3) + _entry(0x820E, 2, 3) + _entry(0, 3, 2, named=True)),
        "__substg1.0_00040102": struct.pack("<I", len(name)) + name,
    }
    tree[f"__substg1.0_8000{UNICODE:04X}"] = text("Room 4.2 LOC_SENTINEL")
    tree["__substg1.0_8003101F"] = struct.pack("<II", 8, 20)  # the values' lengths
    tree["__substg1.0_8003101F-00000000"] = text("Red")
    tree["__substg1.0_8003101F-00000001"] = text("Project X")
    return save(tmp_path, tree, "invite.msg")


def test_a_meeting_shows_its_place_times_and_categories(tmp_path: Path) -> None:
    path = _meeting(tmp_path)
    code, data = run_json("info", str(path))
    assert code == 0, data
    fields = data["fields"]
    assert fields["location"] == "Room 4.2 LOC_SENTINEL" and fields["categories"] == "Red, Project X"
    assert fields["start"] == "Wed, 02 Dec 2026 16:00:00 +0000" and fields["end"] == "Wed, 02 Dec 2026 16:30:00 +0000"
    code, data = run_json("extract", str(path), "--stdout")
    assert code == 0
    order = ["Subject: Team sync SUBJ_MEET", "Location: Room 4.2 LOC_SENTINEL", "Start: Wed, 02 Dec 2026 16:00",
             "End: Wed, 02 Dec 2026 16:30", "Categories: Red, Project X", "BODY_MEET"]
    positions = [data["text"].index(s) for s in order]
    assert positions == sorted(positions)


def test_a_map_that_points_nowhere_shows_nothing_more(tmp_path: Path) -> None:
    """A GUID index past the GUID stream, a name past the string stream, half an entry: skipped."""
    path = _meeting(tmp_path, entries=_entry(0x8208, 0, 9) + _entry(4_000, 3, 2, named=True) + b"\x01\x02\x03")
    code, data = run_json("extract", str(path), "--stdout")
    assert code == 0 and "Subject: Team sync SUBJ_MEET" in data["text"]
    assert "Location:" not in data["text"] and "Categories:" not in data["text"]


def test_a_message_without_named_properties_has_no_such_fields(tmp_path: Path) -> None:
    code, data = run_json("info", str(save(tmp_path, message())))
    assert code == 0 and not {"location", "start", "end", "categories"} & set(data["fields"])
