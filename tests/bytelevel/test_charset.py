"""boundread.bytelevel.charset: any bytes get an encoding that decodes them (never an exception), and the
order of the evidence holds: the user's choice, then a BOM, then a declaration the bytes agree with."""

from __future__ import annotations

import codecs

from hypothesis import given, settings
from hypothesis import strategies as st

from boundread.bytelevel import charset

SNIFFED = st.sampled_from(["utf-8", "latin-1", "cp1252", "cp932", "utf-16-le", "utf-32-be", "", "bogus-name"])


@settings(max_examples=300, deadline=None, derandomize=True)
@given(data=st.binary(max_size=600), sniffed=SNIFFED, complete=st.booleans())
def test_any_bytes_get_an_encoding_that_decodes_them(data: bytes, sniffed: str, complete: bool) -> None:
    choice = charset.decide(data, sniffed, complete=complete)
    codecs.lookup(choice.encoding)
    data.decode(choice.encoding, errors="replace")
    assert all(isinstance(w, str) and w for w in choice.warnings())
    assert choice.guessed == (choice.how in ("detected", "sniffed"))


@settings(max_examples=100, deadline=None, derandomize=True)
@given(text=st.text(max_size=200))
def test_utf8_text_is_utf8_and_never_a_guess(text: str) -> None:
    choice = charset.decide(text.encode(), "utf-8", complete=True)
    if not text.encode().startswith(codecs.BOM_UTF8):
        assert (choice.encoding, choice.guessed) == ("utf-8", False) or choice.how == "declared"


def test_the_order_of_the_evidence() -> None:
    body = "<?xml version='1.0' encoding='koi8-r'?><a>Привет мир, это проверка</a>".encode("koi8-r")
    assert charset.decide(body, "latin-1").how == "declared"
    assert charset.decide(codecs.BOM_UTF16_LE + "x".encode("utf-16-le"), "utf-8").how == "bom"
    assert charset.decide(body, "latin-1", "cp866").how == "--encoding"
