"""Issue 22 item 7: ``chunks`` says "complete" only when every part of the document is in a chunk. A member it
skipped, a page tree that declares more pages than it holds, or a file that changed while it was read leave the
manifest incomplete, with the reason; its ``next`` is a command that gives more (chunk it again after a change),
never a ``--from`` that would hit the same wall."""

from __future__ import annotations

import zipfile
from pathlib import Path
from unittest import mock

from boundread.chunks import textread
from boundread.chunks.manifest import Params
from boundread.chunks.plan import chunk
from boundread.formats.pdf.handler import FAILED_RUN
from boundread.limits import MB
from tests.helpers import tiny_pdf


def test_a_page_tree_that_claims_a_million_pages_is_not_complete(tmp_path: Path) -> None:
    """335 bytes that declare 1,000,000 pages: a run of unreadable pages stops the read (not 200 chunks of page
    headers), and the manifest is incomplete with no --from to go on with."""
    path = tmp_path / "million.pdf"
    path.write_bytes(tiny_pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1000000 >>",
                           b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>"]))
    result = chunk(path, Params(tokens=1000), tmp_path / "c")
    assert not result.complete and result.next == ()
    assert f"{FAILED_RUN} unreadable pages in a row" in result.truncated_reasons
    assert len(result.chunks) == 1 and result.chunks[0].span == f"pages 1-{FAILED_RUN + 1}"


def test_a_member_it_skipped_leaves_the_chunks_incomplete(tmp_path: Path) -> None:
    path = tmp_path / "big.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("small.txt", "the small member\n")
        zf.writestr("big.log", b"a line of a log over the member cap\n" * (33 * MB // 36 + 1))
    result = chunk(path, Params(tokens=1000), tmp_path / "c")
    assert not result.complete and result.truncated_reasons == ("1 member skipped or cut short",)
    assert any("big.log skipped" in warning for warning in result.warnings) and result.next == ()
    assert [c.span for c in result.chunks] == ["member 'small.txt'"]


def test_a_file_that_changed_under_the_read_is_chunked_again(tmp_path: Path) -> None:
    path = tmp_path / "app.log"
    path.write_text("".join(f"line {n}\n" for n in range(20_000)), encoding="utf-8")
    real = textread.read

    def shrinking(*args: object, **kwargs: object) -> object:
        with path.open("r+b") as fh:  # a log rotated while it is read: cut to nothing
            fh.truncate(0)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    with mock.patch.object(textread, "read", shrinking):
        result = chunk(path, Params(tokens=1000), tmp_path / "c")
    assert not result.complete and "the file changed while it was read" in result.truncated_reasons
    assert any("changed while it was read" in warning for warning in result.warnings)
    assert len(result.next) == 1 and "--from" not in result.next[0] and "chunks" in result.next[0]
    again = chunk(path, Params(tokens=1000), tmp_path / "c")  # the next step: the file as it is now
    assert again.complete and again.status == "rewritten"


def test_a_whole_file_is_complete(tmp_path: Path) -> None:
    path = tmp_path / "app.log"
    path.write_text("".join(f"line {n}\n" for n in range(2_000)), encoding="utf-8")
    result = chunk(path, Params(tokens=1000), tmp_path / "c")
    assert result.complete and result.truncated_reasons == () and result.next == ()
