"""Shell patterns without ``re``: bash's pathname expansion (``*``, ``?``, ``[...]``) and ``find -name``.

The standard library's ``glob`` and ``fnmatch`` compile each pattern to a regular expression: ``re``
(with ``enum`` and ``functools``) costs a hook ~10 ms of start-up, more than the walk itself. Matching
here is the classic two-pointer wildcard match, linear in the name for each ``*`` (at worst
len(pattern) x len(name)); a directory is listed once per pattern part, and a glob keeps the first
``most`` names (sorted) and looks at ``SCAN`` directory entries at most - ``capped`` says when either cut.

Quoted characters reach here hidden as private-use code points (words.py): they match literally.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

#: Directory entries one glob may look at, in all.
SCAN = 5_000
_STAR, _ANY = 1, 2  # not characters: a quoted `*` is the literal "*"
_SHOW = {"\ue003": "*", "\ue004": "?", "\ue005": "[", "\ue000": "{", "\ue001": "}", "\ue002": ","}
_CLASSES: dict[str, Callable[[str], bool]] = {
    "alpha": str.isalpha, "digit": str.isdigit, "alnum": str.isalnum, "upper": str.isupper,
    "lower": str.islower, "space": str.isspace, "print": str.isprintable,
    "punct": lambda ch: ch.isprintable() and not ch.isalnum() and not ch.isspace(),
    "xdigit": lambda ch: ch in "0123456789abcdefABCDEF", "blank": lambda ch: ch in " \t",
    "cntrl": lambda ch: ord(ch) < 32 or ord(ch) == 127, "graph": lambda ch: ch.isprintable() and ch != " ",
    "word": lambda ch: ch.isalnum() or ch == "_",
}

# A token is a literal character, _STAR, _ANY, or a set: (negated, characters, ranges, class names).
Token = str | int | tuple[bool, str, tuple[tuple[str, str], ...], tuple[str, ...]]


def magic(part: str) -> bool:
    """Does this (hidden-quoted) text have an unquoted ``*``, ``?`` or ``[``?"""
    return "*" in part or "?" in part or "[" in part


def compile_part(part: str) -> list[Token]:
    """One path component as tokens."""
    tokens: list[Token] = []
    k = 0
    while k < len(part):
        ch = part[k]
        if ch in "*?":
            wild = _STAR if ch == "*" else _ANY
            if not (wild == _STAR and tokens and tokens[-1] == _STAR):
                tokens.append(wild)
            k += 1
        elif ch == "[":
            found = _bracket(part, k + 1)
            if found is None:
                tokens.append("[")
                k += 1
            else:
                token, k = found
                tokens.append(token)
        else:
            tokens.append(_SHOW.get(ch, ch))
            k += 1
    return tokens


def _bracket(part: str, k: int) -> tuple[Token, int] | None:
    """The set that starts after ``[`` at ``k``, and where it ends; None when it is not closed."""
    negated = k < len(part) and part[k] in "!^"
    k += negated
    chars: list[str] = []
    ranges: list[tuple[str, str]] = []
    classes: list[str] = []
    first = True
    while k < len(part):
        ch = part[k]
        if ch == "]" and not first:
            return (negated, "".join(chars), tuple(ranges), tuple(classes)), k + 1
        first = False
        if ch == "[" and part[k + 1:k + 2] == ":":
            end = part.find(":]", k + 2)
            if end > 0:
                classes.append(part[k + 2:end])
                k = end + 2
                continue
        ch = _SHOW.get(ch, ch)
        if part[k + 1:k + 2] == "-" and k + 2 < len(part) and part[k + 2] != "]":
            ranges.append((ch, _SHOW.get(part[k + 2], part[k + 2])))
            k += 3
            continue
        chars.append(ch)
        k += 1
    return None


def _one(token: Token, ch: str) -> bool:
    if isinstance(token, str):
        return token == ch
    if isinstance(token, int):
        return token == _ANY
    negated, chars, ranges, classes = token
    hit = ch in chars or any(low <= ch <= high for low, high in ranges) or \
        any(name in _CLASSES and _CLASSES[name](ch) for name in classes)
    return hit != negated


def matches(tokens: list[Token], name: str) -> bool:
    """Does ``name`` match the whole pattern? (``*`` backtracks to its last position only: enough,
    as every other token takes exactly one character.)"""
    t = n = 0
    star, resume = -1, 0
    while n < len(name):
        if t < len(tokens) and tokens[t] == _STAR:
            star, resume = t, n
            t += 1
        elif t < len(tokens) and _one(tokens[t], name[n]):
            t += 1
            n += 1
        elif star >= 0:
            resume += 1
            n, t = resume, star + 1
        else:
            return False
    while t < len(tokens) and tokens[t] == _STAR:
        t += 1
    return t == len(tokens)


def fnmatch(name: str, pattern: str) -> bool:
    """``find -name PATTERN`` (the pattern as the shell left it: nothing hidden)."""
    return matches(compile_part(pattern), name)


def matcher(pattern: str) -> Callable[[str], bool]:
    """``fnmatch`` against one pattern, compiled once (``find -name`` tests each entry it walks): a pattern of
    literal text and ``*`` only is matched with ``str`` methods, at C speed."""
    tokens = compile_part(pattern)
    if any(not isinstance(token, str) and token != _STAR for token in tokens):
        return lambda name: matches(tokens, name)
    pieces = "".join(token if isinstance(token, str) else "\x00" for token in tokens).split("\x00")
    if len(pieces) == 1:
        return pieces[0].__eq__
    head, *middle, tail = pieces
    least = len(head) + len(tail) + sum(len(piece) for piece in middle)

    def test(name: str) -> bool:
        if len(name) < least or not name.startswith(head) or not name.endswith(tail):
            return False
        at, end = len(head), len(name) - len(tail)
        for piece in middle:  # each in turn, leftmost: enough for `*` alone between them
            at = name.find(piece, at, end)
            if at < 0:
                return False
            at += len(piece)
        return True

    return test


def _shown(part: str) -> str:
    return "".join(_SHOW.get(ch, ch) for ch in part)


class Glob:
    """Pathname expansion of one word against ``cwd``, as bash does it with its default options:
    a leading ``.`` is matched only by a leading ``.``; names sorted; no match - no names."""

    __slots__ = ("capped", "globstar", "names", "seen")

    def __init__(self, word: str, cwd: str, most: int, globstar: bool = False) -> None:
        self.capped = False
        self.globstar = globstar  # `shopt -s globstar`: `**` is any depth of folders
        self.seen = 0  # the directory entries it looked at (charged to the budget by the caller)
        self.names = self._expand(word, cwd, most)

    def _descend(self, prefixes: list[str], cwd: str, most: int, files: bool) -> list[str]:
        """``**`` with globstar: each prefix and every folder under it (``files``: as the last part, the files
        too), hidden ones left out, symlinked folders not followed; at most ``most`` names and SCAN entries."""
        found: list[str] = []
        stack = list(reversed(prefixes))
        while stack:
            prefix = stack.pop()
            if prefix or not files:
                found.append(prefix)
            try:
                entries = list(os.scandir(os.path.join(cwd, prefix) if prefix else cwd))
            except OSError:
                continue
            glue = prefix if not prefix or prefix.endswith("/") else prefix + "/"
            below: list[str] = []
            for entry in sorted(entries, key=lambda entry: entry.name):
                self.seen += 1
                if self.seen > SCAN or len(found) > most:
                    self.capped = True
                    return found[:most]
                if entry.name.startswith("."):
                    continue
                try:
                    folder = entry.is_dir(follow_symlinks=False)
                except OSError:
                    continue
                if folder:
                    below.append(glue + entry.name)
                elif files:
                    found.append(glue + entry.name)
            stack.extend(reversed(below))
        return [prefix for prefix in found if prefix or not files]

    def _expand(self, word: str, cwd: str, most: int) -> list[str]:
        absolute = word.startswith("/")
        parts = word.split("/")
        prefixes = ["/"] if absolute else [""]
        parts = parts[1:] if absolute else parts
        budget = SCAN
        for at, part in enumerate(parts):
            last = at == len(parts) - 1
            if part == "":  # `a//b`, or a trailing slash: directories only
                prefixes = [p for p in prefixes if not last or os.path.isdir(os.path.join(cwd, p))]
                prefixes = [p if p.endswith("/") else p + "/" for p in prefixes] if last else prefixes
                continue
            if part == "**" and self.globstar:
                prefixes = self._descend(prefixes, cwd, most, files=last)
                if last or self.capped:
                    return sorted(prefixes)
                continue
            if not magic(part):
                literal = _shown(part)
                prefixes = [p + literal if p.endswith("/") or not p else p + "/" + literal for p in prefixes]
                if last:
                    prefixes = [p for p in prefixes if os.path.lexists(os.path.join(cwd, p))]
                continue
            tokens = compile_part(part)
            hidden = tokens[:1] == ["."]
            found: list[str] = []
            for prefix in prefixes:
                try:
                    entries = os.scandir(os.path.join(cwd, prefix) if prefix else cwd)
                except OSError:
                    continue
                matched: list[str] = []
                with entries:
                    for entry in entries:
                        budget -= 1
                        self.seen += 1
                        if budget < 0:
                            self.capped = True
                            break
                        name = entry.name
                        if name.startswith(".") and not hidden:
                            continue
                        if not matches(tokens, name):
                            continue
                        if not last:
                            try:
                                if not entry.is_dir():
                                    continue
                            except OSError:
                                continue
                        matched.append(name)
                glue = prefix if not prefix or prefix.endswith("/") else prefix + "/"
                found.extend(glue + name for name in sorted(matched))  # the first ones as bash sorts them
                if len(found) > most:
                    self.capped, found = True, found[:most]
                if self.capped:
                    break
            prefixes = found
            if not prefixes:
                return []
        return sorted(prefixes)
