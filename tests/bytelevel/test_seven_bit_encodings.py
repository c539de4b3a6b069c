"""Text in 7-bit legacy encodings is decoded, not passed through as ASCII (issue 22 item 1, found by the reference
sweep): ISO-2022-JP (Japanese mail and old Unix text) and ISO-2022-KR switch into a double-byte set with escape
sequences that name it, as a BOM does; HZ wraps GB2312 in ``~{ ~}`` and is believed only with Han text inside,
said to be a guess. Terminal colour codes (ESC [, ESC ( B) and code with ``~{`` stay what they are. And BOM-less
UTF-16 of Japanese, whose U+3000 spaces are not "printable" to Python, is text, not binary."""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread import api
from boundread.bytelevel import charset, textenc

JA = "いろはにほへと　ちりぬるを　わかよたれそ。日本語の文章を書きます。東京は日本の首都です。"
ZH = "我能吞下玻璃而不伤身体。中华人民共和国是世界上人口最多的国家之一。"
KO = "다람쥐 헌 쳇바퀴에 타고파. 키스의 고유조건은 입술끼리 만나야 하고"


def _text(path: Path) -> tuple[str, list[str]]:
    result = api.extract(path, stdout=True)
    return result.text or "", list(result.warnings)


@pytest.mark.parametrize(("text", "codec", "picked"), [
    (JA, "iso2022_jp", "iso2022_jp"), (JA + " ①②", "iso2022_jp_2004", "iso2022_jp_2004"),
    (KO, "iso2022_kr", "iso2022_kr"),
])
def test_iso2022_text_is_read_in_the_set_its_escapes_name(tmp_path: Path, text: str, codec: str,
                                                           picked: str) -> None:
    data = "".join(f"{n} {text}\n" for n in range(20)).encode(codec)
    assert data.isascii()
    choice = charset.decide(data, textenc.guess_encoding(data), complete=True)
    assert (choice.encoding, choice.how, choice.warnings()) == (picked, "escapes", [])
    path = tmp_path / "mail.txt"
    path.write_bytes(data)
    got, warnings = _text(path)
    assert text in got and not warnings


def test_hz_is_read_and_said_to_be_a_guess(tmp_path: Path) -> None:
    data = "".join(f"{n} {ZH}\n" for n in range(20)).encode("hz")
    path = tmp_path / "hz.txt"
    path.write_bytes(data)
    got, warnings = _text(path)
    assert ZH in got
    assert warnings == ["encoding guessed: hz"]


@pytest.mark.parametrize("data", [
    b"\x1b[1;31mERROR\x1b(B\x1b[m disk full\n" * 50,  # tput's colours: ESC ( B is ASCII's own designation
    b"fn main() { let a = x.map(|v| ~{v}); } // ~} done\n" * 50,  # a tilde before a brace in code
    b"plain ascii text with a stray \x1b$B that is not ISO-2022 at all \x80\n",  # not 7-bit
])
def test_ascii_with_escapes_or_tildes_stays_what_it_is(data: bytes) -> None:
    choice = charset.decide(data, textenc.guess_encoding(data), complete=True)
    assert not choice.encoding.startswith(("iso2022", "hz")), choice


def test_bomless_utf16_of_japanese_with_ideographic_spaces_is_text(tmp_path: Path) -> None:
    data = "".join(f"{JA}\n" for _ in range(20)).encode("utf-16-be")
    assert textenc.guess_encoding(data[:8192]) == "utf-16-be"
    path = tmp_path / "ja16.txt"
    path.write_bytes(data)
    got, warnings = _text(path)
    assert JA in got and warnings == ["encoding guessed: utf-16-be (no BOM: from where its zero bytes fall)"]
