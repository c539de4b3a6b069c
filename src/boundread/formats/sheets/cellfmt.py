"""A cell's value as the spreadsheet shows it, where the raw XML value would be wrong (issue 22, item 3).

- ``_xHHHH_`` escapes (ECMA-376 Part 1, 22.9.2.19 ST_Xstring): a character XML cannot hold (a CR, a control
  character) is written as ``_x`` + four hex digits + ``_``; an underscore that would start such a sequence
  by chance is itself escaped as ``_x005F_``, so ``_x005F_x0041_`` is the literal text ``_x0041_``. Decoded
  left to right, without re-reading what a decoded escape produced.
- Elapsed time (``[h]:mm:ss``, ``[mm]:ss``, ``[s]``): the serial is a count of days, not a date, in the 1900
  and the 1904 date systems alike; 10.632 days under ``[h]:mm:ss`` shows 255:10:10.
- Percentages and currencies (``0.00%``, ``"$"#,##0.00``, ``#,##0.00 [$€-407]``): the number as its format
  shows it - 0.125 under ``0.0%`` is 12.5%, 1234.5 under ``[$€-407] #,##0.00`` is € 1,234.50 - since the bare
  number reads as another amount. Decimals and grouping come from the format; the separators are the file's
  invariant ones (``.`` and ``,``), whatever the reader's locale would draw.
- Formulas saved without a computed value: counted and named, so the output can say so (never a silent 0).
"""

from __future__ import annotations

import re

from boundread import record as rec

_ESCAPE = re.compile(r"_x([0-9A-Fa-f]{4})_")
#: A format's parts that are not units: quoted text, a backslash escape, _x (a space as wide as x), *x (fill).
_LITERAL = re.compile(r'"([^"]*)"|\\(.)|_(.)|\*(.)')
_TOKEN = re.compile(r'"[^"]*"|\\.|_.|\*.|\[[^\]]*\]|h+|m+|s+|\.0+|.', re.IGNORECASE)
_ELAPSED = re.compile(r"\[(h+|m+|s+)\]", re.IGNORECASE)
#: Built-in number format 46 is [h]:mm:ss (ECMA-376 Part 1, 18.8.30).
BUILTIN_DURATIONS = {46: "[h]:mm:ss"}
#: Built-in percentages 9 and 10 (the built-in currencies, 5-8, are the reader's locale's: not known here).
BUILTIN_SHOWN = {9: "0%", 10: "0.00%"}
#: One part of a number format: quoted text, an escaped character, a padding or fill character, a bracket
#: ([Red], [$€-407], [>100]), a block of digit placeholders, or any other character.
_PART = re.compile(r'"[^"]*"|\\.|_.|\*.|\[[^\]]*\]|[0#?][0#?,.]*|.', re.S)
_CURRENCIES = frozenset("$€£¥₹₽¢₩₪₫₺₴₦₱฿")
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


class Uncached(rec.Record):
    """Formula cells of one read whose value was never computed: no ``<v>``, or the writer's placeholder
    (a 0 or "" in a workbook that asks to be recalculated on open, as xlsxwriter writes)."""

    cells: list[str] = rec.field(default_factory=list)
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


def _sections(code: str) -> list[str]:
    """The format's ``;``-separated sections (a ``;`` inside quotes is text)."""
    parts: list[str] = []
    current: list[str] = []
    quoted = False
    for char in code:
        if char == '"':
            quoted = not quoted
        if char == ";" and not quoted:
            parts.append("".join(current))
            current = []
        else:
            current.append(char)
    return [*parts, "".join(current)]


def is_shown(code: str) -> bool:
    """A number format whose shown value differs in meaning from the bare number: a percentage or a currency
    (and not a date, a fraction or a scientific form, which it leaves alone)."""
    first = _sections(code)[0]
    parts = _PART.findall(first)
    plain = "".join(part for part in parts if len(part) == 1)
    if not any(part[0] in "0#?" for part in parts) or "/" in plain or plain.lower().count("e") or any(
            c in plain.lower() for c in "dmyhs"):
        return False
    money = any(part.startswith("[$") and len(part) > 3 for part in parts) or any(
        char in _CURRENCIES for part in parts for char in (part.strip('"') if part.startswith('"') else part[-1:]))
    return "%" in plain or money


def shown_text(number: float, code: str) -> str:
    """``number`` as the percentage or currency format ``code`` shows it (the section for its sign)."""
    if number != number or number in (float("inf"), float("-inf")):
        return str(number)
    sections = _sections(code)
    negative = number < 0 and len(sections) > 1
    section = sections[1] if negative else sections[0]
    value = abs(number) if negative else number
    parts = _PART.findall(section)
    value *= 100 ** sum(part == "%" for part in parts)
    out: list[str] = []
    numbered = False
    for part in parts:
        if part[0] in "0#?" and not numbered:
            out.append(_digits(value, part))
            numbered = True
        elif part[0] in "0#?" or part.startswith(("_", "*")) or (part.startswith("[") and not part.startswith("[$")):
            continue  # a second digit block, padding, fill, a colour or a condition: nothing shown
        elif part.startswith("[$"):
            out.append(part[2:-1].split("-", 1)[0])
        elif part.startswith('"'):
            out.append(part[1:-1])
        elif part.startswith("\\"):
            out.append(part[1:])
        else:
            out.append(part)
    return "".join(out).strip()


def _digits(value: float, block: str) -> str:
    """``value`` with the decimals (at least the ``0``s after the point, at most all its places) and the thousands
    grouping of a digit block (``#,##0.0#``)."""
    from decimal import ROUND_HALF_UP, Decimal  # a number shown rounded only (4 ms of start-up)

    whole, _, decimals = block.partition(".")
    most = sum(c in "0#?" for c in decimals)
    least = decimals.count("0")
    exact = Decimal(repr(value)).quantize(Decimal(1).scaleb(-most), ROUND_HALF_UP)  # half up, as Excel shows it
    text = f"{exact:,.{most}f}" if "," in whole else f"{exact:.{most}f}"
    if most > least and "." in text:
        text = text.rstrip("0")
        places = len(text.partition(".")[2])
        text += "0" * (least - places) if places < least else ""
        text = text.rstrip(".") if not least else text
    return text

