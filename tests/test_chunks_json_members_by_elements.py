"""An archive's members are read as files of their names are: a JSON member is chunked between its elements and
named by path (``member 'b.json' .[0:17]``), as a .json file is - it was cut by lines, a one-line JSON cut mid
value ("a line longer than a chunk was cut inside it"); ``extract --member b.json --path`` reads its structure."""

from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

from boundread.chunks.plan import Params, chunk
from tests.helpers import run_json

_JSON_SPAN = re.compile(r"member 'data/b\.json' \.\[(\d+)(?::(\d+))?\]")


def bundle(tmp_path: Path) -> Path:
    path = tmp_path / "bundle.zip"
    items = [{"id": i, "name": f"item {i}", "tags": ["a", "b"]} for i in range(40)]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("a.txt", "".join(f"alpha {i}\n" for i in range(20)))
        zf.writestr("data/b.json", json.dumps(items))  # one line of 1.7 kB
        zf.writestr("c.txt", "".join(f"omega {i}\n" for i in range(20)))
    return path


def test_a_json_member_is_cut_between_its_elements_and_named_by_path(tmp_path: Path) -> None:
    result = chunk(bundle(tmp_path), Params(tokens=150), tmp_path / "c")
    assert result.complete and not result.warnings, result.warnings
    covered: list[int] = []
    for c in result.chunks:
        body = (Path(result.folder) / c.file).read_text(encoding="utf-8")[c.repeated_chars:]
        found = _JSON_SPAN.search(c.span)
        if found is None:
            assert "b.json" not in c.span and '"id"' not in body, c.span
            continue
        low, high = int(found[1]), int(found[2] or int(found[1]) + 1)
        ids = [int(n) for n in re.findall(r'"id": (\d+)', body)]
        assert ids == list(range(low, high)), (c.span, ids)  # whole elements, the ones the span names
        covered += ids
    assert covered == list(range(40))
    assert result.chunks[0].span.startswith("member 'a.txt'") and "member 'c.txt'" in result.chunks[-1].span


def test_the_chunks_end_to_end_are_each_members_own_extraction(tmp_path: Path) -> None:
    path = bundle(tmp_path)
    result = chunk(path, Params(tokens=150), tmp_path / "c")
    text = "".join((Path(result.folder) / c.file).read_text(encoding="utf-8")[c.repeated_chars:]
                   for c in result.chunks)
    members = [(m, run_json("extract", str(path), "--member", m, "--stdout")[1]) for m in
               ("a.txt", "data/b.json", "c.txt")]
    assert members[1][1]["kind"] == "json"
    assert text == "".join(f"--- member {m} ---\n" + data["text"] for m, data in members)


def test_a_json_member_takes_a_path(tmp_path: Path) -> None:
    code, data = run_json("extract", str(bundle(tmp_path)), "--member", "data/b.json", "--path", ".[3].name",
                          "--stdout")
    assert code == 0 and data["text"].strip() == '"item 3"', data
