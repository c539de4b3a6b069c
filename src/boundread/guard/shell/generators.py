"""Programs that print without reading a file: ``yes`` never stops, ``seq 100000000`` prints 900 MB.

Each is a GENERATED flow whose size is known from its arguments (``yes``: no end); decide refuses it over
the cap unless a later stage bounds it (``yes | head -n 5``, ``seq 1e6 | wc -l``), with the bounded form.
"""

from __future__ import annotations

from boundread.guard.shell.state import REMOTE_MARK, Stream

#: A REMOTE use's path ends with this, then the bytes the program prints (-1: without end).
GENERATED = "\ue012generated"
PROGRAMS = frozenset({"yes", "seq", "jot"})
ENDLESS = -1
_INF = float("inf")


def run(name: str, args: list[str]) -> Stream:
    """The flow of what ``name args`` prints: its size in the path, judged by decide (remotes.generated)."""
    size = _size(name, args)
    if size is None:
        return Stream(exact=False)
    text = _small_seq(name, args)
    if text is not None:  # `for n in $(seq 1 6)`: the numbers, for the walk to follow
        return Stream([], text)
    words = " ".join([name, *args])
    return Stream([(f"{REMOTE_MARK}{words}:{GENERATED}{size}", (), words)], "")


def _size(name: str, args: list[str]) -> int | None:
    """The bytes printed: ``yes [WORD]`` has no end; ``seq [FIRST [STEP]] LAST`` and ``jot N`` as many numbers as
    they count, each with its newline; None when it cannot be told (a variable), taken as small."""
    if name == "yes":
        return ENDLESS
    numbers = [arg for arg in args if not arg.startswith("-") or _number(arg) is not None]
    values = [_number(arg) for arg in numbers]
    if not values or any(value is None for value in values):
        return None
    known = [value for value in values if value is not None]
    if name == "jot":
        count = known[0]
        width = len(str(int(known[2]))) if len(known) > 2 else len(str(int(count)))
        return int(max(count, 0)) * (width + 1)
    first, step, last = (1.0, 1.0, known[0]) if len(known) == 1 else \
        (known[0], 1.0, known[1]) if len(known) == 2 else (known[0], known[1], known[2])
    if step == 0:
        return ENDLESS
    steps = (last - first) / step
    if steps != steps or steps == _INF:  # `seq inf`, `seq -inf 1`, `seq inf inf`: numbers without end
        return ENDLESS
    if steps == -_INF:  # `seq inf 1`: none
        return 0
    count = int(steps) + 1
    if count <= 0:
        return 0
    width = max(len(str(int(first))), len(str(int(last))))
    return count * (width + 1)


def _small_seq(name: str, args: list[str]) -> str | None:
    """What ``seq [FIRST [STEP]] LAST`` of at most FANOUT whole numbers prints; None for anything else."""
    from boundread.guard.shell.state import FANOUT

    if name != "seq" or not args or not all(arg.lstrip("-").isdigit() for arg in args):
        return None
    values = [int(arg) for arg in args]
    first, step, last = (1, 1, values[0]) if len(values) == 1 else \
        (values[0], 1, values[1]) if len(values) == 2 else (values[0], values[1], values[2])
    if step == 0 or len(values) > 3:
        return None
    numbers = range(first, last + (1 if step > 0 else -1), step)
    if len(numbers) > FANOUT:
        return None
    return "".join(f"{n}\n" for n in numbers)


def _number(word: str) -> float | None:
    """The number ``word`` says (``inf`` too, which seq counts to without end); None for a word that is none."""
    try:
        value = float(word)
    except ValueError:
        return None
    return value if abs(value) < 1e18 or value in (_INF, -_INF) else None
