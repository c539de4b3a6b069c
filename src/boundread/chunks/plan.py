"""``chunks``: run the format's handler once, as ``extract`` does, and cut its text into chunk files of at most
``tokens`` tokens each, with a manifest. The engine's machinery (detection, the handler, the hard time limit,
damage turned into one clear error) is reused; only the sink differs. That is why this module calls the
engine's pieces and not the front door: the front door (``boundread.api.chunk``) calls it.

A rerun on an unchanged source reuses the manifest; a changed source (or other parameters) is rewritten.
``--max-chunks`` stops after that many chunks; ``start`` (``--from``) goes on exactly where a run stopped: the
text before it is read again but not written (the split is a function of the text alone), and each chunk
re-made on the way is checked against the manifest's hash.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

from boundread import formats
from boundread.bytelevel import charset
from boundread.chunks import feed, textread
from boundread.chunks import manifest as mf
from boundread.chunks.feed import ARCHIVES, ChunkSink
from boundread.chunks.files import ChunkFiles
from boundread.chunks.manifest import Chunk, Cost, Manifest, Params, Resume, SourceFacts
from boundread.chunks.split import UNIT, Cut, Piece, Splitter, Unit
from boundread.contract.model import FILE, Outcome, Request, Source
from boundread.contract.sink import Sink
from boundread.contract.source import source_for_bytes
from boundread.core import detect, engine, fit, naming, output
from boundread.errors import BoundreadError, UsageError
from boundread.limits import CHARS_PER_TOKEN, Deadline, Limits, est_tokens
from boundread.record import replace
from boundread.units import KB, MB, human_bytes

MAX_CHUNKS = 200
GUARD_TEXT_BYTES = 256 * KB  # the guard's default text_max_bytes: a text file above it needs a bounded read
Watch = Callable[[Sink], contextlib.AbstractContextManager[object]]


def whole(timeout: float | None = None, max_member_bytes: int | None = None) -> Limits:
    """The limits of a whole-document read: no character or row cap (the chunks bound what is read at once);
    an archive member is read up to ``max_member_bytes`` (default: extract's cap)."""
    limits = Limits(max_chars=10**15, max_rows=10**9, max_cols=16_384, max_entries=10_000, timeout=timeout)
    return limits if max_member_bytes is None else dataclasses.replace(limits, max_member_bytes=max_member_bytes)


def default_folder(name: str) -> Path:
    return output.out_dir() / naming.chunks_folder_name(name)


@dataclasses.dataclass
class _Run:
    src: Source
    folder: Path
    params: Params
    start: int
    kept: list[Chunk]
    files: ChunkFiles | None = None  # set once the folder is made
    written: list[Chunk] = dataclasses.field(default_factory=list)
    mismatched: list[int] = dataclasses.field(default_factory=list)

    def emit(self, cut: Cut) -> None:
        digest = mf.sha256(cut.text)
        if cut.index < self.start:  # re-made on the way to --from: it is written already
            if self.kept[cut.index - 1].sha256 != digest:
                self.mismatched.append(cut.index)
            return
        name = f"chunk-{cut.index:05d}.txt"
        files = self.files if self.files is not None else ChunkFiles(self.folder, self.src.path)
        self.files = files
        files.write(name, cut.text)
        self.written.append(Chunk(cut.index, name, cut.span, (cut.first_line, cut.last_line), len(cut.text),
                                  len(cut.text.encode("utf-8")), est_tokens(len(cut.text)), cut.repeated, digest))


def chunk(path: str | Path, params: Params, folder: str | Path | None = None, *, start: int = 1,
          max_chunks: int = MAX_CHUNKS, model: str | None = None, password: str | None = None,
          timeout: float | None = 120.0, watch: Watch | None = None, encoding: str | None = None,
          max_member_bytes: int | None = None) -> Manifest:
    """Chunk ``path`` into ``folder`` (default ``boundread-out/<name>.chunks``); the manifest describes them.
    ``encoding``: decode text with this codec, not the guessed one. ``max_member_bytes``: an archive member
    over it is skipped (and said); default: extract's cap (``--max-member-mb``)."""
    src = engine.open_source(path)
    assert src.path is not None
    req = Request(limits=whole(timeout, max_member_bytes), password=password, fmt=params.format, layout=params.layout,
                  encoding=fit.encoding(encoding))
    fit.check(req, src.kind, src.name)
    where = Path(folder) if folder is not None else default_folder(src.name)
    _check_folder(where)
    deadline = Deadline(timeout)
    facts = mf.facts(src.path, src.name, deadline)
    try:
        old, unusable = mf.load(where), None
    except mf.Unusable as exc:
        old, unusable = None, f"the manifest there was not usable ({exc})"
    why = mf.changes(old, facts, params) if old is not None else [f"{unusable}: chunked it again"] if unusable else []
    if req.encoding and old is not None and not why and start == 1:  # the manifest does not record it
        why = [f"--encoding {req.encoding}: chunked it again in that encoding"]
    cap = req.limits.max_member_bytes
    carry = (*(("--encoding", req.encoding) if req.encoding else ()),
             *(("--max-member-mb", str(cap // MB)) if max_member_bytes is not None else ()))
    if max_member_bytes is not None and old is not None and not why and start == 1 and src.kind in ARCHIVES:
        why = [f"--max-member-mb {cap // MB}: chunked it again with that member cap"]  # nor this
    if start > 1:
        _check_from(start, old, why, src.name, unusable)
        assert old is not None
        if old.complete and start > len(old.chunks):
            if not mf.intact(old):
                raise UsageError(f"--from {start}: chunk files were missing or edited", "run without --from to "
                                 "chunk it again")
            return _finish(dataclasses.replace(old, folder=str(where), status="reused",
                                               notes=("every chunk is written already",)), model, max_chunks)
    elif old is not None and not why:
        if mf.intact(old):
            note = "the source is unchanged since the manifest was written: reused it, nothing was read again"
            return _finish(dataclasses.replace(old, folder=str(where), status="reused", notes=(note,)), model,
                           max_chunks, again=_again(old))
        why = ["chunk files were missing or edited"]
    kept = list(old.chunks[: start - 1]) if old is not None and start > 1 else []
    run = _Run(src, where, params, start, kept)
    _prepare(where)
    splitter = Splitter(params.tokens * CHARS_PER_TOKEN, run.emit, overlap=params.overlap,
                        overlap_by=feed.overlap_by(src.kind), limit=start - 1 + max_chunks,
                        max_lines=params.max_lines)
    sink = ChunkSink(req.limits, deadline, splitter, feed.feeder_for(src.kind, splitter))
    encoding, said = _text_encoding(src, req.encoding)
    by_offset = src.kind == "text" and textread.seekable(encoding)
    offset = 0
    if by_offset and old is not None and old.resume is not None and old.resume.chunk == start > 1:
        offset = old.resume.byte  # read on from there: the text before it is in the chunks already
        splitter.resume(start - 1, old.resume.lines, old.resume.overlap)
        why = [f"read on from byte {offset:,}, where chunk {start} starts"]
    outcome = _read(src, req, sink, deadline, watch, (encoding, offset) if by_offset else None)
    if not (sink.timed_out or sink.interrupted):
        splitter.finish()
    resume = None
    if by_offset and (at := splitter.next_origin()) is not None:
        index, lines, tail = splitter.state()
        resume = Resume(index + 1, at.byte(), lines, tail)
    chunks = tuple(kept + run.written)
    resumable = splitter.stopped or sink.timed_out or sink.interrupted  # --from goes on where it stopped
    changed = _changed(src.path, facts)
    # complete only when every part of the document is in a chunk: not when the handler cut it (unreadable pages,
    # an archive's entry cap, a member skipped) or the file changed under the read
    complete = not (resumable or outcome.truncated or changed)
    status = "continued" if start > 1 else "rewritten" if why else "written"
    why = [] if start > 1 and not offset else why
    warnings = [*(said if by_offset else ()), *outcome.warnings, *splitter.warnings]  # the handler says its own
    if (big := max((c.bytes for c in run.written), default=0)) > GUARD_TEXT_BYTES:
        warnings.append(f"a chunk file is {human_bytes(big)}: over {human_bytes(GUARD_TEXT_BYTES)}, the guard asks "
                        "for bounded reads of it - use fewer --tokens for one whole read per chunk")
    if changed:
        warnings.append(f"{src.name} changed while it was read ({changed}): the chunks may not match it - run the "
                        "same command again")
    if not chunks and complete:
        warnings.append(f"{src.name} has no text: nothing to chunk")
    if run.mismatched:
        warnings.append(f"chunks {run.mismatched[0]}.. came out different from the manifest's: run without --from")
    reasons = [*outcome.truncated, *sink.reasons]
    if splitter.stopped and not any(r.startswith("max_chunks") for r in reasons):
        reasons.append(f"max_chunks {splitter.limit:,} reached")
    if changed:
        reasons.append("the file changed while it was read")
    result = Manifest(facts, src.kind, params, str(where), chunks, complete, status,
                      truncated_reasons=tuple(dict.fromkeys(reasons)), warnings=tuple(dict.fromkeys(warnings)),
                      notes=tuple(why), resume=resume if resumable and not changed else None)
    if old is not None:
        mf.remove_stale(where, len(chunks), old)
    result = _finish(result, model, max_chunks, password is not None, carry,
                     again="from" if resumable and not changed else "whole" if changed else None)
    output.write_atomic(where / mf.NAME, mf.dump(result), never=src.path)
    return result


def _text_encoding(src: Source, override: str | None = None) -> tuple[str, list[str]]:
    """The text handler's decision (bytelevel/charset.py: the user's ``--encoding``, declared, UTF-8, else a
    detector on the first 64 KB) and what it says of a guess, so a KOI8-R log is chunked in the letters
    ``extract`` gives it."""
    if src.kind != "text":
        return "utf-8", []
    with src.open() as fh:
        sample = fh.read(charset.SAMPLE_BYTES)
    choice = charset.decide(sample, src.sniffed.encoding, override, complete=len(sample) >= src.size)
    return choice.encoding, choice.warnings()


def _read(src: Source, req: Request, sink: ChunkSink, deadline: Deadline, watch: Watch | None,
          by_offset: tuple[str, int] | None) -> Outcome:
    try:
        with watch(sink) if watch else contextlib.nullcontext():
            if by_offset is not None:
                encoding, offset = by_offset
                work: Callable[[], Outcome] = lambda: textread.read(src, encoding, sink, offset)  # noqa: E731
            elif src.kind in ARCHIVES:
                work = lambda: _members(src, req, sink)  # noqa: E731
            elif src.kind == "json":  # cut between elements, spans named by path
                from boundread.chunks import jsonread

                work = lambda: jsonread.read(src, sink)  # noqa: E731
            else:
                work = lambda: formats.handler_for(src.kind).extract(src, req, sink)  # noqa: E731
            outcome: Outcome = engine.guarded(src, deadline, work)
    except engine.Expired:
        sink.expire()
        outcome = Outcome()
    except KeyboardInterrupt:
        sink.interrupt()
        outcome = Outcome()
    sink.close()
    return outcome


def _members(src: Source, req: Request, sink: ChunkSink) -> Outcome:
    """An archive: each member's text after a ``--- member NAME ---`` line, members in the archive's order."""
    from boundread.formats.archives import handler as archives

    lst = archives.listing(src, req)
    out = Outcome(unit="members", warnings=list(lst.warnings))
    if lst.truncated:  # the entry cap, or an archive that ends early (its listing's warning says so)
        out.truncated.append(f"max_entries {req.limits.max_entries:,} reached" if len(lst.entries) >=
                             req.limits.max_entries else f"the archive ends after entry {len(lst.entries):,}")
    sink.progress.start(len(lst.entries), "members")
    missed = 0
    for number, entry in enumerate(lst.entries, 1):
        sink.progress.advance()
        if entry.is_dir or entry.is_symlink or entry.link_target is not None:
            continue
        skip = ("encrypted: pass --password" if entry.encrypted and req.password is None else
                f"larger than the member cap ({human_bytes(req.limits.max_member_bytes)}): raise --max-member-mb "
                "if you trust it" if entry.size is not None and entry.size > req.limits.max_member_bytes
                else None)
        cut = None
        if skip is None:
            feeder: feed.Feeder | None = None
            try:
                member = source_for_bytes(f"{src.name}:{entry.name}", archives.read_member(src, entry.name, req))
                member = replace(member, sniffed=detect.member(entry.name, member.sniffed))  # as a file of its name
                unit = Unit("member", number, entry.name)
                sink.feeder = feeder = feed.feeder_for(member.kind, sink.splitter, unit)
                sink.pending = Piece(f"--- member {entry.name} ---\n", UNIT, unit, header=True)
                if member.kind == "json":  # cut between elements, as a .json file is
                    from boundread.chunks import jsonread

                    read = jsonread.read(member, sink, entry.name)
                    out.warnings += [f"member {entry.name}: {said}" for said in read.warnings]
                    out.truncated += [f"member {entry.name}: {said}" for said in read.truncated]
                else:
                    formats.handler_for(member.kind).extract(member, req, sink)
            except BoundreadError as exc:  # before its first text: skipped; after: cut short, its text kept
                skip, cut = (exc.what, None) if sink.pending is not None or feeder is None else (None, exc.what)
            finally:
                if feeder is not None:
                    feeder.finish()  # its last line, even when the handler failed after it
            sink.pending = None
        if (skip or cut) is not None and len(out.warnings) < 20:
            out.warnings.append(f"member {entry.name} skipped: {skip}" if skip is not None else
                                f"member {entry.name} cut short: {cut}")
        missed += (skip or cut) is not None
        if sink.full:
            break
    if missed:  # the chunks lack their text: not complete, and the warnings say which and why
        out.truncated.append(f"{missed:,} member{'s' * (missed != 1)} skipped or cut short")
    return out


RESUMABLE = ("max_chunks ", "timeout after ", "interrupted")  # the reasons a run with --from goes on after


def _again(old: Manifest) -> str | None:
    """How a reused manifest goes on: "from" where its run stopped on a bound, None where it is complete or what
    cut it (the handler, a changed file) would cut it again."""
    if old.complete or not any(reason.startswith(RESUMABLE) for reason in old.truncated_reasons):
        return None
    return "from"


def _changed(path: Path | None, facts: mf.SourceFacts) -> str:
    """How the file differs now from ``facts`` (taken before the read), or "" when it does not."""
    try:
        now = path.stat() if path is not None else None
    except OSError as exc:
        return f"now {exc.strerror or exc}"
    if now is None or (now.st_size == facts.size and now.st_mtime_ns == facts.mtime_ns):
        return ""
    return f"{facts.size:,} bytes before, {now.st_size:,} after" if now.st_size != facts.size else "modified"


def _finish(result: Manifest, model: str | None, max_chunks: int, password: bool = False,
            carry: tuple[str, ...] = (), again: str | None = None) -> Manifest:
    """The next command and the cost of reading every chunk once with ``model``. ``again``: "from" when the
    chunks go on where this run stopped (``--from``), "whole" when the file must be chunked again from its start
    (it changed), None when no run would give more (a cut the handler made says why)."""
    nxt: tuple[str, ...] = ()
    if again is not None:
        words = ["chunks", FILE, "--tokens", str(result.params.tokens), "-o", result.folder]
        words += ["--from", str(len(result.chunks) + 1)] if again == "from" else []
        words += ["--overlap", str(result.params.overlap)] if result.params.overlap else []
        lines = result.params.max_lines
        words += ["--max-lines", str(lines or 0)] if lines != 2000 else []
        words += ["--format", result.params.format] if result.params.format != "csv" else []
        words += ["--layout"] if result.params.layout else []
        words += ["--max-chunks", str(max_chunks)] if max_chunks != MAX_CHUNKS else []
        words += ["--password", "PASSWORD"] if password else []
        words += ["--model", model] if model else []
        words += carry  # the options the manifest does not record: --encoding, --max-member-mb
        nxt = (engine.command_line(tuple(words), result.source.path),)
    cost = price(model, result.est_tokens) if model else None
    warnings = result.warnings
    if cost is not None and not cost.known:
        warnings = (*warnings, f"{model}: not in genai-prices, priced at the default ({cost.source})")
    return dataclasses.replace(result, next=nxt, cost=cost, warnings=warnings)


def price(model: str, tokens: int) -> Cost:
    """Input cost of ``tokens`` with ``model``, priced as ``budget`` prices (config, genai-prices, default)."""
    from boundread.budget.prices import MTOK, Pricer

    found = Pricer.load().price(model)
    usd = (Decimal(tokens) * found.input / MTOK).quantize(Decimal("0.000001"))
    return Cost(model, str(found.input), str(usd), found.source, found.known)


def _check_from(start: int, old: Manifest | None, why: list[str], name: str, unusable: str | None) -> None:
    if old is None and unusable is not None:
        raise UsageError(f"--from {start}: {unusable}", "run without --from to chunk it again")
    if old is None:
        raise UsageError(f"--from {start}: no manifest of {name} to go on from in that folder",
                         "run without --from first (or pass the same -o)")
    if why:
        raise UsageError(f"--from {start}: {'; '.join(why)}", "run without --from to chunk it again")
    if start > len(old.chunks) + 1:
        raise UsageError(f"--from {start}: the manifest has {len(old.chunks)} chunks",
                         f"go on with --from {len(old.chunks) + 1}")


def _check_folder(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"-o {folder} is a file", "pass a folder for the chunks (it is created)")


def _prepare(folder: Path) -> None:
    """Create the folder; the default output folder gets its ``.gitignore`` as ``extract`` gives it."""
    base = output.out_dir()
    try:
        if not base.exists() and base.resolve() in folder.resolve().parents:
            base.mkdir(parents=True)
            (base / ".gitignore").write_text("*\n", encoding="utf-8")
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        from boundread.errors import NotFound

        raise NotFound(f"cannot create {folder} ({exc.strerror or exc})", "pass -o with a writable folder") from None


__all__ = ["MAX_CHUNKS", "Chunk", "Cost", "Manifest", "Params", "SourceFacts", "chunk", "default_folder", "whole"]
