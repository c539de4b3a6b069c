"""``chunks`` of a JSON file cuts between the elements of its big arrays and names them by path
(``.items[0:82]``): every chunk holds whole elements, the chunks end to end are ``extract --path .``'s text, and
memory stays bounded. JSON Lines is cut between records."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundread import api
from boundread.chunks import jsonread
from boundread.chunks.manifest import Manifest
from tests.helpers import run_json

_SLICE = re.compile(r"^(\.\w*)\[(\d+)(?::(\d+))?\]$")


def _items(n: int, pad: int = 0) -> list[dict[str, object]]:
    return [{"id": i, "name": f"item {i}", "tags": ["a", "b"], "note": "x" * pad, "deep": {"y": [1, {"z": i}]}}
            for i in range(n)]


def _joined(result: Manifest) -> str:
    folder = Path(result.folder)
    return "".join((folder / c.file).read_text(encoding="utf-8")[c.repeated_chars:] for c in result.chunks)


def _ids(text: str) -> list[int]:
    return [int(n) for n in re.findall(r'^ +"id": (\d+),$', text, re.M)]


def test_an_object_holding_a_big_array_is_cut_between_its_elements(tmp_path: Path) -> None:
    doc = {"meta": {"version": 3}, "items": _items(600)}
    path = tmp_path / "data.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = api.chunk(path, 2000, tmp_path / "c")
    assert result.complete and len(result.chunks) > 5
    assert _joined(result) == json.dumps(doc, indent=2, ensure_ascii=False) + "\n"  # extract --path . exactly
    spans = [c.span for c in result.chunks]
    assert spans[0].startswith(".meta; .items[0:")
    covered: list[int] = []
    for chunk in result.chunks:
        m = _SLICE.match(chunk.span.split("; ")[-1])
        assert m is not None and m.group(1) == ".items", chunk.span
        first, stop = int(m.group(2)), int(m.group(3) or int(m.group(2)) + 1)
        text = (Path(result.folder) / chunk.file).read_text(encoding="utf-8")
        assert _ids(text) == list(range(first, stop))  # whole elements, the ones its span names
        covered += range(first, stop)
    assert covered == list(range(600))


def test_the_span_is_a_path_extract_takes(tmp_path: Path) -> None:
    path = tmp_path / "top.json"
    path.write_text(json.dumps(_items(300)), encoding="utf-8")
    result = api.chunk(path, 1500, tmp_path / "c")
    span = result.chunks[1].span
    assert span.startswith(".[") and "continued" not in span and "cut" not in span
    code, _ = run_json("extract", str(path), "--path", span, "-o", str(tmp_path / "slice.txt"))
    assert code == 0
    chunk_text = (Path(result.folder) / result.chunks[1].file).read_text(encoding="utf-8")
    assert _ids((tmp_path / "slice.txt").read_text(encoding="utf-8")) == _ids(chunk_text)


def test_an_element_longer_than_a_chunk_is_named_continued_and_cut(tmp_path: Path) -> None:
    path = tmp_path / "long.json"
    path.write_text(json.dumps({"rows": _items(3, pad=3000)}), encoding="utf-8")
    result = api.chunk(path, 300, tmp_path / "c")
    spans = [c.span for c in result.chunks]
    assert spans[0] == ".rows[0] ([0] cut)"
    assert any(s == ".rows[0] ([0] continued, [0] cut)" for s in spans)
    assert spans[-1].endswith("([2] continued)")
    assert _joined(result) == json.dumps({"rows": _items(3, pad=3000)}, indent=2) + "\n"


def test_values_json_would_print_otherwise_keep_the_handlers_text(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Duplicate keys, bad UTF-8 and an element over the fast path's size are printed token by token, as
    ``extract`` prints them."""
    monkeypatch.setattr(jsonread, "FAST", 400)  # the first element is longer: read again from its offset
    raw = (b'{"items": [' + json.dumps({"big": "y" * 100_000}).encode() +  # bad UTF-8 at the start: "text"
           b', {"k": 1, "k": 2}, {"s": "caf\xe9"}, {"n": [1.5, -0, 1e400, "\\u00e9\\n"]}]}')
    path = tmp_path / "odd.json"
    path.write_bytes(raw)
    result = api.chunk(path, 20_000, tmp_path / "c")
    code, _ = run_json("extract", str(path), "--path", ".", "--max-chars", "1000000", "-o", str(tmp_path / "x.txt"))
    assert code == 0
    assert _joined(result) == (tmp_path / "x.txt").read_text(encoding="utf-8")
    assert '"k": 1' in _joined(result) and '"k": 2' in _joined(result)
    assert any("invalid UTF-8" in w for w in result.warnings)


def test_a_string_longer_than_the_cap_is_cut_and_said(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonread, "FAST", 1000)
    monkeypatch.setattr(jsonread, "STRING_CAP", 2000)
    path = tmp_path / "blob.json"
    path.write_text(json.dumps({"items": [{"blob": "b" * 50_000}, {"id": 1}]}), encoding="utf-8")
    result = api.chunk(path, 20_000, tmp_path / "c")
    assert not result.complete
    assert any("1 long strings cut" in r for r in result.truncated_reasons)
    text = _joined(result)
    assert "[string of 50,000 bytes cut]" in text and len(text) < 10_000 and '"id": 1' in text
    path.write_text(json.dumps({"items": ["s" * 50_000, "x"]}), encoding="utf-8")  # a string element itself
    strings = api.chunk(path, 20_000, tmp_path / "s")
    assert not strings.complete and '"x"' in _joined(strings)
    assert '"' + "s" * 2000 in _joined(strings) and "…\" [string of 50,000 bytes cut]" in _joined(strings)


@pytest.mark.parametrize(("doc", "span"), [(42, "."), ({}, "."), ("text", "."),
                                           ({"a": [1, 2]}, ".a"), ([[1, [2]], {"b": None}], ".[0:2]"), ([], ".")])
def test_small_and_scalar_documents(tmp_path: Path, doc: object, span: str) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = api.chunk(path, 1000, tmp_path / "c")
    assert [c.span for c in result.chunks] == [span]
    assert _joined(result) == json.dumps(doc, indent=2) + "\n"


def test_an_object_of_many_keys_names_its_first_and_last(tmp_path: Path) -> None:
    doc = {f"user{i}": {"id": i, "name": f"n{i}"} for i in range(400)}
    path = tmp_path / "keys.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = api.chunk(path, 1000, tmp_path / "c")
    first = result.chunks[0].span.split("; ")
    assert first[0] == ".user0" and first[3].startswith("… ") and first[3].endswith(" more …") and len(first) == 5
    assert _joined(result) == json.dumps(doc, indent=2) + "\n"


def test_damaged_json_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"items": [{"a": 1}, {"a": ]}', encoding="utf-8")
    code, data = run_json("chunks", str(path), "-o", str(tmp_path / "c"))
    assert code != 0 and "not valid JSON" in data["error"]["message"]


def test_from_goes_on_with_the_same_chunks(tmp_path: Path) -> None:
    path = tmp_path / "data.json"
    path.write_text(json.dumps({"items": _items(200)}), encoding="utf-8")
    whole = api.chunk(path, 800, tmp_path / "a")
    part = api.chunk(path, 800, tmp_path / "b", max_chunks=3)
    rest = api.chunk(path, 800, tmp_path / "b", start=4)
    assert [c.span for c in rest.chunks] == [c.span for c in whole.chunks]
    assert [c.sha256 for c in rest.chunks] == [c.sha256 for c in whole.chunks] and len(part.chunks) == 3


@settings(max_examples=60, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
                    max_leaves=30))
def test_indented_is_json_dumps_indent_2(value: object) -> None:
    compact = json.dumps(value, ensure_ascii=False, separators=(",", ": "))
    assert jsonread.indented(compact) == json.dumps(value, ensure_ascii=False, indent=2)
    assert jsonread.indented(compact, 2) == json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n    ")


def test_jsonl_chunks_hold_whole_records(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text("".join(json.dumps({"id": i, "text": "w" * (i % 90)}) + "\n" for i in range(2000)),
                    encoding="utf-8")
    result = api.chunk(path, 1000, tmp_path / "c")
    assert result.complete and len(result.chunks) > 5
    ids: list[int] = []
    for chunk in result.chunks:
        lines = (Path(result.folder) / chunk.file).read_text(encoding="utf-8").splitlines()
        ids += [json.loads(line)["id"] for line in lines]  # every line a whole record
    assert ids == list(range(2000))


_MEMORY = """
import json, sys, tracemalloc
from boundread import api
peaks = []
for n, path in enumerate(sys.argv[1:]):
    tracemalloc.start()
    result = api.chunk(path, 50_000, path + ".chunks", max_chunks=100_000, max_lines=None)
    assert result.complete and len(result.chunks) > 10 * n
    peaks.append(tracemalloc.get_traced_memory()[1])
    tracemalloc.stop()
print(json.dumps(peaks))
"""


def test_memory_stays_bounded_while_a_big_array_is_chunked(tmp_path: Path) -> None:
    """A file four times larger costs no more: the scanner's buffer (two 1 MB blocks, briefly copied), one
    element, one chunk."""
    paths = []
    for n in (2000, 8000):
        path = tmp_path / f"big{n}.json"
        with path.open("w", encoding="utf-8") as fh:
            fh.write('{"meta": {"n": 1}, "items": [')
            fh.write(",".join(json.dumps({"id": i, "text": "lorem ipsum " * 150}) for i in range(n)))
            fh.write("]}")
        paths.append(str(path))
    done = subprocess.run([sys.executable, "-c", _MEMORY, *paths], capture_output=True, text=True, check=True,
                          timeout=600)
    small, big = json.loads(done.stdout)
    assert Path(paths[1]).stat().st_size > 14_000_000
    assert big < small + 1_000_000 and big < 10_000_000, (small, big)


def test_values_one_after_another_are_chunked_in_turn(tmp_path: Path) -> None:
    """A JSON text sequence (what ``jq .`` writes): each value, as ``extract --path .`` reads them; what is not JSON
    after them is said and marks the chunks incomplete."""
    path = tmp_path / "two.json"
    path.write_text('{"a": 1}\n{"a": 2}\n[3]\n', encoding="utf-8")
    result = api.chunk(path, 1000, tmp_path / "c")
    assert result.complete and _joined(result) == '{\n  "a": 1\n}\n{\n  "a": 2\n}\n[\n  3\n]\n'
    assert result.chunks[0].span == ".a; value 2; value 3"
    assert any("3 JSON values one after another" in w for w in result.warnings)
    code, _ = run_json("extract", str(path), "--path", ".", "-o", str(tmp_path / "x.txt"))
    assert code == 0 and (tmp_path / "x.txt").read_text(encoding="utf-8") == _joined(result)
    path.write_text('{"a": 1}\n{"a": 2}\nnot json\n', encoding="utf-8")
    broken = api.chunk(path, 1000, tmp_path / "d")
    assert not broken.complete and any("not JSON after value 2, at byte 18" in w for w in broken.warnings)


def test_an_array_of_numbers_is_cut_between_them_as_extract_prints_it(tmp_path: Path) -> None:
    """A run of numbers and literals is written a regular expression match an element (the scanner took 22 us an
    element): the same text as ``extract --path .`` - ``-0`` as 0, ``1E5`` as 100000.0, whitespace and line breaks
    between them dropped - every element named once by the spans, a string or an object among them in its place."""
    forms = ["7", "-0", "1E5", "2.50", "-1.5e-3", "true", "null", "false", "123456789012345678901234567890"]
    values = [forms[i % len(forms)] for i in range(3_000)]
    values[1_000], values[2_000] = '"a string"', '{"k": [1, 2]}'
    path = tmp_path / "numbers.json"
    path.write_text("[ " + " ,\n\t".join(values) + " ]", encoding="utf-8")
    result = api.chunk(path, 1000, tmp_path / "c")
    code, _ = run_json("extract", str(path), "--path", ".", "--max-chars", "1000000", "-o", str(tmp_path / "x.txt"))
    assert code == 0 and result.complete and len(result.chunks) > 5
    assert _joined(result) == (tmp_path / "x.txt").read_text(encoding="utf-8")
    covered: list[int] = []
    for chunk in result.chunks:
        m = _SLICE.match(chunk.span)
        assert m is not None and m.group(1) == ".", chunk.span
        first, stop = int(m.group(2)), int(m.group(3) or int(m.group(2)) + 1)
        covered += range(first, stop)
        if not first <= 2_000 < stop:  # one line an element, but for the object's
            text = (Path(result.folder) / chunk.file).read_text(encoding="utf-8")[chunk.repeated_chars:]
            assert len(re.findall(r"^  \S", text, re.M)) == stop - first, chunk.span
    assert covered == list(range(3_000))
