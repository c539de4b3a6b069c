"""``--encoding NAME``: the user's codec wins over the guess, for extract, view, chunks, compressed text,
the Python front door and the MCP tool; a name Python does not know, or a kind that is not text, is a usage
error. The sample: a CSV whose only non-ASCII bytes are three cp1251 letters ("руб"), too few for the
detector, so the guess is the Western page and prints "ðóá"."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from boundread import api
from boundread.chunks.manifest import Params
from boundread.chunks.plan import chunk
from boundread.errors import UsageError
from boundread.limits import Limits
from tests.helpers import run

TEXT = "item,price\nbread,100 руб\n"


@pytest.fixture
def prices(tmp_path: Path) -> Path:
    path = tmp_path / "prices.csv"
    path.write_bytes(TEXT.encode("cp1251"))
    return path


def test_without_encoding_the_guess_is_western(prices: Path) -> None:
    result = api.extract(prices, stdout=True)
    assert result.text is not None and "руб" not in result.text


def test_extract_reads_the_named_encoding_and_says_no_guess(prices: Path) -> None:
    result = api.extract(prices, stdout=True, encoding="cp1251")
    assert result.text == TEXT
    assert not any("guessed" in warning for warning in result.warnings), result.warnings


def test_the_cli_extract_and_view_take_it(prices: Path) -> None:
    done = run("extract", str(prices), "--stdout", "--encoding", "cp1251")
    assert done.exit_code == 0, done.stderr
    assert "100 руб" in done.stdout
    shown = run("view", str(prices), "--encoding", "windows-1251")
    assert shown.exit_code == 0, shown.stderr
    assert "100 руб" in shown.stdout


def test_tail_reads_in_it_too(prices: Path) -> None:
    result = api.extract(prices, stdout=True, tail=1, encoding="cp1251")
    assert result.text == "bread,100 руб\n"


def test_compressed_text_takes_it(tmp_path: Path) -> None:
    packed = tmp_path / "prices.csv.gz"
    packed.write_bytes(gzip.compress(TEXT.encode("cp1251")))
    assert "руб" in (api.extract(packed, stdout=True, encoding="cp1251").text or "")
    assert "руб" not in (api.extract(packed, stdout=True).text or "")


def test_chunks_take_it_and_do_not_reuse_a_guessed_manifest(prices: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    chunk(prices, Params(tokens=200), out)
    again = chunk(prices, Params(tokens=200), out, encoding="cp1251")
    assert again.status == "rewritten"
    assert "руб" in (out / again.chunks[0].file).read_text(encoding="utf-8")
    done = run("chunks", str(prices), "-o", str(tmp_path / "cli"), "--encoding", "cp1251")
    assert done.exit_code == 0, done.stderr


@pytest.mark.parametrize("name", ["bogus", "base64", "rot13"])
def test_an_unknown_or_non_text_codec_is_a_usage_error(prices: Path, name: str) -> None:
    done = run("extract", str(prices), "--encoding", name)
    assert done.exit_code == 2
    assert done.stderr.strip() == (f"boundread: error: unknown encoding {name} - name a Python codec, e.g. cp1251, "
                                   "koi8-r, shift_jis")
    with pytest.raises(UsageError, match="unknown encoding"):
        chunk(prices, Params(tokens=200), prices.parent / "c", encoding=name)


def test_a_kind_that_is_not_text_refuses_it(tmp_path: Path) -> None:
    book = tmp_path / "book.xlsx"
    import xlsxwriter

    workbook = xlsxwriter.Workbook(str(book))
    workbook.add_worksheet("S").write(0, 0, "x")
    workbook.close()
    done = run("extract", str(book), "--encoding", "cp1251")
    assert done.exit_code == 2
    assert "--encoding does not apply to" in done.stderr and "which is xlsx" in done.stderr


def test_text_lists_it_among_its_options(prices: Path) -> None:
    done = run("extract", str(prices), "--pages", "2")
    assert "--encoding NAME" in done.stderr


def test_the_mcp_extract_tool_takes_it(prices: Path) -> None:
    from boundread.mcp import tools

    config = tools.Config(roots=(str(prices.parent),))
    target = tools.Target(prices, prices.name, prices.parent / "boundread-out")
    reply = tools.settle(tools.extract(config, target, encoding="cp1251"))
    assert "100 руб" in reply.text
    assert "100 руб" not in tools.settle(tools.extract(config, target)).text


def test_info_counts_in_it_and_its_next_steps_keep_it(prices: Path) -> None:
    about = api.info(prices, encoding="cp1251")
    assert (about.fields["encoding"], about.fields["encoding_from"]) == ("cp1251", "--encoding")
    assert not any("guessed" in warning for warning in about.warnings), about.warnings
    assert about.next and all(step.endswith(" --encoding cp1251") for step in about.next), about.next
    done = run("info", str(prices), "--encoding", "nope")
    assert done.exit_code == 2 and "unknown encoding nope" in done.stderr


def test_the_next_steps_of_a_cut_read_keep_it(tmp_path: Path) -> None:
    log = tmp_path / "big.log"
    log.write_bytes("".join(f"line {n} руб\n" for n in range(3000)).encode("cp1251"))
    cut = api.extract(log, stdout=True, encoding="cp1251", limits=Limits(max_chars=200))
    assert cut.next and all(step.endswith(" --encoding cp1251") for step in cut.next), cut.next
    tail = api.extract(log, stdout=True, tail=5, encoding="cp1251", limits=Limits(max_chars=30))
    assert tail.next and all(step.endswith(" --encoding cp1251") for step in tail.next), tail.next


def test_the_next_run_of_cut_chunks_keeps_it(tmp_path: Path) -> None:
    log = tmp_path / "big.log"
    log.write_bytes("".join(f"line {n} руб\n" for n in range(3000)).encode("cp1251"))
    first = chunk(log, Params(tokens=200), tmp_path / "out", max_chunks=2, encoding="cp1251")
    assert not first.complete
    assert first.next and first.next[0].endswith(" --encoding cp1251"), first.next
