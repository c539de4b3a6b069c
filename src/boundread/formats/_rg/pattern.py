"""A ``--grep`` pattern (Python ``re`` syntax, matched on decoded lines) as a ripgrep regex over the raw bytes.

The regex only has to flag a superset of the lines: every line it reports is decoded and matched again by the
Sink's own Python pattern, so `--grep` keeps Python's syntax and semantics whatever engine narrows the search.
Where the two engines may differ the translation widens: a character class is the set of bytes whose decoded
character Python's class matches (one byte a character in the single-byte code pages; in UTF-8 the ASCII
bytes, plus any run of 1-4 high bytes when the class can take a non-ASCII character, an undecodable byte's
U+FFFD included); ``\\b``, ``\\B``, lookarounds and ``\\A``/``\\Z`` are dropped (an assertion only ever removes
matches). A pattern with a backreference, a conditional group or a scoped flag gets no translation (None) and
the Python path searches it instead.
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing for mypy only, as in _rg/records.py; re loads with its parser, when a pattern is
if TYPE_CHECKING:  # translated (_rg/early.py takes a plain word without it)
    import re
    from typing import Any

#: Letters outside ASCII that re.IGNORECASE matches for these ASCII ones (re's case table).
_FOLDS = "\u0130\u0131\u017f\u212a"
_HIGH = "(?-u:[\\x80-\\xFF]{1,4})"  # one non-ASCII character (2-4 bytes) or the bytes one U+FFFD stands for


def sre_parser() -> Any:
    """The standard library's regex parser (``re._parser``; ``sre_parse`` before 3.11)."""
    return _module("re._parser" if sys.version_info >= (3, 11) else "sre_parse")


def _module(name: str) -> Any:
    __import__(name)  # not importlib.import_module: importlib's package is 0.5 ms more
    return sys.modules[name]


_parser = sre_parser

#: ASCII punctuation written as itself in a regex (besides letters and digits): no meaning to Python's re nor rg's
_AS_IS = " _-,:;/'\"<>=@%&!~`"


def plain(text: str) -> bool:
    """``text`` is a word of ASCII letters, digits and :data:`_AS_IS`, which :func:`translate` (without
    IGNORECASE) gives back as it is; re itself is not loaded to say so."""
    return bool(text) and text.isascii() and all(ch.isalnum() or ch in _AS_IS for ch in text)


class Untranslatable(Exception):
    """A node this module does not know how to widen safely."""


def translate(pattern: re.Pattern[str], dec: str, *, bom: bool = False) -> str | None:
    """The ripgrep regex (``--crlf``, ``-E none``) that matches at least every line ``pattern`` matches once
    the line is decoded with ``dec`` (``utf-8`` or a single-byte code page); None when it cannot be built.
    ``bom``: the file starts with a UTF-8 BOM the decoder drops, so ``^`` may also match after it."""
    sre = _parser()
    try:
        parsed = sre.parse(pattern.pattern, pattern.flags)
    except Exception:  # noqa: BLE001 - re compiled it already; a parser difference just means no translation
        return None
    flags = pattern.flags | parsed.state.flags
    writer = _Writer(sre, parsed.state, flags, dec, bom)
    try:
        return writer.seq(parsed.data)
    except Untranslatable:
        return None


class _Writer:
    def __init__(self, sre: Any, state: Any, flags: int, dec: str, bom: bool) -> None:
        self.sre, self.state, self.flags, self.dec, self.bom = sre, state, flags, dec, bom
        self.single = dec != "utf-8"
        self.table = [bytes([b]).decode(dec, "replace") for b in range(256)] if self.single else None

    def seq(self, items: Any) -> str:
        return "".join(self.node(op, av) for op, av in items)

    def node(self, op: Any, av: Any) -> str:
        sre = self.sre
        if op in (sre.LITERAL, sre.NOT_LITERAL, sre.IN, sre.ANY):
            return self.one_char(op, av)
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", sre.MAX_REPEAT)):
            low, high, sub = av
            body = self.seq(sub.data)
            bound = f"{{{low},}}" if high == sre.MAXREPEAT else f"{{{low},{high}}}"
            return f"(?:{body}){bound}" if body else ""
        if op is sre.SUBPATTERN:
            _group, added, removed, sub = av
            if added or removed:
                raise Untranslatable("scoped flags")
            return f"(?:{self.seq(sub.data)})"
        if op is getattr(sre, "ATOMIC_GROUP", None):
            return f"(?:{self.seq(av.data)})"  # greedy without the commit: more matches, never fewer
        if op is sre.BRANCH:
            return "(?:" + "|".join(self.seq(branch.data) for branch in av[1]) + ")"
        if op is sre.AT:
            if av in (sre.AT_BEGINNING, sre.AT_BEGINNING_LINE):
                return "^(?:\\x{FEFF})?" if self.bom else "^"
            if av in (sre.AT_END, sre.AT_END_LINE):
                return "\\r?$"  # before the CR of a CRLF too
            return ""  # \A \Z \b \B: dropped, an assertion only removes matches
        if op in (sre.ASSERT, sre.ASSERT_NOT):
            return ""
        raise Untranslatable(str(op))

    def one_char(self, op: Any, av: Any) -> str:
        """One character: the bytes that can stand for a character the node matches."""
        sre = self.sre
        node = sre.SubPattern(self.state, [(op, av)])
        test = _compiled(node, self.flags)
        if self.table is not None:
            hits = [b for b, ch in enumerate(self.table) if b != 0x0A and test.fullmatch(ch)]
            return _byte_class(hits)
        hits = [b for b in range(128) if b != 0x0A and test.fullmatch(chr(b))]
        if op is sre.LITERAL and av >= 0x80 and av != 0xFFFD and not self.flags & sre.SRE_FLAG_IGNORECASE:
            return f"\\x{{{av:X}}}"  # itself: ripgrep matches its UTF-8 bytes
        if self._may_be_high(op, av) or test.fullmatch("\ufffd"):
            return f"(?:{_byte_class(hits)}|{_HIGH})" if hits else _HIGH
        folds = "".join(f"\\x{{{ord(ch):X}}}" for ch in _FOLDS if test.fullmatch(ch))  # K for k, ...
        if not folds:
            return _byte_class(hits)
        return f"(?:{_byte_class(hits)}|[{folds}])" if hits else f"[{folds}]"

    def _may_be_high(self, op: Any, av: Any) -> bool:
        """Can the node match a character outside ASCII (beyond the fold letters tested one by one)?"""
        sre = self.sre
        if op is sre.LITERAL:
            return bool(av >= 0x80)
        if op in (sre.NOT_LITERAL, sre.ANY):
            return True
        for item_op, item_av in av:  # IN
            if item_op is sre.LITERAL and item_av < 0x80:
                continue
            if item_op is sre.RANGE and item_av[1] < 0x80:
                continue
            return True
        return False


def _compiled(node: Any, flags: int) -> re.Pattern[str]:
    """The parsed one-character node compiled by ``re`` itself, to ask which characters it matches."""
    compiler = _module("re._compiler" if sys.version_info >= (3, 11) else "sre_compile")
    compiled: re.Pattern[str] = compiler.compile(node, flags)
    return compiled


def _byte_class(hits: list[int]) -> str:
    """``(?-u:[...])`` of the byte values, as ranges; one ASCII byte as itself (escaped), so that ripgrep's
    literal search sees it."""
    if not hits:
        raise Untranslatable("empty class")
    if len(hits) == 1 and hits[0] < 0x80:
        ch = chr(hits[0])
        return ch if ch.isalnum() or ch in _AS_IS else f"\\x{hits[0]:02X}"
    parts: list[str] = []
    start = prev = hits[0]
    for b in [*hits[1:], -1]:
        if b == prev + 1:
            prev = b
            continue
        parts.append(f"\\x{start:02X}" if start == prev else f"\\x{start:02X}-\\x{prev:02X}")
        start = prev = b
    return "(?-u:[" + "".join(parts) + "])"
