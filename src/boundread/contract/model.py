"""The typed objects that flow between the CLI, the engine and the format handlers.

A format handler (a module the registry in :mod:`boundread.formats` names, e.g.
``boundread.formats.pdf.handler``) receives a :class:`Source` and a :class:`Request` and returns
:class:`Details` (from ``info``) or an :class:`Outcome` (from ``extract``, after writing text into
a :class:`~boundread.contract.sink.Sink`). It never prints and never exits.
"""

from __future__ import annotations

import os

from boundread.bytelevel.sniff import Sniffed
from boundread.limits import Limits
from boundread.record import Record, field

TYPE_CHECKING = False  # not typing's: these types load on every command's start-up (see boundread/record.py)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path
    from typing import IO, Any

#: Stands for the file's own path in a suggested command; the engine puts the quoted path there.
FILE = "\x00FILE\x00"

Suggestion = tuple[str, ...]  # e.g. ("pages", FILE, "6-10"): the words after `boundread`


class Source(Record, frozen=True):
    """A file to read: a path on disk, or an archive member held in memory (capped)."""

    name: str  # what the user called it: the path as given, or "archive.zip:member"
    sniffed: Sniffed
    size: int
    path: Path | None = None
    data: bytes | None = None

    @property
    def kind(self) -> str:
        return self.sniffed.kind

    @property
    def file(self) -> str | None:
        """The path on disk as a string, without making the Path (see :func:`_path`); None in memory."""
        given = self.__dict__["path"]
        return None if given is None else os.fspath(given)

    def open(self) -> IO[bytes]:
        """A fresh binary stream positioned at 0. The caller closes it."""
        if self.file is not None:
            return open(self.file, "rb")
        import io

        return io.BytesIO(self.data or b"")


def _path(self: Source) -> Path | None:
    """``Source.path``: a Path when read, whatever it was given as. ``source_for_path`` gives the string, so a read
    that never asks for the Path (a text file's info and extract) never imports pathlib (~5 ms of start-up)."""
    given = self.__dict__["path"]
    if given is None or type(given) is not str:
        return given  # type: ignore[no-any-return]
    from pathlib import Path

    made = self.__dict__["path"] = Path(given)  # the frozen record's own dict: made once
    return made


type.__setattr__(Source, "path", property(_path))  # after the class: its field (and default) were declared above


class Span(Record, frozen=True):
    """An inclusive 1-based range, e.g. pages 3-7."""

    first: int
    last: int

    def __str__(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


class Request(Record, frozen=True):
    """What to extract. Handlers read the fields that apply to their kind and ignore the rest."""

    limits: Limits = field(default_factory=Limits)
    pages: tuple[Span, ...] = ()  # pdf pages or pptx slides; () means from the first
    sheets: tuple[str, ...] = ()  # sheet names or 1-based indices, as given
    rows: Span | None = None  # sheet rows
    fmt: str = "csv"  # sheets: csv | tsv | markdown
    layout: bool = False  # pdf: keep the physical layout
    engine: str = "auto"  # pdf: auto | pdfium | pdfminer
    password: str | None = None
    ocr: str = "auto"  # pdf pages without text, images: auto (when Tesseract is installed) | force | never
    ocr_lang: str = "eng"  # Tesseract language packs, several joined with "+"
    tail: int | None = None  # text: only the last N lines, read from the end
    encoding: str | None = None  # text (plain or compressed): decode with this codec, not the guessed one
    entries: Span | None = None  # archive listing: entries A-B (1-based, of those --match keeps)
    match: str | None = None  # archive listing: only names matching this fnmatch pattern
    path: str | None = None  # json, jsonl: a jq-like path (.items[100:120]); None: the whole value / records
    sql: str | None = None  # sqlite: one read-only statement (SELECT ...), rows and cells bounded


class Details(Record):
    """What ``info`` learns about one file, cheaply. ``fields`` is per kind (see README)."""

    fields: dict[str, Any] = field(default_factory=dict)
    encrypted: bool = False
    est_chars: int | None = None  # characters of full text, if known or estimated
    estimated: bool = True  # est_chars is an estimate, not a count
    warnings: list[str] = field(default_factory=list)
    next: list[Suggestion] = field(default_factory=list)


class Outcome(Record):
    """What a handler's ``extract`` did, beyond the text it wrote to the sink."""

    unit: str = "lines"  # pages | slides | rows | lines | entries | paragraphs
    done: str = ""  # human words for what was covered: "pages 1-5 of 103"
    totals: dict[str, Any] = field(default_factory=dict)  # the whole file: {"pages": 103}
    truncated: list[str] = field(default_factory=list)  # why the handler stopped early
    resume: Suggestion | None = None  # the command that continues where this one stopped
    #: the continuations of the other parts it cut or never reached (sheets of a workbook), after ``resume``:
    #: one ``next`` alone would skip them
    more: list[Suggestion] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class InfoResult(Record, frozen=True):
    path: str
    kind: str
    mime: str
    bytes: int
    symlink_target: str | None
    mislabelled: str | None
    encrypted: bool
    est_tokens: int | None
    est_tokens_estimated: bool
    fields: dict[str, Any]
    warnings: Sequence[str]
    next: Sequence[str]
    #: Why extract cannot read it, when info found out: {"code", "exit_code", "message"} - the error that
    #: ``extract`` (and ``sheets``, ``pages``, ``list-zip`` where they apply) ends with. None: no problem known.
    problem: dict[str, Any] | None = None


class ExtractResult(Record, frozen=True):
    path: str
    kind: str
    bytes: int
    output: str | None  # the file written, or None when the text went to stdout
    chars: int
    lines: int
    est_tokens: int
    truncated: bool
    truncated_reasons: Sequence[str]
    done: str
    totals: dict[str, Any]
    warnings: Sequence[str]
    next: Sequence[str]
    text: str | None = None  # set only when the caller asked for the text itself (--stdout, library)
    member: str | None = None
    timed_out: bool = False


class Entry(Record, frozen=True):
    """One archive member, as its directory (central directory, 7z header, tar header) says."""

    name: str
    size: int | None  # uncompressed bytes
    compressed: int | None
    modified: str | None  # ISO 8601
    encrypted: bool = False
    is_dir: bool = False
    is_symlink: bool = False
    link_target: str | None = None
    warnings: tuple[str, ...] = ()  # "escapes the folder", "ratio 920x", "nested archive"
    name_encoding: str | None = None  # guessed encoding of a name the archive did not mark (cp936, cp437...)

    def __init__(self, name: str, size: int | None, compressed: int | None, modified: str | None,
                 encrypted: bool = False, is_dir: bool = False, is_symlink: bool = False,
                 link_target: str | None = None, warnings: tuple[str, ...] = (),
                 name_encoding: str | None = None) -> None:
        """Written out (the defaults above, again): a walk makes one per member, 300,000 for a big zip, and this
        takes half the time of the generic constructor."""
        object.__setattr__(self, "__dict__", {
            "name": name, "size": size, "compressed": compressed, "modified": modified, "encrypted": encrypted,
            "is_dir": is_dir, "is_symlink": is_symlink, "link_target": link_target, "warnings": warnings,
            "name_encoding": name_encoding})

    @property
    def ratio(self) -> float | None:
        if self.size is None or not self.compressed:
            return None
        return self.size / self.compressed


class Listing(Record):
    """An archive's table of contents, bounded by ``Limits.max_entries``."""

    format: str  # zip | 7z | tar | tar.gz | tar.bz2 | tar.xz | gz | bz2 | xz
    entries: list[Entry] = field(default_factory=list)  # at most max_entries
    total_entries: int = 0  # all of them, even those not listed
    total_size: int = 0
    total_compressed: int | None = None
    largest: int = 0
    encrypted_entries: int = 0
    solid: bool | None = None
    truncated: bool = False  # entries after the last listed (max_entries, the range's end), or it stopped early
    warnings: list[str] = field(default_factory=list)
    first: int = 1  # the number of the first entry asked for (1-based, of the matching ones)
    last: int | None = None  # the number of the last one asked for; None: to the end
    match: str | None = None  # the fnmatch pattern names were kept by
    matching: int | None = None  # entries whose names match (None without a pattern)
    resume: Suggestion | None = None  # the next page of the listing, when there is one
    timed_out: bool = False  # the walk ran out of time before the page was complete (exit 8)
