"""``extract F --path P`` writes what the path selects, pretty-printed, and nothing else: checked against Python's
own json module on generated files (a table of vectors, then hypothesis over random documents and paths, read
through 7-byte blocks so every token is cut by a block end somewhere). A path that selects nothing says so and
names the keys that exist; a cut says where the next command starts."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.helpers import run, run_json

from boundread.errors import ExitCode, UsageError
from boundread.formats import _jsonscan as jsonscan
from boundread.formats._jsonscan import Scanner
from boundread.formats.structured import jsonpath
from boundread.formats.structured.jsonselect import Selector

DOC: dict[str, Any] = {
    "meta": {"version": 3, "source": "gen", "a b": [1, 2]},
    "items": [{"id": i, "name": f"item {i} \u00e9\u4e2d", "tags": ["x"] * (i % 3),
               "note": None if i % 2 else "SENTINEL"} for i in range(300)],
    "empty": {},
    "none": [],
}


@pytest.fixture
def doc(tmp_path: Path) -> Path:
    path = tmp_path / "dump.json"
    path.write_text(json.dumps(DOC, ensure_ascii=False), encoding="utf-8")
    return path


def _values(text: str) -> list[Any]:
    """The pretty values written one after another, parsed back."""
    decoder, out, pos = json.JSONDecoder(), [], 0
    while pos < len(text.rstrip()):
        while text[pos].isspace():
            pos += 1
        value, pos = decoder.raw_decode(text, pos)
        out.append(value)
    return out


VECTORS: list[tuple[str, list[Any]]] = [
    (".", [DOC]),
    (".meta", [DOC["meta"]]),
    (".meta.version", [3]),
    ('.meta["a b"][1]', [2]),
    (".items[100:103]", DOC["items"][100:103]),
    (".items[5]", [DOC["items"][5]]),
    (".items[298:]", DOC["items"][298:]),
    (".items[:2].name", [DOC["items"][0]["name"], DOC["items"][1]["name"]]),
    (".items[10:14].tags[]", [t for item in DOC["items"][10:14] for t in item["tags"]]),
    (".empty", [{}]),
    (".none", [[]]),
]


@pytest.mark.parametrize(("path", "want"), VECTORS)
def test_path_selects_what_python_selects(doc: Path, path: str, want: list[Any]) -> None:
    code, data = run_json("extract", str(doc), "--path", path, "--stdout")
    assert code == 0 and not data["truncated"], data
    assert _values(data["text"]) == want
    assert data["text"].startswith(json.dumps(want[0], indent=2, ensure_ascii=False)[:40])  # pretty, as json does


def test_a_path_that_matches_nothing_says_so_and_names_the_keys(doc: Path) -> None:
    code, data = run_json("extract", str(doc), "--path", ".meta.nope", "--stdout")
    assert code == 0 and data["text"] == ""
    said = " ".join(data["warnings"])
    assert "matched nothing" in said and "version, source, a b" in said
    code, data = run_json("extract", str(doc), "--path", ".items[300]", "--stdout")
    assert "the array has 300 elements" in " ".join(data["warnings"])
    code, data = run_json("extract", str(doc), "--path", ".meta[0]", "--stdout")
    assert "an object, not an array" in " ".join(data["warnings"])


def test_every_element_is_bounded_by_max_rows_and_says_where_to_go_on(doc: Path) -> None:
    code, data = run_json("extract", str(doc), "--path", ".items[].id", "--max-rows", "50", "--stdout")
    assert code == 0 and _values(data["text"]) == list(range(50))
    assert data["truncated"] and any("max_rows 50" in r for r in data["truncated_reasons"])
    assert data["next"][0].endswith("--path '.items[50:].id'")
    code, data = run_json("extract", str(doc), "--path", ".items[50:].id", "--max-rows", "50", "--stdout")
    assert _values(data["text"]) == list(range(50, 100))


def test_the_char_bound_cuts_and_resumes_at_the_cut_value(doc: Path) -> None:
    code, data = run_json("extract", str(doc), "--path", ".items[]", "--max-chars", "1000", "--stdout")
    assert code == 0 and data["chars"] <= 1000 and data["truncated"]
    whole = _values(data["text"][:data["text"].rindex("\n}\n") + 3])
    assert whole == DOC["items"][:len(whole)]
    assert data["next"][0].endswith(f"--path '.items[{len(whole)}:]'")


def test_rows_pick_values_when_the_path_has_no_single_slice(doc: Path) -> None:
    code, data = run_json("extract", str(doc), "--path", ".items[].tags[]", "--rows", "3-4", "--stdout")
    every = [t for item in DOC["items"] for t in item["tags"]]
    assert code == 0 and _values(data["text"]) == every[2:4]


def test_other_kinds_refuse_path_and_bad_paths_are_usage_errors(doc: Path, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n", encoding="utf-8")
    result = run("extract", str(tmp_path / "notes.txt"), "--path", ".a")
    assert result.exit_code == ExitCode.USAGE and "--path does not apply" in result.stderr
    for bad in ("items", ".a[-1]", ".a[5:2]", ".a[x]"):
        result = run("extract", str(doc), "--path", bad)
        assert result.exit_code == ExitCode.USAGE and result.stderr.count("\n") == 1, (bad, result.stderr)
        assert result.stderr.startswith("boundread: error: bad --path")
    with pytest.raises(UsageError):
        jsonpath.parse(".a..b")


def test_a_json_file_still_reads_its_lines_for_grep_and_tail(doc: Path, tmp_path: Path) -> None:
    pretty = tmp_path / "pretty.json"
    text = json.dumps(DOC, indent=1)
    pretty.write_text(text, encoding="utf-8")
    code, data = run_json("extract", str(pretty), "--grep", "SENTINEL", "--stdout", "--max-matches", "3")
    assert code == 0 and data["text"].count("SENTINEL") == 3
    code, data = run_json("extract", str(pretty), "--tail", "2", "--stdout")
    assert data["text"].splitlines() == text.splitlines()[-2:]


# --- hypothesis: any document, any path, any block size agree with Python --------------------------------------

_scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=12)
_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=5)
                     | st.dictionaries(st.sampled_from(["a", "b", "c d", "é"]), inner, max_size=4), max_leaves=30)
_steps = st.lists(st.sampled_from(["a", "b", "c d", 0, 1, "[]", "[1:3]"]), max_size=3)


def _python(value: Any, steps: list[Any]) -> list[Any]:
    if not steps:
        return [value]
    step, rest = steps[0], steps[1:]
    if isinstance(step, str) and not step.startswith("["):
        return _python(value[step], rest) if isinstance(value, dict) and step in value else []
    if not isinstance(value, list):
        return []
    if isinstance(step, int):
        return _python(value[step], rest) if step < len(value) else []
    chosen = value if step == "[]" else value[1:3]
    return [out for element in chosen for out in _python(element, rest)]


def _path(steps: list[Any]) -> str:
    words = []
    for step in steps:
        if isinstance(step, int):
            words.append(f"[{step}]")
        elif step.startswith("["):
            words.append(step)
        else:
            words.append(f"[{json.dumps(step)}]")
    return "." + "".join(words) if words else "."


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(value=_json, steps=_steps)
def test_any_path_over_any_document_through_tiny_blocks(value: Any, steps: list[Any],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsonscan, "BLOCK", 7)
    out: list[str] = []
    raw = json.dumps(value, ensure_ascii=bool(len(steps) % 2)).encode()  # escaped and raw UTF-8 both
    selector = Selector(Scanner(io.BytesIO(raw)), jsonpath.parse(_path(steps)),
                        lambda text: out.append(text) is None, lambda: 10**9, limit=10**9)
    got = selector.run()
    assert _values("".join(out)) == _python(value, steps)
    assert got.values == len(_python(value, steps))


def test_two_paths_into_one_file_write_two_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOUNDREAD_OUT_DIR", str(tmp_path / "out"))
    data = tmp_path / "d.json"
    data.write_text('{"items": [1, 2, 3], "meta": {"owner": "ada"}}', encoding="utf-8")
    written = []
    for path in (".items[0:2]", ".meta"):
        code, out = run_json("extract", str(data), "--path", path)
        assert code == 0
        written.append(Path(out["output"]))
    assert written[0] != written[1]  # the second read did not overwrite the first
    assert "1" in written[0].read_text() and "ada" not in written[0].read_text()
    assert "ada" in written[1].read_text()
