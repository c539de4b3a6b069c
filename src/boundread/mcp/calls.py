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
    "list-zip": {"--password": ("password", str)},
    "extract": {"--pages": ("pages", str), "--sheet": ("sheet", str), "--rows": ("rows", str),
                "--lines": ("lines", str), "--grep": ("grep", str), "-i": ("ignore_case", None),
                "--ignore-case": ("ignore_case", None), "--context": ("context", int), "-C": ("context", int),
                "--member": ("member", str), "--max-chars": ("max_chars", int), "--password": ("password", str)},
}
#: the positional parameters after the file, per command
_POSITIONAL = {"info": (), "pages": ("range",), "sheets": ("sheet",), "list-zip": (), "extract": ()}
_TOOL = {"list-zip": "list_zip"}
_QUOTED = re.compile(r"`(boundread [^`]+)`")


def tool_call(command: str, path: str) -> str | None:
    """The tool call that does what the CLI ``command`` does, naming the file ``path``; None when no tool can."""
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
    return render(_TOOL.get(name, name), args)


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
