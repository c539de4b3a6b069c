"""The result and request types (boundread/record.py) are no dataclasses any more, for start-up's sake; what a
program did with them as dataclasses still works: fields by position or name, equality, repr, a hash and no
assignment when frozen, pickling, and dataclasses' own fields/replace/asdict/is_dataclass."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import subprocess
import sys

import pytest

from boundread.contract.model import Entry, ExtractResult, InfoResult, Listing, Outcome, Request, Span
from boundread.limits import Limits
from boundread.record import Record, as_dict, field, replace


class Point(Record, frozen=True):
    x: int
    y: int = 0
    tags: list[str] = field(default_factory=list)


class Tally(Record):
    total: int = 0
    seen: list[int] = field(default_factory=list)


def test_the_constructor_takes_fields_by_position_or_name_with_defaults() -> None:
    assert Point(1) == Point(x=1, y=0, tags=[])
    assert Point(1, 2).y == 2
    first, second = Tally(), Tally()
    first.seen.append(1)
    assert second.seen == []  # a fresh list each


@pytest.mark.parametrize("make", [lambda: Point(), lambda: Point(1, 2, [], 4), lambda: Point(1, x=2),
                                  lambda: Point(1, z=3)])
def test_a_wrong_call_is_a_type_error(make: object) -> None:
    with pytest.raises(TypeError):
        make()  # type: ignore[operator]


def test_equality_repr_and_hash_follow_the_fields() -> None:
    assert Span(1, 2) == Span(1, 2) and Span(1, 2) != Span(1, 3) and Span(1, 2) != (1, 2)
    assert repr(Span(3, 7)) == "Span(first=3, last=7)"
    assert str(Span(3, 7)) == "3-7"  # its own __str__ kept
    assert len({Span(1, 2), Span(1, 2), Limits(), Limits()}) == 2
    with pytest.raises(TypeError):
        hash(Tally())  # mutable: unhashable, as a dataclass(eq=True)


def test_frozen_types_refuse_assignment_as_dataclasses_do() -> None:
    span = Span(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        span.first = 5  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        del span.last
    outcome = Outcome()
    outcome.done = "pages 1-5"  # mutable ones stay mutable
    assert outcome.done == "pages 1-5"


def test_dataclasses_functions_work_on_them() -> None:
    limits = Limits(max_chars=10)
    assert dataclasses.is_dataclass(limits) and dataclasses.is_dataclass(Limits)
    assert [f.name for f in dataclasses.fields(Span)] == ["first", "last"]
    assert dataclasses.replace(limits, max_rows=3) == Limits(max_chars=10, max_rows=3)
    assert dataclasses.fields(Tally)[1].default_factory is list
    listing = Listing(format="zip", entries=[Entry("a.txt", 3, 2, None)])
    assert dataclasses.asdict(listing)["entries"][0]["name"] == "a.txt"
    assert as_dict(listing) == dataclasses.asdict(listing)
    assert replace(Request(), fmt="tsv").fmt == "tsv"


def test_results_as_dicts_keep_every_field() -> None:
    info = InfoResult(path="a", kind="text", mime="text/plain", bytes=1, symlink_target=None, mislabelled=None,
                      encrypted=False, est_tokens=1, est_tokens_estimated=False, fields={"lines": 1}, warnings=(),
                      next=("boundread extract a",))
    assert as_dict(info) == dataclasses.asdict(info)
    extracted = ExtractResult(path="a", kind="text", bytes=1, output=None, chars=1, lines=1, est_tokens=1,
                              truncated=False, truncated_reasons=(), done="", totals={}, warnings=(), next=())
    assert list(as_dict(extracted)) == [f.name for f in dataclasses.fields(ExtractResult)]


def test_they_pickle_and_copy() -> None:
    entry = Entry("b.txt", 10, 4, "2026-01-01T00:00:00", warnings=("nested archive",))
    assert pickle.loads(pickle.dumps(entry)) == entry
    assert copy.deepcopy(Tally(2, [1])) == Tally(2, [1])
    assert copy.copy(Limits()) == Limits()


def test_match_by_position() -> None:
    match Span(2, 9):
        case Span(first, last):
            assert (first, last) == (2, 9)


def test_loading_them_imports_neither_dataclasses_nor_typing() -> None:
    probe = ("import sys\nimport boundread.contract.model, boundread.limits, boundread.core.naming, "
             "boundread.core.fit\nprint(' '.join(sorted({'dataclasses', 'typing', 'inspect'} & set(sys.modules))))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.split() == []
