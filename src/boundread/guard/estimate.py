"""How much a grep prints of a file, estimated from a bounded sample of it before it runs.

``grep ERROR big.log`` prints forty lines, ``grep INFO big.log`` nine tenths of the file: the pattern decides,
not the file's size. The pattern is translated to Python's ``re`` (grep's basic and extended syntax, fixed
strings, Perl/Rust syntax for ``rg``/``ag``/``ack``/``-P``) and run over up to ``WINDOWS`` windows of
``WINDOW`` bytes spread over the file (a gzip file's first ``WINDOW * WINDOWS`` bytes unpacked, for ``zgrep``);
what the lines that pass would print there (``-o``: the matches; ``-v``: the other lines; ``-A/-B/-C``: their
context; file names and line numbers in front) is scaled to the whole file. So an estimate reads at most
256 KB, whatever the file.

It errs towards printing: a pattern ``re`` cannot take is replaced by its longest literal part, or by "every
line" when it has none; a line longer than the window (a minified file) is taken to match, since one match
anywhere prints all of it. Only imported when a command greps: ``re`` costs start-up on the hook path.

A file with a UTF-16 BOM is matched as its text, in UTF-8, when the grep decodes it (``Grep.decodes``; when
the caller does not say, ripgrep's kind: ``perl`` syntax, rg, ag, ack, grep -P): rg reads such a file as text
and prints it in UTF-8, so ``rg INFO app.log`` of a UTF-16 log prints its INFO lines, which the raw bytes
(``I\\0N\\0F\\0O\\0``) never match. GNU grep calls the same file binary and prints one line; sizing ``grep -P``
as rg errs towards printing, as everything here does.
"""

from __future__ import annotations

import re
from time import monotonic

from boundread.guard.bounds import Grep

WINDOW = 64 * 1024
WINDOWS = 4
#: A line fragment this long that the window does not hold whole is taken to match (it may, anywhere).
LONG_LINE = 16 * 1024
_NUMBER = 7  # "12345:" in front of a line, for -n
_CLASSES = {"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z", "lower": "a-z",
            "space": " \\t\\n\\r\\f\\v", "blank": " \\t", "punct": "!-/:-@\\[-`{-~", "xdigit": "0-9A-Fa-f",
            "word": "\\w", "cntrl": "\\x00-\\x1f\\x7f", "print": " -~", "graph": "!-~"}
_META = frozenset("\\.^$*+?()[]{}|")
#: A fixed string found nowhere in the file prints nothing: the file is scanned for it up to SCAN_MOST bytes.
SCAN_MOST, SCAN_CHUNK = 32 * 1024 * 1024, 1024 * 1024
#: Seconds one file's estimate may take: past it, the lines not yet looked at are taken to match.
SECONDS = 0.05
#: A group that repeats and holds a repeat (``(a+)+``, ``(.*)*``): backtracking can take exponential time on one
#: line, and ``re`` cannot be stopped, so such a pattern is replaced by its longest literal part.
_NESTED = re.compile(r"\((?:[^()]*[*+}?])[^()]*\)\s*[*+{]")


def printed(path: str, size: int, spec: Grep, compressed_size: int | None = None,
            members: tuple[str, ...] = ()) -> int:
    """The bytes ``spec`` prints of the file at ``path`` (``size`` bytes; for a gzip file or a zip's
    ``members`` with ``spec.compressed``, ``compressed_size`` is what it unpacks to). 0 when the file cannot be
    read."""
    matcher = compile_spec(spec)
    try:
        windows = _gzip_windows(path, members) if spec.compressed else _windows(path, size)
    except (OSError, EOFError, ValueError):
        return 0
    total = (compressed_size or size) if spec.compressed else size
    sampled = sum(len(data) for data, _first, _last in windows)
    if not sampled:
        return 0
    codec = _bom_codec(windows, spec)
    windows = _as_read(windows, codec)
    prefix = (len(path.rsplit("/", 1)[-1]) + 1 if spec.names else 0) + (_NUMBER if spec.numbers else 0)
    deadline = monotonic() + SECONDS
    out = sum(_window_output(data, first, last, matcher, spec, prefix, deadline) for data, first, last in windows)
    if out and not spec.compressed and _absent(path, spec, codec or "utf-8"):
        return 0  # `rg TODO` of a minified file: its long lines were taken to match, and TODO is nowhere in it
    return round(out * total / sampled)


def _absent(path: str, spec: Grep, codec: str = "utf-8") -> bool:
    """True when ``spec`` is fixed strings (none inverted) and none of them is anywhere in the file (whose text is
    in ``codec``): then no line matches, whatever the sample guessed of lines too long to see whole. Reads at most
    SCAN_MOST bytes."""
    if spec.invert or not spec.patterns:
        return False
    words = [part for given in spec.patterns for part in given.split("\n")]
    if not all(words) or (spec.syntax != "fixed" and any(ch in _META for word in words for ch in word)):
        return False
    wanted = [word.encode(codec, "surrogateescape" if codec == "utf-8" else "replace") for word in words]
    if spec.ignore_case:
        if not all(word.isascii() for word in wanted):
            return False
        wanted = [word.lower() for word in wanted]
    keep = max(len(word) for word in wanted) - 1
    try:
        with open(path, "rb") as fh:
            carried, read = b"", 0
            while read < SCAN_MOST:
                chunk = fh.read(SCAN_CHUNK)
                if not chunk:
                    return True
                read += len(chunk)
                text = carried + (chunk.lower() if spec.ignore_case else chunk)
                if any(word in text for word in wanted):
                    return False
                carried = text[-keep:] if keep else b""
    except OSError:
        return False
    return False  # not read to its end: it may be there


def distinct(path: str, size: int, spec: Grep | None, compressed_size: int | None = None) -> int:
    """The bytes the distinct lines (``spec``'s matches with ``-o``, its lines, or every line when None) take,
    each with a count in front (``uniq -c``). When the sample's distinct values are few beside its items, they are
    all there are (a level, a user, a status code); else they grow with the file, scaled as ``printed`` is."""
    matcher = compile_spec(spec) if spec is not None else None
    try:
        windows = _gzip_windows(path) if spec is not None and spec.compressed else _windows(path, size)
    except (OSError, EOFError, ValueError):
        return 0
    total = (compressed_size or size) if spec is not None and spec.compressed else size
    sampled = sum(len(data) for data, _first, _last in windows)
    if spec is not None:
        windows = _as_read(windows, _bom_codec(windows, spec))
    items = 0
    seen: set[bytes] = set()
    for data, _first, _last in windows:
        for line in data.split(b"\n"):
            if spec is not None and not _passes(line, matcher, spec):
                continue
            if spec is not None and spec.only and matcher is not None:
                found = [match.group() for match in matcher.finditer(line) if match.end() > match.start()]
            else:
                found = [line]
            items += len(found)
            seen.update(found)
    shown = sum(len(value) + _NUMBER + 1 for value in seen)
    if not sampled or len(seen) <= max(1, items // 10):
        return shown
    return round(shown * total / sampled)


def compile_spec(spec: Grep) -> re.Pattern[bytes] | None:
    """The patterns as one ``re`` pattern over bytes; None when every line matches (no pattern, or an empty one)."""
    sources: list[str] = []
    for given in spec.patterns:
        for pattern in given.split("\n"):  # grep takes each line of a pattern as a pattern of its own
            if not pattern:
                return None if not spec.line else re.compile(b"^$")
            sources.append(python_source(pattern, spec.syntax))
    if not sources:
        return None
    body = "|".join(f"(?:{source})" for source in sources)
    if spec.line:
        body = f"^(?:{body})$"
    elif spec.word:
        body = f"(?<!\\w)(?:{body})(?!\\w)"
    try:
        return re.compile(body.encode("utf-8", "surrogateescape"), re.IGNORECASE if spec.ignore_case else 0)
    except (re.error, OverflowError, RecursionError):  # the parts together: take the literals of each
        literals = "|".join(re.escape(_literal(p)) for p in spec.patterns for p in p.split("\n"))
        return re.compile(literals.encode("utf-8", "surrogateescape"), re.IGNORECASE if spec.ignore_case else 0)


def python_source(pattern: str, syntax: str) -> str:
    """One pattern as Python ``re`` source; its longest literal part when it does not translate."""
    if syntax == "fixed":
        return re.escape(pattern)
    source = _translate(pattern, syntax)
    if _NESTED.search(source):
        return re.escape(_literal(pattern))
    try:
        re.compile(source)
    except (re.error, OverflowError, RecursionError):
        return re.escape(_literal(pattern))
    return source


def _translate(pattern: str, syntax: str) -> str:
    """grep's basic (``\\|``, ``\\(``, ``\\{``: the operators are escaped) or extended syntax, or Perl's, in
    Python's: POSIX classes spelled out, ``\\<``/``\\>`` as ``\\b``, a basic pattern's literal ``+?(){}|``."""
    basic, perl = syntax == "basic", syntax == "perl"
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        if ch == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            i += 2
            if basic and nxt in "|(){}+?":
                out.append(nxt)
            elif nxt in "<>" and not perl:
                out.append("\\b")
            elif nxt.isdigit() or nxt in "wWsSbBdDAzZ" or (perl and nxt.isalpha()):
                out.append("\\" + nxt)
            else:
                out.append(re.escape(nxt))
            continue
        if ch == "[":
            text, i = _bracket(pattern, i, escapes=perl)
            out.append(text)
            continue
        if basic and ch in "|(){}+?":
            out.append("\\" + ch)
        elif ch == "*" and not perl and (not out or out[-1] in ("(", "|", "^")):
            out.append("\\*")  # a leading star is literal in grep
        elif ch == "^" and basic and out and out[-1] not in ("(", "|"):
            out.append("\\^")  # an anchor only at the start of a basic pattern or a group
        elif ch == "$" and basic and i + 1 < n and not pattern.startswith(("\\)", "\\|"), i + 1):
            out.append("\\$")
        elif perl and ch == "(" and pattern.startswith("(?<", i) and pattern[i + 3:i + 4] not in ("=", "!"):
            out.append("(?P<")  # a named group, as Perl and Rust write it
            i += 3
            continue
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def _bracket(pattern: str, start: int, *, escapes: bool) -> tuple[str, int]:
    """A bracket expression from ``pattern[start] == "["``: the Python set and the index past it. POSIX
    classes (``[:alpha:]``) are spelled out; a backslash is literal unless ``escapes`` (Perl)."""
    j = start + 1
    out = "["
    if pattern[j:j + 1] == "^":
        out, j = out + "^", j + 1
    if pattern[j:j + 1] == "]":
        out, j = out + "\\]", j + 1
    while j < len(pattern) and pattern[j] != "]":
        if pattern.startswith("[:", j) and pattern.find(":]", j + 2) > 0:
            end = pattern.find(":]", j + 2)
            out += _CLASSES.get(pattern[j + 2:end], "")
            j = end + 2
            continue
        ch = pattern[j]
        if ch == "\\" and escapes and j + 1 < len(pattern):
            out += pattern[j:j + 2]
            j += 2
            continue
        out += "\\" + ch if ch in "\\[" else ch
        j += 1
    if j >= len(pattern):  # no closing bracket: a literal [
        return "\\[", start + 1
    return out + "]", j + 1


def _literal(pattern: str) -> str:
    """The longest run of plain characters in a pattern ('' when it has none: then every line matches)."""
    runs, run = [], ""
    escaped = False
    for ch in pattern:
        if escaped:
            run, escaped = (run + ch if not ch.isalnum() else ""), False
        elif ch == "\\":
            runs.append(run)
            run, escaped = "", True
        elif ch in _META:
            runs.append(run)
            run = ""
        else:
            run += ch
    runs.append(run)
    return max(runs, key=len)


def _windows(path: str, size: int) -> list[tuple[bytes, bool, bool]]:
    """(bytes, starts the file, ends the file) for each window: the whole file when it is small."""
    with open(path, "rb") as fh:
        if size <= WINDOW * WINDOWS:
            return [(fh.read(WINDOW * WINDOWS), True, True)]
        out = []
        for k in range(WINDOWS):
            at = (size - WINDOW) * k // (WINDOWS - 1)
            at -= at % 4  # on a character's first byte in UTF-16/32 (any place will do for bytes)
            fh.seek(at)
            out.append((fh.read(WINDOW), at == 0, at + WINDOW >= size))
        return out


def _bom_codec(windows: list[tuple[bytes, bool, bool]], spec: Grep) -> str | None:
    """The UTF-16 codec the grep reads the file in, from its BOM, when it decodes (``spec.decodes``; unsaid:
    ripgrep's kind, ``perl`` syntax); None: it reads the bytes as they are (no BOM: rg calls the file binary;
    UTF-32's BOM: rg does not decode it; GNU grep)."""
    decodes = spec.syntax == "perl" if spec.decodes is None else spec.decodes
    if spec.compressed or not decodes or not windows:
        return None
    head = windows[0][0][:4]
    if not head.startswith((b"\xff\xfe", b"\xfe\xff")) or head == b"\xff\xfe\x00\x00":
        return None
    return "utf-16-le" if head.startswith(b"\xff\xfe") else "utf-16-be"


def _as_read(windows: list[tuple[bytes, bool, bool]], codec: str | None) -> list[tuple[bytes, bool, bool]]:
    """The windows as the grep reads them: in UTF-8 when it decodes the file (``codec``), which is what it
    matches and prints; else as they are. The sizes scale by the raw bytes sampled, so the estimate stays in
    the bytes printed."""
    if codec is None:
        return windows
    return [(data[:len(data) - len(data) % 2].decode(codec, "replace").lstrip("\ufeff").encode("utf-8"), first, last)
            for data, first, last in windows]


def _gzip_windows(path: str, members: tuple[str, ...] = ()) -> list[tuple[bytes, bool, bool]]:
    """The first bytes a gzip file (or a zip's ``members``) unpacks to (at most ``WINDOW * WINDOWS``)."""
    from boundread.guard import gunzipped

    data = gunzipped.head(path, WINDOW * WINDOWS + 1, members)
    return [(data[:WINDOW * WINDOWS], True, len(data) <= WINDOW * WINDOWS)]


def _window_output(data: bytes, first: bool, last: bool, matcher: re.Pattern[bytes] | None, spec: Grep,
                   prefix: int, deadline: float) -> int:
    """What the grep prints of the whole lines in one window (a cut line at an edge: only when it is long)."""
    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines.pop()
    head = None if first else lines.pop(0) if lines else None
    tail = None if last or not lines else lines.pop()
    out = 0
    for cut in (head, tail):  # a long line the window cuts: one match anywhere prints it whole
        if cut is not None and len(cut) >= LONG_LINE:
            out += _matches_bytes(cut, matcher, prefix) if spec.only else len(cut) + prefix
    passed: list[bool] = []
    for at, line in enumerate(lines):
        if at % 256 == 255 and monotonic() > deadline:  # out of time: the rest is taken to match
            passed.extend([True] * (len(lines) - at))
            break
        passed.append(_passes(line, matcher, spec))
    if spec.only:
        return out + sum(_matches_bytes(line, matcher, prefix) for line, ok in zip(lines, passed, strict=True)
                         if ok and not spec.invert)
    shown = passed
    if spec.before or spec.after:
        shown = [False] * len(lines)
        for at, ok in enumerate(passed):
            if ok:
                for near in range(max(0, at - spec.before), min(len(lines), at + spec.after + 1)):
                    shown[near] = True
    return out + sum(len(line) + 1 + prefix for line, ok in zip(lines, shown, strict=True) if ok)


def _passes(line: bytes, matcher: re.Pattern[bytes] | None, spec: Grep) -> bool:
    found = True if matcher is None else matcher.search(line) is not None
    return found != spec.invert


def _matches_bytes(line: bytes, matcher: re.Pattern[bytes] | None, prefix: int) -> int:
    """``-o``: each non-empty match on its own line."""
    if matcher is None:
        return 0
    return sum(len(match.group()) + 1 + prefix for match in matcher.finditer(line) if match.end() > match.start())
