"""Real Outlook messages (Apache Tika's test documents, tests/realfiles/msg/SOURCES.md): headers, body words and
attachment names come out as Outlook shows them; an attached message and an attached PDF read as members."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.helpers import run_json

HERE = Path(__file__).resolve().parents[1] / "realfiles" / "msg"

VECTORS = [  # file, headers and body words that must be in the extract, attachments listed
    ("testMSG.msg", ["From: Jukka Zitting <jukka.zitting@gmail.com>", "To: tika-dev@lucene.apache.org",
                     "Subject: MIME registry use cases", "Date: Thu, 29 Jan 2009 19:16:40 +0000",
                     "org.apache.tika.mime"], []),
    ("testMSG_att_msg.msg", ["From: Nick Booth <nick.booth@pof.com.au>", "Subject: test email",
                             "Test email with 1 msg attachment, 1 pdf"],
     ["Test Attachment.msg", "smbprn.00009008.KdcPjl.pdf"]),
    ("testMSG_att_doc.msg", ["Subject: test pièce jointe 1", "nicolas1.23456@free.fr"],
     ["test-unicode.doc", "pj1.txt"]),
    ("testMSG_chinese.msg", ["Subject: Alfresco MSG format testing ( MSG 格式測試 )", "Search word testing by Lydia"],
     []),
]


@pytest.mark.parametrize(("name", "words", "attachments"), VECTORS)
def test_headers_body_and_attachments(name: str, words: list[str], attachments: list[str]) -> None:
    code, data = run_json("extract", str(HERE / name), "--stdout")
    assert code == 0 and data["kind"] == "msg", data
    for word in words:
        assert word in data["text"], word
    code, listing = run_json("list-zip", str(HERE / name))
    assert code == 0 and [e["name"] for e in listing["entries"]] == attachments


def test_an_attached_message_and_pdf_are_read_as_members() -> None:
    path = str(HERE / "testMSG_att_msg.msg")
    code, data = run_json("extract", path, "--member", "Test Attachment.msg", "--stdout")
    assert code == 0 and data["kind"] == "msg" and "Subject: Test Attachment" in data["text"]
    assert "Blah blah blah" in data["text"]
    code, data = run_json("extract", path, "--member", "smbprn.00009008.KdcPjl.pdf", "--stdout")
    assert code == 0 and data["kind"] == "pdf"


def test_a_text_attachment_reads_as_text() -> None:
    code, data = run_json("extract", str(HERE / "testMSG_att_doc.msg"), "--member", "pj1.txt", "--stdout")
    assert code == 0 and data["kind"] == "text" and "euro : € (20AC)" in data["text"]
