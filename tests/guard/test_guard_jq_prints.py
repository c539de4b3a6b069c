"""jq judged by what its filter prints: a simple filter is run on the document (jqeval) and its output measured;
another that keeps the document's shape is the file, a reduction or a fixed element a part; and a ``head -n N``
after it bounds jq's output lines, which pretty-printing makes short.

Files are made in the test: a 1.7 MB one-line JSON array (minified), a 2 MB pretty object with ``items``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("jq")
    items = [{"id": n, "name": f"item {n}", "tags": ["a", "b"], "price": n * 1.25, "note": "x" * 40}
             for n in range(14_000)]
    (root / "min.json").write_text(json.dumps(items))
    (root / "data.json").write_text(json.dumps({"count": len(items), "items": items}, indent=2))
    (root / "long.json").write_text(json.dumps(["y" * 400_000, "z"]))
    return root


DUMPS = [
    "jq . min.json",
    "jq .items data.json",
    "jq '.items[] | {name, price}' data.json",
    "jq '.items | sort_by(.price)' data.json",
    "jq -r '.items[].note' data.json",  # one field, but 14,000 x 41 bytes
    "cat data.json | jq -r '.items[].note'",
    "jq '.items | unique' data.json",
    "cat min.json | jq '.[]'",
    "jq -c . min.json | head -n 5",  # one line: the whole document
    "jq . min.json | head -n 20000",
    "jq -c '.[]' min.json | head -n 5000",
    "jq . long.json | head -n 3",  # a line holds a 400 KB string
]

ALLOWED = [
    "jq '.items | length' data.json",
    "jq length min.json",
    "jq '[.items[] | .price] | add' data.json",
    "jq -r '.items[0].name' data.json",
    "jq '.items[:3]' data.json",
    "jq '.[0]' min.json",
    "jq '.items[] | select(.id == 7)' data.json",
    "jq 'keys' data.json",
    "jq -c '.[]' min.json | head -n 5",
    "jq . min.json | head -n 50",
    "cat min.json | jq . | head -n 50",
    "jq -n '1 + 1'",
    "jq -r '.items[].name' data.json",  # one short field of each item: 140 KB, run on the document
    "jq '.items[] | select(.price > 17000) | {name}' data.json",
    "cat data.json | jq -r '.items[].name'",  # a piped file is run on as the file
]


@pytest.mark.parametrize("command", DUMPS)
def test_a_filter_that_keeps_the_document_is_a_dump(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    assert "boundread extract" in decision.reason, decision.reason


@pytest.mark.parametrize("command", ALLOWED)
def test_a_reduction_an_element_or_a_head_of_the_output_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


@pytest.fixture(scope="module")
def events(work: Path) -> Path:
    """30,000 JSON Lines events, all of them clicks, 1 in 50 by user u7, ``ts`` rising."""
    lines = [json.dumps({"ts": n, "type": "click", "user": f"u{n % 50}", "path": f"/p/{n}"}) for n in range(30_000)]
    (work / "events.jsonl").write_text("\n".join(lines) + "\n")
    return work


@pytest.mark.parametrize(("command", "decision"), [
    ("""jq -c 'select(.type == "click")' events.jsonl""", "deny"),  # every record
    ("jq -c 'select(.ts > 1000)' events.jsonl", "deny"),  # most: the middle and end of the file say so
    ("""jq -c 'select(.user == "u7" and .ts < 200)' events.jsonl""", "allow"),
    ("""jq -c 'select(.type == "view" or (.user == "u7" and .ts >= 29000))' events.jsonl""", "allow"),
    ("""jq -c 'select(.type == "click")' events.jsonl | head -n 5""", "allow"),
    ("""jq -c 'select(.path | test("p"))' events.jsonl""", "allow"),  # a predicate not read: a part, as before
])
def test_a_select_is_sized_on_a_sample_of_the_records(events: Path, command: str, decision: str) -> None:
    assert check_command(command, cwd=events).decision == decision, command


@pytest.mark.parametrize(("program", "compact", "raw", "expected"), [
    (".items[] | {a}", True, False, len('{"a":1}\n') * 3),
    (".items[] | {a}", False, False, len('{\n  "a": 1\n}\n') * 3),
    (".items[].b", False, True, len("xy\n") * 3),
    (".items[].b", False, False, len('"xy"\n') * 3),
    (".items | length", False, False, len("3\n")),
    (".items[] | select(.a == 2)", True, False, 0),
    (".items[0]", True, False, len('{"a":1,"b":"xy"}\n')),
    (".items[] | sort_by(.a)", True, False, None),  # not run here
    (".items | map(.a)", True, False, len("[1,1,1]\n")),  # map(F) is [.[] | F]
    (".items | map(select(.a == 2))", True, False, len("[]\n")),
    (".items | map(select(.a == 1)) | length", False, False, len("3\n")),
    (".items | map({b})", False, False, len("[\n" + ",\n".join(['  {\n    "b": "xy"\n  }'] * 3) + "\n]\n")),
    (".items[0].a | map(.b)", True, False, None),  # map of a number: not run here
])
def test_jq_is_run_on_the_document_as_jq_prints_it(tmp_path: Path, program: str, compact: bool, raw: bool,
                                                    expected: int | None) -> None:
    from boundread.guard.shell import jqeval

    path = tmp_path / "doc.json"
    path.write_text(json.dumps({"items": [{"a": 1, "b": "xy"}] * 3}))
    assert jqeval.printed(program, str(path), path.stat().st_size, compact=compact, raw=raw) == expected


def test_a_loop_of_jq_over_many_documents_stays_within_the_check(tmp_path: Path) -> None:
    """Each document parsed is paid for from the check's budget; past half of it the filters are judged by their
    shape, so a loop over 24 documents of 700 KB is checked to its end, not run out of budget."""
    from boundread.guard.shell import file_uses

    for number in range(24):
        first = number * 10_000
        rows = [{"id": n, "name": f"item {n}", "note": "x" * 40} for n in range(first, first + 8_000)]
        (tmp_path / f"part-{number:02}.json").write_text(json.dumps(rows))
    command = "for f in part-*.json; do jq -r '.[0].name' \"$f\"; jq -r '.[].name' \"$f\" | sort -u | wc -l; done"
    uses = file_uses(command, tmp_path)
    assert all(use.action not in ("spent", "capped") for use in uses), uses
    assert check_command(command, cwd=tmp_path).decision == "allow"
