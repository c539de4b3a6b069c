"""The JSON scanner turns a number or a literal into the value ``json.loads`` gives, of the same type, and prints an
int as ``json.dumps`` does - its own conversions skip json's set-up per call (13 us of a chunked array's 22 us per
element), so they are held to json's on every form the grammar allows."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from boundread.formats._jsonscan import SCALAR, scalar_value
from boundread.formats.structured.jsonout import scalar

FORMS = [b"0", b"-0", b"7", b"-12", b"1.5", b"-0.0", b"1e5", b"1E+5", b"2.5e-3", b"-1.0E10", b"1e400", b"-1e400",
         b"123456789012345678901234567890", b"true", b"false", b"null"]


def _same(raw: bytes) -> None:
    assert SCALAR.fullmatch(raw), raw
    ours, theirs = scalar_value(raw), json.loads(raw)
    assert type(ours) is type(theirs) and ours == theirs, raw
    assert scalar(ours) == json.dumps(theirs)


def test_every_form_of_the_grammar_reads_as_json_reads_it() -> None:
    for raw in FORMS:
        _same(raw)


@given(st.one_of(st.integers(), st.floats(allow_nan=False, allow_infinity=False)))
def test_any_number_json_writes_reads_back_the_same(number: float) -> None:
    _same(json.dumps(number).encode())
