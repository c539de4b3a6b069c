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


_ANY = f"(?:(?-u:[\\x00-\\x09\\x0B-\\x7F])|{_HIGH})"  # what translate() makes of ``.``: any character but \n
_MAX_COUNT = 65535  # a {m,n} bound above it is left to re (its own limit is far higher, rg's lower)


def quick(text: str) -> str | None:
    """What ``translate(re.compile(text), "utf-8")`` gives, for a pattern of the common kind, without loading re
    (enum and all: ~8 ms of a start-up, which cli/early.py spends before rg could start): ASCII characters, an
    escaped ASCII punctuation mark, ``.``, a class of ASCII characters and ranges, each atom quantified at most
    once (``?``, ``*``, ``+``, ``{m}``, ``{m,}``, ``{m,n}``, lazy or not). None for anything else - groups,
    alternatives, anchors, ``\\d`` and its kind, negated classes, non-ASCII - which re is needed to read.
    (tests/test_grep_engine_starts_rg_early.py holds the two to the same output on random patterns.)"""
    out: list[str] = []
    at, end = 0, len(text)
    while at < end:
        ch = text[at]
        if ch == ".":
            atom, at = _ANY, at + 1
        elif ch == "[":
            found = _quick_class(text, at + 1)
            if found is None:
                return None
            atom, at = found
        elif ch == "\\":
            escaped = text[at + 1 : at + 2]
            if not escaped or not escaped.isascii() or escaped.isalnum() or escaped == "\n":
                return None  # \d \w \b \x41 \1 ...: re's to read
            atom, at = _byte_class([ord(escaped)]), at + 2
        elif ch in "^$*+?{}[]|()" or not ch.isascii() or ch == "\n":
            return None
        else:
            atom, at = _byte_class([ord(ch)]), at + 1
        bound, at = _quick_bound(text, at)
        if bound is None:
            return None
        out.append(f"(?:{atom}){bound}" if bound else atom)
    return "".join(out) if out else None


def _quick_class(text: str, at: int) -> tuple[str, int] | None:
    """``[...]`` from ``at`` (after its ``[``) to its ``]``: ASCII characters and ``a-z`` ranges, a ``-`` first or
    last as itself; (the class's bytes, the index after ``]``), or None (negated, escapes, nested sets, ...)."""
    close = text.find("]", at)
    body = text[at:close] if close > at else ""
    if (not body or body[0] == "^" or not body.isascii() or any(ch in body for ch in "\\[\n")
            or any(pair in body for pair in ("--", "&&", "~~", "||"))):
        return None
    hits: set[int] = set()
    i = 0
    while i < len(body):
        if i + 2 < len(body) and body[i + 1] == "-":
            low, high = ord(body[i]), ord(body[i + 2])
            if low > high:
                return None
            hits.update(range(low, high + 1))
            i += 3
        else:
            hits.add(ord(body[i]))
            i += 1
    hits.discard(0x0A)
    return (_byte_class(sorted(hits)), close + 1) if hits else None


def _quick_bound(text: str, at: int) -> tuple[str | None, int]:
    """The quantifier at ``at`` as translate() writes it (``""``: none), and the index after it; None: one re
    must read (``{,n}``, a possessive ``*+``, two in a row, a bound too big)."""
    ch = text[at : at + 1]
    if ch in ("?", "*", "+"):
        bound, at = {"?": "{0,1}", "*": "{0,}", "+": "{1,}"}[ch], at + 1
    elif ch == "{":
        close = text.find("}", at)
        low, comma, high = text[at + 1 : close].partition(",")
        if close < 0 or not low.isdigit() or not low.isascii() or (high and not (high.isdigit() and high.isascii())):
            return None, at
        if int(low) > _MAX_COUNT or (high and (int(high) > _MAX_COUNT or int(high) < int(low))):
            return None, at
        bound, at = (f"{{{int(low)},{int(high) if high else int(low)}}}" if high or not comma
                     else f"{{{int(low)},}}"), close + 1
    else:
        return "", at
    if text[at : at + 1] == "?":  # lazy: the same lines
        at += 1
    if text[at : at + 1] in ("?", "*", "+", "{"):
        return None, at
    return bound, at


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
        if (ascii_only := self._ascii(op, av)) is not None:
            return ascii_only
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

    def _ascii(self, op: Any, av: Any) -> str | None:
        """What :meth:`one_char` gives a UTF-8 node of ASCII characters only (a literal; a class of literals and
        ranges, not negated), without IGNORECASE, worked out without compiling the node: its own bytes, no newline.
        Compiling each node and asking it about 128 characters was most of a translation (~5 ms of a grep's start
        for `needle-[0-9a-f]{6}.upstream`). None for any other node."""
        sre = self.sre
        if self.table is not None or self.flags & sre.SRE_FLAG_IGNORECASE:
            return None
        hits: set[int] = set()
        if op is sre.LITERAL and av < 0x80:
            hits.add(av)
        elif op is sre.IN and all((kind is sre.LITERAL and value < 0x80) or (kind is sre.RANGE and value[1] < 0x80)
                                  for kind, value in av):
            for kind, value in av:
                hits.update((value,) if kind is sre.LITERAL else range(value[0], value[1] + 1))
        else:
            return None
        hits.discard(0x0A)
        return _byte_class(sorted(hits))

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
