"""Loops, run once per value they are known to take: ``for NAME in WORDS`` and ``... | while read NAME``.

The values are bounded (FANOUT); past the cap the loop says so (``ctx.cap``), and what it left out is unchecked.
A ``while read`` loop whose lines cannot be known (a big file, a program's output) runs its body once, with the
names unknown, and its input counts as read by the loop.
"""

from __future__ import annotations

from boundread.guard.shell import words
from boundread.guard.shell.state import FANOUT, UNKNOWN, Ctx, Env, Stream, known_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

_READ_FLAGS = frozenset("rse")  # read's options that take no value and leave the line as it is (-r: raw)


def for_loop(node: Node, env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    variable, body = node.child_by_field_name("variable"), node.child_by_field_name("body")
    if body is None:
        return Stream()
    name = (variable.text or b"").decode("utf-8", "replace") if variable is not None else ""
    values: list[str] = []
    for word in node.children_by_field_name("value"):
        values.extend(words.expand(word, env, ctx, []) or [UNKNOWN])
    if not node.children_by_field_name("value"):
        values = list(env.args)
    if len(values) > FANOUT:
        ctx.cap(f"the loop over `${name}` has more than {FANOUT} values; the first {FANOUT} were checked")
    out = Stream()
    for item in values[:FANOUT] or [UNKNOWN]:
        env.vars[name] = item
        out.add(ctx.run(body, env, stdin))
    return out


def while_read(node: Node, env: Env, ctx: Ctx, stdin: Stream) -> Stream | None:
    """``find . -name '*.log' | while read -r f; do cat "$f"; done`` (or ``done < list``): the body once per
    line the loop reads, when those lines are known - the names ``find`` or ``ls`` printed, a small list
    file. None when the condition is not a plain ``read`` or the lines are not known."""
    condition, body = node.child_by_field_name("condition"), node.child_by_field_name("body")
    if node.type != "while_statement" or condition is None or body is None or condition.type != "command":
        return None
    found = _read_names(condition)
    text = known_text(stdin) if found is not None else None
    if found is None or text is None:
        return None
    names, trim = found
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()  # the newline that ends the last line starts no line
    if len(lines) > FANOUT:
        ctx.cap(f"the `while read {names[0]}` loop reads more than {FANOUT} lines; the first {FANOUT} were checked")
    out = Stream()
    for line in lines[:FANOUT]:
        for name, value in zip(names, _fields(line, len(names), trim), strict=True):
            env.vars[name] = value
            env.var_flows[name] = []
        out.add(ctx.run(body, env, stdin))
    out.flows.extend(stdin.named("while read"))
    return out


def _read_names(condition: Node) -> tuple[list[str], bool] | None:
    """The variables of a condition ``[IFS=] read [-r] NAME...``, and whether read trims blanks (IFS unset
    or default); None for anything else (``read -d X``, ``read -n 3``, a test, a pipeline)."""
    name = condition.child_by_field_name("name")
    if name is None or name.text != b"read":
        return None
    trim = True
    names: list[str] = []
    for child in condition.named_children:
        text = (child.text or b"").decode("utf-8", "replace")
        if child.type == "variable_assignment":
            if not text.startswith("IFS="):
                continue
            if text != "IFS=":
                return None  # splitting on other characters: not modelled
            trim = False
        elif child.type == "word":
            if text.startswith("-") and not names:
                if not set(text[1:]) <= _READ_FLAGS:
                    return None
            elif text.isidentifier():
                names.append(text)
            else:
                return None
        elif child.type != "command_name":
            return None
    return (names or ["REPLY"]), trim


def _fields(line: str, count: int, trim: bool) -> list[str]:
    """The values ``read`` gives ``count`` names from one line: split on blanks, the last takes the rest."""
    if not trim:
        return [line, *[""] * (count - 1)]  # IFS= : no splitting, the first name takes the line
    parts = line.split(None, count - 1)
    return [*(part.strip() for part in parts), *[""] * count][:count]
