"""A log the client rewrote shorter is read again from its start, and its stored offset goes back with it: the
answers appended after the rewrite are counted, even once the file grows past the old offset again."""

from __future__ import annotations

import json
from pathlib import Path

from boundread.agents.sessionfiles import files_of, ingest_all
from boundread.budget.ledger import open_ledger
from boundread.budget.model import Scope

HEAD = json.dumps({"sessionId": "sess-cut", "projectHash": "p", "kind": "main"}) + "\n"


def answer(i: int, pad: int = 0) -> str:
    return json.dumps({"id": f"m{i}", "type": "gemini", "model": "gemini-2.5-pro", "pad": "x" * pad,
                       "tokens": {"input": 100, "output": 10, "cached": 0, "thoughts": 0, "tool": 0}}) + "\n"


def ingest(path: Path) -> int:
    files = files_of(path)  # a Gemini CLI chat file: its reader
    with open_ledger() as ledger:
        ingest_all(ledger, files.paths, session="sess-cut", readers=files.readers)
        return ledger.totals(Scope("session", "sess-cut")).tokens // 110


def test_answers_after_a_rewrite_are_counted_when_the_file_passes_its_old_size(tmp_path: Path, backend: str) -> None:
    chats = tmp_path / "chats"
    chats.mkdir()
    path = chats / "session-2026-12-02T00-00-aaaa.jsonl"
    first = HEAD + "".join(answer(i) for i in range(1, 11))
    path.write_text(first, encoding="utf-8")
    assert ingest(path) == 10
    path.write_text(HEAD + "".join(answer(i) for i in range(1, 4)), encoding="utf-8")  # rewritten shorter
    assert ingest(path) == 10, "read again from the start: the three are repeats"
    grown = HEAD + "".join(answer(i) for i in range(1, 4))
    n = 11
    while len(grown) < len(first):  # new answers, the last padded so that a newline sits at the old offset
        need = len(first) - len(grown)
        grown += answer(n, pad=max(0, need - len(answer(n)))) if need < 2 * len(answer(n)) else answer(n)
        n += 1
    grown += answer(n)
    assert grown[len(first) - 1] == "\n", "the old offset looks like a place to go on from"
    path.write_text(grown, encoding="utf-8")
    assert ingest(path) == 10 + (n - 10), "every answer appended after the rewrite is counted"
