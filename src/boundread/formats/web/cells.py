"""How a notebook cell is written: its source, then its outputs, text kept and the rest summarised.

A code cell is its source in a fence, then ``Out:`` and each output: stream text and ``text/plain`` results
as they are (each cut at ``MAX_OUTPUT`` characters, with a line saying how big it was), an error as its name,
value and traceback (terminal colours out), and everything else - images, HTML beside a plain-text form,
widgets - as one line ``[image/png 120 kB]`` instead of its base64. Markdown and raw cells are their source.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from boundread.formats.web.nbload import Cut, Skipped
from boundread.units import human_bytes

MAX_OUTPUT = 4000  # characters of one output shown
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_TEXT_FIRST = ("text/plain", "text/markdown", "text/latex")


@dataclass
class Tally:
    """What was summarised or cut, across the cells written, for the outcome's warnings."""

    cut_outputs: int = 0
    summarised: int = 0
    unread: int = 0  # strings or values the loader stepped over (its budget spent)


@dataclass(frozen=True)
class Joined:
    text: str
    size: int  # bytes in the file
    whole: bool


def joined(value: object) -> Joined:
    """A notebook text field: a string or a list of strings (either possibly cut by the loader)."""
    parts = value if isinstance(value, list) else [value]
    text: list[str] = []
    size, whole = 0, True
    for part in parts:
        if isinstance(part, str):
            text.append(part)
            size += len(part.encode("utf-8", "replace"))
        elif isinstance(part, Cut):
            text.append(part.text)
            size += part.size
            whole = False
        elif isinstance(part, Skipped):
            size += part.size
            whole = False
    return Joined("".join(text), size, whole)


def _size(value: object) -> int:
    return joined(value).size


@dataclass
class Cell:
    number: int
    total: int
    data: dict[str, object]
    tally: Tally = field(default_factory=Tally)

    @property
    def kind(self) -> str:
        kind = self.data.get("cell_type")
        return kind if isinstance(kind, str) else "unknown"

    def chunks(self) -> Iterator[str]:
        count = self.data.get("execution_count")
        label = f" [{count}]" if isinstance(count, int) else ""
        yield f"--- cell {self.number} / {self.total}: {self.kind}{label} ---\n"
        source = joined(self.data.get("source", ""))
        body = source.text.rstrip("\n")
        if self.kind == "code":
            yield f"```\n{body}\n```\n" if body else ""
        elif body:
            yield body + "\n"
        if not source.whole:
            self.tally.unread += 1
            yield f"[source {human_bytes(source.size)}: first {len(source.text):,} characters shown]\n"
        attachments = self.data.get("attachments")
        if isinstance(attachments, dict):
            for name, bundle in attachments.items():
                if isinstance(bundle, dict):
                    for mime, value in bundle.items():
                        self.tally.summarised += 1
                        yield f"[attachment {name}: {mime} {human_bytes(_decoded(mime, _size(value)))}]\n"
        outputs = self.data.get("outputs")
        if isinstance(outputs, list) and outputs:
            yield "Out:\n"
            for output in outputs:
                yield from self._output(output)
        yield "\n"

    def _output(self, output: object) -> Iterator[str]:
        if isinstance(output, Skipped):
            self.tally.unread += output.count
            yield f"[{output.count:,} more outputs, {human_bytes(output.size)}, not read]\n"
            return
        if not isinstance(output, dict):
            return
        kind = output.get("output_type")
        if kind == "stream":
            yield from self._text(str(output.get("name", "stream")), joined(output.get("text", "")))
        elif kind == "error":
            yield f"{output.get('ename', 'Error')}: {output.get('evalue', '')}\n"
            trace = output.get("traceback")
            if isinstance(trace, list):
                lines = joined([*(t + "\n" if isinstance(t, str) else t for t in trace)])
                yield from self._text("traceback", Joined(_ANSI.sub("", lines.text), lines.size, lines.whole))
        elif isinstance(data := output.get("data"), dict):
            shown = next((m for m in _TEXT_FIRST if m in data), None)
            if shown is not None:
                yield from self._text(shown, joined(data[shown]))
            for mime, value in data.items():
                if mime != shown:
                    self.tally.summarised += 1
                    yield f"[{mime} {human_bytes(_decoded(mime, _size(value)))}]\n"

    def _text(self, what: str, text: Joined) -> Iterator[str]:
        body = text.text
        if len(body) > MAX_OUTPUT or not text.whole:
            self.tally.cut_outputs += 1
            body = body[:MAX_OUTPUT].rstrip("\n")
            yield f"{body}\n[{what} {human_bytes(text.size)}: first {len(body):,} characters shown]\n"
        elif body:
            yield body if body.endswith("\n") else body + "\n"


def _decoded(mime: str, size: int) -> int:
    """Bytes of the data itself: binary outputs are stored as base64 (4 characters for 3 bytes)."""
    textual = mime.startswith("text/") or mime.endswith(("json", "+xml", "javascript"))
    return size if textual else size * 3 // 4
