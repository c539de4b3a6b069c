"""Which tool calls read files, beyond each agent's own Read tool: what they read, and how much.

- Claude Code ``NotebookRead`` (``notebook_path``).
- MCP file servers (``mcp__<server>__read_file`` in Claude Code and Codex, ``mcp_<server>_...`` in
  Gemini, any ``<prefix><sep>read_text_file``): ``read_file``/``read_text_file`` (``path``, with
  ``head``/``tail`` lines), ``read_media_file`` (``path``) and ``read_multiple_files`` (``paths``).
- Gemini ``read_many_files``: ``paths`` and ``include``, globs relative to the workspace. Gemini skips
  binary files that are not named explicitly (by name or extension), so a glob's PDF is only a read
  when the pattern names its extension; at most ``MAX_MATCHES`` files are looked at (more, or a walk
  over GLOB_SECONDS, is denied: one call would return them all).
- PowerShell (Copilot CLI on Windows, Claude Code's PowerShell tool): ``Get-Content`` and its aliases
  ``gc``, ``type``, ``cat``, with ``-Path``/``-LiteralPath`` or positional paths, bounded by
  ``-TotalCount``/``-Head``/``-First`` or ``-Tail``/``-Last`` (or a ``| Select-Object -First N``);
  output sent to ``Out-File``/``Set-Content``/``Measure-Object``/``> file`` is not shown.

A read is ``(path, limit, explicit)``: ``limit`` in lines (None: the whole file); ``explicit`` is False
for a file found by a glob (see above). Standard library only: guard-check's hot path.
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
# ruff: noqa: PTH111, PTH117, PTH118, PTH119, PTH207
from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from boundread.guard.config import GuardConfig
    from boundread.guard.decide import Decision

Read = tuple[str, "int | None", bool]
MAX_MATCHES = 500
GLOB_SECONDS = 1.0  # a glob that walks longer counts as over MAX_MATCHES
_SEPARATORS = "_-./:"
_MULTI = ("read_multiple_files", "read_many_files")
_SINGLE = ("read_text_file", "read_media_file", "read_file", "notebookread")
#: What each of these tools calls its range, for a deny reason.
_RANGES = {"read_text_file": "head/tail", "read_file": "head/tail", "notebookread": "offset/limit",
           "read_multiple_files": "fewer paths (or read_text_file with head)",
           "read_many_files": "fewer paths (or read_file with start_line/end_line)"}


def _base(tool: str) -> str:
    """``mcp__fs__read_text_file`` -> ``read_text_file``; '' when ``tool`` is none of the read tools."""
    for name in (*_MULTI, *_SINGLE):
        if tool == name or (tool.endswith(name) and tool[-len(name) - 1] in _SEPARATORS):
            return name
    return ""


def is_read_tool(tool: str) -> bool:
    return bool(_base(tool.lower()))


def range_params(tool: str) -> str:
    return _RANGES.get(_base(tool.lower()), "")


#: The keys an MCP shell tool takes its command line in (``mcp__shell__execute_command``: ``command``;
#: desktop-commander's ``start_process``: ``command``; others ``cmd`` or ``command_line``).
_COMMAND_KEYS = ("command", "cmd", "command_line")
#: How MCP tool names start: ``mcp__<server>__<tool>`` in Claude Code and Codex, ``mcp_<server>_<tool>`` in Gemini.
_MCP_PREFIXES = ("mcp__", "mcp_")


def mcp_command(tool: str, args: Mapping[str, Any]) -> str | None:
    """The shell command an MCP tool runs, or None when ``tool`` is not an MCP tool with one.

    Any MCP tool whose input has a command string is judged as a shell command: the servers that run one
    (shell, desktop-commander, terminal, bash...) print its output into the conversation as Bash does, and a
    string that is no shell command (a SQL verb, a git subcommand) walks as an unknown program, which prints
    no file. ``tool`` is lower-cased."""
    if not tool.startswith(_MCP_PREFIXES):
        return None
    for key in _COMMAND_KEYS:
        value = args.get(key)
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, (list, tuple)) and value and all(isinstance(word, str) for word in value):
            from boundread.guard.reason import quote  # an argv list: one command line, as Codex's is joined

            return " ".join(quote(word) for word in value)
    return None


def reads(tool: str, args: Mapping[str, Any], cwd: str) -> list[Read]:
    """The files a read tool call reads (empty when it names none)."""
    base = _base(tool.lower())
    if base == "read_many_files":
        return _globbed([*_strings(args.get("paths")), *_strings(args.get("include"))], cwd)
    if base == "read_multiple_files":
        return [(path, None, True) for path in _strings(args.get("paths"))]
    path = args.get("notebook_path") if base == "notebookread" else None
    path = path or args.get("path") or args.get("file_path")
    if not isinstance(path, str) or not path:
        return []
    limit = None
    for key in ("head", "tail"):
        count = _count(args.get(key))
        if count is not None:
            limit = count if limit is None else min(limit, count)
    return [(path, limit, True)]


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, (list, tuple)):
        return [item for item in value if isinstance(item, str) and item]
    return []


def _count(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return None
    text = str(value).strip() if isinstance(value, str) else ""
    if isinstance(value, int):
        return value if value > 0 else None
    return int(text) if text.isascii() and text.isdigit() and len(text) < 19 and int(text) > 0 else None


def _globbed(patterns: list[str], cwd: str) -> list[Read]:
    found: list[Read] = []
    for pattern in patterns:
        if not any(ch in pattern for ch in "*?["):
            found.append((pattern, None, True))
            continue
        matches = _matches(pattern, cwd)
        if matches is None:  # a walk of a huge tree: count it as over the cap
            return found + [(pattern, None, False)] * (MAX_MATCHES + 1 - len(found))
        for match in matches:
            named = "." in os.path.basename(pattern) and pattern.lower().endswith(
                os.path.splitext(match)[1].lower() or "\0")
            found.append((match if os.path.isabs(match) or not cwd else os.path.join(cwd, match), None, named))
            if len(found) > MAX_MATCHES:
                return found
    return found


def _matches(pattern: str, cwd: str) -> list[str] | None:
    """At most MAX_MATCHES + 1 files ``pattern`` matches, or None when the walk takes over GLOB_SECONDS
    (a glob that matches nothing in a big tree walks all of it). The walk runs in a daemon thread."""
    import glob  # only for a pattern
    import threading

    out: list[str] = []

    def walk() -> None:
        for match in glob.iglob(pattern, root_dir=cwd or None, recursive=True):
            out.append(match)
            if len(out) > MAX_MATCHES:
                return

    worker = threading.Thread(target=walk, daemon=True)
    worker.start()
    worker.join(GLOB_SECONDS)
    return None if worker.is_alive() else list(out)


# --- PowerShell -------------------------------------------------------------------------------------

_GET_CONTENT = {"get-content", "gc", "type", "cat"}
_CD = {"cd", "chdir", "set-location", "sl", "pushd", "push-location"}
_VALUE_PARAMS = ("path", "literalpath", "pspath", "lp", "totalcount", "head", "first", "tail", "last",
                 "encoding", "delimiter", "readcount", "stream", "filter", "include", "exclude", "credential")
_SWALLOW = {"out-file", "set-content", "add-content", "out-null", "measure-object", "measure", "tee-object"}
_SELECT = {"select-object", "select"}
_FILTER = {"select-string", "sls", "where-object", "where", "?"}
_ANY_LINE = {"", ".", ".*", "^", "$", "*"}


def powershell_reads(command: str) -> list[Read]:
    """The ``Get-Content`` reads in a PowerShell command line whose output is shown."""
    found: list[Read] = []
    here = ""  # where cd / Set-Location / Push-Location went, relative to the call's cwd
    for pipeline in _pipelines(_words(command)):
        if not pipeline:
            continue
        first = pipeline[0]
        if first and first[0].lower() in _CD:
            folder = next((_path(word) for word in first[1:] if not word.startswith("-")), "")
            here = os.path.join(here, folder) if folder else here
            continue
        if not first or first[0].lower() not in _GET_CONTENT:
            continue
        paths, limit, follows = _get_content(first[1:])
        paths = [os.path.join(here, _path(path)) for path in paths]
        if follows:
            limit = None
        shown = True
        for stage in pipeline[1:]:
            name = stage[0].lower() if stage else ""
            if name in _SWALLOW:
                shown = False
            elif name in _SELECT:
                count = _param(stage[1:], ("first", "last"))
                if count is not None:
                    limit = count if limit is None else min(limit, count)
            elif name in _FILTER and (len(stage) < 2 or stage[-1].strip("'\"") not in _ANY_LINE):
                shown = False  # a filter, as grep PATTERN is
        if shown:
            found.extend((path, limit, True) for path in paths)
    return found


def _get_content(words: list[str]) -> tuple[list[str], int | None, bool]:
    paths: list[str] = []
    limit, follows, index = None, False, 0
    while index < len(words):
        word = words[index]
        index += 1
        if word.startswith("-") and len(word) > 1 and not word[1].isdigit():
            name, _, inline = word[1:].partition(":")
            full = _param_name(name.lower())
            if full == "wait":
                follows = True
            if full not in _VALUE_PARAMS:
                continue
            value = inline or (words[index] if index < len(words) else "")
            index += 0 if inline else 1
            if full in ("path", "literalpath", "pspath", "lp"):
                paths.extend(_split_paths(value))
            elif full in ("totalcount", "head", "first", "tail", "last"):
                count = _count(value)
                limit = None if count is None else (count if limit is None else min(limit, count))
        else:
            paths.extend(_split_paths(word))
    return paths, limit, follows


def _param_name(prefix: str) -> str:
    """A PowerShell parameter from its (unique) prefix: ``-Tot`` is ``-TotalCount``."""
    names = [*_VALUE_PARAMS, "wait", "raw", "force", "asbytestream"]
    if prefix in names:
        return prefix
    matches = [name for name in names if name.startswith(prefix)]
    return matches[0] if len(matches) == 1 else ""


def _param(words: list[str], wanted: tuple[str, ...]) -> int | None:
    for index, word in enumerate(words[:-1]):
        if word.startswith("-") and word[1:].lower() in wanted:
            return _count(words[index + 1])
    return None


def _path(word: str) -> str:
    """A PowerShell path on this system: pwsh on Linux and macOS takes backslashes too."""
    return word.replace("\\", "/") if os.sep == "/" else word


def _split_paths(value: str) -> list[str]:
    return [part.strip().strip("'\"") for part in value.split(",") if part.strip().strip("'\"")]


def _words(command: str) -> list[str]:
    """PowerShell words and the operators ``| ; && || &`` and redirections (``>``, ``2>``, ``*>>``,
    ``2>&1``); quotes kept off, ``'...'`` literal, a backtick escapes."""
    words: list[str] = []
    current: list[str] = []
    quoted = False
    index = 0
    while index < len(command):
        ch = command[index]
        if ch in "'\"":
            end = command.find(ch, index + 1)
            end = len(command) if end < 0 else end
            current.append(command[index + 1:end])
            quoted, index = True, end + 1
            continue
        if ch == ">":
            stream = current.pop() if current and not quoted and current[-1] in "123456*" and len(current) == 1 else ""
            end = index + (2 if command[index:index + 2] == ">>" else 1)
            if command[end:end + 1] == "&" and command[end + 1:end + 2].isdigit():
                end += 2
            if current or quoted:
                words.append("".join(current))
            current, quoted = [], False
            words.append(stream + command[index:end])
            index = end
            continue
        if ch.isspace() or ch in "|;&":
            if current or quoted:
                words.append("".join(current))
                current, quoted = [], False
            if ch in "|;&":
                op = command[index:index + 2] if command[index:index + 2] in ("&&", "||") else ch
                words.append(op)
                index += len(op)
                continue
        elif ch == "`" and index + 1 < len(command):
            current.append(command[index + 1])
            index += 2
            continue
        else:
            current.append(ch)
        index += 1
    if current or quoted:
        words.append("".join(current))
    return words


def _pipelines(words: list[str]) -> list[list[list[str]]]:
    """Statements (split at ; && || and &) of pipeline stages (split at |). Output redirected to a
    file (``> f``, ``1>> f``, ``*> f``) is not shown: that statement reads nothing visible."""
    pipelines: list[list[list[str]]] = [[[]]]
    swallowed, target = False, False
    for word in words:
        if target:
            target = False
            continue
        if word in (";", "&&", "||", "&"):
            if swallowed:
                pipelines[-1] = []
            pipelines.append([[]])
            swallowed = False
        elif word == "|":
            pipelines[-1].append([])
        elif ">" in word and word.lstrip("123456*").startswith(">"):
            stream, merged = word[0] if word[0] != ">" else "1", "&" in word
            if not merged:
                target = True
                swallowed = swallowed or stream in "1*"
        else:
            pipelines[-1][-1].append(word)
    if swallowed:
        pipelines[-1] = []
    return pipelines


def check_reads(found: tuple[Read, ...], cwd: str | None, config: GuardConfig, range_params: str,
                combined: bool) -> Decision:
    """The first deny among the reads; with ``combined`` (one tool call returns all of them), also a
    deny when they are more than MAX_MATCHES files or together over the text cap."""
    from boundread.guard.decide import ALLOW, DENY, Decision, check_read

    total = 0
    for path, limit, explicit in found[:MAX_MATCHES]:
        decision = check_read(path, limit=limit, cwd=cwd, config=config, range_params=range_params)
        if decision.denied and (explicit or decision.kind == "text"):
            return decision
        if combined and limit is None and decision.kind == "text":
            try:
                total += os.stat(os.path.join(cwd or "", os.path.expanduser(path))).st_size
            except (OSError, ValueError):  # gone since: check_read said so
                continue
    over = len(found) > MAX_MATCHES
    if combined and (over or (len(found) > 1 and total > config.text_max_bytes)):
        from boundread.guard import reason

        return Decision(DENY, reason.together(min(len(found), MAX_MATCHES), total, config.text_max_bytes,
                                              found[0][0], over), "text", "many-files", found[0][0])
    return Decision(ALLOW, rule="reads-ok")
