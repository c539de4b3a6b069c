"""``boundread stats``: what the guard kept out of the context, as a table and a two-bar chart, and its JSON."""

from __future__ import annotations

import time
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from boundread.budget.stats import Stats, Tally
from boundread.render import envelope
from boundread.render.spend import rule_box
from boundread.render.views import console
from boundread.units import human_bytes

WORDS = {"deny": "refused", "redirect": "redirected", "backstop": "backstop", "all": "total"}
BAR = 40  # the chart's width at most
NARROW = 80  # under this many columns the table is lines
TOKENS = "est. 4 characters a token"


def _when(at: float | None) -> str | None:
    return None if at is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))


def _title(stats: Stats) -> str:
    where = {"session": f"session {stats.name}", "project": f"project {stats.name}"}.get(stats.scope, "all projects")
    facts = [f"{stats.sessions:,} session" + ("" if stats.sessions == 1 else "s")]
    if stats.first is not None and stats.last is not None:
        first, last = (time.strftime("%Y-%m-%d %H:%M", time.gmtime(t)) for t in (stats.first, stats.last))
        facts.append(f"{first} - {last} UTC" if first != last else f"{first} UTC")
    since = f" since {time.strftime('%Y-%m-%d %H:%M', time.gmtime(stats.since))} UTC" if stats.since else ""
    return f"boundread stats: {where}{since} ({', '.join(facts)})"


def _row(tally: Tally) -> list[str]:
    sized = tally.sized > 0
    return [WORDS.get(tally.kind, tally.kind), f"{tally.calls:,}",
            human_bytes(tally.raw_bytes) if sized else "-", human_bytes(tally.delivered_bytes) if sized else "-",
            _signed(tally.kept_bytes) if sized else "-", f"~{tally.kept_tokens:,}" if sized else "-"]


def _signed(size: int) -> str:
    """A size that may be negative: a small file whose redirect gave more than it holds (a PDF's text and note)."""
    return human_bytes(size) if size >= 0 else "-" + human_bytes(-size)


def _bars(stats: Stats, ascii_only: bool) -> list[Text]:
    """Asked for against delivered, both on one scale: the chart is the share the context got."""
    total = stats.total
    if not total.raw_bytes:
        return []
    mark = "#" if ascii_only else "█"
    width = min(BAR, max(console().width - 40, 10))
    lines = []
    for label, size, style in (("asked for", total.raw_bytes, "red"), ("delivered", total.delivered_bytes, "green")):
        filled = max(1, round(width * size / total.raw_bytes)) if size else 0
        ratio = size / total.raw_bytes
        share = (f" ({ratio:.1%})" if ratio >= 0.001 or not size else " (<0.1%)") if label == "delivered" else ""
        lines.append(Text(f"  {label:<10} ") + Text(mark * filled, style=style) + Text(
            " " * (width - filled) + f"  {human_bytes(size)}{share}"))
    return lines


def print_stats(stats: Stats) -> None:
    out = console()
    if not stats.total.calls:
        out.print(f"{_title(stats)}\nno call refused, redirected or bounded here yet: guard-check records each one it "
                  "decides (`boundread init` wires it into the agent)")
        return
    ascii_only = not out.encoding.lower().startswith("utf")
    if out.width < NARROW:  # the table's six columns would cut the figures: one line a kind
        out.print(Text(_title(stats), style="italic"))
        for tally in (*stats.kinds, stats.total):
            word, count, asked, given, kept, tokens = _row(tally)
            sizes = f": {asked} asked, {given} delivered, {kept} kept out ({tokens} tokens, est.)" \
                if tally.sized else ""
            out.print(f"{word}: {count} call" + ("" if tally.calls == 1 else "s") + sizes)
    else:
        table = Table(title=_title(stats), box=rule_box(ascii_only, box.SIMPLE), title_justify="left")
        for name in ("", "calls", "asked for", "delivered", "kept out", "tokens kept (est.)"):
            table.add_column(name, justify="left" if not name else "right")
        for tally in (*stats.kinds, stats.total):
            table.add_row(*_row(tally), style="bold" if tally.kind == "all" else "")
        out.print(table)
    for line in _bars(stats, ascii_only):
        out.print(line)
    out.print(Text(f"  tokens: {TOKENS}", style="dim"))
    unknown = stats.total.calls - stats.total.sized
    if unknown:
        out.print(Text(f"  {unknown:,} of the calls had a size not measured when decided (a grep, several files,"
                       " a command that names no file): counted, with no bytes", style="dim"))
    if stats.top:
        out.print("\n  kept out most:")
        for path, calls, raw in stats.top:
            out.print(f"    {human_bytes(raw):>9}  {path}" + (f" ({calls:,} calls)" if calls > 1 else ""))


def _tally(tally: Tally) -> dict[str, Any]:
    return {"calls": tally.calls, "sized_calls": tally.sized, "raw_bytes": tally.raw_bytes,
            "delivered_bytes": tally.delivered_bytes, "kept_bytes": tally.kept_bytes,
            "kept_tokens_est": tally.kept_tokens}


def stats_dict(stats: Stats) -> dict[str, Any]:
    return {
        "scope": stats.scope,
        "name": stats.name or None,
        "since": _when(stats.since),
        "sessions": stats.sessions,
        "first": _when(stats.first),
        "last": _when(stats.last),
        "kinds": {tally.kind: _tally(tally) for tally in stats.kinds},
        "total": _tally(stats.total),
        "top": [{"path": path, "calls": calls, "raw_bytes": raw} for path, calls, raw in stats.top],
        "tokens": TOKENS,
    }


def stats_json(stats: Stats) -> str:
    return envelope("stats", stats_dict(stats))
