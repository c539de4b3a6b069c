"""``info`` on JSON gives the shape (top-level type, keys with counts, array lengths, depth, sample paths) and on
JSONL the records (counted, keys from the first ones, invalid lines named), in one bounded pass; a read cut by
the deadline says its figures are partial. Generated fixtures; the corpus manifest (a real JSON file) when
present."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers import run, run_json

from boundread.core import engine
from boundread.formats import _jsonscan as jsonscan
from boundread.formats.structured import jsonshape
from boundread.formats.structured.jsonshape import describe
from boundread.formats.structured.summary import shape_details


def _dump(path: Path, items: int) -> Path:
    doc = {"meta": {"version": 3, "name": "SENTINEL"},
           "items": [{"id": i, "tags": ["t"] * (i % 4), "deep": {"a": {"b": [i]}}} for i in range(items)],
           "weird key": True}
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_info_gives_the_shape(tmp_path: Path) -> None:
    code, data = run_json("info", str(_dump(tmp_path / "d.json", 2500)))
    fields = data["fields"]
    assert code == 0 and data["kind"] == "json"
    assert fields["type"] == "object" and fields["depth"] == 6  # . > items > [] > deep > a > b
    assert fields["keys"] == ["meta (object, 2 keys)", "items (array of 2,500)", "weird key (boolean)"]
    assert fields["arrays"][0] == ".items 2,500"
    assert ".items[].tags 3 (in 1,000)" in fields["arrays"]  # the first 1,000 elements are described
    assert "id 1,000/1,000" in fields["item_keys"] and fields["item_keys_from"]
    assert '.meta.name = "SENTINEL"' in fields["samples"] and '.["weird key"] = true' in fields["samples"]
    assert data["next"][0].endswith("--path '.items[0:20]'")


def test_info_of_jsonl_counts_records_and_names_bad_lines(tmp_path: Path) -> None:
    path = tmp_path / "events.jsonl"
    lines = [json.dumps({"n": i, "kind": "click"}) for i in range(3000)]
    lines[6] = "{not json"
    path.write_text("\n".join(lines), encoding="utf-8")  # no newline after the last record
    code, data = run_json("info", str(path))
    fields = data["fields"]
    assert code == 0 and data["kind"] == "jsonl" and fields["records"] == 3000
    assert fields["keys"] == ["n 999/1,000", "kind 999/1,000"]
    assert any("lines 7" in w for w in data["warnings"])


class _After:
    """A deadline that expires after ``n`` looks (one per block read)."""

    def __init__(self, n: int) -> None:
        self.n = n

    @property
    def expired(self) -> bool:
        self.n -= 1
        return self.n < 0


def test_info_stopped_by_the_deadline_says_partial(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _dump(tmp_path / "d.json", 3000)
    monkeypatch.setattr(jsonscan, "BLOCK", 1000)
    with path.open("rb") as fh:
        shape = describe(jsonscan.Scanner(fh, _After(20)))  # type: ignore[arg-type]
    assert not shape.complete and 19_000 <= shape.bytes_read <= 21_000
    src = engine.open_source(path)
    details = shape_details(shape, src)
    assert details.fields["read_bytes"] == shape.bytes_read
    assert any("partial" in w for w in details.warnings)


def test_an_array_the_deadline_stops_in_keeps_its_count_so_far(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its first SAMPLE_ITEMS elements an array is counted in batches: a partial shape still names the big
    array (a redirect's slice goes on from its first elements), at least as long as counted."""
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"meta": 1, "items": list(range(200_000))}), encoding="utf-8")
    monkeypatch.setattr(jsonscan, "BLOCK", 100_000)
    monkeypatch.setattr(jsonshape, "SKIP_BATCH", 1000)
    with path.open("rb") as fh:
        shape = describe(jsonscan.Scanner(fh, _After(8)))  # type: ignore[arg-type]
    assert not shape.complete
    counted = shape.nodes[".items"].longest
    assert 50_000 < counted < 200_000, counted
    details = shape_details(shape, engine.open_source(path))
    assert f"items (array of {counted:,})" in details.fields["keys"]  # type: ignore[operator]
    assert details.next[0][2:] == ("--path", ".items[0:20]")


def test_plain_extract_of_jsonl_gives_records_and_a_resume(tmp_path: Path) -> None:
    path = tmp_path / "e.jsonl"
    path.write_text("".join(json.dumps({"n": i}) + "\n" for i in range(500)) + "oops\n", encoding="utf-8")
    code, data = run_json("extract", str(path), "--stdout")
    assert code == 0 and data["text"].splitlines()[-1] == '{"n": 199}' and data["next"][0].endswith("--rows 201-")
    code, data = run_json("extract", str(path), "--rows", "499-510", "--stdout")
    assert data["text"] == '{"n": 498}\n{"n": 499}\noops\n' and "lines 501" in " ".join(data["warnings"])
    code, data = run_json("extract", str(path), "--grep", '"n": 42\\b', "--stdout")
    assert data["text"] == '43:{"n": 42}\n'  # numbered by the file's line
    result = run("extract", str(path), "--path", ".n", "--rows", "10-12", "--stdout")
    assert result.stdout == "9\n10\n11\n"


def test_corpus_json_reads_by_shape(corpus_dir: Path, tmp_path: Path) -> None:
    manifest = corpus_dir / "manifest.json"
    want = json.loads(manifest.read_text(encoding="utf-8"))
    code, data = run_json("info", str(manifest))
    assert code == 0 and data["kind"] == "json" and data["fields"]["type"] == type(want).__name__.replace(
        "list", "array").replace("dict", "object")
    code, data = run_json("extract", str(manifest), "--path", "[0]", "--stdout")
    assert json.loads(data["text"]) == want[0]


# --- hypothesis: the counts and the depth are Python's, whether elements are walked, counted or cut by blocks ---

_scalars = st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(alphabet='ab"\\{}[],é ', max_size=6)
_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=8)
                     | st.dictionaries(st.sampled_from(["a", "b"]), inner, max_size=2), max_leaves=60)


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=_json, block=st.sampled_from([5, 64, 1 << 20]), sample=st.sampled_from([1, 3, 1000]),
       indent=st.sampled_from([None, 1]))
def test_shape_counts_match_python(value: object, block: int, sample: int, indent: int | None,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonscan, "BLOCK", block)
    monkeypatch.setattr(jsonshape, "SAMPLE_ITEMS", sample)
    raw = json.dumps([value, [value] * 3], indent=indent).encode()
    shape = describe(jsonscan.Scanner(io.BytesIO(raw)))
    assert shape.complete and not shape.trailing
    assert shape.depth == _depth([value, [value] * 3])
    assert shape.nodes["."].longest == 2
    elements = shape.nodes[".[]"]
    assert sum(elements.types.values()) == 2
    walked = [value, [value] * 3][:sample]  # elements past the sample are counted, not described
    assert elements.longest == max((len(v) for v in walked if isinstance(v, list)), default=0)
