"""Which encoding a text file is read in, decided once per file from a bounded sample, and how sure that is.

The text handler (formats/text) and compressed single files (formats/archives/single.py) both ask here.

The order (issue 22): the user's choice wins; then what the file declares (a BOM, an XML prolog's
``encoding=``, an HTML ``<meta charset>``, a Python/Emacs ``-*- coding: X -*-`` line) when its bytes agree;
then, for 7-bit text, ISO-2022's escape sequences (Japanese mail, ``ESC $ B``) or HZ's ``~{ ~}``; then
UTF-8 when the sample is valid UTF-8 (ASCII included: no detector, so the grep of a UTF-8 log pays nothing);
then a detector (chardet, already a dependency for archive names) on the first ``SAMPLE_BYTES``
of the file. A detector's pick is a guess, and the output says so, with its confidence.

The sample is bounded by construction: one read of ``SAMPLE_BYTES`` from the start, whatever the file's
size. Measured with chardet 7.7 on 64 KB samples (KOI8-R, cp1251, cp866, ISO-8859-7, GB2312, Shift-JIS,
EUC-JP, cp1252) on a shared 2-core machine: 5-20 ms a sample, plus 50-190 ms to import chardet and 70-370 ms
for its first call (it loads its models) - paid once per command, and only by text that is not UTF-8, ASCII,
BOM-marked or declared (``boundread info`` of a 110 KB cp1251 file: 584 ms against 309 ms for its UTF-8 twin,
best of 7).
"""

from __future__ import annotations

import codecs
import re

from boundread.record import Record

SAMPLE_BYTES = 64 * 1024
#: The detector is asked only when the sample holds this many non-ASCII bytes, and believed only above this
#: confidence: one byte 0xD5 in a Latin-1 CSV ("Õakman") gets ISO-8859-3 at 0.02 ("Ġakman"). chardet 7.7's
#: confidence is low even when it is right (one sentence: Polish cp1250 0.065, German cp1252 0.079,
#: Turkish 0.15, Russian 0.16-0.36, Greek 0.30, Arabic 0.48, Korean 0.59, Shift-JIS 0.91 - all right).
MIN_EVIDENCE = 4
MIN_CONFIDENCE = 0.03
WESTERN_MARGIN = 0.6
_WESTERN = frozenset({"cp1252", "iso8859-1", "latin-1", "iso8859-15"})
#: Where a declaration is looked for: the XML prolog and HTML ``<meta>`` come first (HTML says 1,024 bytes).
HEAD_BYTES = 4096
_BOMS = ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))
# Patterns, compiled (and cached by re) only for a head that holds their literal word: ~0.8 ms of start-up otherwise
_XML = rb"""^\s*<\?xml[^>]*?\bencoding\s*=\s*["']([-\w.:]+)["']"""
_META = rb"""<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([-\w.:]+)"""  # re.IGNORECASE
#: PEP 263 (a comment line), Emacs (``-*- coding: X -*-``) and Vim (``fileencoding=X``), in the first two lines
_CODING = (rb"^[ \t\f]*(?:#|//|;|--|%|/\*).*?"
           rb"(?:-\*-.*?\bcoding:|\bcoding[:=]|fileencoding=)[ \t]*([-\w.]+)")
#: Labels that HTML reads as windows-1252 (the WHATWG Encoding Standard), where Latin-1 would lose 0x80-0x9F.
_HTML_LATIN1 = frozenset({"latin-1", "iso8859-1", "ascii"})


class Choice(Record, frozen=True):
    """The encoding to decode with; ``how`` says where it came from (declared, bom, --encoding, utf-8,
    escapes - ISO-2022's own designations -, detected, sniffed); ``confidence`` is the detector's (None when
    nothing was guessed)."""

    encoding: str
    how: str
    confidence: float | None = None
    note: str = ""

    @property
    def guessed(self) -> bool:
        return self.how in ("detected", "sniffed")

    def warnings(self) -> list[str]:
        """What the output must say about the encoding: a guess and how sure, or a declaration not kept."""
        out = [self.note] if self.note else []
        if self.how == "detected":
            sure = "" if self.confidence is None else f" (confidence {self.confidence:.2f})"
            out.append(f"encoding guessed: {self.encoding}{sure}")
        elif self.how == "sniffed":
            why = ("no BOM: from where its zero bytes fall" if self.encoding.startswith(("utf-16", "utf-32"))
                   else "from the byte pattern: the detector was not sure, or had too few non-ASCII bytes")
            out.append(f"encoding guessed: {self.encoding} ({why})")
        return out


def decide(sample: bytes, sniffed: str, override: str | None = None, *, complete: bool = False) -> Choice:
    """The encoding for a file whose first bytes are ``sample`` (all of it when ``complete``); ``sniffed``
    is the byte-pattern sniff's answer for its first 8 KiB."""
    if override:
        return Choice(_name(override) or override, "--encoding")
    for bom, name in _BOMS:
        if sample.startswith(bom):
            return Choice(name, "bom")
    note = ""
    declared = _declared(sample[:HEAD_BYTES])
    if declared:
        if declared != "utf-8" and not sample.isascii() and _decodes(sample, "utf-8", complete):
            # valid UTF-8 with non-ASCII by chance in a legacy code page is all but impossible: a mislabel
            note = f"the file declares {declared}, but its bytes are UTF-8: read as UTF-8"
            return Choice("utf-8", "utf-8", note=note)
        if _decodes(sample, declared, complete):
            return Choice(declared, "declared")
        note = f"the file declares {declared}, but its bytes are not {declared}: not used"
    sniffed_name = _name(sniffed) or "utf-8"
    if sample.isascii() and (escaped := _seven_bit(sample, complete)) is not None:
        return Choice(escaped[0], escaped[1], note=note)
    if sniffed_name == "utf-8" and _decodes(sample, "utf-8", complete):
        return Choice("utf-8", "utf-8", note=note)
    if sniffed_name in ("utf-16", "utf-32") or sniffed_name.startswith(("utf-16-", "utf-32-")):
        return Choice(sniffed, "sniffed", note=note)  # BOM-less UTF-16/32: the zero bytes' pattern
    if sample.isascii() or _decodes(sample, "utf-8", complete):
        return Choice("utf-8", "utf-8", note=note)
    bad = _mostly_utf8(sample)
    if bad:  # UTF-8 with a few broken bytes (a cut, a stray byte): a code page would garble every character
        flaw = f"{bad:,} byte(s) of the first {len(sample):,} are not valid UTF-8: shown as U+FFFD"
        return Choice("utf-8", "utf-8", note="; ".join(filter(None, (note, flaw))))
    enough = sum(1 for byte in sample if byte >= 0x80) >= MIN_EVIDENCE
    found, confidence = _detect(sample) if enough else (None, None)
    if found and found != "latin-1" and (confidence or 0) >= MIN_CONFIDENCE and _decodes(sample, found, complete):
        return Choice(found, "detected", confidence, note)
    if sniffed_name == "utf-8" or not sniffed or found == "latin-1":  # not UTF-8: a Western reading
        sniffed = "cp1252" if _decodes(sample, "cp1252", complete) else _western_page(sample)
    return Choice(sniffed, "sniffed", note=note)


#: The Western pages tried when cp1252 cannot read a sample, best first on a tie: DOS's (Western Europe's, then
#: the US original) and the classic Mac's, before Latin-1, which reads any byte but turns theirs into C1 controls.
_NOT_CP1252 = ("cp850", "cp437", "mac-roman", "latin-1")


def _western_page(sample: bytes) -> str:
    """The Western page that reads ``sample`` (which cp1252 cannot: it holds one of 0x81 0x8D 0x8F 0x90 0x9D) as
    the most lower-case letters, each C1 control counting against it. Accented letters in running text are
    lower case; the wrong page turns them into capitals, symbols or controls: German DOS text ("Größe", 0x94 0xE1
    in cp850) is controls in Latin-1, which the detector picks at 0.07 ("Gr\\x94\\xe1e"), and Latin-1's "café" is
    "cafÚ" in cp850."""
    def score(codec: str) -> int:
        text = sample.decode(codec, "replace")
        return sum(1 for ch in text if ch >= "\x80" and ch.islower()) - 2 * sum(
            1 for ch in text if "\x80" <= ch <= "\x9f")

    return max(_NOT_CP1252, key=score)  # max keeps the first of equals: the order above breaks ties


#: The designations that switch ISO-2022 text into a double-byte set (a terminal's ESC ( B, which colour codes
#: carry, is not one of them): the text names its own encoding, as a BOM does.
_ISO2022 = ((b"\x1b$)C", ("iso2022_kr",)),
            (b"\x1b$B", ("iso2022_jp", "iso2022_jp_2", "iso2022_jp_2004")),
            (b"\x1b$@", ("iso2022_jp", "iso2022_jp_2")), (b"\x1b$(D", ("iso2022_jp_2", "iso2022_jp_1")),
            (b"\x1b$(Q", ("iso2022_jp_2004",)), (b"\x1b$(O", ("iso2022_jp_2004", "iso2022_jp_3")),
            (b"\x1b$A", ("iso2022_jp_2",)))
#: HZ (RFC 1843) wraps GB2312 in ``~{`` ... ``~}`` in 7-bit text; ``~{`` also occurs in code, so HZ is believed
#: only when the wrapped text decodes into this many Han characters, and it is said to be a guess.
HZ_MIN_HAN = 4


def _seven_bit(sample: bytes, complete: bool) -> tuple[str, str] | None:
    """(codec, how) for 7-bit text in an ISO-2022 encoding (its escape sequences: "escapes") or HZ (a guess:
    "detected"), which an ASCII check alone reads as ASCII with ESC bytes and ``$B`` pairs in it; else None."""
    if b"\x1b$" in sample:
        for escape, codecs_to_try in _ISO2022:
            if escape in sample:
                for name in codecs_to_try:
                    if _decodes(sample, name, complete):
                        return name, "escapes"
    if b"~{" in sample and b"~}" in sample and _decodes(sample, "hz", complete):
        text = sample.decode("hz", "replace")
        if sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff") >= HZ_MIN_HAN:
            return "hz", "detected"
    return None


def _mostly_utf8(sample: bytes) -> int:
    """The bytes of ``sample`` that are not UTF-8, when at least two thirds of its non-ASCII bytes form
    valid multi-byte characters (0 otherwise). Legacy text pairs up into valid UTF-8 only by chance."""
    text = sample.decode("utf-8", "surrogateescape")
    bad = sum(1 for ch in text if "\udc80" <= ch <= "\udcff")
    high = sum(1 for byte in sample if byte >= 0x80)
    cut = len(sample) - len(sample.rstrip(bytes(range(0x80, 0x100))))  # a character cut at the sample's end
    bad = max(bad - min(cut, 3), 0)
    return bad if bad and (high - bad) * 3 >= high * 2 else 0


def _name(label: str) -> str | None:
    """A codec's canonical name ("windows-1251" -> "cp1251"), or None for a label Python does not know."""
    try:
        return codecs.lookup(label).name
    except LookupError:
        return None


def _declared(head: bytes) -> str | None:
    """The encoding the file's first bytes name: an XML prolog, an HTML meta, a coding line. Only names
    Python knows; none for UTF-16/32, which a declaration in ASCII cannot be."""
    found = re.match(_XML, head) if b"<?xml" in head else None
    label = found.group(1) if found else None
    html = False
    if label is None:
        first_two = b"\n".join(head.splitlines()[:2])
        if b"coding" in first_two:
            found = re.search(_CODING, first_two) or re.search(_CODING, first_two.split(b"\n", 1)[-1])
        label = found.group(1) if found else None
    if label is None and b"charset" in head.lower():
        found = re.search(_META, head[:1024] if b"<meta" in head[:1024].lower() else head, re.IGNORECASE)
        label, html = (found.group(1), True) if found else (None, False)
    if label is None:
        return None
    name = _name(label.decode("ascii", "replace"))
    if name is None or name.startswith(("utf-16", "utf-32")):
        return None
    return "cp1252" if html and name in _HTML_LATIN1 else name


def _decodes(sample: bytes, encoding: str, complete: bool) -> bool:
    """``sample`` decodes strictly in ``encoding``; a character cut at the sample's end is no fault."""
    decoder = codecs.getincrementaldecoder(encoding)(errors="strict")
    try:
        decoder.decode(sample, final=complete)
    except (UnicodeDecodeError, LookupError):
        return False
    return True


def _detect(sample: bytes) -> tuple[str | None, float | None]:
    """chardet's pick for ``sample`` as a codec name (GB2312 read as its superset GB18030, Shift-JIS as
    cp932, Windows' variants), and its confidence. The Western code page wins when chardet rates it within
    ``WESTERN_MARGIN`` of its top pick: on a sentence of Latin-script text the top pick is often an exotic
    page (German "Größe über Straße": MacIceland 0.037, cp1252 0.028; French: ISO-8859-4 0.091, cp1252
    0.058), while the Central European and Turkish pages it picks rightly rate cp1252 far lower (Polish
    0.015 of 0.065, Lithuanian 0.053 of 0.105, Turkish 0.086 of 0.146)."""
    import chardet  # imported here: only files that are not UTF-8 pay for it

    ranked = [(name, float(found.get("confidence") or 0.0)) for found in chardet.detect_all(sample)
              if found.get("encoding") and (name := _name(str(found["encoding"]))) is not None]
    if not ranked:
        return None, None
    name, confidence = ranked[0]
    western = next((conf for other, conf in ranked if other in _WESTERN), None)
    if name not in _WESTERN and western is not None and western >= WESTERN_MARGIN * confidence:
        name, confidence = "cp1252", western
    name = {"gb2312": "gb18030", "gbk": "gb18030", "shift_jis": "cp932", "euc_kr": "cp949",
            "latin-1": "cp1252", "iso8859-1": "cp1252", "iso8859-15": "cp1252"}.get(name, name)
    if name == "cp1252" and not _decodes(sample, "cp1252", False):
        name = "latin-1"
    return name, confidence
