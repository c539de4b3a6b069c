"""Parameter expansion beyond a plain value: arrays (``files=(a b); cat "${files[@]}"``, ``${arr[0]}``) and the
operators that cut or change a value (``${f%.gz}``, ``${f##*/}``, ``${f/a/b}``, ``${f:0:3}``, ``${f^^}``).

A name built this way is followed like any other (``f=big.log.gz; cat "${f%.gz}"`` prints big.log); an operator
whose pattern is itself an expansion or quoted is not (the value is then unknown, as before). Arrays live in the
shell's variables under ARRAY + name, their elements joined by ELEMENTS; the name alone is element 0, as in bash.
"""

from __future__ import annotations

from boundread.guard.shell.state import Env

#: ``env.vars[ARRAY + name]``: an array's elements joined by ELEMENTS (a key no shell variable can have).
ARRAY = "\x00[]"
#: ``env.vars[ALIAS + name]``: what ``alias name=...`` stands for; ``env.vars[SHOPT + option]``: ``shopt -s``.
ALIAS, SHOPT = "\x00alias:", "\x00shopt:"
ELEMENTS = "\x1f"
#: The longest value an operator is applied to (a pattern match tries each cut), and a replacement (each
#: position tries each end).
_LONGEST, _REPLACED = 1024, 128


def assign(env: Env, name: str, items: list[str]) -> None:
    """``name=(items...)``: the array, and ``$name`` its first element."""
    env.vars[ARRAY + name] = ELEMENTS.join(items)
    env.vars[name] = items[0] if items else ""


def element(env: Env, name: str, index: str, split: str) -> str | None:
    """``${name[index]}``: one element, or all of them (``@``: joined by ``split``, each its own word; ``*``:
    by a space); a plain variable is an array of one. None when the index is not a number or the name unknown."""
    stored = env.vars.get(ARRAY + name)
    if stored is None:
        if name not in env.vars:
            return None
        items = [env.vars[name]]
    else:
        items = stored.split(ELEMENTS) if stored else []
    if index in ("@", "*"):
        return (split if index == "@" else " ").join(items)
    if index.isdigit():
        at = int(index)
        return items[at] if at < len(items) else ""
    return None


def operate(value: str, rest: str) -> str | None:
    """``value`` through the operator ``rest`` (what follows the name: ``%.gz``, ``##*/``, ``/a/b``, ``:0:3``,
    ``^^``); None when the operator or its pattern cannot be followed here."""
    if len(value) > _LONGEST or any(ch in rest for ch in "$`\"'\\"):
        return None
    for op in ("%%", "##", "%", "#"):
        if rest.startswith(op):
            return _cut(value, rest[len(op):], op)
    if rest.startswith("/"):
        return _replace(value, rest[1:])
    if rest.startswith(":") and rest[1:2] not in ("-", "=", "+", "?"):
        return _slice(value, rest[1:])
    cases = {"^^": value.upper(), ",,": value.lower(), "^": value[:1].upper() + value[1:],
             ",": value[:1].lower() + value[1:]}
    return cases.get(rest)


def _matches(text: str, pattern: str) -> bool:
    from fnmatch import fnmatchcase  # bash's patterns: * ? [...] - the same as fnmatch's but for [!...]/[^...]

    return fnmatchcase(text, pattern.replace("[^", "[!"))


def _cut(value: str, pattern: str, op: str) -> str:
    """``%``/``%%``: the shortest/longest suffix that matches removed; ``#``/``##``: the prefix."""
    ends = range(len(value) + 1)
    if op == "%":
        cuts = [at for at in reversed(ends) if _matches(value[at:], pattern)]
        return value[:cuts[0]] if cuts else value
    if op == "%%":
        cuts = [at for at in ends if _matches(value[at:], pattern)]
        return value[:cuts[0]] if cuts else value
    if op == "#":
        cuts = [at for at in ends if _matches(value[:at], pattern)]
        return value[cuts[0]:] if cuts else value
    cuts = [at for at in reversed(ends) if _matches(value[:at], pattern)]
    return value[cuts[0]:] if cuts else value


def _replace(value: str, rest: str) -> str | None:
    """``${v/pat/rep}`` (the first longest match), ``${v//pat/rep}`` (each), ``${v/#pat/rep}`` (at the start),
    ``${v/%pat/rep}`` (at the end). Each position tries each end: at most _REPLACED characters."""
    if len(value) > _REPLACED:
        return None
    every = rest.startswith("/")
    rest = rest[1:] if every else rest
    anchor = rest[:1] if rest[:1] in ("#", "%") else ""
    pattern, _, replacement = rest[len(anchor):].partition("/")
    if not pattern:
        return value
    if anchor == "#":
        ends = [end for end in range(len(value), -1, -1) if _matches(value[:end], pattern)]
        return replacement + value[ends[0]:] if ends else value
    if anchor == "%":
        starts = [start for start in range(len(value) + 1) if _matches(value[start:], pattern)]
        return value[:starts[0]] + replacement if starts else value
    out: list[str] = []
    at = 0
    while at < len(value):
        ends = [end for end in range(len(value), at, -1) if _matches(value[at:end], pattern)]
        if not ends:
            out.append(value[at])
            at += 1
            continue
        out.append(replacement)
        at = ends[0]
        if not every:
            break
    return "".join(out) + value[at:]


def _slice(value: str, rest: str) -> str | None:
    """``${v:offset}``, ``${v:offset:length}`` (a negative offset after a space: from the end)."""
    parts = rest.split(":")
    try:
        numbers = [int(part.strip()) for part in parts[:2]]
    except ValueError:
        return None
    start = numbers[0] if numbers[0] >= 0 else max(0, len(value) + numbers[0])
    if len(numbers) == 1:
        return value[start:]
    length = numbers[1]
    return value[start:start + length] if length >= 0 else value[start:len(value) + length]
