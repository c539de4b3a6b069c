"""A session's spend curve and its agents, as ``budget status`` draws them, and their JSON.

The curve is cumulative (tokens, then USD) over the session's requests, one column per bucket of
``budget.history``: block elements on a UTF-8 console, ASCII (``.:#``) on any other, at most 40 columns and
never wider than the terminal (a 40-column one gets 30). The cap, when set, is a line across the row it falls
in; a cap far above the spend (over 4 times it) is said in words instead, so the curve keeps its shape.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from boundread.budget.errors import fmt_usd
from boundread.budget.history import BUCKETS, AgentSpend, SessionHistory
from boundread.budget.model import BudgetLimits, from_nanos, to_nanos
from boundread.render import plural

HEIGHT = 4  # rows per chart: 32 steps of an eighth each
GUTTER = 9  # a y label of at most 7 characters, a space and the axis
FAR = 4  # a cap more than this many times the spend is not drawn (the curve would be one flat row)
BLOCKS = " ▁▂▃▄▅▆▇█"  # eighths of a cell, 0 to 8
ASCII_BLOCKS = " ...::::#"


def chart_columns(width: int) -> int:
    """How many buckets a chart shows on a console ``width`` columns wide (the label gutter included)."""
    return max(8, min(BUCKETS, width - GUTTER - 1))


def compact(n: float) -> str:
    """At most five characters: ``950``, ``9.5k``, ``950k``, ``1.2M``."""
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            v = n / size
            return f"{v:.1f}{unit}" if v < 9.95 else f"{v:.0f}{unit}"
    return f"{n:.0f}"


def compact_usd(amount: Decimal) -> str:
    """At most seven characters: ``$0``, ``$4e-05``, ``$0.0012``, ``$0.53``, ``$123.40``, ``$1.2k``."""
    v = float(amount)
    if v == 0:
        return "$0"
    if v < 0.001:
        return f"${v:.0e}"
    if v < 1:
        return f"${v:.2g}"
    return f"${v:.2f}" if v < 999.995 else "$" + compact(v)


def _levels(values: Sequence[float], top: float) -> list[int]:
    """Each column's height in eighths of a row; a spend above zero shows at least one eighth."""
    full = HEIGHT * 8
    return [0 if v <= 0 else max(1, min(full, round(v / top * full))) for v in values]


def chart(values: Sequence[float], cap: float | None, ascii_only: bool,
          label: Callable[[float], str] = compact) -> tuple[list[Text], bool]:
    """The rows of one cumulative chart, top first, with the y labels in the gutter; whether the cap is drawn
    (one set more than ``FAR`` times the spend is not: the curve would be a flat bottom row)."""
    total = max(values, default=0.0)
    drawn = cap if cap is not None and 0 < cap <= FAR * total else None
    top = max(total, drawn or 0.0) or 1.0
    cap_row = None if drawn is None else min(HEIGHT - 1, max(0, math.ceil(drawn / top * HEIGHT) - 1))
    glyphs, line, axis, tick = (ASCII_BLOCKS, "-", "|", "+") if ascii_only else (BLOCKS, "─", "│", "┤")
    labels = {HEIGHT - 1: label(top if total or drawn else 0), 0: label(0)}
    if cap_row is not None and drawn is not None:
        labels[cap_row] = label(drawn)
    levels = _levels(values, top)
    rows = []
    for r in reversed(range(HEIGHT)):
        name = labels.get(r)
        cells = []
        for v, e in zip(values, levels, strict=True):
            fill = min(8, max(0, e - r * 8))
            if fill == 0:
                cells.append((line, "yellow") if r == cap_row else (" ", ""))
            else:
                cells.append((glyphs[fill], "red" if drawn is not None and v >= drawn else "green"))
        row = Text()
        row.append(f"{name or '':>{GUTTER - 2}} {tick if name else axis}", style="dim")
        for style, run in itertools.groupby(cells, key=lambda cell: cell[1]):  # one colour code per run
            row.append("".join(char for char, _ in run), style=style)
        rows.append(row)
    return rows, drawn is not None or cap is None


def x_axis(history: SessionHistory, columns: int) -> Text:
    """``1  requests  1,234`` under the chart: the first and last request of the curve."""
    last = f"{history.requests:,}"
    if history.requests == 1:
        return Text(" " * GUTTER + "1", style="dim")
    middle = columns - 1 - len(last)
    word = "requests" if middle >= len("requests") + 2 else ""
    return Text(" " * GUTTER + "1" + f"{word:^{max(middle, 1)}}" + last, style="dim")


def _cumulative(history: SessionHistory) -> tuple[list[float], list[float]]:
    tokens, nanos, t, n = [], [], 0, 0
    for b in history.buckets:
        t += b.tokens
        n += to_nanos(b.cost)
        tokens.append(float(t))
        nanos.append(float(from_nanos(n)))
    return tokens, nanos


def _against(shown: str, spent: Decimal, cap: Decimal | None, cap_shown: str) -> str:
    """``12,345 of 200,000 (6%)``, or ``12,345 (no cap)``."""
    if cap is None:
        return f"{shown} (no cap)"
    share = spent / cap if cap else None
    return f"{shown} of {cap_shown}" + ("" if share is None else " (<1%)" if 0 < share < Decimal("0.005")
                                         else f" ({share:.0%})")


def _span(history: SessionHistory) -> str:
    starts = [b.first_at for b in history.buckets if b.first_at is not None]
    ends = [b.last_at for b in history.buckets if b.last_at is not None]
    if not starts or not ends:
        return ""
    seconds = max(0, round(max(ends) - min(starts)))
    hours, rest = divmod(seconds, 3600)
    text = f"{hours}h {rest // 60}m" if hours else f"{rest // 60}m {rest % 60}s" if rest >= 60 else f"{rest}s"
    return f" in {text}"


def print_curve(out: Console, history: SessionHistory, limits: BudgetLimits) -> None:
    """The two charts (tokens, USD) of one session, then who spent it."""
    if not history.buckets:
        out.print(Text("  no model request recorded in this session yet", style="dim"))
        return
    ascii_only = not out.encoding.lower().startswith("utf")
    tokens, usd = _cumulative(history)
    out.print(Text(f"spend curve: {plural(history.requests, 'request')}{_span(history)}", style="bold"))
    cost, cap_tokens = history.cost, limits.max_tokens
    token_title = _against(f"{history.tokens:,}", Decimal(history.tokens),
                           None if cap_tokens is None else Decimal(cap_tokens), f"{cap_tokens or 0:,}")
    usd_title = _against(fmt_usd(cost), cost, limits.max_usd, fmt_usd(limits.max_usd or Decimal(0)))
    for title, values, cap, label in ((f"tokens {token_title}", tokens, cap_tokens, compact),
                                      (f"USD {usd_title}", usd, limits.max_usd, _usd_label)):
        rows, drawn = chart(values, None if cap is None else float(cap), ascii_only, label)
        out.print(Text(title + ("" if drawn else "; the cap is off the chart")))
        for row in rows:
            out.print(row, no_wrap=True, crop=False)
        out.print(x_axis(history, len(values)), no_wrap=True, crop=False)
    print_agents(out, history, ascii_only)


def _usd_label(value: float) -> str:
    return compact_usd(Decimal(str(value)))


def _name(row: AgentSpend, ascii_only: bool) -> str:
    if row.agent is None:
        return "main agent"
    return "  " * (row.level - 1) + ("`- " if ascii_only else "└ ") + row.agent


def rule_box(ascii_only: bool, shape: box.Box = box.SIMPLE_HEAD) -> box.Box:
    """``shape`` (rules, no grid), in ASCII when the console is not UTF-8 (rich would swap in a full grid)."""
    if not ascii_only:
        return shape
    return box.Box(str(shape).replace("─", "-"), ascii=True)


def print_agents(out: Console, history: SessionHistory, ascii_only: bool) -> None:
    """Who spent it: the main agent and each sub-agent (in tree order), or one line when the main agent did all.

    Under 60 columns, tokens are compact (``1.2M``) and columns one space apart; the agent's name, cut with an
    ellipsis, takes what the figures leave, so that they are never cut.
    """
    subs = [a for a in history.agents if a.agent is not None]
    if not subs and history.more_agents is None:
        out.print(Text("all by the main agent (no sub-agent request recorded)", style="dim"))
        return
    narrow = out.width < 60
    heads = ["agent", *(["depth"] if history.depth_known else []), "req", "tokens", "USD"]
    rows = [[_name(row, ascii_only), *(["-" if row.depth is None else str(row.depth)] if history.depth_known
                                        else []), f"{row.requests:,}", _tokens(row.tokens, narrow), fmt_usd(row.cost)]
            for row in history.agents]
    more = history.more_agents
    if more is not None:
        rows.append([f"{more.count:,} more", *([""] if history.depth_known else []), f"{more.requests:,}",
                     _tokens(more.tokens, narrow), fmt_usd(more.cost)])
    gap = 1 if narrow else 3  # the column divider, and one space each side unless narrow
    figures = sum(max(len(r[i]) for r in [heads, *rows]) for i in range(1, len(heads)))
    table = Table(box=rule_box(ascii_only), pad_edge=False, show_edge=False, title="by agent", title_justify="left",
                  padding=(0, 0 if narrow else 1))
    table.add_column("agent", overflow="ellipsis", no_wrap=True,
                     max_width=max(6, out.width - figures - gap * (len(heads) - 1)))
    for name in heads[1:]:
        table.add_column(name, justify="right", no_wrap=True)
    for cells in rows:
        table.add_row(Text(cells[0]), *cells[1:])
    with out.capture() as captured:
        out.print(table)
    lines = [line.rstrip() for line in captured.get().splitlines()]
    out.file.write("\n".join(line for line in lines if line) + "\n")


def _tokens(n: int, narrow: bool) -> str:
    return compact(n) if narrow else f"{n:,}"


def history_dict(history: SessionHistory) -> dict[str, Any]:
    """The JSON of one session's curve (its buckets, each with the running totals) and agents."""
    buckets, t, n = [], 0, 0
    for b in history.buckets:
        t += b.tokens
        n += to_nanos(b.cost)
        buckets.append({"first": b.first, "last": b.first + b.requests - 1, "requests": b.requests,
                        "tokens": b.tokens, "usd": str(b.cost), "subagent_tokens": b.subagent_tokens,
                        "total_tokens": t, "total_usd": str(from_nanos(n)), "first_at": b.first_at,
                        "last_at": b.last_at})
    more = history.more_agents
    return {
        "curve": {"requests": history.requests, "buckets": buckets},
        "agents": [{"agent": a.agent, "parent": a.parent, "depth": a.depth, "level": a.level,
                    "requests": a.requests, "tokens": a.tokens, "usd": str(a.cost), "first_at": a.first_at}
                   for a in history.agents],
        "more_agents": None if more is None else {"count": more.count, "requests": more.requests,
                                                  "tokens": more.tokens, "usd": str(more.cost)},
    }
