"""Page labels as ``info`` shows them: runs of one numbering collapsed, ``i-iv, 1-19``."""

from __future__ import annotations

LABELS_READ = 1000  # pages whose labels info reads (PDFium reads one from the catalogue's number tree)
_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}


def _number(label: str) -> tuple[str, int] | None:
    """A label's numbering style and value: ("1", 12), ("i", 4), ("I", 4); None for any other label."""
    if label.isdigit():
        return "1", int(label)
    lower = label.lower()
    if lower and all(ch in _ROMAN for ch in lower) and label in (lower, label.upper()):
        values = [_ROMAN[ch] for ch in lower]
        total = sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))
        return ("i" if label == lower else "I"), total
    return None


def label_runs(labels: list[str]) -> list[str]:
    """Every page's label, with runs of one numbering collapsed: ``i, ii, iii, iv, 1, 2, ... 19`` ->
    ``["i-iv", "1-19"]``, so the list covers all pages however many there are."""
    runs: list[list[str]] = []
    for label in labels:
        last = runs[-1] if runs else None
        here, there = _number(label), _number(last[-1]) if last else None
        if last and here and there and here[0] == there[0] and here[1] == there[1] + 1:
            last.append(label)
        else:
            runs.append([label])
    return [run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs]
