"""``quote``: ``shlex.quote`` without ``re`` (shlex imports it: ~10 ms of a hook's start-up with enum and functools).

Its own small module so that the words a bound shows (``grep -v DEBUG``, ``awk '{print $1}'``) are quoted on an
allowed call without loading guard/reason.py, which the deny reasons need (and, with it, units and facts).
"""

from __future__ import annotations

_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-")


def quote(word: str) -> str:
    """``shlex.quote``: the word as is when every character is shell-safe, else single-quoted."""
    if not word:
        return "''"
    if all(ch in _SAFE for ch in word):
        return word
    return "'" + word.replace("'", "'\"'\"'") + "'"
