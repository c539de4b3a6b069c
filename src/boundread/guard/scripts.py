"""What a sed script or an awk program prints, read from its text: the sed commands that bound the lines
(``5,20p``, ``10q``, ``$p``) and whether an awk program prints every line, some, or only in BEGIN/END blocks.
Pure text analysis, for guard/bounds.py, which turns the answers into Bounds. ``re`` is imported only here and
only when a sed or awk command is read (it costs start-up on the hook path).
"""

from __future__ import annotations

FILTER = (-1, -1, 0)  # prints only matching lines, as grep does
_SED_COMMAND = r"^\s*(\d+|\$)?\s*(?:,\s*(\d+|\$|\+\d+))?\s*(!?)\s*([pqQd])\s*(\d*)\s*$"


def sed_bound(script: str, quiet: bool) -> tuple[int, int, int] | None:
    """(first line, end line, how many times it prints the last line) a sed script prints (0-based, end
    exclusive); None: every line; FILTER."""
    import re

    first, end, quit_at, printing, last = None, 0, None, False, 0
    for command in re.split(r"[;\n]", script):
        if not command.strip():
            continue
        match = re.match(_SED_COMMAND, command)
        if match is None:
            if re.match(r"^\s*(/|\\)", command) or command.strip().startswith("s"):
                continue  # a regex address or a substitution: prints matches at most (with -n)
            return None if not quiet else FILTER
        start, stop, negated, verb, _code = match.groups()
        if verb in "qQ":  # a number after q is the exit code; `q` alone quits after line 1
            at = None if start == "$" else int(start) if start else 1
            if at is not None:
                quit_at = at if quit_at is None else min(quit_at, at)
            continue
        span = _sed_span(start, stop)
        if verb == "d" and negated and span is not None:  # `sed '1,10!d'`: only that range survives
            first, end, printing = _widen(first, end, span)
            continue
        if verb == "p" and quiet:
            if negated:
                return None  # `$!p`, `1!p`: every line but those
            if start == "$" and stop is None:
                last += 1  # `$p`: the last line
                continue
            if span is None:
                return None  # `p`, `5,$p`: to the end of the file
            first, end, printing = _widen(first, end, span)
    if quit_at is not None:
        return (first or 0, min(end, quit_at), 0) if printing else (0, quit_at, 0)
    if printing or last:
        return first or 0, end, last
    return FILTER if quiet else None


def _sed_span(start: str | None, stop: str | None) -> tuple[int, int] | None:
    if start is None or start == "$":
        return None
    first = int(start)
    if stop is None:
        return first - 1, first
    if stop == "$":
        return None
    last = first + int(stop[1:]) if stop.startswith("+") else int(stop)
    return first - 1, max(first, last)


def _widen(first: int | None, end: int, span: tuple[int, int]) -> tuple[int, int, bool]:
    return (span[0] if first is None else min(first, span[0])), max(end, span[1]), True


_AWK_BLOCK = r"\b(BEGIN|END|BEGINFILE|ENDFILE)\s*\{"


def without_blocks(program: str) -> str:
    """The program without its BEGIN/END blocks (braces matched, strings skipped)."""
    import re

    out, at = [], 0
    for match in re.finditer(_AWK_BLOCK, program):
        if match.start() < at:
            continue
        out.append(program[at:match.start()])
        at = _block_end(program, match.end())
    out.append(program[at:])
    return "".join(out)


def _block_end(text: str, i: int) -> int:
    """Just past the ``}`` that closes the block opened before ``i``."""
    depth, quote = 1, ""
    while i < len(text):
        ch = text[i]
        if quote:
            quote = "" if ch == quote and text[i - 1] != "\\" else quote
        elif ch == '"':
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


def prints_every_line(rest: str) -> bool:
    """True when a rule with no pattern (or an always-true one: ``1``) prints: ``awk 1``, ``{print $1}``."""
    import re

    i, pattern = 0, list[str]()
    while i < len(rest):
        ch = rest[i]
        if ch == "{":
            end = _block_end(rest, i + 1)
            if _always(pattern) and re.search(r"\bprint", rest[i:end]):
                return True
            pattern, i = [], end
            continue
        if ch in "\n;":
            if "".join(pattern).strip() and _always(pattern):
                return True  # a pattern-only rule prints $0
            pattern = []
        else:
            pattern.append(ch)
        i += 1
    return bool("".join(pattern).strip()) and _always(pattern)


def prints_any(rest: str) -> bool:
    """True when some rule outside BEGIN/END prints: a pattern with no action (it prints ``$0``) or an action
    with an output statement (``print``, ``printf``, ``system``). ``NR>1 {sum += $5}`` prints nothing."""
    import re

    i, pattern = 0, list[str]()
    while i < len(rest):
        ch = rest[i]
        if ch == '"' or (ch == "/" and "".join(pattern).rstrip()[-1:] in ("", "(", "!", "~", "&", "|", ",")):
            end = literal_end(rest, i)  # a regex or a string: its braces and semicolons are not the program's
            pattern.extend(rest[i:end])
            i = end
            continue
        if ch == "{":
            end = _block_end(rest, i + 1)
            if re.search(r"\b(print|printf|system)\b", rest[i:end]):
                return True
            pattern, i = [], end
            continue
        if ch in "\n;":
            if "".join(pattern).strip():
                return True
            pattern = []
        else:
            pattern.append(ch)
        i += 1
    return bool("".join(pattern).strip())


def literal_end(text: str, i: int) -> int:
    """Just past the closing quote of the regex (``/``) or string (``"``) that opens at ``i``."""
    quote, i = text[i], i + 1
    while i < len(text) and text[i] != quote:
        i += 2 if text[i] == "\\" else 1
    return min(i + 1, len(text))


def _always(pattern: list[str]) -> bool:
    text = "".join(pattern).strip()
    return text == "" or (text.isdigit() and int(text) != 0) or (len(text) > 2 and text[0] == text[-1] == '"')
