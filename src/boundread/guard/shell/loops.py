"""Loops, run once per value they are known to take: ``for NAME in WORDS`` and ``... | while read NAME``.

The values are bounded (FANOUT); past the cap the loop says so (``ctx.cap``), and what it left out is unchecked.
A ``while read`` loop whose lines cannot be known (a big file, a program's output) runs its body once, with the
names unknown, and its input counts as read by the loop.
"""

from __future__ import annotations

from boundread.guard.shell import words
from boundread.guard.shell.state import FANOUT, SMALL_SCRIPT, UNCHECKED, UNKNOWN, Ctx, Env, Stream, known_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

_READ_FLAGS = frozenset("rse")  # read's options that take no value and leave the line as it is (-r: raw)
_READ_IGNORED = frozenset("pt")  # options with a value that leave the line as it is (a prompt, a timeout)
_READ_OTHER = frozenset("nNu")  # with a value, reading other than a line of stdin: the values are not known
_BLANKS = " \t\n"  # the default IFS: blanks as bash means them, not every Unicode space


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
    for at, item in enumerate(values[:FANOUT] or [UNKNOWN]):
        if at and _stop(ctx, f"the loop over `${name}`", at):
            break
        env.vars[name] = item
        out.add(ctx.run(body, env, stdin))
    return out


def _stop(ctx: Ctx, loop: str, done: int) -> bool:
    """Has the budget (steps or time) come down to the reserve? Then the loop stops, and says so (a cap)."""
    if not ctx.low():
        return False
    ctx.cap(f"{loop} was checked for its first {done} passes: the command is too big to follow further")
    return True


def while_read(node: Node, env: Env, ctx: Ctx, stdin: Stream) -> Stream | None:
    """``find . -name '*.log' | while read -r f; do cat "$f"; done`` (or ``done < list``): the body once per
    line the loop reads, when those lines are known - the names ``find`` or ``ls`` printed, a small list
    file. When they are not (a program's output, a big list), once with the names unchecked: a whole print
    of one is refused as a cut listing's is, and the input counts as read by the loop. None when the
    condition is not a ``read`` (nor ``read ... || [ -n "$f" ]``)."""
    condition, body = node.child_by_field_name("condition"), node.child_by_field_name("body")
    if node.type != "while_statement" or condition is None or body is None:
        return None
    if condition.type == "list" and len(condition.named_children) == 2 and \
            any(child.type == "||" for child in condition.children):
        condition = condition.named_children[0]  # `read -r f || [ -n "$f" ]`: the last line without its newline
    if condition.type != "command":
        return None
    found = _read_names(condition, env, ctx)
    if found is None:
        return None
    names, ifs, raw, delimiter = found
    text = known_text(stdin, ctx) if delimiter is not None else None
    if text is None or delimiter is None:
        return _unknown_lines(names, body, env, ctx, stdin)
    lines = _lines(text, raw, delimiter)
    if len(lines) > FANOUT:
        ctx.cap(f"the `while read {names[0]}` loop reads more than {FANOUT} lines; the first {FANOUT} were checked")
    out = Stream()
    for at, line in enumerate(lines[:FANOUT]):
        if at and _stop(ctx, f"the `while read {names[0]}` loop", at):
            break
        for name, value in zip(names, _fields(line, len(names), ifs, raw), strict=True):
            env.vars[name] = value
            env.var_flows[name] = []
        out.add(ctx.run(body, env, stdin))
    return out  # the list itself is read by `read`, not printed: only what the body prints is


def _unknown_lines(names: list[str], body: Node, env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """The body once, each name unchecked; a cap is said when that reaches what is printed (``cat "$f"``)."""
    for name in names:
        env.vars[name] = UNCHECKED
        env.var_flows[name] = []
    before = len(ctx.uses)
    out = ctx.run(body, env, stdin)
    if any(UNKNOWN in path for path, _found, _program in out.flows) or \
            any(UNKNOWN in use.path for use in ctx.uses[before:]):
        ctx.cap(f"the `while read {names[0]}` loop reads lines boundread cannot know (a program's output, "
                f"or a list over {SMALL_SCRIPT // 1024} KB): the files it names were not checked")
    out.flows.extend(stdin.named("while read"))  # `while read l; do echo "$l"; done < f`: f reaches the output
    return out


def _read_names(condition: Node, env: Env, ctx: Ctx) -> tuple[list[str], str, bool, str | None] | None:
    """The variables of a condition ``[IFS=...] read [-r] [-d X] [--] NAME...``, the IFS it splits on, whether it
    is raw (``-r``: backslashes kept) and what ends a line (``-d ''``: a NUL, as ``find -print0`` ends names);
    None for that when the values cannot be known (``-n 3``, ``-u 3``, an unknown IFS). None for anything
    else (``read -a``, a test, a pipeline)."""
    name = condition.child_by_field_name("name")
    if name is None or name.text != b"read":
        return None
    ifs, raw, known, options = env.vars.get("IFS", _BLANKS), False, True, True
    delimiter: str | None = "\n"
    names: list[str] = []
    pending = ""  # the option whose value is the next word
    for child in condition.named_children:
        text = (child.text or b"").decode("utf-8", "replace")
        if pending:
            if pending == "d":
                found = words.value(child, env, ctx, [])
                delimiter = None if found is None or UNKNOWN in found else (found[:1] or "\0")
            pending = ""
            continue
        if child.type == "variable_assignment":
            if text.startswith("IFS="):
                value = child.child_by_field_name("value")
                found = "" if value is None else words.value(value, env, ctx, [])
                known, ifs = known and found is not None and UNKNOWN not in found, found or ""
        elif child.type == "command_name":
            continue
        elif options and text == "--":
            options = False
        elif options and text.startswith("-") and len(text) > 1 and not names:
            for at, flag in enumerate(text[1:]):
                if flag in _READ_IGNORED or flag in _READ_OTHER or flag == "d":
                    known = known and flag not in _READ_OTHER
                    if at == len(text) - 2:
                        pending = flag  # `-d ''`: the value is the next word
                    elif flag == "d":
                        delimiter = text[at + 2]  # `-d:`
                    break
                if flag not in _READ_FLAGS:
                    return None
                raw = raw or flag == "r"
        elif child.type == "word" and text.isidentifier():
            names.append(text)
            options = False
        else:
            return None
    return (names or ["REPLY"]), ifs, raw, delimiter if known else None


def _lines(text: str, raw: bool, delimiter: str = "\n") -> list[str]:
    """The lines ``read`` returns from ``text``: without ``-r`` a backslash before the newline joins two."""
    lines = text.split(delimiter)
    if lines and lines[-1] == "":
        lines.pop()  # the delimiter that ends the last line starts no line
    if raw or "\\" not in text or delimiter != "\n":
        return lines
    joined: list[str] = []
    carry: list[str] = []  # the parts of a line continued so far, joined once at its end (linear in the text)
    for line in lines:
        ending = len(line) - len(line.rstrip("\\"))  # this line's own: a carried part ends in pairs, if any
        if ending % 2:
            carry.append(line[:-1])
            continue
        joined.append("".join(carry) + line if carry else line)
        carry = []
    if carry:
        joined.append("".join(carry))
    return joined


def _fields(line: str, count: int, ifs: str, raw: bool) -> list[str]:
    """The values ``read`` gives ``count`` names from one line, as bash splits it: on the IFS characters (blanks
    among them trimmed at the ends and taken in runs), the last name taking the rest; without ``-r`` a backslash
    quotes the character after it (which then splits nothing) and goes."""
    guarded: dict[str, str] = {}
    if not raw and "\\" in line:
        out: list[str] = []
        k = 0
        while k < len(line):
            ch = line[k]
            if ch == "\\" and k + 1 < len(line):
                quoted = line[k + 1]
                if quoted in ifs and ord(quoted) < 0x1000:
                    guarded[chr(0xE100 + ord(quoted))] = quoted
                    quoted = chr(0xE100 + ord(quoted))
                out.append(quoted)
                k += 2
            else:
                out.append("" if ch == "\\" else ch)
                k += 1
        line = "".join(out)
    values = _split(line, count, ifs)
    if guarded:
        table = str.maketrans(guarded)
        values = [value.translate(table) for value in values]
    return values


def _split(line: str, count: int, ifs: str) -> list[str]:
    if not ifs:
        return [line, *[""] * (count - 1)]  # IFS= : no splitting, the first name takes the line
    blanks = "".join(ch for ch in ifs if ch in _BLANKS)
    line = line.strip(blanks) if blanks else line
    values: list[str] = []
    k = 0
    while len(values) < count - 1 and k < len(line):
        end = k
        while end < len(line) and line[end] not in ifs:
            end += 1
        if end >= len(line):
            break
        values.append(line[k:end])
        while end < len(line) and line[end] in blanks:
            end += 1
        if end < len(line) and line[end] in ifs and line[end] not in blanks:
            end += 1  # one delimiter other than a blank, with the blanks around it
            while end < len(line) and line[end] in blanks:
                end += 1
        k = end
    rest = line[k:]
    if rest and rest[-1] in ifs and rest[-1] not in blanks and not any(ch in ifs for ch in rest[:-1].rstrip(blanks)):
        rest = rest[:-1].rstrip(blanks)  # `a,b,` into two names: the second is `b`
    if rest or k < len(line):
        values.append(rest)
    return [*values, *[""] * count][:count]


#: The conditions a loop never ends on by itself: ``while true``, ``while :``, ``until false``.
_FOREVER = {"while": frozenset({"true", ":"}), "until": frozenset({"false"})}
_LEAVES = frozenset({"break", "exit", "return", "exec", "kill"})


def endless(node: Node, out: Stream, ctx: Ctx) -> Stream:
    """``while true; do echo tick; done``: a loop that holds on forever and whose body never leaves prints what
    its body prints without end, as ``yes`` does; its output gets generators.py's endless flow, refused over the
    cap unless a later stage bounds it (``... done | head -n 100``). A body that prints nothing (``sleep 1``) is
    left to the client's timeout."""
    from boundread.guard.shell.generators import ENDLESS, GENERATED
    from boundread.guard.shell.state import REMOTE_MARK

    keyword = node.children[0].type if node.children else ""
    condition, body = node.child_by_field_name("condition"), node.child_by_field_name("body")
    said = (condition.text or b"").decode("utf-8", "replace").strip() if condition is not None else ""
    if body is None or said not in _FOREVER.get(keyword, ()) or not (out.text or out.flows) or _leaves(body, ctx):
        return out
    loop = " ".join((node.text or b"").decode("utf-8", "replace").split())
    out.flows.append((f"{REMOTE_MARK}{loop}:{GENERATED}{ENDLESS}", (), loop))
    return out


def _leaves(body: Node, ctx: Ctx) -> bool:
    """The body can end the loop: a ``break``, ``exit``, ``return``, ``exec`` or ``kill`` anywhere in it. Each node
    looked at is a step of the check's budget: nested endless loops look at their bodies again."""
    stack = [body]
    while stack:
        node = stack.pop()
        ctx.step()
        if node.type == "command_name" and (node.text or b"").decode("utf-8", "replace") in _LEAVES:
            return True
        stack.extend(node.children)
    return False
