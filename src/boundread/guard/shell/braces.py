"""The literal forms of a word: brace expansion (``{a,b}``, ``{1..5}``, ``{01..10..2}``, nested) and ``$'...'``.

Split from words.py, which expands a word's quoting, variables and globs and calls these for its literal parts.
"""

from __future__ import annotations

from boundread.guard.shell.state import FANOUT

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f",
            "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


def ansi_c(text: str) -> str:
    """The value of ``$'...'`` from its inside."""
    out: list[str] = []
    k = 0
    while k < len(text):
        ch = text[k]
        if ch != "\\" or k + 1 >= len(text):
            out.append(ch)
            k += 1
            continue
        nxt = text[k + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            k += 2
        elif nxt in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[nxt]
            digits = ""
            while len(digits) < width and k + 2 + len(digits) < len(text) and \
                    text[k + 2 + len(digits)] in "0123456789abcdefABCDEF":
                digits += text[k + 2 + len(digits)]
            out.append(chr(int(digits, 16)) if digits and int(digits, 16) < 0x110000 else "\\" + nxt)
            k += 2 + len(digits)
        elif nxt in "01234567":
            digits = nxt
            while len(digits) < 3 and k + 1 + len(digits) < len(text) and text[k + 1 + len(digits)] in "01234567":
                digits += text[k + 1 + len(digits)]
            out.append(chr(int(digits, 8)))
            k += 1 + len(digits)
        else:
            out.append("\\" + nxt)
            k += 2
    return "".join(out)


def braces(word: str, ctx: Ctx) -> list[str]:
    """Brace expansion (``{a,b}``, ``{1..5}``, nested), at most FANOUT words; each scan of the word and each word
    made is paid for (10,000 nested braces once took seconds, and 256 copies of a long word are megabytes)."""
    ctx.step(len(word) // 256)
    depth, start = 0, -1
    for k, ch in enumerate(word):
        if ch == "{":
            if depth == 0:
                start = k
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
            if depth == 0:
                options = _alternatives(word[start + 1:k])
                if options is None:
                    continue
                out: list[str] = []
                for option in options:
                    for rest in braces(option + word[k + 1:], ctx):
                        out.append(word[:start] + rest)
                        ctx.step(len(out[-1]) // 256)
                        if len(out) >= FANOUT:
                            return out
                return out
    return [word]


def _alternatives(inner: str) -> list[str] | None:
    parts, depth, at = [], 0, 0
    for k, ch in enumerate(inner):
        depth += (ch == "{") - (ch == "}")
        if ch == "," and depth == 0:
            parts.append(inner[at:k])
            at = k + 1
    parts.append(inner[at:])
    if len(parts) > 1:
        return parts
    return _sequence(inner.split(".."))


def _sequence(ends: list[str]) -> list[str] | None:
    """``{1..5}``, ``{10..1..3}``, ``{01..10}`` (zero-padded to the wider end, as bash pads), ``{a..e..2}``:
    at most FANOUT words (expand says when it cut); None when it is no sequence (bash leaves the word as is)."""
    if len(ends) not in (2, 3):
        return None
    if len(ends) == 3 and not _integer(ends[2]):
        return None
    step = abs(int(ends[2])) if len(ends) == 3 and int(ends[2]) else 1
    if _integer(ends[0]) and _integer(ends[1]):
        first, last = int(ends[0]), int(ends[1])
        padded = any(end.lstrip("-").startswith("0") and len(end.lstrip("-")) > 1 for end in ends[:2])
        width = max(len(ends[0]), len(ends[1])) if padded else 0
        numbers = range(first, last + 1, step) if last >= first else range(first, last - 1, -step)
        return [f"{n:0{width}d}" for n in numbers[:FANOUT]]
    if all(len(end) == 1 and end.isascii() and end.isalpha() for end in ends[:2]):
        first, last = ord(ends[0]), ord(ends[1])
        letters = range(first, last + 1, step) if last >= first else range(first, last - 1, -step)
        return [chr(n) for n in letters[:FANOUT]]
    return None


def _integer(text: str) -> bool:
    digits = text[1:] if text[:1] in ("-", "+") else text
    return bool(digits) and all(ch in "0123456789" for ch in digits)
