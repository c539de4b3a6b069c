"""The next step as an MCP tool call: ``boundread pages r.pdf 6-10`` -> ``pages(path="r.pdf", range="6-10")``.

The engine's ``next`` commands are CLI command lines; an agent without a shell needs the call to make
instead. Each command's words map onto the tool's parameters; a command with a word no tool takes stays a
CLI command (None here), so nothing is ever suggested that the server cannot run.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Callable

#: option -> (parameter, converter); a converter of None marks a flag (True when present)
_OPTIONS: dict[str, dict[str, tuple[str, Callable[[str], object] | None]]] = {
    "info": {"--password": ("password", str)},
    "pages": {"--layout": ("layout", None), "--password": ("password", str), "--max-chars": ("max_chars", int)},
    "sheets": {"--rows": ("rows", str), "--max-rows": ("max_rows", int), "--max-chars": ("max_chars", int)},
    "list-zip": {"--password": ("password", str), "--entries": ("entries", str), "--match": ("match", str),
                 "--max-entries": ("max_entries", int)},
    "extract": {"--pages": ("pages", str), "--sheet": ("sheet", str), "--rows": ("rows", str),
                "--lines": ("lines", str), "--grep": ("grep", str), "-i": ("ignore_case", None),
                "--ignore-case": ("ignore_case", None), "--context": ("context", int), "-C": ("context", int),
                "--member": ("member", str), "--max-chars": ("max_chars", int), "--password": ("password", str),
                "--encoding": ("encoding", str), "--path": ("json_path", str),
                "--sql": ("sql", str)},
}
#: the positional parameters after the file, per command
_POSITIONAL = {"info": (), "pages": ("range",), "sheets": ("sheet",), "list-zip": (), "extract": ()}
_TOOL = {"list-zip": "list_zip"}
_QUOTED = re.compile(r"`(boundread [^`]+)`")


def tool_call(command: str, path: str) -> str | None:
    """The tool call that does what the CLI ``command`` does, naming the file ``path``; None when no tool can."""
    found = tool_args(command, path)
    return None if found is None else render(*found)


def tool_args(command: str, path: str) -> tuple[str, dict[str, object]] | None:
    """The tool and its arguments for the CLI ``command`` (see :func:`tool_call`)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    if len(words) < 3 or words[0] != "boundread" or words[1] not in _OPTIONS:
        return None
    name, rest = words[1], words[3:]
    args: dict[str, object] = {"path": path}
    positional = list(_POSITIONAL[name])
    options = _OPTIONS[name]
    while rest:
        word = rest.pop(0)
        if word == "--":  # the rest are positional, whatever they start with (`sheets F --rows 1-9 -- -neg`)
            if len(rest) > len(positional):
                return None
            args.update(zip(positional, rest, strict=False))
            break
        option, equals, value = word.partition("=")
        if equals and option.startswith("--") and options.get(option, ("", None))[1] is not None:
            word = option  # `--sheet=-neg`: the value is the word after the `=`, whatever it starts with
            rest.insert(0, value)
        if word in options:
            param, convert = options[word]
            if convert is None:
                args[param] = True
                continue
            if not rest:
                return None
            try:
                args[param] = convert(rest.pop(0))
            except ValueError:
                return None
        elif word.startswith("-") or not positional or positional[0] in args:
            return None
        else:
            args[positional.pop(0)] = word
    if name == "pages" and "range" not in args:
        return None
    return _TOOL.get(name, name), args


def position(args: dict[str, object]) -> dict[str, object]:
    """Where a reading call starts, whatever tool makes it: its file, member, sheet, grep, and the first page,
    row and line (``pages(range="2-9")`` and ``extract(pages="2")`` start at the same place; no rows and
    ``rows="1-200"`` too). Two calls that start at the same place read the same text first."""
    named = {("pages" if key == "range" else key): value for key, value in args.items()}
    start = {key: _first(named.get(key)) for key in ("pages", "rows", "lines")}
    fixed = {key: named[key] for key in ("path", "member", "sheet", "grep", "ignore_case", "context", "offset")
             if named.get(key) not in (None, False, 0)}
    return {**fixed, **start}


def _first(span: object) -> int:
    """The first number of ``"5-9"``, ``"5-"`` or ``"5,8"``; 1 for none."""
    match = re.match(r"\s*(\d+)", span) if isinstance(span, str) else None
    return int(match.group(1)) if match else 1


def render(tool: str, args: dict[str, object]) -> str:
    return f"{tool}(" + ", ".join(f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in args.items()) + ")"


def in_text(text: str, real_path: str, shown: str) -> str:
    """``text`` with each quoted CLI command (`` `boundread ...` ``) said as the tool call, where one does it."""
    def swap(match: re.Match[str]) -> str:
        command = match.group(1)
        words = _words(command)
        target = shown if len(words) > 2 and words[2] == real_path else (words[2] if len(words) > 2 else shown)
        call = tool_call(command, target)
        return f"`{call}`" if call else match.group(0)

    return _QUOTED.sub(swap, text)


def _words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return []
