"""`chunks` on the real-world corpus and on a big generated log.

Every corpus document that has text is chunked within the bound, and its chunks' own text, end to end, is what
`extract` with no limits gives (for an archive: each member's extract after its marker). A 50 MB log is chunked
whole at a peak RSS that does not grow with it (measured against a tiny file, in a subprocess).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boundread.chunks.feed import ARCHIVES
from boundread.chunks.manifest import Params
from boundread.chunks.plan import chunk, whole
from boundread.contract import kinds as families
from boundread.contract.model import Request
from boundread.core import engine
from boundread.errors import BoundreadError
from boundread.limits import est_tokens
from tests.sweep_helpers import MB, child_env, run_measured
from tests.test_corpus import corpus_files

TOKENS = 300


def _reference(path: Path) -> str | None:
    """extract with no limits (each member's, for an archive); None: no text (an error, or nothing)."""
    req = Request(limits=whole(60))
    try:
        _src, listing = engine.list_archive(path, req) if engine.open_source(path).kind in ARCHIVES else (None, None)
    except BoundreadError:
        return None
    if listing is None:
        try:
            # a CSV/TSV is chunked by rows (the header in each chunk), as a workbook is: so is its reference
            kinds = families.WORKBOOKS if engine.open_source(path).kind in families.TABLES else None
            return engine.extract(path, req, to_stdout=True, kinds=kinds).text or None
        except BoundreadError:
            return None
    parts = []
    for entry in listing.entries:
        if entry.is_dir or entry.is_symlink or entry.link_target is not None or entry.encrypted:
            continue
        try:
            text = engine.extract(path, req, engine.Filters(member=entry.name), to_stdout=True).text
        except BoundreadError:
            continue
        if text:
            parts.append(f"--- member {entry.name} ---\n{text}")
    return "".join(parts) or None


@pytest.mark.corpus
@pytest.mark.parametrize("name", corpus_files())
def test_corpus_chunks_cover_the_text_once(name: str, corpus_dir: Path, tmp_path: Path,
                                           manifest: dict[str, dict[str, Any]]) -> None:
    """The chunks hold the text extract gives, once, in order; "complete" exactly when the file is whole (a
    truncated file's chunks hold what could be read, and the manifest says it is not complete)."""
    path = corpus_dir / name
    expected = _reference(path)
    if expected is None:  # no text to chunk: chunks ends as extract does, never with a traceback
        done = run_json("chunks", str(path), "-o", str(tmp_path / "c"), "--timeout", "20")
        assert done[0] in (0, 2, 3, 4, 5, 6, 7), done
        return
    result = chunk(path, Params(tokens=TOKENS), tmp_path / "c", max_chunks=10_000, timeout=60)
    cut = "truncated" in manifest[name]["traits"] and name.endswith((".tar", ".zip", ".7z"))
    assert result.complete is not cut, result.truncated_reasons
    folder = Path(result.folder)
    bodies = [(folder / c.file).read_text(encoding="utf-8") for c in result.chunks]
    assert all(est_tokens(len(body)) <= TOKENS for body in bodies)
    assert "".join(body[c.repeated_chars:] for body, c in zip(bodies, result.chunks, strict=True)) == expected


def run_json(*args: str) -> tuple[int, Any]:
    from tests.helpers import run

    done = run(*args, "--json")
    return done.exit_code, json.loads(done.stdout) if done.stdout else None


def test_a_big_log_is_chunked_at_bounded_memory(tmp_path: Path) -> None:
    big = tmp_path / "big.log"
    line = b"2026-12-01T09:00:00Z INFO request handled path=/api/v1/items status=200 bytes=1234 ms=12\n"
    with open(big, "wb") as fh:
        block = line * 10_000
        while fh.tell() < 50 * MB:
            fh.write(block)
    tiny = tmp_path / "tiny.log"
    tiny.write_bytes(line * 10)
    env = child_env(NO_PROGRESS="1")
    small = run_measured(["chunks", str(tiny), "--tokens", "50000", "-o", str(tmp_path / "t"), "--json"],
                         cwd=tmp_path, env=env, hard_timeout=120)
    ran = run_measured(["chunks", str(big), "--tokens", "50000", "-o", str(tmp_path / "b"), "--max-chunks", "1000",
                        "--json"], cwd=tmp_path, env=env, hard_timeout=300)
    assert small.code == 0 and ran.code == 0, ran.stderr
    data = ran.json()
    assert data["complete"] and data["totals"]["source_chars"] == big.stat().st_size
    assert data["totals"]["chunks"] == len(data["chunks"]) > 200
    # a sink that kept the text would hold 50 MB (100+ MB as str); the chunker holds one chunk (200 KB)
    assert ran.peak_rss - small.peak_rss < 40 * MB, (ran.peak_rss, small.peak_rss)
    capped = run_measured(["chunks", str(big), "--tokens", "50000", "-o", str(tmp_path / "c"), "--json"],
                          cwd=tmp_path, env=env, hard_timeout=300)
    part = capped.json()
    assert capped.code == 0 and not part["complete"] and len(part["chunks"]) == 200
    assert part["next"][0].endswith("--from 201") and part["truncated_reasons"] == ["max_chunks 200 reached"]
    # the way on reads on from the byte where chunk 201 starts, and makes the chunks the whole run made
    on = run_measured(["chunks", str(big), "--tokens", "50000", "-o", str(tmp_path / "c"), "--from", "201",
                       "--max-chunks", "1000", "--json"], cwd=tmp_path, env=env, hard_timeout=300)
    rest = on.json()
    assert on.code == 0 and rest["complete"] and rest["notes"][0].startswith("read on from byte ")
    assert [c["sha256"] for c in rest["chunks"]] == [c["sha256"] for c in data["chunks"]]
    assert on.peak_rss - small.peak_rss < 40 * MB, (on.peak_rss, small.peak_rss)
