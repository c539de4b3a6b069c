"""Text in legacy encodings is decoded right, or the output says the encoding is a guess (issue 22, item 1).

Files are generated here: the same sentences encoded in KOI8-R, Windows-1251, ISO-8859-7, GB2312, Shift-JIS
(CR-only line ends), UTF-16/32 with and without a BOM; declared encodings (XML prolog, HTML meta, a coding
line); and every kind of line end. Each is read through the CLI (info, extract, --lines, --tail, --grep).
"""

from __future__ import annotations

import json
from pathlib import Path
from unittest import mock

import pytest
from tests.helpers import run

from boundread.bytelevel import charset
from boundread.bytelevel.sniff import sniff_bytes

RU = "Съешь же ещё этих мягких французских булок, да выпей чаю. Широкая электрификация южных губерний."
EL = "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. Το ελληνικό αλφάβητο χρησιμοποιείται για τη γραφή της γλώσσας."
ZH = "我能吞下玻璃而不伤身体。中华人民共和国是世界上人口最多的国家之一，首都是北京。"
JA = "いろはにほへと　ちりぬるを　わかよたれそ　つねならむ。日本語の文章を書きます。東京は日本の首都です。"

#: (text, how it is encoded, the line end, the codec boundread must pick, whether that is a guess)
LEGACY = {
    "koi8-r": (RU, "koi8-r", "\n", "koi8-r"),
    "windows-1251": (RU, "cp1251", "\r\n", "cp1251"),
    "iso-8859-7": (EL, "iso-8859-7", "\n", "iso8859-7"),
    "gb2312": (ZH, "gb2312", "\n", "gb18030"),
    "shift-jis-cr": (JA, "shift_jis", "\r", "cp932"),
}
UNICODE = {
    "utf-16-bom": ("utf-16", "utf-16", False),
    "utf-32-bom": ("utf-32", "utf-32", False),
    "utf-16-le": ("utf-16-le", "utf-16-le", True),
    "utf-16-be": ("utf-16-be", "utf-16-be", True),
    "utf-32-le": ("utf-32-le", "utf-32-le", True),
    "utf-32-be": ("utf-32-be", "utf-32-be", True),
}


def _lines(text: str, n: int = 30) -> list[str]:
    return [f"{i} {text}" for i in range(1, n + 1)]


def _info(path: Path) -> dict[str, object]:
    result = run("info", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def _extract(path: Path, *args: str) -> tuple[str, list[str]]:
    result = run("extract", str(path), "--stdout", *args, "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    return data["text"], data["warnings"]


@pytest.mark.parametrize("case", sorted(LEGACY))
def test_a_legacy_encoding_is_detected_and_the_guess_is_said(tmp_path: Path, case: str) -> None:
    text, encoding, end, codec = LEGACY[case]
    lines = _lines(text)
    path = tmp_path / f"{case}.txt"
    path.write_bytes(end.join(lines).encode(encoding) + end.encode())
    info = _info(path)
    assert info["fields"]["encoding"] == codec
    assert info["fields"]["lines"] == 30  # CR-only, CRLF and LF ends are all lines
    assert any(w.startswith(f"encoding guessed: {codec} (confidence 0.") for w in info["warnings"])
    out, warnings = _extract(path)
    assert out.splitlines() == lines
    assert "\ufffd" not in out
    assert f"encoding guessed: {codec}" in " ".join(warnings)
    assert _extract(path, "--lines", "29-30")[0].splitlines() == [f"29 {text}", f"30 {text}"]
    assert _extract(path, "--tail", "2")[0].splitlines() == [f"29 {text}", f"30 {text}"]
    needle = text[5:9]
    found = _extract(path, "--grep", f"^1[0-2] .*{needle}")[0]
    assert [line.split(":", 1)[-1].lstrip() for line in found.splitlines()] == [f"{i} {text}" for i in (10, 11, 12)]


@pytest.mark.parametrize("case", sorted(UNICODE))
def test_utf16_and_utf32_are_read_with_or_without_a_bom(tmp_path: Path, case: str) -> None:
    encoding, codec, guessed = UNICODE[case]
    lines = _lines(RU, 20)
    path = tmp_path / f"{case}.txt"
    path.write_bytes("\n".join(lines).encode(encoding))
    info = _info(path)
    assert info["kind"] == "text"  # not "binary": BOM-less UTF-32 was called binary before
    assert info["fields"]["encoding"] == codec
    assert info["fields"]["lines"] == 20
    assert any(w.startswith(f"encoding guessed: {codec}") for w in info["warnings"]) is guessed
    out, _ = _extract(path)
    assert out.splitlines() == lines
    assert _extract(path, "--tail", "1")[0].splitlines() == [f"20 {RU}"]


def test_bomless_utf16_of_a_script_without_ascii_zeros_is_still_text() -> None:
    """Cyrillic in UTF-16-LE has zero bytes only at its spaces: the sniff decodes, not counts zeros."""
    data = (RU + "\n").encode("utf-16-le") * 40
    assert sniff_bytes(data[:8192]).encoding == "utf-16-le"
    assert sniff_bytes(bytes(range(256)) * 32).kind == "binary"


@pytest.mark.parametrize(("name", "head", "declared"), [
    ("doc.xml", '<?xml version="1.0" encoding="windows-1251"?>\n<doc>', "cp1251"),
    ("page.html", '<html><head><meta charset="koi8-r"><title>t</title></head><body>', "koi8-r"),
    ("page2.html", '<html><head><meta http-equiv="Content-Type" content="text/html; charset=windows-1251">',
     "cp1251"),
    ("script.py", "#!/usr/bin/env python\n# -*- coding: koi8-r -*-\n", "koi8-r"),
    ("notes.el", ";; -*- mode: text; coding: cp1251 -*-\n", "cp1251"),
])
def test_a_declared_encoding_is_used_without_a_guess(tmp_path: Path, name: str, head: str, declared: str) -> None:
    path = tmp_path / name
    body = "\n".join(_lines(RU, 5)) + "\n"
    path.write_bytes((head + body).encode(declared))
    info = _info(path)
    assert (info["fields"]["encoding"], info["fields"]["encoding_from"]) == (declared, "declared")
    assert not any("encoding" in w for w in info["warnings"])
    out, warnings = _extract(path)
    assert f"30 {RU}" not in out and f"5 {RU}" in out
    assert not any("encoding" in w for w in warnings)


def test_a_declaration_the_bytes_contradict_is_not_trusted(tmp_path: Path) -> None:
    utf8 = tmp_path / "mislabelled.html"  # declares Latin-1, is UTF-8: read as UTF-8, and said so
    utf8.write_bytes(('<meta charset="iso-8859-1">\n' + RU + "\n").encode("utf-8"))
    out, warnings = _extract(utf8)
    assert RU in out
    assert any("declares cp1252, but its bytes are UTF-8" in w for w in warnings)
    wrong = tmp_path / "wrong.xml"  # declares UTF-8, is cp1251: the detector decides, and says it guessed
    body = "\n".join(_lines(RU))
    wrong.write_bytes(('<?xml version="1.0" encoding="utf-8"?>\n<d>' + body + "</d>\n").encode("cp1251"))
    out, warnings = _extract(wrong)
    assert RU in out
    assert any("declares utf-8, but its bytes are not utf-8" in w for w in warnings)
    assert any(w.startswith("encoding guessed: cp1251") for w in warnings)


def test_utf8_and_ascii_never_call_the_detector(tmp_path: Path) -> None:
    path = tmp_path / "plain.log"
    path.write_bytes(("".join(f"{i} ok é ✓\n" for i in range(2000))).encode())
    with mock.patch.object(charset, "_detect", side_effect=AssertionError("detector called")):
        info = _info(path)
        out, warnings = _extract(path, "--grep", "1999 ok")
    assert (info["fields"]["encoding"], info["fields"]["encoding_from"]) == ("utf-8", "utf-8")
    assert "1999 ok é ✓" in out
    assert not any("encoding" in w for w in warnings)


def test_mixed_line_ends_are_lines_everywhere(tmp_path: Path) -> None:
    path = tmp_path / "mixed.txt"
    path.write_bytes(b"one\r\ntwo\rthree\nfour\r\rsix")
    assert _info(path)["fields"]["lines"] == 6
    assert _extract(path)[0].splitlines() == ["one", "two", "three", "four", "", "six"]
    assert _extract(path, "--lines", "2-3")[0].splitlines() == ["two", "three"]
    assert _extract(path, "--tail", "3")[0].splitlines() == ["four", "", "six"]
    grep = _extract(path, "--grep", "^t")[0]
    assert "two" in grep and "three" in grep and "one" not in grep


def test_the_users_encoding_overrides_every_other_source() -> None:
    data = ('<?xml version="1.0" encoding="koi8-r"?>\n' + RU).encode("koi8-r")
    assert charset.decide(data, "latin-1").encoding == "koi8-r"
    chosen = charset.decide(data, "latin-1", "cp866")
    assert (chosen.encoding, chosen.how, chosen.warnings()) == ("cp866", "--encoding", [])
    assert charset.decide(b"\xef\xbb\xbf" + data, "utf-8", "latin-1").encoding == "iso8859-1"  # over a BOM too


def test_the_sample_is_bounded_whatever_the_file(tmp_path: Path) -> None:
    """The detector sees at most SAMPLE_BYTES, read once from the start, however big the file."""
    path = tmp_path / "big.txt"
    path.write_bytes(("\n".join(_lines(RU, 4000)) + "\n").encode("koi8-r"))
    assert path.stat().st_size > 4 * charset.SAMPLE_BYTES
    seen: list[int] = []
    real = charset._detect

    def spy(sample: bytes) -> tuple[str | None, float | None]:
        seen.append(len(sample))
        return real(sample)

    with mock.patch.object(charset, "_detect", spy):
        out, _ = _extract(path, "--tail", "1")
    assert out.strip() == f"4000 {RU}"
    assert seen == [charset.SAMPLE_BYTES]


def test_compressed_text_gets_the_same_decision(tmp_path: Path) -> None:
    """A .gz of a legacy-encoded file with CR-only ends: decoded, guessed aloud, one line per CR."""
    import gzip

    text, encoding, end, codec = LEGACY["shift-jis-cr"]
    lines = _lines(text)
    path = tmp_path / "notes.txt.gz"
    path.write_bytes(gzip.compress(end.join(lines).encode(encoding)))
    out, warnings = _extract(path)
    assert out.splitlines() == lines
    assert any(w.startswith(f"encoding guessed: {codec}") for w in warnings)


def test_a_western_file_with_one_accented_byte_keeps_its_letter(tmp_path: Path) -> None:
    """One 0xD5 in a Latin-1 CSV: too little for a detector (ISO-8859-3 at 0.02, which reads it as Ġ); the byte
    pattern's Western reading stands, and the output says it is a guess."""
    path = tmp_path / "uspop.csv"
    rows = ["City,State,Population", *(f"Town{i},AL,{i}" for i in range(50)), "Õakman,AL,"]
    path.write_bytes("\n".join(rows).encode("latin-1") + b"\n")
    out, warnings = _extract(path)
    assert "Õakman,AL," in out
    assert any(w.startswith("encoding guessed: ") and "not sure" in w for w in warnings)


def test_utf8_with_a_stray_byte_stays_utf8_and_says_so(tmp_path: Path) -> None:
    """A code page would garble every character of a UTF-8 file that has one broken byte: it stays UTF-8."""
    path = tmp_path / "cut.txt"
    body = "\n".join(_lines(RU)).encode()
    path.write_bytes(body[:700] + b"\xff" + body[700:])
    out, warnings = _extract(path)
    assert out.count(RU) == 29 and out.count("\ufffd") == 1
    assert any("1 byte(s) of the first" in w and "not valid UTF-8" in w for w in warnings)
    assert not any(w.startswith("encoding guessed") for w in warnings)


@pytest.mark.parametrize(("text", "encoding", "codec"), [
    ("Zażółć gęślą jaźń, pchnąć w tę łódź jeża.", "cp1250", "cp1250"),
    ("Pijamalı hasta yağız şoföre çabucak güvendi.", "cp1254", "cp1254"),
    ("مرحبا بالعالم، هذا نص قصير باللغة العربية.", "cp1256", "cp1256"),
    ("Įlinkdama fechtuotojo špaga sublykčiojusi pragręžė apvalų arbūzą", "cp1257", "cp1257"),
    ("Ça va très bien, déjà vu, ñandú año español", "cp1252", "cp1252"),  # chardet's top: ISO-8859-4
])
def test_one_sentence_is_enough_for_the_detector(tmp_path: Path, text: str, encoding: str, codec: str) -> None:
    path = tmp_path / "short.txt"
    path.write_bytes(text.encode(encoding) + b"\n")
    out, warnings = _extract(path)
    assert out.strip() == text
    assert any(w.startswith(f"encoding guessed: {codec} (confidence 0.") for w in warnings)


def test_a_legacy_byte_after_an_ascii_head_is_read_as_western_not_replaced(tmp_path: Path) -> None:
    """The 8 KiB sniff saw ASCII (so "utf-8"); the 64 KB sample shows a Latin-1 byte: cp1252, said aloud."""
    path = tmp_path / "late.log"
    path.write_bytes(b"plain ascii line\n" * 1000 + "café crème\n".encode("latin-1"))
    out, warnings = _extract(path, "--tail", "1")
    assert out.strip() == "café crème"
    assert any(w.startswith("encoding guessed: cp1252") for w in warnings)
