"""The conservative scan, for what the walk cannot follow (a syntax error, a budget run out, no parser).

Linear in the text: every word that names an existing file, resolved against the payload's cwd and
the folders the command names, counts as printed whole when any known reader appears in the text.
decide then denies it if it is big or binary - a parse failure never lets a visible dump through.
"""

from __future__ import annotations

import os
import re

from boundread.guard.shell.state import PRINT, FileUse

_WORD = re.compile(r"""'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'";&|()<>`{}]+)""")
_MOST_WORDS = 2_000
_MOST_STATS = 400


def uses(text: str, root: str) -> list[FileUse]:
    from boundread.guard.shell import archives, greps, programs

    words: list[str] = []
    for match in _WORD.finditer(text):
        word = next(group for group in match.groups() if group is not None)
        if word and len(word) < 4096:
            words.append(word.rsplit("=", 1)[-1] if "=" in word and not word.startswith("-") else word)
        if len(words) >= _MOST_WORDS:
            break
    readers = set(programs._DUMPERS) | greps.GREPS | archives.PROGRAMS | programs.SHELLS | \
        {"head", "tail", "sed", "awk", "gawk", "dd", "jq", "cp", "tee", "xargs", "find", "eval"}
    if not any(os.path.basename(word) in readers or programs.is_interpreter(os.path.basename(word))
               for word in words):
        return []
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
