"""Printing statements of interpreter code that print less than the file they loop over: a count, or a grep.

codeprints.py finds the statements that print with no reducer in them. Two kinds of them still do not print
the file: a print of numbers only (``n = 0`` / ``for line in open(f): n += ...`` / ``print(n)``, the print
outside the loop), and a print of the lines a condition picks (``[print(l) for l in open(f) if 'ERROR' in l]``,
``if re.search('RE', line): print(line)``, ``if line.startswith('X')``), which prints what a grep of that
pattern prints and is sized as one (estimate.py samples the file).
"""

from __future__ import annotations

import re

#: A string literal (its prefix, quote and body); an f-string keeps its ``{expressions}`` for the names check.
_STRING = re.compile(r"""(?<!\w)([rRbBuUfF]{0,2})(['"])((?:(?!\2)[^\\\n]|\\.)*)\2""")
#: Outside python a double-quoted string interpolates (``"#{File.read(f)}"``, ``"$text"``): only '...' is plain.
_PLAIN_STRING = re.compile(r"""(?<!\w)()(')((?:(?!')[^\\\n]|\\.)*)'""")
_NAME = re.compile(r"\b[A-Za-z_]\w*")
#: The names a print of numbers may carry besides the numbers: the call, its keywords, number formatting.
_PLAIN = frozenset({"print", "sep", "end", "flush", "round", "int", "float", "str", "abs", "format", "sys",
                    "stdout", "write", "console", "log", "puts", "say", "repr"})
_NUMBER_SET = re.compile(r"^\s*(?:(?:let|var|const|my|our|local)\s+)?((?:\w+\s*[,=]\s*)*\w+)\s*=\s*"
                         r"(-?[\d_.]+(?:\s*,\s*-?[\d_.]+)*|(?:len|sum|max|min|round|int|float|abs)\(.*"
                         r"|(?:[^=;]|=>)*\.(?:length|size)|(?:[^=;]|=>)*\.count\([^()]*\))\s*;?\s*$")  # `x.length`
_ASSIGN = re.compile(r"^\s*(\w+)\s*=(?!=)")
_BINDS = re.compile(r"\b(?:for|as)\s+(\w+)")
_LOOK_BACK = 400  # lines read up from a statement for the blocks it is in (a longer block is not seen)
_LOOP_HEAD = re.compile(r"^\s*(?:async\s+)?(?:for|while)\b")
_TEMPLATE = re.compile(r"`((?:[^`\\]|\\.)*)`")
_PRINT_CALL = re.compile(r"\bprint\s*\(|\bwrite\s*\(|console\.log\s*\(|\bputs\b|\bsay\b")

_LIT = r"""r?(?P<q>['"])(?P<lit>(?:(?!(?P=q))[^\\\n]|\\.){1,1024})(?P=q)"""
#: Where a condition ends: the statement, or ``and`` (the lines that pass both are fewer) with no ``or`` after.
_END = r"\s*(?=:|\]|\)|$|and\b(?![^:\]\n]*\bor\b))"
#: ``if 'X' in l``, ``if 'x' not in l.lower()``, ``if re.search('RE', l)``, ``if l.startswith('X')``, ``if l[:5] ==
#: 'ERROR'``, ``if not ...``.
_CONDITIONS = (
    ("fixed", re.compile(r"\bif\s+(?P<neg>not\s+)?" + _LIT
                         + r"\s+(?P<notin>not\s+)?in\s+(?P<var>\w+)(?P<low>\.lower\(\))?" + _END)),
    ("re", re.compile(r"\bif\s+(?P<neg>not\s+)?re\.(?P<how>search|match)\(\s*" + _LIT
                      + r"\s*,\s*(?P<var>\w+)\s*(?P<fold>,\s*(?:re\.)?(?:I|IGNORECASE)\s*)?\)" + _END)),
    ("start", re.compile(r"\bif\s+(?P<neg>not\s+)?(?P<var>\w+)\.startswith\(\s*" + _LIT + r"\s*\)" + _END)),
    ("lines", re.compile(r"\.split\(\s*(?:(['\"])\\n\1|/\\r?\\n/)\s*\)\s*\.filter\(\s*\(?\s*(?P<var>\w+)\s*\)?\s*=>\s*"
                         r"(?P<neg>!\s*)?(?P=var)\.(?P<how>includes|startsWith)\(\s*" + _LIT + r"\s*\)\s*\)")),
    ("compiled", re.compile(r"\bif\s+(?P<neg>not\s+)?(?P<name>\w+)\.(?P<how>search|match)\(\s*(?P<var>\w+)\s*\)"
                            + _END)),
    # `if l[:5] == 'ERROR'`: a start, when the slice is as long as the text
    ("head", re.compile(r"\bif\s+(?P<neg>not\s+)?(?P<var>\w+)\[\s*0?\s*:\s*(?P<size>\d+)\s*\]\s*==\s*" + _LIT
                        + _END)),
)
#: ``pattern = re.compile('RE')`` (``re.I``: ignoring case), for ``if pattern.search(line)``.
_COMPILED = r"\b{}\s*=\s*re\.compile\(\s*" + _LIT.replace("{", "{{").replace("}", "}}") \
    + r"\s*(?P<fold>,\s*(?:re\.)?(?:I|IGNORECASE)\s*)?\)"


def numbers(code: str) -> set[str]:
    """The names ``code`` only ever binds to numbers: set from a number literal or a count (``n = 0``,
    ``total = sum(...)``), then changed in place (``+=``) or not at all."""
    found: set[str] = set()
    other: set[str] = set()
    for part in re.split(r"[;\n]", code):
        if "=" not in part and "for" not in part and "as" not in part:
            continue
        setting = _NUMBER_SET.match(part)
        if setting is not None and "==" not in part:
            found.update(name for name in re.split(r"\s*[,=]\s*", setting.group(1).strip()) if name)
            continue
        assigned = _ASSIGN.match(part)
        if assigned is not None:
            other.add(assigned.group(1))
        other.update(_BINDS.findall(part))
    return found - other


def in_loop(code: str, start: int) -> bool:
    """Is the statement at ``start`` in the body of a ``for`` or ``while`` (its line's header, or a block
    above it with less indentation)?"""
    line_start = code.rfind("\n", 0, start) + 1
    if _LOOP_HEAD.match(code[line_start:start]):
        return True  # `for l in f: n += 1; print(n)`
    return any(_LOOP_HEAD.match(head) for head in _headers(code, line_start))


def _headers(code: str, line_start: int) -> list[str]:
    """The lines that open the blocks the line at ``line_start`` is in, nearest first."""
    line = code[line_start:code.find("\n", line_start) if "\n" in code[line_start:] else len(code)]
    indent = len(line) - len(line.lstrip())
    heads: list[str] = []
    end = line_start - 1
    for _ in range(_LOOK_BACK):
        if indent == 0 or end <= 0:
            break
        begin = code.rfind("\n", 0, end) + 1
        above, end = code[begin:end], begin - 1
        if not above.strip() or above.lstrip().startswith("#"):
            continue
        depth = len(above) - len(above.lstrip())
        if depth < indent:
            heads.append(above)
            indent = depth
    return heads


def prints_numbers(part: str, code: str, start: int, known: set[str], *, python: bool) -> bool:
    """Does the printing statement ``part`` (at ``start`` in ``code``) print only numbers (``known``: the names
    ``numbers`` found) and words written in it, once (not in a loop)? (``print('done')`` is python's only: a
    print of no number elsewhere may be a ``p`` or ``say`` this scan misreads.)"""
    if not (known or python) or not _PRINT_CALL.search(part) or in_loop(code, start):
        return False
    if not python:  # a template literal prints its `${...}` expressions; the rest is words written in it
        part = _TEMPLATE.sub(lambda found: " ".join(re.findall(r"\$\{([^{}]*)\}", found.group(1))) or " ", part)
    names = set(_NAME.findall((_STRING if python else _PLAIN_STRING).sub(_expressions, part)))
    counted = names & known
    return (bool(counted) or python) and names <= counted | _PLAIN


def _expressions(match: re.Match[str]) -> str:
    """A string literal as the names it prints: an f-string's ``{n:,}`` is ``n``; any other string is none."""
    if "f" not in match.group(1).lower():
        return " "
    return " ".join(re.split(r"[:!]", inner)[0] for inner in re.findall(r"\{([^{}]*)\}", match.group(3)))


def printed(part: str) -> str:
    """What a printing statement prints from: a comprehension's value (before its ``for``), or what follows a
    filter of a text's lines (``.split('\\n').filter(...)``: the read before it is the lines filtered)."""
    lines = _CONDITIONS[3][1].search(part)
    return part[lines.end():] if lines is not None else re.split(r"\bfor\b", part)[0]


def condition(part: str, code: str, start: int) -> tuple[str, str, bool, bool] | None:
    """(pattern, grep syntax, inverted, ignoring case) of the one condition that picks what ``part`` prints: in
    the statement (a comprehension, ``if C: print(l)``) or the ``if`` block it is in; None when there is none.
    The condition tests a loop's variable (``for l in ...``: a line) and the print prints from it: ``if 'X' in
    text: print(text)`` of a whole text is no grep."""
    line_start = code.rfind("\n", 0, start) + 1
    heads = _headers(code, line_start)
    shown = printed(part)
    for text in (code[line_start:start + len(part)], *heads[:1]):
        for kind, pattern in _CONDITIONS:
            found = pattern.search(text)
            if found is None or (kind != "lines" and not (
                    re.search(rf"\bfor\s+{found.group('var')}\s+in\b", code)
                    and re.search(rf"\b{found.group('var')}\b", shown))):
                continue
            if kind == "compiled":
                found = _compiled(code, found)
                if found is None:
                    continue
            picked = _picked(kind, found)
            if picked is not None:
                return picked
    return None


def _picked(kind: str, found: re.Match[str]) -> tuple[str, str, bool, bool] | None:
    """The grep a matched condition is."""
    negated, literal = bool(found.group("neg")), found.group("lit")
    if kind == "fixed":
        literal, lowered = _unescape(literal), bool(found.group("low"))
        if lowered and literal != literal.lower():
            return None  # `'ERROR' in l.lower()` never matches: an odd case, left to the whole-file judgement
        return literal, "fixed", negated != bool(found.group("notin")), lowered
    if kind == "lines":  # `.split('\\n').filter(l => l.includes('X'))`, `l.startsWith('X')`
        literal = _unescape(literal)
        return (literal, "fixed", negated, False) if found.group("how") == "includes" else \
            ("^" + re.escape(literal), "perl", negated, False)
    if kind in ("re", "compiled"):
        anchor = "^" if found.group("how") == "match" else ""
        return anchor + literal, "perl", negated, bool(found.group("fold"))
    literal = _unescape(literal)
    if kind == "head" and int(found.group("size")) != len(literal):
        return None  # never equal (or, for bytes, not a text's length): left to the whole-file judgement
    return "^" + re.escape(literal), "perl", negated, False


def _compiled(code: str, found: re.Match[str]) -> re.Match[str] | None:
    """The ``re.compile`` a condition's pattern object was made by, as a match with the groups of a ``re``
    condition (``neg`` and ``how`` from the condition itself)."""
    made = re.search(_COMPILED.format(re.escape(found.group("name"))), code)
    if made is None:
        return None
    text = f"if {found.group('neg') or ''}re.{found.group('how')}({made.group('q')}{made.group('lit')}" \
           f"{made.group('q')}, {found.group('var')}{', re.I' if made.group('fold') else ''}):"
    return _CONDITIONS[1][1].search(text)


def _unescape(text: str) -> str:
    return text.replace("\\'", "'").replace('\\"', '"').replace("\\\\", "\\")
