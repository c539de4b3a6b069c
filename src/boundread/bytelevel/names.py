"""Archive member names that carry no encoding: guess the code page, as ``unzip -O`` and 7-Zip let you say.

A zip name without the UTF-8 flag (bit 11) and without an Info-ZIP Unicode Path field (0x7075) is in
the code page of the machine that made it: cp437 by the specification, but in practice cp936 (GBK)
in China, cp950 (Big5) in Taiwan and Hong Kong, cp932 (Shift-JIS) in Japan, cp949 in Korea, cp866 or cp1251
in Russia. Tar headers hold
raw bytes the same way. The rule, one code page per archive:

1. A name that decodes as strict UTF-8 into letters of common scripts is UTF-8 (many tools write
   UTF-8 without setting the flag). Standard library only: no detector is imported.
2. Otherwise chardet (imported here, on the first such name) is asked about a sample of the
   archive's legacy names joined by newlines, restricted to the candidates below; its pick is
   kept only if every name of the sample decodes strictly with it. Measured on 39 short names
   (GBK, Shift-JIS, cp949, cp866, cp1251 and cp437 ones): chardet 7.7 restricted this way 39/39,
   unrestricted 34/39; charset-normalizer 3.5 20/39 restricted, 14/39 not (it reads short GBK
   names as cp949 or big5). Big5 joined the candidates after the reference sweep found Taiwanese names read
   as GBK with private-use characters: with it, 23/23 short GBK, Big5, Shift-JIS and cp949 names one by
   one, and each set joined, are named right. Western names are cp437 or cp1252, whichever reads more of their bytes as
   Latin letters (a cp1252 "café" read as cp437 is "cafΘ"); on a tie the detector's pick between the two,
   then the archive's own default: cp437 in a zip (its specification's), cp1252 in a tar (Unix tools never
   wrote cp437).
3. A name that does not decode with the archive's pick gets its own guess; cp437, which decodes
   any bytes, is the last resort.

Nothing is imported at module level: the guard-check hot path imports :mod:`.zipdir`, which uses this.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

#: What the detector may answer, in the order a tie would be broken.
CANDIDATES = ("gb18030", "big5", "cp932", "cp949", "cp866", "cp1251", "cp437", "cp1252")
#: The detector's names (after ``codecs.lookup``) -> the codec we decode with.
_CODEC = {"gb18030": "gbk", "gbk": "gbk", "gb2312": "gbk", "cp932": "cp932", "shift_jis": "cp932",
          "cp949": "cp949", "euc_kr": "cp949", "cp866": "cp866", "cp1251": "cp1251", "big5": "cp950",
          "cp950": "cp950", "big5hkscs": "cp950"}
#: Names of the sample handed to the detector (the first legacy names of the directory), and its bytes.
SAMPLE_NAMES, SAMPLE_BYTES = 64, 4096
#: The block starts of scripts a file name is plausibly written in (strict UTF-8 is believed in them).
_PLAUSIBLE = (
    (0x00A0, 0x058F),  # Latin-1, Latin extended, IPA, Greek, Cyrillic, Armenian
    (0x0590, 0x06FF),  # Hebrew, Arabic
    (0x0900, 0x0E7F),  # Indic scripts, Thai
    (0x1E00, 0x206F),  # Latin extended additional, Greek extended, punctuation
    (0x20A0, 0x20CF),  # currency
    (0x2100, 0x218F),  # letterlike, number forms
    (0x3000, 0x30FF),  # CJK punctuation, kana
    (0x3400, 0x9FFF),  # CJK ideographs
    (0xAC00, 0xD7AF),  # Hangul
    (0xFF00, 0xFFEF),  # full-width forms
    (0x1F300, 0x1FAFF),  # emoji
)


def plausible_utf8(raw: bytes) -> str | None:
    """``raw`` as UTF-8 when it decodes strictly into common scripts, else None."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if any(ch >= "\x80" and not _common(ord(ch)) for ch in text):
        return None
    return text


def _common(code: int) -> bool:
    """A code point in one of the scripts a file name is plausibly written in."""
    return any(lo <= code <= hi for lo, hi in _PLAUSIBLE)


#: The label of a name shown as UTF-8 with the bytes that are not UTF-8 escaped.
ESCAPED = "utf-8, invalid bytes as \\xNN"


def mostly_utf8(raw: bytes) -> bool:
    """``raw`` is UTF-8 with a few bad bytes (a name cut or patched by a tool), not a legacy code page: it
    does not decode strictly, and two thirds or more of its non-ASCII bytes form characters of common
    scripts (a legacy name pairs up so only by chance: cp866 "Привет" has one 3-byte sequence, U+0A22, in
    its 6 bytes, and cp866 "список" is all valid UTF-8, of rare scripts)."""
    text = raw.decode("utf-8", "surrogateescape")
    high = sum(1 for byte in raw if byte >= 0x80)
    good = sum(len(ch.encode()) for ch in text if ch >= "\x80" and _common(ord(ch)))
    return good < high and good * 3 >= high * 2


def escaped_utf8(raw: bytes) -> str:
    """``raw`` as UTF-8, each byte that is not part of a valid character shown as ``\\xNN``."""
    return raw.decode("utf-8", "backslashreplace")


def _decodes(raw: bytes, codec: str) -> bool:
    try:
        raw.decode(codec)
    except UnicodeDecodeError:
        return False
    return True


def guess(sample: list[bytes], western: str = "cp437") -> str:
    """The code page of legacy names ``sample`` (a codec name: gbk, cp950, cp932, cp949, cp866, cp1251, or for Western
    names cp437 or cp1252, ``western`` when nothing tells them apart)."""
    import codecs

    import chardet

    joined = b"\n".join(sample)[:SAMPLE_BYTES]
    found = chardet.detect(joined, include_encodings=CANDIDATES)["encoding"]
    named = codecs.lookup(found).name if found else ""
    codec = _CODEC.get(named) or _western(sample, named, western)
    if codec == "gbk" and not all(_decodes(raw, "gbk") for raw in sample):
        codec = "gb18030"
    if codec == "cp950" and not all(_decodes(raw, "cp950") for raw in sample):
        codec = "big5hkscs"  # Hong Kong's characters, outside Windows' Big5
    return codec


_WESTERN = {"cp437": "cp437", "cp1252": "cp1252", "latin-1": "cp1252", "iso8859-1": "cp1252"}


def _western(sample: list[bytes], named: str, default: str) -> str:
    """cp437 or cp1252 for Western names: the one that reads more of their bytes as Latin letters (cp1252 "café"
    is "cafΘ" in cp437, cp437 "Résumé" is "R‚sum‚" in cp1252); on a tie the detector's pick, then ``default``.
    cp1252 leaves five bytes unassigned: names that hold one are cp437's."""
    if not all(_decodes(raw, "cp1252") for raw in sample):
        return "cp437"
    scores = {codec: sum(_latin_letter(ch) for raw in sample for ch in raw.decode(codec) if ch >= "\x80")
              for codec in ("cp437", "cp1252")}
    if scores["cp437"] != scores["cp1252"]:
        return max(scores, key=scores.__getitem__)
    return _WESTERN.get(named, default)


def _latin_letter(ch: str) -> bool:
    return ch.isalpha() and ("\u00c0" <= ch <= "\u024f")


def label(codec: str) -> str:
    """How a codec is named to the user (GBK is Windows' cp936; cp950 is Windows' Big5, said as it is)."""
    return "cp936" if codec == "gbk" else codec


class Decoder:
    """Decodes one archive's legacy names with one guessed code page (per archive, never global).

    The code page is guessed once, at the first name that needs it, from a sample of names.
    """

    __slots__ = ("codec", "western")

    def __init__(self, western: str = "cp437") -> None:
        self.codec: str | None = None
        self.western = western  # what a Western guess means in this kind of archive

    def decode(self, raw: bytes, sample: Callable[[bytes, int], list[bytes]] | None = None,
               buf: bytes = b"", at: int = 0) -> tuple[str, str]:
        """(name, encoding label) for a non-ASCII name that carries no encoding; ``sample(buf, at)``
        gives the names to guess the archive's code page from, the first time one is needed."""
        text = plausible_utf8(raw)
        if text is not None:
            return text, "utf-8"
        if self.codec is None:
            self.codec = guess((sample(buf, at) if sample is not None else []) or [raw], self.western)
        codec = self.codec
        if not _decodes(raw, codec):
            codec = guess([raw], self.western)
        return raw.decode(codec, "replace"), label(codec)
