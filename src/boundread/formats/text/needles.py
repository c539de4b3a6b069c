"""Which lines can match: the literals a pattern must contain, found as bytes (``bytes.find`` for one needle, a
bytes regex over stretches for several or for ``-i``). A line they flag is decoded and matched by the Sink's own
pattern, so they only narrow the search; a pattern with no required literal (``\\d{7}``) gets no finder and every
line goes to the Sink."""

from __future__ import annotations

import re
from collections.abc import Callable

from boundread.formats._rg.pattern import sre_parser as _parser

TYPE_CHECKING = False  # typing for mypy only, as in _rg/records.py
if TYPE_CHECKING:
    from typing import Any

STRETCH = 1 << 18  # bytes searched at a time for several needles or -i (tests shrink it too)
#: Non-ASCII letters that a case-insensitive str pattern matches for these ASCII letters (re's case table).
_FOLDS = {"i": "\u0130\u0131", "s": "\u017f", "k": "\u212a"}


_NEWLINE = ord("\n")

Buffer = bytes | bytearray
Finder = Callable[[Buffer, int, int], int]  # (block, start, end) -> offset of a candidate line's byte, or -1




def finder(pattern: re.Pattern[str], dec: str) -> Finder | None:
    """A search over raw bytes that finds every line ``pattern`` matches, and maybe a few more (the sink checks
    each); None when no such search is known, and every line must be shown to the sink."""
    folded = bool(pattern.flags & re.IGNORECASE)
    try:
        parsed = _parser().parse(pattern.pattern, pattern.flags)
    except Exception:  # noqa: BLE001 - re compiled it already; an unexpected parser difference just means no search
        return None
    folded = folded or bool(parsed.state.flags & re.IGNORECASE)
    needles = _required(parsed.data, folded)
    if not needles:
        dotall = bool((pattern.flags | parsed.state.flags) & re.DOTALL)
        return _regex(pattern, dec) if _within_lines(parsed.data, dotall) else None
    encoded: list[bytes] = []
    for needle in needles:
        try:
            encoded.append(needle.encode(dec))
        except UnicodeEncodeError:
            return None
    if not folded and len(encoded) == 1:
        return _literal(encoded[0])
    if not folded:
        return _stretches(encoded, None)
    rare = sorted({extra.encode(dec) for needle in needles for ch in needle.lower() for extra in _FOLDS.get(ch, "")
                   if _encodable(extra, dec)})
    exact = re.compile(b"|".join(_folded(needle, dec) for needle in needles))
    # A match can be longer than its needle: K (U+212A) for k is 3 bytes in UTF-8, and İ ı ſ are 2.
    longest = max(sum(max(map(len, _forms(ch, dec))) for ch in needle) for needle in needles)
    return _stretches([needle.lower().encode(dec) for needle in needles], (rare, exact), longest)


def _stretches(needles: list[bytes], folded: tuple[list[bytes], re.Pattern[bytes]] | None,
               longest: int | None = None) -> Finder:
    """Several needles (an alternation), or a needle in any case: each stretch of 256 kB searched with
    ``bytes.find`` per needle, lowered first when the case is folded. A stretch holding one of the non-ASCII
    letters re.IGNORECASE also matches (K for k, ...) is searched with the exact regex instead. Each stretch
    reaches ``longest - 1`` bytes into the next (``longest``: the most bytes a match can take, the longest
    needle when the case is not folded), so a match that begins in it is whole in it."""
    overlap = (max(map(len, needles)) if longest is None else longest) - 1

    def find(buf: Buffer, start: int, end: int) -> int:
        pos, step = start, STRETCH
        while pos < end:
            stop = min(pos + step + overlap, end)
            chunk = buf[pos:stop]
            if folded is not None:
                rare, exact = folded
                if rare and not chunk.isascii() and any(letter in chunk for letter in rare):
                    found = exact.search(buf, pos, stop)
                    if found:
                        return found.start()
                    pos += step
                    continue
                chunk = chunk.lower()
            hits = [at for needle in needles if (at := chunk.find(needle)) >= 0]
            if hits:
                return pos + min(hits)
            pos += step
        return -1

    return find


def _regex(pattern: re.Pattern[str], dec: str) -> Finder:
    """A pattern with no literal every match contains (``\\d{7}``, ``a|\\d``): the pattern itself, run over
    decoded stretches of whole lines instead of line by line. ``^`` and ``$`` match at each line's edges
    (MULTILINE), no match can reach past its line (_within_lines), and a line the sink would cut at MAX_LINE
    is flagged unsearched, so the lines found are the lines the sink's pattern matches. Stretches start small
    and double, so dense matches cost little each."""
    from boundread.contract.sink import MAX_LINE

    lines = re.compile(pattern.pattern, pattern.flags | re.MULTILINE)

    def find(buf: Buffer, start: int, end: int) -> int:
        pos, step = start, min(1 << 12, STRETCH)
        while pos < end:
            stop = buf.find(b"\n", min(pos + step, end - 1)) + 1 or end  # a stretch ends at a line's end
            long = _long_line(buf, pos, stop, MAX_LINE)
            text = buf[pos:stop if long < 0 else long].decode(dec, "replace")
            found = lines.search(text, 0, len(text) - 1)  # not past the last newline: no line starts there
            if found and text:
                return _line_start(buf, pos, text.count("\n", 0, found.start()))
            if long >= 0:
                return long
            pos, step = stop, min(step * 2, STRETCH)
        return -1

    return find


def _long_line(buf: Buffer, pos: int, stop: int, cap: int) -> int:
    """Where the first line in ``buf[pos:stop]`` longer than ``cap`` bytes starts, or -1."""
    while stop - pos > cap:
        last = buf.rfind(b"\n", pos, pos + cap + 1)
        if last < 0:
            return pos
        pos = last + 1
    return -1


def _line_start(buf: Buffer, pos: int, lines: int) -> int:
    """The offset of the line ``lines`` lines after the one at ``pos``."""
    for _ in range(lines):
        pos = buf.find(b"\n", pos) + 1
    return pos


def _within_lines(items: Any, dotall: bool) -> bool:
    """Can every match of the parsed pattern only lie inside one line and see nothing past it? Then a search over
    a stretch of lines finds exactly the lines a search of each line finds, at the cost of searching each line.
    Not when a node can match a newline (``\\s``, ``[^x]``, ``\\W``, ``.`` under DOTALL: a match, or a backtrack,
    would run on into the next lines), with lookarounds (they would see the next line's characters), with
    ``\\A``/``\\Z`` (a stretch's edges are not a line's), or where a group turns MULTILINE off."""
    sre = _parser()
    repeats = (sre.MAX_REPEAT, sre.MIN_REPEAT, getattr(sre, "POSSESSIVE_REPEAT", sre.MAX_REPEAT))  # 3.11 added
    atomic = getattr(sre, "ATOMIC_GROUP", None)  # (?>...), 3.11
    for op, av in items:
        if op is sre.LITERAL:
            ok = av != _NEWLINE
        elif op is sre.NOT_LITERAL:
            ok = av == _NEWLINE
        elif op is sre.ANY:
            ok = not dotall
        elif op is sre.IN:
            ok = not _class_has_newline(av)
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            ok = False
        elif op is sre.AT:
            ok = av not in (sre.AT_BEGINNING_STRING, sre.AT_END_STRING)
        elif op is sre.SUBPATTERN:  # (group, flags added, flags removed, pattern)
            _group, added, removed, sub = av
            inner = (dotall or bool(added & re.DOTALL)) and not removed & re.DOTALL
            ok = not removed & re.MULTILINE and _within_lines(sub.data, inner)
        elif op in repeats:
            ok = _within_lines(av[2].data, dotall)
        elif op is sre.BRANCH:
            ok = all(_within_lines(branch.data, dotall) for branch in av[1])
        elif op is sre.GROUPREF_EXISTS:  # (group, yes, no)
            ok = all(_within_lines(branch.data, dotall) for branch in av[1:] if branch is not None)
        elif atomic is not None and op is atomic:
            ok = _within_lines(av.data, dotall)
        else:
            ok = op is sre.GROUPREF  # a backreference matches what its group did; anything else: unknown
        if not ok:
            return False
    return True


def _class_has_newline(items: Any) -> bool:
    """Does the parsed character class ``[...]`` match a newline?"""
    sre = _parser()
    negated, found = False, False
    for op, av in items:
        if op is sre.NEGATE:
            negated = True
        elif op is sre.LITERAL:
            found = found or av == _NEWLINE
        elif op is sre.RANGE:
            found = found or av[0] <= _NEWLINE <= av[1]
        elif op is sre.CATEGORY:
            found = found or av in (sre.CATEGORY_SPACE, sre.CATEGORY_NOT_DIGIT, sre.CATEGORY_NOT_WORD,
                                    sre.CATEGORY_LINEBREAK)
        else:
            return True  # unknown: it may
    return found != negated


def _literal(needle: bytes) -> Finder:
    """``bytes.find``, or, when one byte of ``needle`` is rare in the text, a memchr for that byte and a check of
    the needle around each hit (what grep does: "NOSUCHTHING" in a log is 5x faster that way)."""
    rare: list[int] = []  # [index in needle] once chosen; [] = not yet; [-1] = plain find

    def choose(buf: Buffer, start: int, end: int) -> None:
        sample = min(end - start, 1 << 18)
        counts = {buf.count(needle[i:i + 1], start, start + sample): i for i in range(len(needle) - 1, -1, -1)}
        fewest = min(counts)
        rare.append(counts[fewest] if len(needle) > 1 and fewest * 1024 < sample else -1)

    def find(buf: Buffer, start: int, end: int) -> int:
        if not rare:
            choose(buf, start, end)
        at = rare[0]
        if at < 0:
            return buf.find(needle, start, end)
        byte, misses, pos = needle[at:at + 1], 0, start + at
        while (hit := buf.find(byte, pos, end)) >= 0:
            if buf.startswith(needle, hit - at, end):
                return hit - at
            misses += 1
            if misses > 64 + ((end - start) >> 12):  # not rare here after all: plain find from now on
                rare[0] = -1
                return buf.find(needle, hit - at + 1, end)
            pos = hit + 1
        return -1

    return find


def _folded(needle: str, dec: str) -> bytes:
    """``needle`` as a bytes regex matching it in any case, as re.IGNORECASE matches a str."""
    out: list[bytes] = []
    for ch in needle:
        forms = _forms(ch, dec)
        out.append(re.escape(forms[0]) if len(forms) == 1 else b"(?:" + b"|".join(map(re.escape, forms)) + b")")
    return b"".join(out)


def _forms(ch: str, dec: str) -> list[bytes]:
    """The encoded forms re.IGNORECASE matches for the ASCII character ``ch``."""
    if not ch.isalpha():
        return [ch.encode(dec)]
    variants = {ch.lower(), ch.upper(), *_FOLDS.get(ch.lower(), "")}
    return sorted({v.encode(dec) for v in variants if _encodable(v, dec)})


def _encodable(ch: str, dec: str) -> bool:
    try:
        ch.encode(dec)
    except UnicodeEncodeError:
        return False
    return True


def _required(items: Any, folded: bool) -> list[str] | None:
    """Literal strings one of which every match of the parsed sequence ``items`` contains, or None."""
    sre = _parser()
    best: list[str] | None = None

    def consider(found: list[str] | None) -> None:
        nonlocal best
        if found and all(found) and (best is None or _score(found) > _score(best)):
            best = found

    run: list[str] = []
    for op, av in items:
        if op is sre.LITERAL and _plain(chr(av), folded):
            run.append(chr(av))
            continue
        consider(["".join(run)] if run else None)
        run = []
        if op is sre.SUBPATTERN and not av[1] and not av[2]:  # a group that sets no flags of its own
            consider(_required(av[3].data, folded))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT) and av[0] >= 1:
            consider(_required(av[2].data, folded))
        elif op is sre.BRANCH:
            alternatives = [_required(branch.data, folded) for branch in av[1]]
            if all(alternatives):
                consider(sorted({needle for found in alternatives if found for needle in found}))
    consider(["".join(run)] if run else None)
    return best


def _plain(ch: str, folded: bool) -> bool:
    """A pattern character the byte search can look for as it is (not the replacement character, which stands
    for any undecodable bytes; only ASCII when the case is folded)."""
    return ch != "\ufffd" and (ch.isascii() or not folded)


def _score(needles: list[str]) -> tuple[int, int]:
    return min(map(len, needles)), -len(needles)
