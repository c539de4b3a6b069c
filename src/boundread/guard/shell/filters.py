"""sed and awk used as grep: ``sed -n '/RE/p'``, ``sed '/RE/!d'``, ``awk '/RE/'``, ``awk '/RE/ {print $2}'``.

They print the lines that match RE (or a part of each), as ``grep RE`` does, so they are sized as a grep's
matches are: a MATCHES bound carrying the pattern (bounds.Grep), which ``decide`` estimates on a sample of the
file - ``sed -n '/INFO/p'`` of a log of INFO lines is most of it, ``sed -n '/ERROR/p'`` a few lines. A script
that does anything else is left as bounds.py reads it.
"""

from __future__ import annotations

from boundread.guard.bounds import MATCHES, Bound, Grep, awk_operands

_RE = r"/((?:[^/\\]|\\.)+)/"
_SED_VALUES = frozenset({"-l", "--line-length", "-s"})


def sed(name: str, args: list[str]) -> tuple[list[str], Bound] | None:
    """(the files, the bound) of ``sed -n '/RE/p' [F...]``, ``sed -n -e '/A/p' -e '/B/p'``, ``sed '/RE/!d'``."""
    import re

    quiet, extended = False, False
    scripts: list[str] = []
    names: list[str] = []
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in ("-e", "--expression") and k + 1 < len(args):
            scripts.append(args[k + 1])
            k += 1
        elif arg in _SED_VALUES:
            k += 1
        elif arg.startswith("-") and arg != "-" and not arg.startswith("--"):
            quiet |= "n" in arg
            extended |= "E" in arg or "r" in arg
            if "i" in arg or "f" in arg:
                return None  # in place, or a script file
        elif arg in ("--quiet", "--silent", "--regexp-extended"):
            quiet |= arg != "--regexp-extended"
            extended |= arg == "--regexp-extended"
        else:
            names.append(arg)
        k += 1
    if not scripts and names:
        scripts, names = [names[0]], names[1:]
    commands = [part.strip() for script in scripts for part in re.split(r"[;\n]", script) if part.strip()]
    verb = r"\s*p\s*" if quiet else r"\s*!\s*d\s*"
    found = [re.fullmatch(_RE + r"(I?)" + verb, command) for command in commands]
    if not found or not all(found):
        return None
    patterns = tuple(match.group(1) for match in found if match)
    folded = all(match.group(2) for match in found if match)
    spec = Grep(patterns, "extended" if extended else "basic", ignore_case=folded)
    return names, Bound(MATCHES, 0, words=_shown(name, ["-n", *scripts] if quiet else scripts), grep=spec)


def awk(name: str, args: list[str]) -> tuple[list[str], Bound] | None:
    """(the files, the bound) of ``awk '/RE/'``, ``awk '/RE/ {print ...}'``, ``awk '$0 ~ /RE/'``."""
    import re

    operands = awk_operands(args)
    if operands is None:
        return None
    program, names = operands
    match = re.fullmatch(r"\s*(?:\$0\s*~\s*)?" + _RE + r"\s*(\{\s*print\b[^{}]*\}\s*)?;?\s*", program)
    if match is None:
        return None
    return names, Bound(MATCHES, 0, words=_shown(name, [program]), grep=Grep((match.group(1),), "extended"))


def _shown(name: str, scripts: list[str]) -> str:
    from boundread.guard.shellquote import quote

    text = " ".join([name, *(script if script == "-n" else quote(script) for script in scripts)])
    return text if len(text) <= 60 else text[:57] + "..."
