"""A big JSON file denied whole (Read, ``cat``, ``jq .``) is pointed at its shape and a pretty, bounded part
(``boundread info F``, ``extract F --path .``), and a JSON Lines file at whole records (``--rows 1-200``), not
a window of lines that cuts a one-line document at a char bound. Each suggestion runs and is bounded."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.helpers import run_json

from boundread.guard import check_read
from boundread.guard.command import check_command
from boundread.guard.config import GuardConfig

SMALL_CAP = GuardConfig(text_max_bytes=4_096)


@pytest.fixture
def files(tmp_path: Path) -> Path:
    items = [{"id": n, "name": f"item {n}"} for n in range(2_000)]
    (tmp_path / "dump.json").write_text(json.dumps({"items": items}), encoding="utf-8")
    (tmp_path / "pretty.json").write_text(json.dumps({"items": items}, indent=2), encoding="utf-8")
    (tmp_path / "events.jsonl").write_text("".join(json.dumps(i) + "\n" for i in items), encoding="utf-8")
    return tmp_path


def _suggested(reason: str) -> list[list[str]]:
    import shlex

    return [shlex.split(line.strip())[1:] for line in reason.splitlines() if line.strip().startswith("boundread ")]


def test_a_one_line_json_is_pointed_at_its_shape_and_path(files: Path) -> None:
    for decision in (check_read(str(files / "dump.json"), cwd=files, config=SMALL_CAP),
                     check_command("jq . dump.json", cwd=files, config=SMALL_CAP),
                     check_command("cat dump.json", cwd=files, config=SMALL_CAP)):
        assert decision.decision == "deny"
        assert "boundread extract dump.json --path . --max-chars 20000" in decision.reason, decision.reason
        assert "--lines 1-" not in decision.reason and "--grep" not in decision.reason
    for words in _suggested(decision.reason):
        code, data = run_json(*[str(files / w) if w == "dump.json" else w for w in words])
        assert code == 0, words
        if words[0] == "extract":
            assert data["chars"] <= 20_000 and data["truncated"] and Path(data["output"]).is_file()


def test_a_pretty_json_keeps_grep_and_a_jsonl_gets_records(files: Path) -> None:
    pretty = check_read(str(files / "pretty.json"), cwd=files, config=SMALL_CAP)
    assert "--path ." in pretty.reason and "--grep PATTERN" in pretty.reason
    records = check_read(str(files / "events.jsonl"), cwd=files, config=SMALL_CAP)
    assert "boundread extract events.jsonl --rows 1-200 --max-chars 20000" in records.reason, records.reason
    assert "--lines 1-" not in records.reason
