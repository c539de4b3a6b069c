"""Outlook .msg: info gives the headers, the body's kind and size and the attachments; extract writes headers,
the attachment list, then the body (plain text, else HTML as text, else the RTF body: the HTML or text it
encapsulates, or RTF stripped with a warning); list-zip lists the attachments and extract --member reads one by
its own handler - an attached message as a .msg of its own."""

from __future__ import annotations

from pathlib import Path

from tests.formats.msg_fixtures import message, sample, save
from tests.helpers import run, run_json

from boundread.errors import ExitCode


def test_info_names_the_headers_body_and_attachments(tmp_path: Path) -> None:
    code, data = run_json("info", str(sample(tmp_path)))
    assert code == 0 and data["kind"] == "msg", data
    fields = data["fields"]
    assert fields["subject"] == "Quarterly SUBJ_MSG" and fields["from"] == "Ann <ann@example.org>"
    assert fields["to"] == "Bob <bob@example.org>" and fields["cc"] == "Cy <cy@example.org>"
    assert fields["date"] == "Wed, 02 Dec 2026 10:00:00 +0000"
    assert fields["body"] == "text/plain" and fields["body_bytes"] == len("Hello Bob,\nBODY_PLAIN here.\n") * 2
    assert fields["attachments"] == 3 and fields["attachment_list"][0].startswith("notes.txt (text/plain, 20 B")
    assert any("list-zip" in s for s in data["next"])


def test_extract_writes_headers_attachments_then_the_body(tmp_path: Path) -> None:
    code, data = run_json("extract", str(sample(tmp_path)), "--stdout")
    assert code == 0
    text = data["text"]
    order = ["From: Ann <ann@example.org>", "To: Bob <bob@example.org>", "Cc: Cy", "Date: Wed, 02 Dec 2026",
             "Subject: Quarterly SUBJ_MSG", "Attachments (3):", "notes.txt (text/plain", "data.csv (text/csv",
             "Forwarded.msg (application/vnd.ms-outlook", "BODY_PLAIN"]
    positions = [text.index(s) for s in order]
    assert positions == sorted(positions)
    assert "NOTES_SENTINEL" not in text and "FWD_BODY" not in text and "--member notes.txt)" in text


def test_an_html_body_is_text_without_its_scripts(tmp_path: Path) -> None:
    html = b"<html><body><h1>Title HT</h1><p>Para BODY_HTML</p><script>SCRIPT_X()</script></body></html>"
    code, data = run_json("extract", str(save(tmp_path, message(body=None, html=html))), "--stdout")
    assert code == 0 and "# Title HT" in data["text"] and "BODY_HTML" in data["text"]
    assert "SCRIPT_X" not in data["text"] and "<p>" not in data["text"]


def test_an_rtf_body_gives_the_html_it_encapsulates(tmp_path: Path) -> None:
    rtf = (rb"{\rtf1\ansi\ansicpg1252\fromhtml1 {\fonttbl{\f0 Arial;}}{\*\htmltag19 <html><body>}"
           rb"{\*\htmltag64 <p>}\htmlrtf {\htmlrtf0 Caf\'e9 RTF_HTML\htmlrtf }\htmlrtf0 {\*\htmltag72 </p>}"
           rb"{\*\htmltag0 <script>RTF_SCRIPT()</script></body></html>}}")
    code, data = run_json("extract", str(save(tmp_path, message(body=None, rtf=rtf))), "--stdout")
    assert code == 0 and "Café RTF_HTML" in data["text"], data["text"]
    assert "RTF_SCRIPT" not in data["text"] and "htmltag" not in data["text"] and "Arial" not in data["text"]


def test_an_rtf_only_body_is_stripped_with_a_warning(tmp_path: Path) -> None:
    rtf = (rb"{\rtf1\ansi{\fonttbl{\f0 Arial;}}{\colortbl\red0;}\pard Line RTF_ONE\par "
           rb"{\*\generator Riched20;}Line \u8364? euro\par}")
    code, data = run_json("extract", str(save(tmp_path, message(body=None, rtf=rtf))), "--stdout")
    assert code == 0 and "Line RTF_ONE\nLine \u20ac euro" in data["text"], data["text"]
    assert "Arial" not in data["text"] and "Riched" not in data["text"] and "?" not in data["text"]
    assert any("RTF only" in w for w in data["warnings"])


def test_list_zip_lists_the_attachments(tmp_path: Path) -> None:
    code, data = run_json("list-zip", str(sample(tmp_path)))
    assert code == 0 and [e["name"] for e in data["entries"]] == ["notes.txt", "data.csv", "Forwarded.msg"]
    assert data["entries"][0]["size"] == 20


def test_a_member_is_read_by_its_own_handler(tmp_path: Path) -> None:
    path = str(sample(tmp_path))
    code, data = run_json("extract", path, "--member", "notes.txt", "--stdout")
    assert code == 0 and "NOTES_SENTINEL" in data["text"] and data["kind"] == "text"
    code, data = run_json("extract", path, "--member", "data.csv", "--stdout")
    assert code == 0 and "CSV_SENTINEL" in data["text"] and data["kind"] == "csv"


def test_an_attached_message_is_a_member_read_as_a_message(tmp_path: Path) -> None:
    code, data = run_json("extract", str(sample(tmp_path)), "--member", "Forwarded.msg", "--stdout")
    assert code == 0 and data["kind"] == "msg", data
    assert "Subject: Forwarded FWD_SUBJ" in data["text"] and "FWD_BODY" in data["text"]


def test_a_missing_member_is_a_usage_error_naming_list_zip(tmp_path: Path) -> None:
    result = run("extract", str(sample(tmp_path)), "--member", "nope.pdf")
    assert result.exit_code == ExitCode.USAGE and "list-zip" in result.stderr and result.stderr.count("\n") == 1


def test_an_ole_file_named_otherwise_stays_binary(tmp_path: Path) -> None:
    path = tmp_path / "blob.bin"
    path.write_bytes(sample(tmp_path).read_bytes())
    assert run_json("info", str(path))[1]["kind"] == "binary"


def test_a_message_in_a_zip_is_a_member_read_as_a_message(tmp_path: Path) -> None:
    import zipfile

    archive = tmp_path / "mails.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(sample(tmp_path), "inbox/mail.msg")
    code, data = run_json("extract", str(archive), "--member", "inbox/mail.msg", "--stdout")
    assert code == 0 and data["kind"] == "msg" and "Subject: Quarterly SUBJ_MSG" in data["text"], data
