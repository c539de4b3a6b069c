"""The budget views: ``budget status`` as a table with a bar per limit, and its JSON."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from rich import box
from rich.table import Table
from rich.text import Text

from boundread.budget.errors import fmt_usd
from boundread.budget.model import BudgetLimits, ScopeView
from boundread.budget.recover import Recovery
from boundread.budget.transcript import SessionIngest
from boundread.render import envelope
from boundread.render.views import console

BAR = 20


def _bar(spent: Decimal | int, limit: Decimal | int | None) -> Text:
    if limit is None:
        return Text("no limit", style="dim")
    share = Decimal(spent) / Decimal(limit) if limit else Decimal(1)
    filled = min(BAR, int(share * BAR))
    style = "red" if share >= 1 else "yellow" if share >= Decimal("0.8") else "green"
    return Text("#" * filled, style=style) + Text("." * (BAR - filled), style="dim") + Text(f" {share:.0%}")


def _rows(view: ScopeView) -> list[tuple[str, str, str, Text]]:
    t, lim = view.totals, view.limits
    rows = [
        (
            "tokens",
            f"{t.tokens:,}",
            "-" if lim.max_tokens is None else f"{lim.max_tokens:,}",
            _bar(t.tokens, lim.max_tokens),
        ),
        ("  input / output", f"{t.input:,} / {t.output:,}", "", Text("")),
        ("  cache read / write", f"{t.cache_read:,} / {t.cache_write:,}", "", Text("")),
        (
            "cost (USD)",
            fmt_usd(t.cost),
            "-" if lim.max_usd is None else fmt_usd(lim.max_usd),
            _bar(t.cost, lim.max_usd),
        ),
        (
            "tool calls",
            f"{t.calls:,}",
            "-" if lim.max_calls is None else f"{lim.max_calls:,}",
            _bar(t.calls, lim.max_calls),
        ),
        (
            "depth (max seen)",
            str(t.depth),
            "-" if lim.max_depth is None else str(lim.max_depth),
            _bar(t.depth, lim.max_depth),
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


def print_status(views: list[ScopeView]) -> None:
    out = console()
    if not views:
        out.print("no budget recorded yet: `boundread budget set --session S --max-usd 1` starts one")
        return
    for view in views:
        table = Table(title=view.scope.label, box=box.SIMPLE, title_justify="left")
        for name in ("", "spent", "limit", ""):
            table.add_column(name)
        for row in _rows(view):
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


def limits_dict(lim: BudgetLimits) -> dict[str, Any]:
    return lim.as_json()


def status_dict(view: ScopeView) -> dict[str, Any]:
    t = view.totals
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
    }


def status_json(views: list[ScopeView]) -> str:
    return envelope("budget status", {"scopes": [status_dict(v) for v in views]})


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
