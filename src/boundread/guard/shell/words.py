"""Word expansion as bash does it, bounded: quotes, ``$'...'``, ``~``, variables, ``$(pwd)``, braces, globs.

A word expands to its fields, or None when its value cannot be known here (``$1`` outside a function,
``$(date)``); the flows of any ``$(...)`` in it are added to ``into`` (what the command then prints).

What a word builds is paid for: a step of the budget per 256 characters (of a value, of each brace alternative),
and a value longer than MAX_VALUE - only repetition builds one, ``x=$x$x`` thirty times - is UNCHECKED, with the
budget said spent: a whole print of it is refused, and the walk goes on without the gigabyte.
"""

from __future__ import annotations

import os

from boundread.guard.shell import params
from boundread.guard.shell.braces import ansi_c
from boundread.guard.shell.braces import braces as _braces
from boundread.guard.shell.params import SHOPT
from boundread.guard.shell.state import (
    ENTRIES_PER_STEP,
    FANOUT,
    MAX_VALUE,
    UNCHECKED,
    UNKNOWN,
    Ctx,
    Env,
    Stream,
    known_text,
    read_file,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from boundread.guard.shell.state import Flow

_GLOB = frozenset("*?[")
_SPLIT = "\ue006"  # where an unquoted expansion's blanks split the word
_BLANKS = " \t\n"  # the default IFS
_EXPANSIONS = frozenset({"simple_expansion", "expansion", "command_substitution"})
# Quoted characters that would otherwise brace- or glob-expand, hidden in private-use code points.
_HIDE = {"{": "\ue000", "}": "\ue001", ",": "\ue002", "*": "\ue003", "?": "\ue004", "[": "\ue005"}
_SHOW = {value: key for key, value in _HIDE.items()}
_HIDING, _SHOWING = str.maketrans(_HIDE), str.maketrans(_SHOW)  # str.translate: C speed on a long value
_BRACING = str.maketrans({ch: _HIDE[ch] for ch in "{},"})



def _hide(text: str) -> str:
    return text.translate(_HIDING)


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def expand(node: Node, env: Env, ctx: Ctx, into: list[Flow]) -> list[str] | None:
    """The fields of one argument word: braces, then what an unquoted expansion gives split on blanks
    and globbed (``F="a.pdf b.pdf"; cat $F``, ``P='*.pdf'; cat $P``), as bash does."""
    ctx.step()
    if node.type == "string" and _text(node) in ('"$@"', '"${@}"'):
        return list(env.args)  # each positional parameter its own word
    raw = _raw(node, env, ctx, into, split=True)
    if raw is None:
        return None
    ctx.step(len(raw) // 256)
    pieces = [raw]
    if _SPLIT in raw or node.type in _EXPANSIONS:
        pieces = [piece for piece in raw.split(_SPLIT) if piece]  # an unquoted empty expansion: no word
    out: list[str] = []
    for at, piece in enumerate(pieces):
        fields = _braces(piece, ctx) if "{" in piece else [piece]
        for field in fields:
            out.extend(glob(field, env, ctx) if any(ch in _GLOB for ch in field) else [_unhide(field)])
            if len(out) >= FANOUT:
                if len(out) > FANOUT or len(fields) >= FANOUT or at < len(pieces) - 1:  # words left out
                    ctx.cap(f"`{_text(node)}` expands to more than {FANOUT} words; the first {FANOUT} were checked")
                return out[:FANOUT]
    return out


def value(node: Node, env: Env, ctx: Ctx, into: list[Flow]) -> str | None:
    """One string, no globbing or splitting (an assignment's value, a here-string, a redirect target)."""
    raw = _raw(node, env, ctx, into)
    if raw is None:
        return None
    ctx.step(len(raw) // 256)
    return _unhide(raw).replace(_SPLIT, " ")  # `x="${arr[@]}"`: the elements joined


def _unhide(text: str) -> str:
    return text.translate(_SHOWING)


def _fields(value: str, env: Env) -> str:
    """An unquoted expansion's value: split where it has IFS characters (by default space, tab and
    newline only - not every Unicode space, as ``str.split()`` would); globbed later, not brace-expanded.
    An IFS the command set splits at each of its characters (runs of them as one: empty fields name no file)."""
    blanks = env.vars.get("IFS", _BLANKS)
    if any(ch in blanks for ch in value):
        for ch in blanks[1:]:
            value = value.replace(ch, blanks[0])
        words = [word for word in value.split(blanks[0]) if word]
        if not words:
            return _SPLIT
        lead, tail = (_SPLIT if value[0] == blanks[0] else ""), (_SPLIT if value[-1] == blanks[0] else "")
        value = lead + _SPLIT.join(words) + tail
    return value.translate(_BRACING)


def _raw(node: Node, env: Env, ctx: Ctx, into: list[Flow], split: bool = False) -> str | None:
    """The word with quoted specials hidden; None when a part is unknown. ``split``: the word is
    unquoted here, so an expansion's value splits into fields and may glob."""
    kind = node.type
    if kind in ("word", "number"):
        return _unquoted(_text(node), env, ctx)
    if kind == "brace_expression":  # `{1..3}`: tree-sitter's node for a sequence; _braces expands it
        return _text(node)
    if kind == "raw_string":
        return _hide(_text(node)[1:-1])
    if kind == "ansi_c_string":
        text = _text(node)
        ctx.step(len(text) // 256)  # a loop per character
        return _hide(ansi_c(text[2:-1]))
    if kind == "string":
        return _double(node, env, ctx, into)
    if kind in ("simple_expansion", "expansion"):
        found = _variable(node, env, ctx, into)
        return None if found is None else _fields(found, env) if split else _hide(found)
    if kind == "command_substitution":
        found = substitute(node, env, ctx, into)
        return None if found is None else _fields(found, env) if split else _hide(found)
    if kind == "concatenation":
        parts: list[str] = []
        size = 0
        for child in node.children:
            ctx.step()
            part = _raw(child, env, ctx, into, split)
            if part is None:
                return None
            size += len(part)
            if size > MAX_VALUE:
                return _too_long(node, ctx)
            parts.append(part)
        return "".join(parts)
    if kind == "process_substitution":
        inner = Stream()
        for child in node.named_children:
            inner.add(ctx.run(child, env.copy(), Stream()))
        into.extend(inner.flows)  # `diff <(cat a) <(cat b)`: what they print goes where the command prints
        return _pipe(env, inner)
    return None


def _pipe(env: Env, inner: Stream) -> str | None:
    """The name bash gives a ``<(...)`` (``/dev/fd/63``, then 62...), which reads what it printed: ``xargs -a
    <(echo big.log) cat`` reads the names, ``cat <(cat f)`` the file."""
    taken = sum(1 for path in env.writes if path.startswith("/dev/fd/"))
    if taken > 48:
        return None
    path = f"/dev/fd/{63 - taken}"
    env.writes[path] = inner
    return path


def _too_long(node: Node, ctx: Ctx) -> str:
    """A word whose value passes MAX_VALUE: UNCHECKED, and the budget said spent."""
    shown = _text(node)
    shown = shown if len(shown) <= 60 else shown[:60] + "..."
    ctx.spend(f"`{shown}` builds a value over {MAX_VALUE // 1024 ** 2} MB, which was not followed")
    return UNCHECKED


def _unquoted(text: str, env: Env, ctx: Ctx) -> str:
    """An unquoted word: backslash escapes quoted, a leading ``~`` expanded."""
    if text.startswith("~") and (len(text) == 1 or text[1] == "/"):
        text = os.path.expanduser("~") + text[1:]
    elif text.startswith(("~+", "~-")) and (len(text) == 2 or text[2] == "/"):  # $PWD, $OLDPWD
        text = (env.cwd if text[1] == "+" else env.vars.get("OLDPWD", "~-")) + text[2:]
    if "\\" not in text:
        return text
    ctx.step(len(text) // 256)  # a loop per character
    out: list[str] = []
    k = 0
    while k < len(text):
        if text[k] == "\\" and k + 1 < len(text):
            out.append(_hide(text[k + 1]))
            k += 2
        else:
            out.append(text[k])
            k += 1
    return "".join(out)


def _double(node: Node, env: Env, ctx: Ctx, into: list[Flow]) -> str | None:
    """``"..."``: the literal text between the parts (with its four escapes), the parts expanded; all quoted."""
    source = node.text or b""
    base, at = node.start_byte, node.start_byte + 1
    out: list[str] = []
    size = 0
    for child in node.children:
        if child.type == '"':
            continue
        if child.type in ("string_content", "$"):  # a `$` no name follows (`"^$"`) is itself, as in bash
            continue
        ctx.step()
        out.append(_escaped(source[at - base:child.start_byte - base].decode("utf-8", "replace")))
        part = _raw(child, env, ctx, into) if child.type != "arithmetic_expansion" else ""
        if part is None:
            return None
        size += len(out[-1]) + len(part)
        if size > MAX_VALUE:
            return _too_long(node, ctx)
        out.append(part)
        at = child.end_byte
    out.append(_escaped(source[at - base:len(source) - 1].decode("utf-8", "replace")))
    return _hide("".join(_unhide(part) for part in out))


def _escaped(text: str) -> str:
    """Double-quoted text: a backslash goes before ``"``, ``\\``, ``$``, a backtick, and a newline (with it);
    one pass, so ``\\\\`` then a newline is a backslash and the newline."""
    if "\\" not in text:
        return text
    out: list[str] = []
    at = 0
    while (k := text.find("\\", at)) >= 0 and k + 1 < len(text):
        nxt = text[k + 1]
        if nxt in '"\\$`\n':
            out.append(text[at:k] + ("" if nxt == "\n" else nxt))
        else:
            out.append(text[at:k + 2])
        at = k + 2
    return "".join(out) + text[at:]


def _variable(node: Node, env: Env, ctx: Ctx, into: list[Flow]) -> str | None:
    """The value of ``$X``/``${X...}``, as written (unhidden); what the variable holds of files goes to ``into``."""
    children = list(node.named_children)
    subscripts = [child for child in children if child.type == "subscript"]  # ${lines[@]}
    if subscripts:
        children = list(subscripts[0].named_children)
    names = [child for child in children if child.type in ("variable_name", "special_variable_name")]
    if not names:
        return None
    name = _text(names[0])
    if not _text(node).startswith("${#"):  # ${#X}: a length, none of the content
        into.extend(env.var_flows.get(name, ()))
    elif subscripts or node.type == "expansion":
        return None
    if subscripts:  # ${files[@]}, ${arr[0]}
        index = [child for child in subscripts[0].named_children if child.type != "variable_name"]
        return params.element(env, name, _text(index[0]) if len(index) == 1 else "", _SPLIT)
    found = _lookup(name, env)
    if _text(node).startswith("${!"):  # ${!ref}: the variable whose name ref holds
        if _text(node) != "${!" + name + "}" or found is None or not found.replace("_", "a").isalnum():
            return None
        into.extend(env.var_flows.get(found, ()))
        return _lookup(found, env)
    if node.type == "expansion":
        rest = _text(node)[2:-1][len(name):]
        if rest and rest[0] in ":#%/^," and not rest.startswith((":-", ":=", ":+", ":?")):
            return None if found is None else params.operate(found, rest)  # ${f%.gz}, ${f##*/}, ${f:0:3}
        if rest and rest[0] in "+?[@*":
            return None  # ${X+alt}, ${X?msg}...: not followed
        if rest.startswith((":-", "-", ":=", "=")):
            default = rest.split("-", 1)[1] if "-" in rest[:2] else rest.split("=", 1)[1]
            if found is None or (rest.startswith(":") and not found):
                parts = [child for child in node.named_children if child.start_byte >= names[0].end_byte]
                if not parts:  # `${F:-big.pdf}` as text; `${F:-"big.pdf"}`, `${F:-$D/x}`: its words expanded
                    got = _unhide(_unquoted(default, env, ctx))
                else:
                    pieces = [_raw(part, env, ctx, into) for part in parts]
                    if any(piece is None for piece in pieces):
                        return None
                    if sum(len(piece or "") for piece in pieces) > MAX_VALUE:
                        return _too_long(node, ctx)
                    got = _unhide("".join(piece for piece in pieces if piece is not None))
                if "=" in rest[:2] and name.replace("_", "a").isalnum() and not name[0].isdigit():
                    env.vars[name] = got  # `: "${LOG:=big.log}"` sets LOG for the commands after it
                return got
    return found


def _lookup(name: str, env: Env) -> str | None:
    if name in env.vars:
        return env.vars[name]
    if name.isdigit():
        index = int(name)
        return env.args[index - 1] if 0 < index <= len(env.args) else None
    if name in ("@", "*"):
        return " ".join(env.args) if env.args else None
    if name == "HOME":
        return os.path.expanduser("~")
    if name == "OLDPWD":
        return env.dirs[-1] if env.dirs else None
    return None


def substitute(node: Node, env: Env, ctx: Ctx, into: list[Flow]) -> str | None:
    """``$(...)``/backticks: run in a sub-shell; its printed flows go to ``into``, its known text is the value."""
    body = list(node.named_children)
    if len(body) == 1 and _text(body[0]).strip() in ("pwd", "pwd -P", "pwd -L"):
        return env.cwd
    out = Stream()
    inner = env.copy()
    if len(body) == 1 and body[0].type == "file_redirect" and (body[0].children[0].text or b"") == b"<":
        targets = body[0].children_by_field_name("destination")  # `$(<file)`: bash reads the file itself
        target = value(targets[0], inner, ctx, into) if targets else None
        out = read_file(inner, UNKNOWN if target is None else target, "$(<file)")
    for child in body:
        out.add(ctx.run(child, inner, Stream()))
    into.extend(out.flows)
    text = known_text(out, ctx)  # `$(cat list)`: a small file's content is known too
    return text.rstrip("\n") if text else None


def glob(field: str, env: Env, ctx: Ctx, globstar: bool | None = None) -> list[str]:
    """Pathname expansion against the shell's cwd, sorted as bash sorts; no match: the word itself. The disk
    does not change during a check: a glob expanded before (in a loop's body) is taken from ``ctx.walks``.
    ``globstar``: whether ``**`` is any depth of folders (None: as ``shopt -s globstar`` set it)."""
    from boundread.guard.shell import pattern  # only for a word with an unquoted *, ? or [

    globstar = SHOPT + "globstar" in env.vars if globstar is None else globstar
    key = (env.cwd, "\x00globstar" if globstar else "\x00glob", field)
    done = ctx.walks.get(key)
    if done is None:
        found = pattern.Glob(field, env.cwd, FANOUT, globstar)
        done = (found.names, found.capped, found.seen)
        ctx.step(found.seen // ENTRIES_PER_STEP)  # the entries it looked at, as the budget counts nodes
        if len(ctx.walks) < FANOUT:
            ctx.walks[key] = done
    names, capped, _seen = done
    if capped:
        ctx.cap(f"`{_unhide(field)}` matches more than {len(names)} names (boundread looks at "
                f"{FANOUT} matches or {pattern.SCAN:,} directory entries); the first {len(names)} were checked")
    if capped and not names:  # stopped before any match: what it would give is unchecked
        return [UNCHECKED]
    made = _written(field, env) if env.writes else []
    if made:  # `split -l 1000 f part_ && cat part_*`: bash expands the glob after split made the files
        return sorted({*names, *made})
    return list(names) or [_unhide(field)]


def _written(field: str, env: Env) -> list[str]:
    """The files this command wrote before the glob (``env.writes``: a redirection's target, split's and csplit's
    pieces, an unpacked member) that the glob matches, named as it would name them; at most FANOUT."""
    from boundread.guard.shell import pattern  # loaded already: only a glob gets here

    parts = field.split("/")
    tokens = [pattern.compile_part(part) for part in parts]
    found: list[str] = []
    for absolute in env.writes:
        if field.startswith("/"):
            shown = absolute
        else:
            inside = env.cwd.rstrip("/") + "/"
            if not absolute.startswith(inside):
                continue
            shown = absolute[len(inside):]
        names = shown.split("/")
        if len(names) == len(parts) and all(
                pattern.matches(token, name) and (name[:1] != "." or part[:1] == ".")
                for token, name, part in zip(tokens, names, parts, strict=True)):
            found.append(shown)
            if len(found) >= FANOUT:
                break
    return found
