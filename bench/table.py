"""The bench table: rows of (what, boundread, peer or baseline, ratio, target, result), as text or markdown."""

from __future__ import annotations

import os
import platform
from dataclasses import dataclass
from pathlib import Path

from measure import Measure

HEADERS = ("what", "boundread", "peer / baseline", "ratio", "target", "result")


@dataclass(frozen=True)
class Row:
    what: str
    ours: str
    peer: str = "-"
    ratio: str = "-"
    target: str = "-"
    result: str = "-"

    def cells(self) -> tuple[str, ...]:
        return (self.what, self.ours, self.peer, self.ratio, self.target, self.result)


def secs(m: Measure, stat: str = "best") -> str:
    value = m.p50 if stat == "p50" else m.best
    return f"{value * 1000:.0f} ms" if value < 1 else f"{value:.2f} s"


def _error(what: str, *ms: Measure) -> Row | None:
    for m in ms:
        if not m.ok:
            return Row(what, f"ERROR {Path(m.argv[0]).name if m.argv else '?'}: {m.error}", result="ERROR")
    return None


def ratio_row(what: str, ours: Measure, peer: Measure, *, limit: float | None, higher: bool = False,
              stat: str = "best", invert: bool = False) -> Row:
    """``ours / peer`` (or ``peer / ours`` with ``invert``) against ``<= limit`` (or ``>= limit`` with ``higher``)."""
    failed = _error(what, ours, peer)
    if failed:
        return failed
    a, b = (ours.p50, peer.p50) if stat == "p50" else (ours.best, peer.best)
    ratio = b / a if invert else a / b
    if limit is None:
        target, result = "-", "info"
    else:
        target = f"{'>=' if higher else '<='} {limit:g}x"
        result = "PASS" if (ratio >= limit if higher else ratio <= limit) else "MISS"
    return Row(what, secs(ours, stat), secs(peer, stat), f"{ratio:.2f}x", target, result)


def seconds_row(what: str, ours: Measure, limit: float) -> Row:
    return _error(what, ours) or Row(what, secs(ours), target=f"< {limit:g} s",
                                     result="PASS" if ours.best < limit else "MISS")


def memory_row(what: str, ours: Measure, limit_mb: float = 100.0) -> Row:
    return _error(what, ours) or Row(what, f"{ours.peak_mb:.0f} MB", target=f"< {limit_mb:g} MB",
                                     result="PASS" if ours.peak_mb < limit_mb else "MISS")


def mapped_row(what: str, ours: Measure, mapping: Measure, limit_mb: float = 100.0) -> Row:
    """A grep by rg maps the file it searches, and the mapped page-cache pages count in the peak RSS (shared, not
    allocated): what boundread adds is its peak beyond ``mapping``'s, rg alone on the same file."""
    return _error(what, ours) or _error(what, mapping) or Row(
        f"{what} / rg -c alone (both map the file)", f"{ours.peak_mb:.0f} MB", f"{mapping.peak_mb:.0f} MB",
        f"+{ours.peak_mb - mapping.peak_mb:.0f} MB", target=f"< +{limit_mb:g} MB",
        result="PASS" if ours.peak_mb - mapping.peak_mb < limit_mb else "MISS")


def skipped(what: str, why: str) -> Row:
    return Row(what, f"skipped: {why}", result="skipped")


def render(rows: list[Row], *, markdown: bool) -> str:
    table = [HEADERS, *(row.cells() for row in rows)]
    if markdown:
        def line(cells: tuple[str, ...]) -> str:
            return "| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |"

        return "\n".join([line(HEADERS), "|" + "|".join("---" for _ in HEADERS) + "|",
                          *(line(row.cells()) for row in rows)])
    widths = [max(len(r[i]) for r in table) for i in range(len(HEADERS))]
    out = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in table]
    out.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(out)


def machine() -> str:
    """CPU model, cores, RAM and Python version, one line."""
    cpu, ram = platform.processor() or "?", "?"
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
        cpu = next((ln.split(":", 1)[1].strip() for ln in text.splitlines() if ln.startswith("model name")), cpu)
        mem = Path("/proc/meminfo").read_text(encoding="utf-8").split()
        ram = f"{int(mem[mem.index('MemTotal:') + 1]) / 1024 / 1024:.1f} GiB"
    except (OSError, ValueError, IndexError):
        pass
    return (f"{cpu}, {os.cpu_count()} cores, {ram} RAM, Python {platform.python_version()}, "
            f"{platform.system()} {platform.release()}")
