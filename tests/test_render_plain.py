"""The plain info view (no rich, off a terminal) prints exactly what rich's view prints there."""

from __future__ import annotations

import io
import sys
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boundread import render
from boundread.bytelevel.sniff import ZIP, Sniffed
from boundread.contract.model import Entry, InfoResult, Listing, Source
from boundread.render import plain, views


def result(**changes: Any) -> InfoResult:
    base: dict[str, Any] = {
        "path": "report.pdf", "kind": "pdf", "mime": "application/pdf", "bytes": 123_456, "symlink_target": None,
        "mislabelled": None, "encrypted": False, "est_tokens": 4_000, "est_tokens_estimated": True,
        "fields": {"pages": 12, "pages_without_text": 0, "pages_checked": 5, "title": "Q3 report",
                   "size": 2_048, "encrypted_parts": [], "flags": {"a": 1}, "ok": True, "list": list(range(12))},
        "warnings": ["page 3 has no text layer"], "next": ["boundread pages report.pdf 1-5"], "problem": None,
    }
    return InfoResult(**{**base, **changes})


def rich_view(info: InfoResult, monkeypatch: pytest.MonkeyPatch) -> str:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    views.print_info(info)
    monkeypatch.undo()
    return out.getvalue()


def plain_view(info: InfoResult) -> str | None:
    lines = plain.info_lines(info)
    return None if lines is None else "\n".join(lines) + "\n"


CASES = [
    result(),
    result(est_tokens=None, warnings=[], next=[], fields={}),
    result(symlink_target="/data/reports/real.pdf", mislabelled="named .pdf but is a zip", encrypted=True),
    result(problem={"code": "encrypted", "exit_code": 5, "message": "encrypted: pass --password"},
           warnings=["encrypted: pass --password", "another"]),
    result(path="Отчёт за 2024 год — итоги.pdf", fields={"title": "Über façade 数据", "author": "  two  spaces  "}),
    result(fields={"note": "x" * 200}),  # fits the 240-column page with the key
    result(fields={"pages": 30, "pages_without_text": 2, "pages_checked": 20}),
    result(next=["boundread extract 'a file.txt' --lines 1-2", "boundread extract x --grep PATTERN --context 2"]),
    result(kind="xlsx", fields={"sheets": [
        {"index": 1, "name": "Lista 2024", "rows": 12_345, "cols": 7, "state": "visible"},
        {"index": 2, "name": "Ñandú", "rows": None, "cols": 1, "hidden": True},
        {"index": 10, "name": "Chart [1]", "rows": 0, "cols": 0, "type": "chartsheet"},
        {"name": "no index"}], "macros": False}),
]


@pytest.mark.parametrize("info", CASES)
def test_plain_is_rich_character_for_character(info: InfoResult, monkeypatch: pytest.MonkeyPatch) -> None:
    shown = plain_view(info)
    assert shown is not None  # these are the everyday cases: the plain view must take them
    assert shown == rich_view(info, monkeypatch)


@pytest.mark.parametrize("info", [
    result(fields={"note": "y " * 200}),  # wider than the page: rich wraps it
    result(fields={"note": "tab\there"}),  # rich expands tabs
    result(path="bad\x1b[31mname.txt"),  # rich strips control characters
    result(warnings=["two\nlines"]),
    result(fields={"sheets": [{"index": 1, "name": "数据", "rows": 3, "cols": 2}]}),  # wide: rich measures it
    result(fields={"sheets": [{"index": 1, "name": "S", "type": "[bold]x"}]}),  # rich reads markup there
    result(fields={"sheets": [{"index": 1, "name": "n" * 300}]}),  # wider than the page
])
def test_what_rich_would_change_is_left_to_rich(info: InfoResult) -> None:
    assert plain.info_lines(info) is None


@settings(max_examples=150, deadline=None)
@given(values=st.dictionaries(st.from_regex(r"[a-z_]{1,20}", fullmatch=True),
                              st.one_of(st.text(max_size=300), st.integers(), st.booleans(),
                                        st.lists(st.text(max_size=20), max_size=10)), max_size=6),
       path=st.text(min_size=1, max_size=80), warning=st.text(max_size=80))
def test_whenever_plain_answers_it_is_rich(values: dict[str, Any], path: str, warning: str) -> None:
    info = result(path=path, fields=values, warnings=[warning])
    shown = plain_view(info)
    if shown is None:
        return
    with pytest.MonkeyPatch.context() as patch:
        assert shown == rich_view(info, patch)


NAMES = st.one_of(st.text(st.characters(max_codepoint=0x2FF), max_size=40), st.text(max_size=40))
SHEET = st.fixed_dictionaries({"index": st.integers(0, 10**6), "name": NAMES},
                               optional={"rows": st.one_of(st.none(), st.integers(0, 10**7)),
                                         "cols": st.integers(0, 20_000), "hidden": st.booleans(),
                                         "state": st.sampled_from(["visible", "hidden", "veryHidden", ""]),
                                         "type": st.sampled_from(["worksheet", "chartsheet", "dialogsheet"])})


@settings(max_examples=150, deadline=None)
@given(sheets=st.lists(SHEET, min_size=1, max_size=6))
def test_whenever_plain_draws_sheets_it_is_rich(sheets: list[dict[str, Any]]) -> None:
    info = result(kind="xlsx", fields={"sheets": sheets})
    shown = plain_view(info)
    if shown is None:
        assert not all(plain._narrow(sheet["name"]) for sheet in sheets)  # only names rich must measure
        return
    with pytest.MonkeyPatch.context() as patch:
        assert shown == rich_view(info, patch)


def test_print_info_uses_rich_when_colour_is_forced(monkeypatch: pytest.MonkeyPatch) -> None:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("TERM", "xterm")
    render.print_info(result())
    assert "\x1b[" in out.getvalue()  # rich drew, in colour, as before
    monkeypatch.delenv("FORCE_COLOR")
    out.seek(0)
    out.truncate()
    render.print_info(result())
    assert "\x1b[" not in out.getvalue()
    assert out.getvalue().splitlines()[0] == "report.pdf"


def listing_views(listing: Listing, monkeypatch: pytest.MonkeyPatch) -> tuple[str | None, str]:
    src = Source("bundle.zip", Sniffed(ZIP, "application/zip"), 1_234)
    lines = plain.listing_lines(src, listing)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    views.print_listing(src, listing)
    monkeypatch.undo()
    return (None if lines is None else "\n".join(lines) + "\n"), out.getvalue()


def entry(name: str, **changes: Any) -> Entry:
    return Entry(**{"name": name, "size": 5_000, "compressed": 22, "modified": "2026-12-02T15:15:07",
                    **changes})


LISTINGS = [
    Listing("zip", [entry("docs/readme.txt"), entry("a/", size=0, compressed=2, is_dir=True),
                    entry("s.pdf", size=10, compressed=None, modified=None, encrypted=True),
                    entry("up", is_symlink=True, link_target="../etc/passwd", warnings=("escapes the folder",)),
                    entry("Ñandú.txt", size=None, compressed=3)],
            total_entries=5, total_size=5_010, total_compressed=49, warnings=["1 entry escapes the folder"]),
    Listing("zip", [], total_entries=4, first=9, last=10),  # a page past the end: no table
    Listing("tar.gz", [entry("x" * 150)], total_entries=1, total_size=5_000),
    Listing("zip", [entry(f"f{n}.txt") for n in range(3)], total_entries=700, truncated=True, last=3,
            match="*.txt", matching=700),
]


@pytest.mark.parametrize("listing", LISTINGS)
def test_the_plain_listing_is_riches(listing: Listing, monkeypatch: pytest.MonkeyPatch) -> None:
    shown, drawn = listing_views(listing, monkeypatch)
    assert shown is not None
    assert shown == drawn


@pytest.mark.parametrize("listing", [
    Listing("zip", [entry("y" * 230)], total_entries=1),  # rich folds it (and drops the time column first)
    Listing("zip", [entry("数据.txt")], total_entries=1),  # wide: rich measures it
    Listing("zip", [entry("tab\tname")], total_entries=1),
])
def test_what_rich_would_change_in_a_listing_is_left_to_rich(listing: Listing) -> None:
    src = Source("bundle.zip", Sniffed(ZIP, "application/zip"), 1_234)
    assert plain.listing_lines(src, listing) is None


ENTRY = st.builds(entry, st.one_of(st.text(st.characters(max_codepoint=0x2FF), min_size=1, max_size=120),
                                   st.text(min_size=1, max_size=60)),
                  size=st.one_of(st.none(), st.integers(0, 10**12)),
                  compressed=st.one_of(st.none(), st.integers(0, 10**9)),
                  modified=st.one_of(st.none(), st.just("2026-01-31T23:59:59")), is_dir=st.booleans(),
                  encrypted=st.booleans(), warnings=st.lists(st.just("ratio 900x"), max_size=1).map(tuple))


@settings(max_examples=120, deadline=None)
@given(entries=st.lists(ENTRY, max_size=6), truncated=st.booleans())
def test_whenever_plain_lists_it_is_rich(entries: list[Entry], truncated: bool) -> None:
    listing = Listing("zip", entries, total_entries=len(entries) + truncated, truncated=truncated,
                      total_size=sum(e.size or 0 for e in entries))
    with pytest.MonkeyPatch.context() as patch:
        shown, drawn = listing_views(listing, patch)
    if shown is not None:
        assert shown == drawn
