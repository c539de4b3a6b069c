"""The conservative scan, for what the walk cannot follow (a syntax error, a budget run out, no parser).

Linear in the text, and bounded (_MOST_WORDS named, _MOST_LOOKED looked at): every word that names an existing
file, resolved against the payload's cwd and the folders the command names, counts as printed whole when any
known reader appears in the text. decide then denies it if it is big or binary - a parse failure never lets a
visible dump through.
"""

from __future__ import annotations

import os
import re

from boundread.guard.shell.state import PRINT, FileUse

_WORD = re.compile(r"""'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'";&|()<>`{}]+)""")
_MOST_WORDS = 2_000
_MOST_STATS = 400
#: Words past _MOST_WORDS looked at for a reader's name (~0.1 s); a longer text is taken as naming one, so the
#: scan stays within the hook's time whatever the text (10 MB of ``true;`` once took 6 s here).
_MOST_LOOKED = 100_000


def uses(text: str, root: str) -> list[FileUse]:
    return scan(text, root)[0]


def scan(text: str, root: str) -> tuple[list[FileUse], bool]:
    """The uses, and whether the scan left words unlooked at in a text that names a reader: a file
    printed there is not in the uses (the caller then counts an unchecked name as printed)."""
    from boundread.guard.shell import (
        archives,
        converters,
        derive,
        dumpers,
        editors,
        generators,
        greps,
        jsonprint,
        programs,
        remote,
    )

    readers = set(dumpers.DUMPERS) | greps.GREPS | remote.PROGRAMS | generators.PROGRAMS | archives.PROGRAMS | \
        programs.SHELLS | converters.PROGRAMS | \
        editors.PROGRAMS | derive.PROGRAMS | jsonprint.PROGRAMS | \
        {"head", "tail", "sed", "awk", "gawk", "dd", "jq", "cp", "tee", "xargs", "find", "eval"}

    def reads(word: str) -> bool:
        return os.path.basename(word) in readers or programs.is_interpreter(os.path.basename(word))

    words: list[str] = []
    matches = _WORD.finditer(text)
    for match in matches:
        word = next(group for group in match.groups() if group is not None)
        if word and len(word) < 4096:
            words.append(word.rsplit("=", 1)[-1] if "=" in word and not word.startswith("-") else word)
        if len(words) >= _MOST_WORDS:
            break
    named = any(reads(word) for word in words)
    left = False
    for looked, match in enumerate(matches):  # past the words looked at: only whether a reader is named there
        left = True
        if named or looked >= _MOST_LOOKED or reads(next(group for group in match.groups() if group is not None)):
            return _files(words, root), True  # past _MOST_LOOKED, a reader may be there: taken as one
    if not named:
        return [], False
    found = _files(words, root)
    return found, left or len(dict.fromkeys(words)) > _MOST_STATS


def _files(words: list[str], root: str) -> list[FileUse]:
    folders = [root]
    found: list[FileUse] = []
    stats = 0
    for word in dict.fromkeys(words):
        for folder in folders:
            stats += 1
            if stats > _MOST_STATS:
                return found
            absolute = os.path.normpath(os.path.join(folder, os.path.expanduser(word)))
            try:
                if os.path.isdir(absolute):
                    if absolute not in folders and len(folders) < 8:
                        folders.append(absolute)
                    break
                if os.path.isfile(absolute):
                    inside = root.rstrip(os.sep) + os.sep
                    shown = absolute[len(inside):] if absolute.startswith(inside) else absolute
                    found.append(FileUse(PRINT, shown, "the command"))
                    break
            except (OSError, ValueError):
                break
    return found
