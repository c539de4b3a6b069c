"""The manifest: what ``DIR/manifest.json`` holds, as typed objects, and how it is read back and compared.

It is versioned as the JSON envelope is (``"schema": 1``, ``"command": "chunks"``); ``--json`` prints it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from boundread.limits import Deadline

SCHEMA = 1
NAME = "manifest.json"
_HASH_BLOCK = 1 << 20


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
        data = dataclasses.asdict(self)
        data["chunks"] = [{**c, "lines": list(c["lines"])} for c in data["chunks"]]
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
    """The manifest in ``folder``, or None when there is none, or it is not one this version wrote."""
    try:
        data = json.loads((folder / NAME).read_text(encoding="utf-8"))
        if data.get("schema") != SCHEMA or data.get("command") != "chunks":
            return None
        cost, resume = data.get("cost"), data.get("resume")
        return Manifest(
            source=SourceFacts(**data["source"]), kind=data["kind"], params=Params(**data["params"]),
            folder=str(folder),
            chunks=tuple(Chunk(**{**c, "lines": tuple(c["lines"])}) for c in data["chunks"]),
            complete=bool(data["complete"]), status=data.get("status", "written"),
            truncated_reasons=tuple(data.get("truncated_reasons", ())), warnings=tuple(data.get("warnings", ())),
            next=tuple(data.get("next", ())), cost=Cost(**cost) if cost else None,
            resume=Resume(**resume) if resume else None,
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def intact(manifest: Manifest) -> bool:
    """Every chunk file is there with the size and hash the manifest says."""
    for chunk in manifest.chunks:
        try:
            text = (Path(manifest.folder) / chunk.file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return False
        if len(text) != chunk.chars or sha256(text) != chunk.sha256:
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
        if target.parent == folder and target.is_file():
            target.unlink()
