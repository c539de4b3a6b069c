"""Email (.eml): extract gives the headers, the attachment list and the body (text/plain before HTML);
list-zip lists the attachments; extract --member reads one through its own kind's handler. Hostile mail (10,000
attachments, MIME nested thousands deep, an email past the parse limit) gives one line or a bounded answer."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.formats.mail_fixtures import message, sample, write
from tests.helpers import run, run_json

from boundread.errors import ExitCode


def test_info_names_the_kind_and_the_headers(tmp_path: Path) -> None:
    code, data = run_json("info", str(sample(tmp_path)))
    assert code == 0 and data["kind"] == "eml"
    fields = data["fields"]
    assert fields["subject"] == "Quarterly SUBJ_ONE" and fields["from"] == "Ann <ann@example.org>"
    assert fields["attachments"] == 3 and fields["body"] == "text/plain"
    assert any("list-zip" in s for s in data["next"])


def test_extract_writes_headers_attachments_then_the_plain_body(tmp_path: Path) -> None:
    code, data = run_json("extract", str(sample(tmp_path)), "--stdout")
    assert code == 0
    text = data["text"]
    order = ["From: Ann <ann@example.org>", "Subject: Quarterly SUBJ_ONE", "Attachments (3):", "notes.txt (text/plain",
             "data.csv (text/csv", "BODY_PLAIN"]
    positions = [text.index(s) for s in order]
    assert positions == sorted(positions)
    assert "BODY_HTML" not in text and "NOTES_SENTINEL" not in text  # the alternative and attachments are not read
    assert "--member notes.txt)" in text


def test_an_html_only_body_is_text_without_its_scripts(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["Subject"] = "html only"
    msg.set_content("<html><body><h1>Title HT</h1><p>Para BODY_HTML</p><script>SCRIPT_X()</script></body></html>",
                    subtype="html")
    code, data = run_json("extract", str(write(tmp_path, msg)), "--stdout")
    assert code == 0 and "# Title HT" in data["text"] and "BODY_HTML" in data["text"]
    assert "SCRIPT_X" not in data["text"] and "<p>" not in data["text"]


def test_list_zip_lists_the_attachments(tmp_path: Path) -> None:
    code, data = run_json("list-zip", str(sample(tmp_path)))
    assert code == 0
    names = [e["name"] for e in data["entries"]]
    assert names[:2] == ["notes.txt", "data.csv"] and names[2].endswith(".eml") and len(names) == 3


@pytest.mark.parametrize(("member", "sentinel"), [("notes.txt", "NOTES_SENTINEL"), ("data.csv", "CSV_SENTINEL")])
def test_a_member_is_read_by_its_own_handler(tmp_path: Path, member: str, sentinel: str) -> None:
    code, data = run_json("extract", str(sample(tmp_path)), "--member", member, "--stdout")
    assert code == 0 and sentinel in data["text"]
    assert data["kind"] == ("csv" if member.endswith(".csv") else "text")


def test_a_forwarded_message_is_a_member_that_reads_as_mail(tmp_path: Path) -> None:
    path = sample(tmp_path)
    name = [e["name"] for e in run_json("list-zip", str(path))[1]["entries"]][2]
    code, data = run_json("extract", str(path), "--member", name, "--stdout")
    assert code == 0 and "FWD_SUBJ" in data["text"]


def test_a_missing_member_is_a_usage_error_naming_list_zip(tmp_path: Path) -> None:
    result = run("extract", str(sample(tmp_path)), "--member", "nope.pdf")
    assert result.exit_code == ExitCode.USAGE and "list-zip" in result.stderr and result.stderr.count("\n") == 1


def test_ten_thousand_attachments_are_listed_a_page_at_a_time(tmp_path: Path) -> None:
    parts = [b'--XB\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename="f%d.txt"\r\n\r\n'
             b"a%d\r\n" % (n, n) for n in range(10_000)]
    path = tmp_path / "bomb.eml"
    path.write_bytes(b'From: a@b\r\nSubject: bomb\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; '
                     b'boundary="XB"\r\n\r\n--XB\r\nContent-Type: text/plain\r\n\r\nBODY_B\r\n' + b"".join(parts)
                     + b"--XB--\r\n")
    code, data = run_json("list-zip", str(path), "--max-entries", "100")
    assert code == 0 and len(data["entries"]) == 100 and data["total_entries"] == 10_000
    assert data["entries"][99]["name"] == "f99.txt" and any("--entries 101-200" in s for s in data["next"])
    code, data = run_json("extract", str(path), "--stdout")
    assert code == 0 and "9,950 more: boundread list-zip" in data["text"] and "BODY_B" in data["text"]
    assert data["chars"] < 10_000


def test_mime_nested_thousands_deep_is_refused_in_one_line(tmp_path: Path) -> None:
    head = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\n\n--b%d\n' % (i, i) for i in range(3000))
    tail = b"".join(b"--b%d--\n" % i for i in reversed(range(3000)))
    path = tmp_path / "deep.eml"
    path.write_bytes(b"From: a@b\nSubject: deep\nMIME-Version: 1.0\n" + head + b"Content-Type: text/plain\n\nhi\n"
                     + tail)
    result = run("extract", str(path))
    assert result.exit_code == ExitCode.REFUSED and "nests its MIME parts" in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_an_email_past_the_parse_limit_is_refused_before_parsing(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from boundread.formats.web import mail

    monkeypatch.setattr(mail, "MAX_MAIL", 1000)
    msg = message()
    msg.add_attachment(b"x" * 5000, maintype="application", subtype="octet-stream", filename="big.bin")
    result = run("extract", str(write(tmp_path, msg)))
    assert result.exit_code == ExitCode.REFUSED and "more than the 1.0 kB boundread parses" in result.stderr
    assert "--lines 1-200" in result.stderr


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_cut_or_changed_bytes_never_raise(tmp_path: Path, data: st.DataObject) -> None:
    raw = bytearray(sample(tmp_path).read_bytes())
    del raw[data.draw(st.integers(0, len(raw))):]
    for _ in range(data.draw(st.integers(0, 3))):
        if raw:
            raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    path = tmp_path / "mutated.eml"
    path.write_bytes(bytes(raw))
    for args in (("extract", str(path), "--stdout"), ("list-zip", str(path)),
                 ("extract", str(path), "--member", "notes.txt", "--stdout")):
        result = run(*args)
        assert result.exit_code in (ExitCode.OK, ExitCode.USAGE, ExitCode.UNSUPPORTED, ExitCode.CORRUPT)
        assert "Traceback" not in result.stderr
        if result.exit_code:
            assert result.stderr.count("\n") == 1


def test_an_address_the_parser_cannot_read_is_shown_raw(tmp_path: Path) -> None:
    """Python 3.11's address parser raises IndexError on "To: bob@" (a mail cut inside an address): the header is
    shown as written, not a traceback (found by the test above)."""
    path = tmp_path / "cut.eml"
    path.write_bytes(b"From: Ann <ann@example.org>\nTo: bob@")
    for args in (("extract", str(path), "--stdout"), ("info", str(path))):
        result = run(*args)
        assert result.exit_code == 0, result.stderr
    assert "To: bob@" in run("extract", str(path), "--stdout").stdout
