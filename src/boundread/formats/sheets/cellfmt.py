"""A cell's value as the spreadsheet shows it, where the raw XML value would be wrong (issue 22, item 3).

- ``_xHHHH_`` escapes (ECMA-376 Part 1, 22.9.2.19 ST_Xstring): a character XML cannot hold (a CR, a control
  character) is written as ``_x`` + four hex digits + ``_``; an underscore that would start such a sequence
  by chance is itself escaped as ``_x005F_``, so ``_x005F_x0041_`` is the literal text ``_x0041_``. Decoded
  left to right, without re-reading what a decoded escape produced.
- Elapsed time (``[h]:mm:ss``, ``[mm]:ss``, ``[s]``): the serial is a count of days, not a date, in the 1900
  and the 1904 date systems alike; 10.632 days under ``[h]:mm:ss`` shows 255:10:10.
- Formulas saved without a computed value: counted and named, so the output can say so (never a silent 0).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_ESCAPE = re.compile(r"_x([0-9A-Fa-f]{4})_")
#: A format's parts that are not units: quoted text, a backslash escape, _x (a space as wide as x), *x (fill).
_LITERAL = re.compile(r'"([^"]*)"|\\(.)|_(.)|\*(.)')
_TOKEN = re.compile(r'"[^"]*"|\\.|_.|\*.|\[[^\]]*\]|h+|m+|s+|\.0+|.', re.IGNORECASE)
_ELAPSED = re.compile(r"\[(h+|m+|s+)\]", re.IGNORECASE)
#: Built-in number format 46 is [h]:mm:ss (ECMA-376 Part 1, 18.8.30).
BUILTIN_DURATIONS = {46: "[h]:mm:ss"}
NAMED = 20  # cells named in a warning; the rest are counted


def unescape(text: str) -> str:
    """``text`` with its ``_xHHHH_`` escapes decoded (UTF-16 pairs joined; a lone half becomes U+FFFD)."""
    if "_x" not in text:
        return text
    decoded = _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), text)
    if any("\ud800" <= ch <= "\udfff" for ch in decoded):
        decoded = decoded.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return decoded


def is_duration(code: str) -> bool:
    """A number format that shows elapsed time: an ``[h]``, ``[m]`` or ``[s]`` unit, and no date part."""
    section = _LITERAL.sub("", code.split(";")[0])
    if not _ELAPSED.search(section):
        return False
    rest = re.sub(r"\[[^\]]*\]", "", section).lower()
    return "d" not in rest and "y" not in rest


def duration_text(days: float, code: str) -> str:
    """``days`` shown under the elapsed-time format ``code`` (its first section): "255:10:10"."""
    section = code.split(";")[0]
    tokens = _TOKEN.findall(section)
    digits = max((len(t) - 1 for t in tokens if t.startswith(".0")), default=0)
    scale = 10 ** digits
    units = int(abs(days) * 86400 * scale + 0.5)  # half up, as Excel shows it (round() would go to even)
    seconds, fraction = divmod(units, scale)
    largest = next((m.group(1)[0].lower() for m in map(_ELAPSED.fullmatch, tokens) if m), "h")
    out = ["-" if days < 0 and units else ""]
    for token in tokens:
        lower = token.lower()
        elapsed = _ELAPSED.fullmatch(token)
        unit = elapsed.group(1)[0].lower() if elapsed else lower[0] if lower[0] in "hms" and lower.isalpha() else ""
        width = len(elapsed.group(1)) if elapsed else len(token)
        if unit:
            out.append(str(_amount(seconds, unit, largest)).zfill(width))
        elif lower.startswith(".0"):
            out.append("." + str(fraction).zfill(digits))
        elif token.startswith('"'):
            out.append(token[1:-1])
        elif token.startswith("\\"):
            out.append(token[1:])
        elif token.startswith("_"):
            out.append(" ")
        elif not token.startswith(("*", "[")):
            out.append(token)
    return "".join(out)


def _amount(seconds: int, unit: str, largest: str) -> int:
    """The number a unit shows: the whole elapsed time in the bracketed (largest) unit, the rest modulo."""
    per = {"h": 3600, "m": 60, "s": 1}[unit]
    whole = seconds // per
    if unit == largest or per > {"h": 3600, "m": 60, "s": 1}[largest]:
        return whole
    return whole % (60 if unit != "h" else 24)


@dataclass
class Uncached:
    """Formula cells of one read whose value was never computed: no ``<v>``, or the writer's placeholder
    (a 0 or "" in a workbook that asks to be recalculated on open, as xlsxwriter writes)."""

    cells: list[str] = field(default_factory=list)
    count: int = 0

    def add(self, ref: str) -> None:
        self.count += 1
        if len(self.cells) < NAMED:
            self.cells.append(ref)

    def warning(self, sheet: str) -> str | None:
        if not self.count:
            return None
        more = f" and {self.count - len(self.cells):,} more" if self.count > len(self.cells) else ""
        return (f"sheet '{sheet}': {self.count:,} formula cell(s) saved without a computed value, shown as "
                f"saved (empty or 0): {', '.join(self.cells)}{more} - open and save the file in Excel or "
                "LibreOffice to compute them")
