"""The summary of ``chunks``: plain lines (agents read them), the plan first, then the chunks, then what next."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from boundread.render import fold, plural

if TYPE_CHECKING:
    from boundread.chunks.manifest import Manifest

SHOWN = 12  # chunk lines listed; the manifest has them all


def print_chunks(result: Manifest) -> None:
    totals = result.totals()
    n = totals["chunks"]
    head = {"reused": "reused", "continued": "continued"}.get(result.status, "wrote")
    lines = [f"{head} {plural(n, 'chunk')} in {result.folder}/ (manifest {result.path})"]
    lines += [f"  {note}" for note in result.notes]
    lines.append(f"  {result.source.path}: {result.kind} · {plural(n, 'chunk')} of at most "
                 f"~{result.params.tokens:,} tokens · {plural(totals['chars'], 'char')} · "
                 f"~{plural(totals['est_tokens'], 'token')} in all (largest ~{totals['largest_est_tokens']:,})")
    if result.params.overlap:
        lines.append(f"  overlap: {result.params.overlap} lines or paragraphs repeated between chunks")
    for chunk in result.chunks[:SHOWN]:
        lines.append(f"  {chunk.file}  {chunk.span}  ~{chunk.est_tokens:,} tokens")
    if n > SHOWN:
        lines.append(f"  ... and {n - SHOWN:,} more (the manifest lists every chunk and its span)")
    if result.cost is not None:
        cost = result.cost
        lines.append(f"  cost: ~${cost.usd} to read every chunk once with {cost.model} "
                     f"(input ${cost.input_per_mtok}/MTok, {cost.source}; answers not included)")
    lines.append("  complete: yes" if result.complete else
                 "  complete: no - " + "; ".join(result.truncated_reasons or ("stopped early",)))
    if result.complete and result.truncated_reasons:
        lines.append("  cut by the handler: " + "; ".join(result.truncated_reasons))
    lines += [f"  warning: {warning}" for warning in result.warnings]
    if result.next:
        lines += ["next (the chunks after these):", *(f"  {command}" for command in result.next)]
    if n:
        lines.append("map-reduce: one sub-agent per chunk file with the same instructions, then combine the answers")
    sys.stdout.write("\n".join(fold(lines, sys.stdout)) + "\n")
