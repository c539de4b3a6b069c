"""Code that loads a JSON document and prints members of it by name prints those members, not the document.

``d = json.load(open('data.json')); print(d['count'])`` and node's ``console.log(`${d.count} items`)`` print one
value of a 2 MB document; they were refused as prints of all of it (the one false deny left of the fresh2 set).
Each member is now sized as ``jq .count`` prints it; a member that is most of the document, the document itself,
or a loop over its items stays refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("members")
    items = [{"id": n, "name": f"item {n}", "active": n % 3 == 0, "tags": ["a", "b"]} for n in range(14_000)]
    (root / "data.json").write_text(json.dumps({"count": len(items), "meta": {"version": "1.2"}, "items": items},
                                               indent=2))
    return root


ALLOWED = [
    "python3 -c \"import json; d = json.load(open('data.json')); print(d['count'])\"",
    "python3 -c \"import json; d = json.load(open('data.json')); print(d['meta']['version'], d['items'][0])\"",
    "python3 -c \"import json; d = json.loads(open('data.json').read()); print(f'{d[\\\"count\\\"]} items')\"",
    "node -e \"const d = require('./data.json'); console.log(d.count, d.meta.version)\"",
    "node -e \"const d = require('./data.json'); console.log(d.items.length)\"",
    "node - <<'EOF'\nconst d = require('./data.json');\nconst active = d.items.filter((i) => i.active).length;\n"
    "console.log(`${d.count} items, ${active} active`);\nEOF",
    "node -e \"const fs = require('fs'); const d = JSON.parse(fs.readFileSync('data.json', 'utf8'));"
    " console.log(d.meta)\"",
]

DENIED = [
    "python3 -c \"import json; d = json.load(open('data.json')); print(d['items'])\"",
    "python3 -c \"import json; d = json.load(open('data.json')); print(d)\"",
    "python3 -c \"import json; d = json.load(open('data.json')); print(d.get('items'))\"",
    "python3 -c \"import json; d = json.load(open('data.json')); [print(x) for x in d['items']]\"",
    "node -e \"const d = require('./data.json'); console.log(d.items)\"",
    "node -e \"const d = require('./data.json'); console.log(JSON.stringify(d, null, 2))\"",
]


@pytest.mark.parametrize("command", ALLOWED)
def test_a_member_printed_by_name_is_sized_as_that_member(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


@pytest.mark.parametrize("command", DENIED)
def test_the_document_or_its_bulk_stays_refused(work: Path, command: str) -> None:
    assert check_command(command, cwd=work).decision == "deny", command
