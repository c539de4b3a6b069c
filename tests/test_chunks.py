"""`boundread chunks`: every chunk within the bound, cut at natural units, the whole text exactly once,
the manifest, reuse and change detection, --overlap, --max-chunks with --from, and the errors."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundread.chunks.manifest import Manifest, Params
from boundread.chunks.plan import chunk, whole
from boundread.chunks.split import LINE, Cut, Piece, Splitter
from boundread.contract.model import Request
from boundread.core import engine
from boundread.limits import est_tokens
from tests.helpers import run

SAMPLE = Path(__file__).resolve().parents[1] / "src" / "boundread" / "data" / "sample-report.pdf"


def own_text(result: Manifest) -> str:
    """The chunks' own text end to end: each file minus what it repeats (header row, overlap)."""
    folder = Path(result.folder)
    return "".join((folder / c.file).read_text(encoding="utf-8")[c.repeated_chars:] for c in result.chunks)


def reference(path: Path, **request: Any) -> str:
    """What `extract` gives with no limits: the text every chunking must cover exactly once."""
    text = engine.extract(path, Request(limits=whole(60), **request), to_stdout=True).text
    assert text is not None
    return text


def check_bound(result: Manifest) -> None:
    for c in result.chunks:
        body = (Path(result.folder) / c.file).read_text(encoding="utf-8")
        assert len(body) == c.chars and est_tokens(len(body)) == c.est_tokens <= result.params.tokens, c


def log_file(tmp_path: Path, lines: int = 3000, seed: int = 7) -> Path:
    rnd = random.Random(seed)
    path = tmp_path / "app.log"
    path.write_text("".join(f"{i:06d} INFO worker-{rnd.randint(1, 9)} " + "x" * rnd.randint(0, 160) + "\n"
                            for i in range(1, lines + 1)), encoding="utf-8")
    return path


# ---- the splitter alone -------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(lines=st.lists(st.text(alphabet="ab \t#é", max_size=300), max_size=60),
       budget=st.integers(min_value=40, max_value=400), overlap=st.integers(min_value=0, max_value=4),
       max_lines=st.one_of(st.none(), st.integers(min_value=10, max_value=30)))
def test_splitter_bounds_and_covers(lines: list[str], budget: int, overlap: int, max_lines: int | None) -> None:
    cuts: list[Cut] = []
    splitter = Splitter(budget, cuts.append, overlap=overlap, max_lines=max_lines)
    text = "".join(line + "\n" for line in lines)
    for line in lines:
        splitter.add(Piece(line + "\n", LINE))
    splitter.finish()
    assert all(len(c.text) <= budget for c in cuts)
    if max_lines is not None:
        assert all(c.text.count("\n") + (not c.text.endswith("\n")) <= max_lines for c in cuts)
    assert "".join(c.text[c.repeated:] for c in cuts) == text
    assert [c.index for c in cuts] == list(range(1, len(cuts) + 1))


@settings(max_examples=60, deadline=None)
@given(lines=st.lists(st.text(alphabet="ab #", max_size=200), max_size=50), cuts=st.lists(st.integers(1, 300)),
       budget=st.integers(min_value=40, max_value=300), overlap=st.integers(min_value=0, max_value=3))
def test_plain_text_cuts_do_not_depend_on_how_it_was_read(lines: list[str], cuts: list[int], budget: int,
                                                          overlap: int) -> None:
    """--from reads a log from an offset, in other blocks than the first run did: the chunks must not change."""
    from boundread.chunks.feed import Feeder

    text = "".join(line + "\n" for line in lines)

    def chunked(sizes: list[int]) -> list[str]:
        out: list[Cut] = []
        splitter = Splitter(budget, out.append, overlap=overlap, max_lines=12)
        feeder, at = Feeder(splitter), 0
        for size in [*sizes, len(text)]:
            feeder.feed(text[at:at + size])
            at += size
        feeder.finish()
        splitter.finish()
        return [c.text for c in out]

    assert chunked(cuts) == chunked([len(text)])


# ---- formats ------------------------------------------------------------------------------------------

def test_pdf_chunks_are_whole_pages(tmp_path: Path) -> None:
    result = chunk(SAMPLE, Params(tokens=600), tmp_path / "c")
    assert result.complete and result.kind == "pdf"
    assert [c.span for c in result.chunks][:2] == ["pages 1-2", "pages 3-4"]
    assert own_text(result) == reference(SAMPLE)
    check_bound(result)
    for c in result.chunks:
        assert (tmp_path / "c" / c.file).read_text(encoding="utf-8").startswith("--- page ")


def test_a_page_larger_than_a_chunk_is_cut_at_lines_and_its_marker_repeated(tmp_path: Path) -> None:
    result = chunk(SAMPLE, Params(tokens=100), tmp_path / "c")
    assert own_text(result) == reference(SAMPLE)
    check_bound(result)
    spans = [c.span for c in result.chunks]
    assert "page 1 (cut)" in spans and any(s.startswith("page 1 (continued") for s in spans)
    for c in result.chunks:
        body = (tmp_path / "c" / c.file).read_text(encoding="utf-8")
        assert body.startswith("--- page ") and body.endswith("\n")  # cut between lines, never inside one
        if "continued" in c.span:
            assert c.repeated_chars == len(body.split("\n", 1)[0]) + 1  # the marker line, repeated


def test_workbook_chunks_repeat_the_header_row(tmp_path: Path) -> None:
    import xlsxwriter

    path = tmp_path / "prices.xlsx"
    book = xlsxwriter.Workbook(str(path))
    for name, rows in (("Lista 3", 900), ("Other", 40)):
        sheet = book.add_worksheet(name)
        sheet.write_row(0, 0, ["sku", "name", "price"])
        for r in range(1, rows):
            sheet.write_row(r, 0, [f"S{r:05d}", f"item {r}", r * 1.5])
    book.close()
    result = chunk(path, Params(tokens=500), tmp_path / "c")
    assert own_text(result) == reference(path)
    check_bound(result)
    spans = [c.span for c in result.chunks]
    assert spans[0].startswith("sheet 'Lista 3' rows 1-")
    assert any(s.startswith("sheet 'Lista 3' rows ") and not s.startswith("sheet 'Lista 3' rows 1-") for s in spans)
    assert spans[-1].endswith("sheet 'Other' rows 1-40")  # a new sheet starts a new chunk when it fits whole
    for c in result.chunks[1:]:
        body = (tmp_path / "c" / c.file).read_text(encoding="utf-8")
        if c.span.startswith("sheet 'Lista 3'"):
            assert body.startswith("--- sheet 'Lista 3' (rows 1-900 of 900) ---\nsku,name,price\n")
            assert c.repeated_chars == len("--- sheet 'Lista 3' (rows 1-900 of 900) ---\nsku,name,price\n")


def test_word_chunks_cut_at_headings(tmp_path: Path) -> None:
    import docx

    path = tmp_path / "spec.docx"
    document = docx.Document()
    for section in range(1, 9):
        document.add_heading(f"Section {section}", level=1)
        for p in range(6):
            document.add_paragraph(f"Paragraph {section}.{p} " + "words " * 30)
    document.save(str(path))
    result = chunk(path, Params(tokens=400), tmp_path / "c")
    assert own_text(result) == reference(path)
    check_bound(result)
    starts = [(tmp_path / "c" / c.file).read_text(encoding="utf-8").lstrip("\n") for c in result.chunks]
    assert sum(s.startswith("# Section") for s in starts) >= len(starts) // 2  # mostly at a heading
    assert any(c.span.endswith("(from heading 'Section 2')") for c in result.chunks)


def test_text_lines_spans_and_overlap(tmp_path: Path) -> None:
    path = log_file(tmp_path)
    result = chunk(path, Params(tokens=1000, overlap=3), tmp_path / "c")
    assert own_text(result) == path.read_text(encoding="utf-8")
    check_bound(result)
    first, second = result.chunks[0], result.chunks[1]
    assert first.span == f"lines 1-{first.lines[1]}" and second.lines[0] == first.lines[1] + 1
    a = (tmp_path / "c" / first.file).read_text(encoding="utf-8")
    b = (tmp_path / "c" / second.file).read_text(encoding="utf-8")
    assert b[:second.repeated_chars] == "".join(a.splitlines(keepends=True)[-3:])  # the last 3 lines again


def test_a_chunk_fits_one_read_of_2000_lines(tmp_path: Path) -> None:
    path = tmp_path / "short.log"
    path.write_text("".join(f"{i} ok\n" for i in range(1, 10_001)), encoding="utf-8")
    result = chunk(path, Params(tokens=20_000), tmp_path / "c")
    assert [c.lines for c in result.chunks] == [(1, 2000), (2001, 4000), (4001, 6000), (6001, 8000), (8001, 10000)]
    unbounded = chunk(path, Params(tokens=20_000, max_lines=None), tmp_path / "u")
    assert len(unbounded.chunks) == 1 and own_text(unbounded) == own_text(result) == path.read_text(encoding="utf-8")


def test_archive_chunks_by_member(tmp_path: Path) -> None:
    import zipfile

    path = tmp_path / "bundle.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("a.txt", "".join(f"alpha {i}\n" for i in range(400)))
        zf.writestr("dir/", "")
        zf.writestr("b.csv", "k,v\n" + "".join(f"{i},{i * i}\n" for i in range(300)))
    result = chunk(path, Params(tokens=300), tmp_path / "c")
    check_bound(result)
    text = own_text(result)
    # each member is read as a file of its name is: b.csv as rows (its header repeated where a chunk goes on)
    expected = "".join(f"--- member {m} ---\n" + (engine.extract(path, Request(limits=whole(60)),
                                                               engine.Filters(member=m), to_stdout=True,
                                                               kinds=kinds).text or "")
                       for m, kinds in (("a.txt", None), ("b.csv", ("csv",))))
    assert text == expected
    assert result.chunks[0].span.startswith("member 'a.txt'")
    assert result.chunks[-1].span.startswith("member 'b.csv'")


# ---- manifest, reuse, change, --max-chunks / --from ----------------------------------------------------

def test_manifest_reuse_and_change(tmp_path: Path) -> None:
    path = log_file(tmp_path, 800)
    first = chunk(path, Params(tokens=800), tmp_path / "c", model="claude-sonnet-4-5")
    data = json.loads((tmp_path / "c" / "manifest.json").read_text(encoding="utf-8"))
    assert data["schema"] == 1 and data["command"] == "chunks" and data["kind"] == "text"
    assert data["source"]["size"] == path.stat().st_size and len(data["source"]["sha256"]) == 64
    assert data["params"]["tokens"] == 800 and data["totals"]["chunks"] == len(data["chunks"]) == len(first.chunks)
    assert data["cost"]["model"] == "claude-sonnet-4-5" and float(data["cost"]["usd"]) > 0
    assert first.status == "written"
    again = chunk(path, Params(tokens=800), tmp_path / "c")
    assert again.status == "reused" and again.chunks == first.chunks
    path.write_text("short now\n", encoding="utf-8")
    changed = chunk(path, Params(tokens=800), tmp_path / "c")
    assert changed.status == "rewritten" and "source changed" in changed.notes[0]
    assert len(changed.chunks) == 1 and sorted(p.name for p in (tmp_path / "c").iterdir()) == [
        "chunk-00001.txt", "manifest.json"]  # the old chunk files are gone


def test_max_chunks_then_from_continues_exactly(tmp_path: Path) -> None:
    path = log_file(tmp_path)
    full = chunk(path, Params(tokens=700, overlap=2), tmp_path / "full")
    part = chunk(path, Params(tokens=700, overlap=2), tmp_path / "part", max_chunks=4)
    assert not part.complete and len(part.chunks) == 4 and "max_chunks 4 reached" in part.truncated_reasons
    assert "--from 5" in part.next[0] and "--max-chunks 4" in part.next[0]
    while not part.complete:
        part = chunk(path, Params(tokens=700, overlap=2), tmp_path / "part", start=len(part.chunks) + 1,
                     max_chunks=4)
        assert part.status == "continued" and not part.warnings
        assert part.notes[0].startswith("read on from byte ")  # a log is read on from an offset, not again
    assert [c.sha256 for c in part.chunks] == [c.sha256 for c in full.chunks]
    assert [c.span for c in part.chunks] == [c.span for c in full.chunks]


@pytest.mark.parametrize("newline", ["\r\n", "\n"])
def test_from_on_latin1_crlf_and_a_long_line_reads_on_exactly(tmp_path: Path, newline: str) -> None:
    path = tmp_path / "mixed.txt"
    lines = [f"Zeile {i} Größe {'ü' * (i % 50)}" for i in range(1500)]
    lines[700] = "x" * 30_000  # longer than a chunk: cut inside
    path.write_bytes(newline.join(lines).encode("latin-1") + b"\xe9")  # no newline at the end
    assert engine.open_source(path).sniffed.encoding in ("latin-1", "iso-8859-1", "cp1252")
    full = chunk(path, Params(tokens=2000, overlap=1), tmp_path / "full", max_chunks=1000)
    assert own_text(full) == reference(path)
    part = chunk(path, Params(tokens=2000, overlap=1), tmp_path / "part", max_chunks=3)
    while not part.complete:
        part = chunk(path, Params(tokens=2000, overlap=1), tmp_path / "part", start=len(part.chunks) + 1,
                     max_chunks=3)
    assert [c.sha256 for c in part.chunks] == [c.sha256 for c in full.chunks]


def test_cli_summary_json_and_errors(tmp_path: Path) -> None:
    out = tmp_path / "c"
    done = run("chunks", str(SAMPLE), "--tokens", "600", "-o", str(out))
    assert done.exit_code == 0, done.stderr
    assert "wrote 6 chunks" in done.stdout and "chunk-00001.txt  pages 1-2" in done.stdout
    again = run("chunks", str(SAMPLE), "--tokens", "600", "-o", str(out), "--json")
    data = json.loads(again.stdout)
    assert data["schema"] == 1 and data["command"] == "chunks" and data["status"] == "reused"
    assert data["chunks"][0]["file"] == "chunk-00001.txt" and data["totals"]["chunks"] == 6
    none = run("chunks", str(SAMPLE), "--tokens", "600", "-o", str(tmp_path / "fresh"), "--from", "3")
    assert none.exit_code == 2 and none.stdout == ""
    assert none.stderr.startswith("boundread: error: --from 3: no manifest") and len(none.stderr.splitlines()) == 1
    (tmp_path / "file").write_text("x", encoding="utf-8")
    bad = run("chunks", str(SAMPLE), "-o", str(tmp_path / "file"), "--json")
    assert bad.exit_code == 2 and json.loads(bad.stdout)["error"]["code"] == "usage"
    missing = run("chunks", str(tmp_path / "nope.pdf"))
    assert missing.exit_code == 3 and "no such file" in missing.stderr


def test_default_folder_is_in_the_output_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BOUNDREAD_OUT_DIR")
    result = chunk(SAMPLE, Params(tokens=2000))
    assert Path(result.folder) == Path("boundread-out") / "sample-report.pdf.chunks"
    assert (tmp_path / "boundread-out" / ".gitignore").read_text(encoding="utf-8") == "*\n"


def test_python_api_returns_the_typed_manifest(tmp_path: Path) -> None:
    import boundread

    assert {"chunk", "Chunk", "Manifest"} <= set(boundread.__all__)
    result = boundread.chunk(SAMPLE, 600, tmp_path / "c", model="claude-sonnet-4-5")
    assert isinstance(result, boundread.Manifest) and isinstance(result.chunks[0], boundread.Chunk)
    assert result.chunks[0].span == "pages 1-2" and result.cost is not None and result.cost.known
    with pytest.raises(boundread.UsageError):
        boundread.chunk(SAMPLE, 10)


def test_the_skill_texts_give_the_map_reduce_protocol_with_real_options() -> None:
    data = Path(__file__).resolve().parents[1] / "src" / "boundread" / "data"
    helptext = run("chunks", "--help").stdout
    assert all(option in helptext for option in ("--tokens", "--model", "--max-chunks", "--from"))
    for name in ("SKILL.md", "AGENTS-section.md"):
        text = " ".join((data / name).read_text(encoding="utf-8").split())
        assert "boundread chunks FILE --tokens 20000 --model MODEL" in text
        assert "boundread budget status --json" in text and "sub-agent per chunk" in text


def test_an_empty_file_has_no_chunks_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    result = chunk(path, Params(tokens=100), tmp_path / "c")
    assert result.complete and result.chunks == () and result.warnings == (f"{path} has no text: nothing to chunk",)
