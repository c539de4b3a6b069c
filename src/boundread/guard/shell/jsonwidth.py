"""How wide jq's output lines are: a line bound after ``jq . f`` (``| head -n 50``) bounds the output's lines, which
pretty-printing makes short, not the file's (a minified file is one line). Apart from jsonprint.py, which reads
files through reads.py, so that reads.py can ask it without an import circle.
"""

from __future__ import annotations

from boundread.guard.bounds import BYTES, LINES, Bound

#: The marks jsonprint.py puts on a flow of jq output: pretty-printed, or one element a line (``-c '.[]'``).
PRETTY, ELEMENTS = "json-pretty", "json-elements"
_SAMPLE = 64 * 1024


def output_bound(path: str, marker: Bound, lines: Bound) -> Bound | None:
    """``lines`` of jq's output as bytes of the file at ``path``: the longest output line, from a sample, times
    the lines; None when the sample cannot tell (an element longer than it, not JSON)."""
    width = _width(path, marker.unit, marker.skip)
    if width is None:
        return None
    return Bound(BYTES, (lines.count + (lines.skip if not lines.from_end else 0)) * width, words=lines.words)


def _width(path: str, unit: str, indent: int) -> int | None:
    import re

    try:
        with open(path, "rb") as fh:
            sample = fh.read(_SAMPLE).decode("utf-8", "replace")
    except OSError:
        return None
    if unit != PRETTY:
        return _longest_element(sample)
    matches = list(re.finditer(r'"(?:[^"\\]|\\.)*"', sample))
    longest = max((m.end() - m.start() for m in matches), default=2)
    last = matches[-1].end() if matches else 0
    if '"' in sample[last:]:  # a string the sample cuts: as long as what it holds of it, at least
        longest = max(longest, len(sample) - sample.index('"', last))
        if longest > _SAMPLE // 2:
            return None  # a string of most of the sample: it may be most of the file
    numbers = max((len(n) for n in re.findall(r"-?\d[\d.eE+-]*", sample)), default=1)
    rest = re.sub(r'"(?:[^"\\]|\\.)*"', "", sample[:last])
    return 2 * max(longest, numbers) + indent * _depth(rest) + 8


def _depth(text: str) -> int:
    from itertools import accumulate

    steps = [1 if ch in "[{" else -1 for ch in text if ch in "[]{}"]
    return max(accumulate(steps), default=0)


def _longest_element(sample: str) -> int | None:
    """The longest complete element of a top-level array in the sample (compact, plus a newline); None when
    the sample has no complete element (one is longer than it) or is no array."""
    import re

    stripped = re.sub(r'"(?:[^"\\]|\\.)*"', lambda m: '"' + "x" * (len(m.group()) - 2) + '"', sample)
    begin = stripped.find("[")
    if begin < 0 or stripped[:begin].strip():
        return None
    depth, start, longest = 0, begin + 1, 0
    for at, ch in enumerate(stripped[begin:], begin):
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        if depth == 1 and ch == ",":
            longest, start = max(longest, at - start), at + 1
        elif depth == 0:
            return max(longest, at - start) + 1
    return longest + 1 if longest else None


def reshaped(found: tuple[Bound, ...], path: str, bound: Bound) -> Bound | None:
    """A line bound on a flow of jq output (marked): the same lines as bytes of its file; None when unmarked."""
    if bound.unit != LINES:
        return None
    marker = next((b for b in found if b.unit in (PRETTY, ELEMENTS)), None)
    return output_bound(path, marker, bound) if marker is not None else None
