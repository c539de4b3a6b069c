"""A whole Read of an Outlook .msg is refused with the reads that work on it - extract (headers, body, the
attachment list), list-zip and --member - as for an .eml; any other binary named .msg keeps `info` alone."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.helpers import run_json

from boundread.guard import check_read

REAL = Path(__file__).resolve().parents[1] / "realfiles" / "msg"


def test_an_outlook_message_is_pointed_at_extract_and_its_attachments(tmp_path: Path) -> None:
    shutil.copy(REAL / "testMSG.msg", tmp_path / "mail.msg")
    decision = check_read(str(tmp_path / "mail.msg"), cwd=tmp_path)
    assert decision.decision == "deny" and "Outlook message" in decision.reason, decision.reason
    for command in ("boundread extract mail.msg --max-chars 20000", "boundread list-zip mail.msg",
                    "boundread extract mail.msg --member NAME"):
        assert command in decision.reason, decision.reason
    code, data = run_json("extract", str(tmp_path / "mail.msg"), "--max-chars", "20000",
                          "-o", str(tmp_path / "mail.txt"))
    assert code == 0 and "MIME registry use cases" in (tmp_path / "mail.txt").read_text(encoding="utf-8"), data


def test_other_binary_bytes_named_msg_keep_info(tmp_path: Path) -> None:
    (tmp_path / "other.msg").write_bytes(b"\x00\x01\x02 not a compound file")
    decision = check_read(str(tmp_path / "other.msg"), cwd=tmp_path)
    assert decision.decision == "deny" and "boundread info other.msg" in decision.reason
    assert "--member" not in decision.reason and "Outlook" not in decision.reason, decision.reason
