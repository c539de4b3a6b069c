"""An Outlook attachment by reference (PR_ATTACH_METHOD 2-4, or 7 for a web link) holds a path, not the file:
it is listed with what it points at, and ``--member`` says so with a distinct exit instead of an empty read
(which was "0 chars, truncated: no" - a silent wrong answer). A by-value attachment whose data stream is missing
is damage, said as such."""

from __future__ import annotations

from pathlib import Path

from tests.formats.msg_fixtures import message, save
from tests.helpers import run, run_json

from boundread.errors import ExitCode

SHARE = r"\\fileserver\finance\Q3 report.xlsx"
WEB = "https://contoso.sharepoint.com/sites/fin/Q3.pptx"


def linked(tmp_path: Path) -> Path:
    return save(tmp_path, message(attachments=[("notes.txt", b"NOTES_SENTINEL")],
                                  links=[("Q3 report.xlsx", SHARE, 2), ("Q3.pptx", WEB, 7), ("nowhere.doc", None, 4)]))


def test_the_listing_names_what_a_linked_attachment_points_at(tmp_path: Path) -> None:
    path = str(linked(tmp_path))
    code, data = run_json("extract", path, "--stdout")
    assert code == 0
    assert "notes.txt (text/plain, 14 B)" in data["text"]
    assert f"Q3 report.xlsx (application/vnd.openxmlformats-officedocument.spreadsheetml.sheet, by reference to " \
           f"{SHARE})" in data["text"]
    assert f"by reference to {WEB})" in data["text"] and "nowhere.doc (application/msword, by reference, to no " \
           "path it names)" in data["text"]
    code, info = run_json("info", path)
    assert code == 0 and info["fields"]["attachments"] == 4
    assert any(f"by reference to {SHARE}" in line for line in info["fields"]["attachment_list"])


def test_reading_a_linked_attachment_names_the_link_not_an_empty_file(tmp_path: Path) -> None:
    path = str(linked(tmp_path))
    for name, said in (("Q3 report.xlsx", f"a link to {SHARE}"), ("Q3.pptx", f"a link to {WEB}"),
                       ("nowhere.doc", "a link that names no path")):
        result = run("extract", path, "--member", name, "--stdout")
        assert result.exit_code == ExitCode.UNSUPPORTED and result.stdout == "", result
        assert "attached by reference" in result.stderr and said in result.stderr
        assert result.stderr.count("\n") == 1
    code, data = run_json("extract", path, "--member", "notes.txt", "--stdout")  # its neighbour reads as before
    assert code == 0 and "NOTES_SENTINEL" in data["text"]


def test_a_by_value_attachment_without_its_data_is_damage(tmp_path: Path) -> None:
    tree = message(attachments=[("kept.txt", b"KEPT")])
    del tree["__attach_version1.0_#00000000"]["__substg1.0_37010102"]
    result = run("extract", str(save(tmp_path, tree)), "--member", "kept.txt", "--stdout")
    assert result.exit_code == ExitCode.CORRUPT and "has no data" in result.stderr and result.stdout == ""
