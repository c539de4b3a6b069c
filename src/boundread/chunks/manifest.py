"""The manifest: what ``DIR/manifest.json`` holds, as typed objects, and how it is read back and compared.

It is versioned as the JSON envelope is (``"schema": 1``, ``"command": "chunks"``); ``--json`` prints it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from boundread.limits import Deadline

SCHEMA = 1
NAME = "manifest.json"
CHUNK_FILE = re.compile(r"chunk-\d{5,}\.txt")  # what plan names them: chunk-00001.txt ... (more digits past 99,999)
_HASH_BLOCK = 1 << 20
_MAX_MANIFEST = 64 << 20  # ~200,000 chunks; anything bigger was not written by chunks


class Unusable(ValueError):
    """A manifest.json is there but is not one this version wrote, or it is damaged: the source is chunked again."""


@dataclass(frozen=True)
class SourceFacts:
    """The file chunked, as it was: a rerun compares these to tell an unchanged source from a changed one."""

    path: str
    size: int
    mtime: str  # ISO 8601, UTC
    mtime_ns: int
    sha256: str


@dataclass(frozen=True)
class Params:
    """What decides the chunks' contents (``--max-chunks`` only decides how many are written per run)."""

    tokens: int
    overlap: int = 0
    max_lines: int | None = 2000  # an agent's Read stops at 2,000 lines: a chunk fits one read
    format: str = "csv"  # workbook rows
    layout: bool = False  # pdf


@dataclass(frozen=True)
class Chunk:
    index: int
    file: str  # relative to the manifest's folder
    span: str  # "pages 1-4", "sheet 'Lista 3' rows 2-801", "lines 1-5000"
    lines: tuple[int, int]  # the lines of the whole extraction this chunk's own text covers
    chars: int  # of the file, repeats included
    bytes: int  # of the file, UTF-8
    est_tokens: int
    repeated_chars: int  # leading characters that repeat earlier text (a header row, --overlap)
    sha256: str


@dataclass(frozen=True)
class Cost:
    """What reading every chunk once costs with ``model``: input tokens only (the answers are not known yet)."""

    model: str
    input_per_mtok: str  # USD, as genai-prices (or the config) gives it
    usd: str
    source: str
    known: bool


@dataclass(frozen=True)
class Resume:
    """Where chunk ``chunk`` starts in a plain-text source, so that ``--from`` reads on from there."""

    chunk: int
    byte: int
    lines: int  # lines of the text before it
    overlap: str  # what it repeats of the chunk before


@dataclass(frozen=True)
class Manifest:
    source: SourceFacts
    kind: str
    params: Params
    folder: str
    chunks: tuple[Chunk, ...]
    complete: bool  # every chunk of the document is written
    status: str  # written | reused | rewritten | continued
    truncated_reasons: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    next: tuple[str, ...] = ()
    cost: Cost | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)  # why it was reused or rewritten
    resume: Resume | None = None

    @property
    def path(self) -> Path:
        return Path(self.folder) / NAME

    @property
    def est_tokens(self) -> int:
        return sum(chunk.est_tokens for chunk in self.chunks)

    @property
    def chars(self) -> int:
        return sum(chunk.chars for chunk in self.chunks)

    def totals(self) -> dict[str, int]:
        own = sum(chunk.chars - chunk.repeated_chars for chunk in self.chunks)
        return {"chunks": len(self.chunks), "chars": self.chars, "est_tokens": self.est_tokens,
                "source_chars": own, "largest_est_tokens": max((c.est_tokens for c in self.chunks), default=0)}

    def as_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(dataclasses.replace(self, chunks=()))  # the chunks' place kept, filled below:
        data["chunks"] = [{**vars(c), "lines": list(c.lines)} for c in self.chunks]  # asdict's deep copy of 13,000
        # chunks cost a second
        data["totals"] = self.totals()
        data["manifest"] = str(self.path)
        return data


def facts(path: Path, name: str, deadline: Deadline) -> SourceFacts:
    """Size, mtime and sha256 of the source (read in 1 MB blocks: bounded memory, the deadline checked)."""
    st = path.stat()
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while block := fh.read(_HASH_BLOCK):
            digest.update(block)
            if deadline.expired:
                from boundread.errors import TimedOut

                raise TimedOut(f"hashing {name} took more than {deadline.seconds:g} s", "raise --timeout")
    mtime = datetime.fromtimestamp(st.st_mtime, tz=timezone.utc).isoformat(timespec="seconds")
    return SourceFacts(name, st.st_size, mtime, st.st_mtime_ns, digest.hexdigest())


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def load(folder: Path) -> Manifest | None:
    """The manifest in ``folder``, or None when there is none. Raises Unusable when the file there is not a
    manifest this version wrote: another schema, bad JSON, a field of the wrong type or out of range, a chunk
    file that is not named as chunks names them, a FIFO or a link in its place."""
    path = folder / NAME
    try:
        raw = _read_regular(path, cap=_MAX_MANIFEST)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise Unusable(f"cannot read it: {exc.strerror or exc}") from None
    if raw is None:
        raise Unusable("it is not a regular file of at most 64 MiB")
    try:
        data = json.loads(raw.decode("utf-8"))
    except ValueError as exc:  # UnicodeDecodeError and JSONDecodeError both are
        raise Unusable(f"it is not JSON ({str(exc)[:80]})") from None
    return _parse(data, folder)


def _parse(data: Any, folder: Path) -> Manifest:
    if not isinstance(data, dict) or data.get("schema") != SCHEMA or data.get("command") != "chunks":
        raise Unusable(f"it is not a schema {SCHEMA} chunks manifest")
    src = _get(data, "source", dict)
    size = _count(src, "size", "source.")
    source = SourceFacts(_get(src, "path", str, "source."), size, _get(src, "mtime", str, "source."),
                         _get(src, "mtime_ns", int, "source."), _get(src, "sha256", str, "source."))
    par = _get(data, "params", dict)
    max_lines = par.get("max_lines")
    params = Params(_count(par, "tokens", "params.", low=1), _count(par, "overlap", "params."),
                    None if max_lines is None else _count(par, "max_lines", "params."),
                    _get(par, "format", str, "params."), _get(par, "layout", bool, "params."))
    chunks = []
    for number, item in enumerate(_get(data, "chunks", list), 1):
        where = f"chunks[{number - 1}]."
        if not isinstance(item, dict):
            raise Unusable(f"chunk {number} is not an object")
        name = _get(item, "file", str, where)
        if not CHUNK_FILE.fullmatch(name):
            raise Unusable(f"{where}file {name[:60]!r} is not a chunk file name (chunk-NNNNN.txt)")
        lines = _get(item, "lines", list, where)
        if len(lines) != 2 or not all(type(n) is int and n >= 0 for n in lines):
            raise Unusable(f"{where}lines is not two line numbers")
        chunks.append(Chunk(_count(item, "index", where, low=number, high=number), name, _get(item, "span", str, where),
                            (lines[0], lines[1]), _count(item, "chars", where), _count(item, "bytes", where),
                            _count(item, "est_tokens", where), _count(item, "repeated_chars", where),
                            _get(item, "sha256", str, where)))
    cost, resume = data.get("cost"), data.get("resume")
    if cost is not None:
        cost = _get(data, "cost", dict)
        model, per_mtok, usd, source_name = (_get(cost, key, str, "cost.")
                                             for key in ("model", "input_per_mtok", "usd", "source"))
        cost = Cost(model, per_mtok, usd, source_name, _get(cost, "known", bool, "cost."))
    if resume is not None:
        resume = _get(data, "resume", dict)
        resume = Resume(_count(resume, "chunk", "resume.", low=1), _count(resume, "byte", "resume.", high=size),
                        _count(resume, "lines", "resume."), _get(resume, "overlap", str, "resume."))
    return Manifest(source=source, kind=_get(data, "kind", str), params=params, folder=str(folder),
                    chunks=tuple(chunks), complete=_get(data, "complete", bool),
                    status=_get(data, "status", str) if "status" in data else "written",
                    truncated_reasons=_texts(data, "truncated_reasons"), warnings=_texts(data, "warnings"),
                    next=_texts(data, "next"), cost=cost, resume=resume)


def _get(obj: dict[str, Any], key: str, kind: type, where: str = "") -> Any:
    """``obj[key]``, when it is there and of ``kind`` (an int is not a bool); else Unusable, saying which."""
    if key not in obj:
        raise Unusable(f"{where}{key} is missing")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise Unusable(f"{where}{key} is {json.dumps(value)[:40]}, not {_KINDS[kind]}")
    return value


_KINDS = {str: "a string", int: "a whole number", bool: "true or false", dict: "an object", list: "a list"}


def _count(obj: dict[str, Any], key: str, where: str, *, low: int = 0, high: int | None = None) -> int:
    value: int = _get(obj, key, int, where)
    if value < low or (high is not None and value > high):
        span = f"from {low:,} to {high:,}" if high is not None else f"{low:,} or more"
        raise Unusable(f"{where}{key} is {value:,}, not {span}")
    return value


def _texts(data: dict[str, Any], key: str) -> tuple[str, ...]:
    items = _get(data, key, list) if key in data else []
    if not all(isinstance(item, str) for item in items):
        raise Unusable(f"{key} is not a list of strings")
    return tuple(items)


def _read_regular(path: Path, *, cap: int, size: int | None = None) -> bytes | None:
    """The bytes of ``path`` when it is a regular file (no link, FIFO or device) of at most ``cap`` bytes (of
    exactly ``size`` when given); None when it is not. Opened without blocking or following a link, so a FIFO
    put in its place cannot hang the read."""
    if path.is_symlink():  # O_NOFOLLOW says the same where there is one
        return None
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
    with os.fdopen(os.open(path, flags), "rb") as fh:
        st = os.fstat(fh.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_size > cap or size not in (None, st.st_size):
            return None
        data = fh.read(cap + 1)
    return data if len(data) <= cap and size in (None, len(data)) else None


def intact(manifest: Manifest) -> bool:
    """Every chunk file is there, a regular file (no link), with the size and hash the manifest says."""
    for chunk in manifest.chunks:
        try:
            raw = _read_regular(Path(manifest.folder) / chunk.file, cap=chunk.bytes, size=chunk.bytes)
            text = raw.decode("utf-8") if raw is not None else None
        except (OSError, UnicodeDecodeError):
            return False
        if text is None or len(text) != chunk.chars or sha256(text) != chunk.sha256:
            return False
    return True


def changes(old: Manifest, new: SourceFacts, params: Params) -> list[str]:
    """Why ``old`` does not describe this run: the source changed, or the parameters did. [] when it does."""
    why = []
    if (old.source.size, old.source.sha256) != (new.size, new.sha256):  # touched, same bytes: the chunks hold
        what = "size and content" if old.source.size != new.size else "content (sha256)"
        why.append(f"the source changed since the manifest was written ({what})")
    if old.params != params:
        diff = [f"{k} {getattr(old.params, k)} -> {getattr(params, k)}" for k in ("tokens", "overlap", "max_lines",
                                                                               "format", "layout")
                if getattr(old.params, k) != getattr(params, k)]
        why.append("the parameters changed (" + ", ".join(diff) + ")")
    return why


def dump(manifest: Manifest) -> str:
    data = manifest.as_dict()
    data.pop("manifest", None)
    data.pop("folder", None)
    return json.dumps({"schema": SCHEMA, "command": "chunks", **data}, ensure_ascii=False, indent=1) + "\n"


def remove_stale(folder: Path, keep: int, old: Manifest | None) -> None:
    """Delete the chunk files an older manifest listed past the ``keep`` chunks now written (only those)."""
    if old is None:
        return
    for chunk in old.chunks[keep:]:
        target = folder / chunk.file
        if CHUNK_FILE.fullmatch(chunk.file) and (target.is_symlink() or target.is_file()):
            target.unlink()  # a link itself, never what it points to
