"""``chunks``: the whole file as chunk files in the output folder, and the plan as one tool's reply within the
server's cap (the manifest file lists every chunk; the reply names the first ones)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from boundread import api
from boundread.chunks import manifest
from boundread.chunks.manifest import Manifest as ChunkManifest
from boundread.core import naming, output
from boundread.errors import UsageError
from boundread.mcp import calls
from boundread.mcp.config import Config
from boundread.mcp.reply import Reply, Target, engine_timeout, envelope, size, unaliased
from boundread.mcp.slices import FIT_TRIES


def chunks(config: Config, target: Target, tokens: int = 20_000, *, overlap: int = 0, max_chunks: int = 200,
           start: int = 1, model: str | None = None, password: str | None = None,
           watch: api.Watch | None = None) -> Reply:
    """The whole file as chunk files in the output folder, and the plan: one line per chunk (its file, span and
    tokens), the total and, with ``model``, the cost of reading every chunk once; the call that goes on."""
    if tokens < 50 or overlap < 0 or max_chunks < 1 or start < 1:
        raise UsageError(f"tokens={tokens}, overlap={overlap}, max_chunks={max_chunks}, start={start}",
                         "pass tokens >= 50, overlap >= 0, max_chunks and start >= 1")
    folder = target.out_dir / naming.chunks_folder_name(target.shown)
    result = api.chunk(target.real, tokens, folder, overlap=overlap, max_chunks=max_chunks, start=start, model=model,
                       password=password, timeout=engine_timeout(config), watch=watch)
    if target.checked is not None and result.source.path != target.resolved:  # the manifest names the real file,
        result = dataclasses.replace(result, source=dataclasses.replace(result.source, path=target.resolved))
        output.write_atomic(Path(result.path), manifest.dump(result))  # not the link it was read through
    step = None
    if not result.complete:
        args = {"path": target.shown, "tokens": tokens, "overlap": overlap or None,
                "max_chunks": max_chunks if max_chunks != 200 else None, "start": len(result.chunks) + 1,
                "model": model}
        step = calls.render("chunks", {key: value for key, value in args.items() if value is not None})
    count = max(1, config.max_chars // 200)
    for _ in range(FIT_TRIES):  # the plan and its envelope within the cap: the manifest file lists every chunk
        reply = _plan(target, result, folder, tokens, step, count)
        measured = size(unaliased(reply, target))
        if measured <= config.max_chars or count == 1:
            break
        count = max(1, count * config.max_chars // measured - 1)
    return reply


def _plan(target: Target, result: ChunkManifest, folder: Path, tokens: int, step: str | None, count: int) -> Reply:
    """The chunks reply, naming the first ``count`` chunks (the text and the envelope alike)."""
    totals = result.totals()
    lines = [f"{target.shown}: {result.kind}, {totals['chunks']} chunks of at most ~{tokens:,} tokens, "
             f"~{totals['est_tokens']:,} tokens in all ({result.status}; manifest {result.path})"]
    lines += [f"note: {note}" for note in result.notes]
    if result.cost is not None:
        lines.append(f"cost: ~${result.cost.usd} to read every chunk once with {result.cost.model} "
                     f"({result.cost.source})")
    shown = result.chunks[:count]
    lines += [f"{folder / c.file}  {c.span}  ~{c.est_tokens:,} tokens" for c in shown]
    if len(shown) < len(result.chunks):
        lines.append(f"... {len(result.chunks) - len(shown)} more in the manifest")
    lines += [f"warning: {w}" for w in result.warnings]
    if step is not None:
        lines.append("incomplete: " + "; ".join(result.truncated_reasons) + f"\nnext: {step}")
    lines.append("map-reduce: give each chunk file to one sub-agent (extract(path=<chunk file>)) with the same "
                 "instructions, then combine the answers")
    data = {**result.as_dict(), "path": target.shown, "resolved": target.resolved,
            "next_calls": [step] if step else []}
    if len(shown) < len(result.chunks):  # the manifest file has them all
        data = {**data, "chunks": data["chunks"][:count], "chunks_listed": count}
    return Reply("\n".join(lines), envelope("chunks", data), result.path)
