"""What a chunk holds, in the words the manifest gives it: ``lines 1-480``, ``pages 3-4 (page 4 cut)``, ``sheet
'Q1' rows 1-800``, or for JSON the paths ``extract --path`` takes: ``.meta; .items[0:1200] ([1199] cut)``."""

from __future__ import annotations

from boundread.chunks.pieces import HEADING, PARAGRAPH, UNIT, Piece, Unit

MAX_PATHS = 4  # paths a JSON chunk's span names, the last one included
#: an outermost array (its elements are rows), a value named by its path, an object walked key by key
JSON_UNITS = ("array", "value", "object")


def span(done: list[Piece], first: int, last: int, continues: bool, after: Piece | None, units_seen: bool) -> str:
    """``done``: the chunk's pieces; ``first``-``last``: its lines; ``continues``: its last unit goes on in the
    next chunk, whose first piece is ``after`` (None at the end of the text)."""
    lines = f"lines {first}-{last}" if last > first else f"line {first}"
    if not units_seen or all(p.unit is None for p in done):
        heading = next((p for p in done if p.level == HEADING), None)
        if heading is None:
            return lines
        title = heading.text.strip().lstrip("#").strip()[:60]
        return lines + (f" (from heading '{title}')" if heading is done[0] else f" (heading '{title}')")
    runs: list[tuple[Unit, list[Piece]]] = []
    for piece in done:
        if piece.unit is None:
            continue
        if runs and runs[-1][0] is piece.unit:
            runs[-1][1].append(piece)
        else:
            runs.append((piece.unit, [piece]))
    # an archive's JSON member: its marker's run goes (its paths name the member), and the runs of its paths
    # and of other members are named each their own way
    runs = [run for n, run in enumerate(runs) if not (run[0].label == "member" and all(p.header for p in run[1])
                                                      and n + 1 < len(runs) and runs[n + 1][0].label in JSON_UNITS)]
    groups: list[list[tuple[Unit, list[Piece]]]] = []
    for run in runs:
        if groups and (groups[-1][-1][0].label in JSON_UNITS) == (run[0].label in JSON_UNITS):
            groups[-1].append(run)
        else:
            groups.append([run])
    return "; ".join(_paths(group, after, n == 0) if group[0][0].label in JSON_UNITS else
                     _units(group, continues and n == len(groups) - 1) for n, group in enumerate(groups))


def _units(runs: list[tuple[Unit, list[Piece]]], continues: bool) -> str:
    """Pages, slides, members or sheets: ``pages 3-4 (page 4 cut)``."""
    head_unit = runs[0][0]
    began_before = not (runs[0][1][0].level == UNIT or runs[0][1][0].header)
    if head_unit.label == "sheet":
        parts = []
        for unit, pieces in runs:
            rows = [p.row for p in pieces if p.row is not None]
            parts.append(f"sheet '{unit.name}'" + (f" rows {min(rows)}-{max(rows)}" if rows else ""))
        return "; ".join(parts)
    tail_unit = runs[-1][0]

    def name(unit: Unit) -> str:
        return f"'{unit.name}'" if unit.label == "member" else str(unit.number)

    text = f"{head_unit.label} {name(head_unit)}" if head_unit is tail_unit else \
        f"{head_unit.label}s {name(head_unit)}-{name(tail_unit)}"
    one = head_unit is tail_unit
    notes = ([("" if one else f"{head_unit.label} {name(head_unit)} ") + "continued"] if began_before else [])
    notes += [("" if one else f"{tail_unit.label} {name(tail_unit)} ") + "cut"] if continues else []
    return text + (f" ({', '.join(notes)})" if notes else "")


def _paths(runs: list[tuple[Unit, list[Piece]]], after: Piece | None, first: bool) -> str:
    """JSON: each value's path, an array's elements as a slice (``.items[0:1200]``, ``.[5]``), and the element
    the chunk starts inside (continued; ``first``: these runs start the chunk) or ends inside (cut)."""
    if any(unit.label != "object" for unit, _ in runs):  # an object's brackets: named only when alone
        runs = [run for run in runs if run[0].label != "object"]
    parts = []
    for n, (unit, pieces) in enumerate(runs):
        starts_inside = first and n == 0 and pieces[0].level < PARAGRAPH
        ends_inside = n == len(runs) - 1 and after is not None and after.unit is unit and after.level < PARAGRAPH
        rows = [p.row for p in pieces if p.row is not None]
        if unit.label != "array" or not rows:
            notes = ["continued"] * starts_inside + ["cut"] * ends_inside
            parts.append(unit.name + (f" ({', '.join(notes)})" if notes else ""))
            continue
        low, high = min(rows), max(rows)
        text = f"{unit.name}[{low}]" if low == high else f"{unit.name}[{low}:{high + 1}]"
        notes = [f"[{low}] continued"] * (starts_inside and pieces[0].row == low)
        notes += [f"[{high}] cut"] * (ends_inside and after is not None and after.row == high)
        parts.append(text + (f" ({', '.join(notes)})" if notes else ""))
    if len(parts) > MAX_PATHS + 2:  # an object of many small values: its first and last, and how many
        parts = [*parts[:MAX_PATHS - 1], f"… {len(parts) - MAX_PATHS:,} more …", parts[-1]]
    return "; ".join(parts)
