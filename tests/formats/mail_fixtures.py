"""Generated emails for the mail tests: a body in two forms, attachments each with a sentinel."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path


def message(subject: str = "Quarterly SUBJ_ONE") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Ann <ann@example.org>"
    msg["To"] = "bob@example.org"
    msg["Date"] = "Wed, 02 Dec 2026 10:00:00 +0000"
    msg["Subject"] = subject
    msg.set_content("Hello Bob,\nBODY_PLAIN here.\n")
    msg.add_alternative("<html><body><p>Hello <b>BODY_HTML</b></p><script>SCRIPT_X()</script></body></html>",
                        subtype="html")
    return msg


def write(tmp_path: Path, msg: EmailMessage, name: str = "mail.eml") -> Path:
    path = tmp_path / name
    path.write_bytes(msg.as_bytes())
    return path


def sample(tmp_path: Path) -> Path:
    """Three attachments: notes.txt, data.csv, and a forwarded message."""
    msg = message()
    msg.add_attachment("NOTES_SENTINEL line\n", filename="notes.txt")
    msg.add_attachment(b"name,amount\nCSV_SENTINEL,3\n", maintype="text", subtype="csv", filename="data.csv")
    msg.add_attachment(message("Forwarded FWD_SUBJ"))
    return write(tmp_path, msg)
