"""The budget views: ``budget status`` as a table with a bar per limit (a session's spend curve and agents below
it, drawn by spend.py), and its JSON."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from boundread.budget.errors import fmt_usd
from boundread.budget.history import SessionHistory
from boundread.budget.model import BudgetLimits, ScopeView
from boundread.budget.recover import Recovery
from boundread.budget.transcript import SessionIngest
from boundread.render import envelope
from boundread.render.spend import chart_columns, history_dict, print_curve, rule_box
from boundread.render.views import console

BAR = 20
NARROW = 60  # under this many columns the table is lines (its four columns would cut the figures)


def _bar(spent: Decimal | int, limit: Decimal | int | None, bar: int = BAR) -> Text:
    """``####........ 40%`` (``bar`` characters, then the share); with ``bar`` 0 the share alone."""
    if limit is None:
        return Text("no limit" if bar else "", style="dim")
    share = Decimal(spent) / Decimal(limit) if limit else Decimal(1)
    filled = min(bar, int(share * bar))
    style = "red" if share >= 1 else "yellow" if share >= Decimal("0.8") else "green"
    return Text("#" * filled, style=style) + Text("." * (bar - filled), style="dim") + Text(
        f" {share:.0%}" if bar else f"{share:.0%}", style="" if bar else style)


def _rows(view: ScopeView, bar: int = BAR) -> list[tuple[str, str, str, Text]]:
    """The table's rows; ``bar``: the width of each limit's bar (0 on a narrow terminal: the share alone)."""
    t, lim = view.totals, view.limits
    rows = [
        (
            "tokens",
            f"{t.tokens:,}",
            "-" if lim.max_tokens is None else f"{lim.max_tokens:,}",
            _bar(t.tokens, lim.max_tokens, bar),
        ),
        ("  input / output", f"{t.input:,} / {t.output:,}", "", Text("")),
        ("  cache read / write", f"{t.cache_read:,} / {t.cache_write:,}", "", Text("")),
        (
            "cost (USD)",
            fmt_usd(t.cost),
            "-" if lim.max_usd is None else fmt_usd(lim.max_usd),
            _bar(t.cost, lim.max_usd, bar),
        ),
        (
            "tool calls",
            f"{t.calls:,}",
            "-" if lim.max_calls is None else f"{lim.max_calls:,}",
            _bar(t.calls, lim.max_calls, bar),
        ),
        (
            "depth (max seen)",
            str(t.depth),
            "-" if lim.max_depth is None else str(lim.max_depth),
            _bar(t.depth, lim.max_depth, bar),
        ),
    ]
    if lim.max_repeat is not None:
        rows.append(("max repeat", "", str(lim.max_repeat), Text("")))
    if lim.deny_tools:
        rows.append(("denied tools", "", ", ".join(lim.deny_tools), Text("")))
    if lim.max_agents is not None:
        rows.append(("max sub-agents", "", f"{lim.max_agents:,}", Text("")))
    if lim.max_agents_per_minute is not None:
        rows.append(("max sub-agents a minute", "", f"{lim.max_agents_per_minute:,}", Text("")))
    if lim.allow_overshoot:
        rows.append(("overshoot", "", "allowed: the request that crosses a cap goes out", Text("")))
    return rows


def curve_columns() -> int:
    """How many buckets a session's curve gets on this console (``budget.history`` reads no more)."""
    return chart_columns(console().width)


def _print_lines(out: Console, view: ScopeView) -> None:
    """The table's rows as lines (``tokens: 31,782,000 of 30,000,000 106%``), for a terminal too narrow for its
    columns: a table would cut the figures."""
    out.print(Text(view.scope.label, style="italic"))
    for name, spent, limit, share in _rows(view, 0):
        figures = " of ".join(x for x in (spent, "" if limit == "-" else limit) if x)
        out.print(Text(f"{name}: {figures}") + (Text(" ") + share if share.plain else Text("")))
    out.print()


def print_status(views: list[ScopeView], curves: dict[str, SessionHistory] | None = None) -> None:
    """Each scope's table; under a session's, its spend curve and agents (``curves``, by session id)."""
    out = console()
    if not views:
        out.print("no budget recorded yet: `boundread budget set --session S --max-usd 1` starts one")
        return
    ascii_only = not out.encoding.lower().startswith("utf")
    bar = BAR if out.width >= 90 else 0  # a narrower table cuts the bar (88 columns with big figures): the share
    for view in views:
        if out.width < NARROW:
            _print_lines(out, view)
        else:
            table = Table(title=view.scope.label, box=rule_box(ascii_only, box.SIMPLE), title_justify="left")
            for name in ("", "spent", "limit", ""):
                table.add_column(name)
            for row in _rows(view, bar):
                table.add_row(*row)
            out.print(table)
        if view.totals.unpriced:
            out.print(
                Text(
                    f"  unknown models priced by the default price: {', '.join(view.totals.unpriced)}",
                    style="yellow",
                )
            )
        if view.totals.warnings:
            out.print(
                Text(
                    f"  {view.totals.warnings} ingest warning(s) (garbage lines, bad counts)", style="yellow"
                )
            )
        history = (curves or {}).get(view.scope.name) if view.scope.kind == "session" else None
        if history is not None:
            print_curve(out, history, view.limits)
            out.print()


def limits_dict(lim: BudgetLimits) -> dict[str, Any]:
    return lim.as_json()


def status_dict(view: ScopeView, history: SessionHistory | None = None) -> dict[str, Any]:
    """One scope's JSON; a session's has its ``curve`` (buckets, not every request) and ``agents`` too."""
    t = view.totals
    curve = history_dict(history) if history is not None else {}
    return {
        "scope": view.scope.key,
        "spent": {
            "tokens": t.tokens,
            "input": t.input,
            "output": t.output,
            "cache_read": t.cache_read,
            "cache_write": t.cache_write,
            "usd": str(t.cost),
            "calls": t.calls,
            "depth": t.depth,
        },
        "limits": limits_dict(view.limits),
        "unpriced_models": list(t.unpriced),
        "warnings": t.warnings,
        **curve,
    }


def status_json(views: list[ScopeView], curves: dict[str, SessionHistory] | None = None) -> str:
    found = curves or {}
    return envelope("budget status", {"scopes": [
        status_dict(v, found.get(v.scope.name) if v.scope.kind == "session" else None) for v in views]})


def ingest_dict(result: SessionIngest) -> dict[str, Any]:
    """``budget ingest --json``: the totals, then each transcript that had new bytes."""
    return {
        "session": result.session,
        "records": result.records,
        "duplicates": result.duplicates,
        "new_bytes": result.new_bytes,
        "unchanged_transcripts": result.unchanged,
        "waited_ms": round(result.waited * 1000),
        "transcripts": [
            {k: v for k, v in f.__dict__.items() if k not in ("session", "warnings")} for f in result.files
        ],
        "warnings": list(result.warnings[:100]),
    }


def recovery_dict(result: Recovery) -> dict[str, Any]:
    return {
        "ledger": result.path,
        "limits_file": result.sidecar,
        "changed": result.changed,
        "problem": result.problem,
        "moved_to": result.moved_to,
        "restored_limits": list(result.restored),
        "salvaged": dict(result.salvaged),
        "lost_tables": list(result.lost),
        "recount": result.recount,
    }


def recovery_lines(result: Recovery) -> list[str]:
    """What ``budget recover`` did, one fact a line."""
    if not result.changed:
        return [f"the budget ledger {result.path} is healthy; nothing to recover"]
    lines = [f"found: {result.problem}"]
    if result.moved_to:
        lines.append(f"moved the broken ledger to {result.moved_to}")
    if result.restored:
        lines.append(f"restored the limits of {len(result.restored)} scope(s): {', '.join(result.restored)}")
    if result.salvaged:
        kept = ", ".join(f"{n:,} {table}" for table, n in result.salvaged.items())
        lines.append(f"salvaged {kept}" + (f" (unreadable: {', '.join(result.lost)})" if result.lost else ""))
    if result.recount:
        lines.append("spend is recounted from the transcripts at the next `boundread budget ingest`")
    lines.append(f"the ledger {result.path} is usable again")
    return lines
