"""nbformat 2 and 3 cells in nbformat 4's shape, so :class:`~boundread.formats.web.cells.Cell` reads them alike.

What ``nbformat.v4.convert.upgrade`` does to a cell, on the bounded values the loader keeps: a code cell's
``input`` is its ``source`` and ``prompt_number`` its ``execution_count``; a ``heading`` cell is markdown behind
``level`` hashes; outputs ``pyout``/``pyerr`` are ``execute_result``/``error``, a stream names itself in
``stream``, and a result's forms are keys of the output (``png``, ``html``...) rather than MIME types in ``data``.
"""

from __future__ import annotations

from boundread.formats.web.nbload import Cut

_MIME = {"text": "text/plain", "html": "text/html", "svg": "image/svg+xml", "png": "image/png",
         "jpeg": "image/jpeg", "latex": "text/latex", "json": "application/json",
         "javascript": "application/javascript", "markdown": "text/markdown", "pdf": "application/pdf"}
_NOT_DATA = frozenset(("output_type", "prompt_number", "execution_count", "metadata"))


def as_v4(cell: dict[str, object]) -> dict[str, object]:
    kind = cell.get("cell_type")
    if kind == "code":
        outputs = cell.get("outputs")
        return {"cell_type": "code", "source": cell.get("input", ""), "execution_count": cell.get("prompt_number"),
                "outputs": [_output(o) for o in outputs] if isinstance(outputs, list) else []}
    if kind == "heading":
        level = cell.get("level")
        hashes = "#" * (level if isinstance(level, int) and 1 <= level <= 6 else 1)
        return {"cell_type": "markdown", "source": [f"{hashes} ", *_line(cell.get("source", ""))]}
    if kind == "html":
        return {**cell, "cell_type": "markdown"}
    return cell


def _line(source: object) -> list[object]:
    """A heading's source on one line, its parts kept (a part the loader cut stays a :class:`Cut`)."""
    parts = source if isinstance(source, list) else [source]
    return [Cut(" ".join(p.text.splitlines()), p.size) if isinstance(p, Cut) else
            " ".join(p.splitlines()) if isinstance(p, str) else p for p in parts]


def _output(output: object) -> object:
    if not isinstance(output, dict):
        return output  # a Skipped run of outputs stays one
    kind = output.get("output_type")
    if kind == "stream":
        return {"output_type": "stream", "name": output.get("stream", "stdout"), "text": output.get("text", "")}
    if kind == "pyerr":
        return {**output, "output_type": "error"}
    if kind in ("pyout", "display_data"):
        data = {_MIME.get(key, key): value for key, value in output.items() if key not in _NOT_DATA}
        return {"output_type": "execute_result" if kind == "pyout" else kind, "data": data}
    return output
