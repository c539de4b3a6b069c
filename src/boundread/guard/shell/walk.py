"""The walk over bash's syntax tree: each node runs on a model of the shell and yields its stdout Stream.

Lists and ``;`` chains share the shell (``cd`` carries on), sub-shells and pipeline stages get a copy,
redirections route a stream to a file (remembered, to be read back), to ``/dev/null``, or to the
conversation. Compound commands, loops (bounded), functions and here-documents are followed.
"""

from __future__ import annotations

from boundread.guard.shell import programs, words
from boundread.guard.shell.state import ARGS, FANOUT, UNKNOWN, Ctx, Env, Stream, read_file, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from boundread.guard.shell.state import Flow

_SEQUENCES = frozenset({"program", "compound_statement", "do_group", "else_clause", "elif_clause", "ERROR",
                        "if_statement", "case_statement", "case_item", "negated_command", "list",
                        "c_style_for_statement"})
_STDERR = frozenset({"/dev/stderr", "/dev/fd/2", "/proc/self/fd/2", "/dev/tty", "/dev/console"})


def run(node: Node, env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    ctx.step()
    kind = node.type
    if kind == "command":
        return _command(node, env, ctx, stdin, [])
    if kind == "redirected_statement":
        return _redirected(node, env, ctx, stdin)
    if kind == "pipeline":
        stream = stdin
        for stage in node.named_children:
            stream = run(stage, env.copy(), ctx, stream)
        return stream
    if kind == "subshell":
        return _sequence(node.named_children, env.copy(), ctx, stdin)
    if kind in _SEQUENCES:
        return _sequence(node.named_children, env, ctx, stdin)
    if kind == "variable_assignment":
        _assign(node, env, ctx)
    elif kind == "declaration_command":
        for child in node.named_children:
            if child.type == "variable_assignment":
                _assign(child, env, ctx)
    elif kind == "function_definition":
        name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
        if name is not None and body is not None:
            env.functions[(name.text or b"").decode("utf-8", "replace")] = body
    elif kind == "for_statement":
        return _for(node, env, ctx, stdin)
    elif kind in ("while_statement", "until_statement"):
        out = _sequence(node.named_children, env, ctx, stdin)
        condition = node.child_by_field_name("condition")
        if condition is not None and b"read" in (condition.text or b""):
            out.flows.extend(stdin.named("while read"))  # `while read l; do echo "$l"; done < f`
        return out
    elif kind in ("command_substitution", "process_substitution"):
        return _sequence(node.named_children, env.copy(), ctx, Stream())
    return Stream()


def _sequence(nodes: list[Node], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    out = Stream()
    for child in nodes:
        found = run(child, env, ctx, stdin)
        if env.stdout is not None and (found.flows or found.text):  # after `exec >FILE`: into FILE
            found = _route(found, env.stdout, env, ctx)
        out.add(found)
    return out


def _assign(node: Node, env: Env, ctx: Ctx) -> None:
    name_node, value_node = node.child_by_field_name("name"), node.child_by_field_name("value")
    if name_node is None:
        return
    name = (name_node.text or b"").decode("utf-8", "replace")
    flows: list[Flow] = []
    found = "" if value_node is None else words.value(value_node, env, ctx, flows)
    if found is None:
        env.vars.pop(name, None)
    else:
        env.vars[name] = found
    env.var_flows[name] = flows


def _for(node: Node, env: Env, ctx: Ctx, stdin: Stream) -> Stream:
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
        out.add(run(body, env, ctx, stdin))
    return out


def command(argv: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """Run one argv: a function defined earlier, else a program."""
    ctx.step()
    body = env.functions.get(argv[0]) if argv else None
    if body is None:
        return programs.run(argv, env, ctx, stdin)
    saved, env.args = env.args, argv[1:]
    try:
        return run(body, env, ctx, stdin)
    finally:
        env.args = saved


def _command(node: Node, env: Env, ctx: Ctx, stdin: Stream, redirects: list[Node]) -> Stream:
    flows: list[Flow] = []
    argv: list[str] = []
    for child in node.named_children:
        kind = child.type
        if kind.endswith("_redirect"):
            redirects = [*redirects, child]
        elif kind == "variable_assignment":
            continue  # `LC_ALL=C cat f`: for that command only
        elif kind == "command_name":
            argv.extend(_fields(child.named_children[0], env, ctx, flows) if child.named_children else [])
        else:
            argv.extend(_fields(child, env, ctx, flows))
    if len(argv) > ARGS + 1:
        ctx.cap(f"`{argv[0] if argv[0] != UNKNOWN else 'the command'}` has more than {ARGS} arguments; "
                f"the first {ARGS} were checked")
        argv = argv[:ARGS + 1]
    stdin, target, after = _inputs(redirects, env, ctx, stdin)
    if argv == ["exec"] and target is not None:  # `exec >FILE`: what the shell prints from here goes to FILE
        env.stdout = None if target != UNKNOWN and visible(env.path(target)) and env.path(target) not in _STDERR \
            else target
        return _after(Stream(flows), after, env, ctx)
    out = command(argv, env, ctx, stdin) if argv else Stream()
    out.flows.extend(flows)  # `echo $(cat f)`: the substitution's output is printed by the command
    out = _route(out, target, env, ctx)
    return _after(out, after, env, ctx)


def _fields(node: Node, env: Env, ctx: Ctx, flows: list[Flow]) -> list[str]:
    found = words.expand(node, env, ctx, flows)
    return [UNKNOWN] if found is None else found


def _redirected(node: Node, env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    body = node.child_by_field_name("body")
    redirects = [child for child in node.named_children if child.type.endswith("_redirect")]
    if body is not None and body.type == "command":
        return _command(body, env, ctx, stdin, redirects)
    stdin, target, after = _inputs(redirects, env, ctx, stdin)
    out = run(body, env, ctx, stdin) if body is not None else Stream()
    return _after(_route(out, target, env, ctx), after, env, ctx)


def _inputs(redirects: list[Node], env: Env, ctx: Ctx,
            stdin: Stream) -> tuple[Stream, str | None, list[Node]]:
    """(the stdin the redirections give, where stdout goes - None: where it went -, what follows a heredoc)."""
    target: str | None = None
    after: list[Node] = []
    for redirect in redirects:
        kind = redirect.type
        if kind == "herestring_redirect":
            flows: list[Flow] = []
            text = "".join(words.value(child, env, ctx, flows) or "" for child in redirect.named_children)
            stdin = Stream(flows, text + "\n")
        elif kind == "heredoc_redirect":
            stdin = _heredoc(redirect, env, ctx)
            after.extend(child for child in redirect.named_children
                         if child.type not in ("heredoc_start", "heredoc_body", "heredoc_end"))
        elif kind == "file_redirect":
            operator = next((child.type for child in redirect.children if not child.is_named), "")
            fd_node = redirect.child_by_field_name("descriptor")
            fd = (fd_node.text or b"").decode() if fd_node is not None else ""
            destinations = redirect.children_by_field_name("destination")
            if not destinations:
                continue
            dest = words.value(destinations[-1], env, ctx, []) or UNKNOWN
            if operator in ("<", "<>") and fd in ("", "0"):
                stdin = read_file(env, dest, "")
            elif operator in ("&>", "&>>") or (operator in (">", ">>", ">|") and fd in ("", "1")):
                target = dest
            elif operator == ">&" and fd in ("", "1"):
                target = "/dev/stderr" if dest == "2" else (None if dest == "1" else
                                                            "/dev/null" if dest == "-" else dest)
    return stdin, target, after


def _heredoc(redirect: Node, env: Env, ctx: Ctx) -> Stream:
    body = next((child for child in redirect.named_children if child.type == "heredoc_body"), None)
    if body is None:
        return Stream()
    flows: list[Flow] = []
    for child in body.named_children:  # an unquoted delimiter: $(...) in the body runs
        if child.type == "command_substitution":
            words.substitute(child, env, ctx, flows)
    return Stream(flows, (body.text or b"").decode("utf-8", "replace"))


def _route(out: Stream, target: str | None, env: Env, ctx: Ctx) -> Stream:
    if target is None:
        return out
    if UNKNOWN in target:
        return Stream()  # `> "$OUT"`: a file, whatever its name
    absolute = env.path(target)
    if absolute == "/dev/null":
        return Stream()
    if visible(absolute):
        if absolute in _STDERR:
            ctx.show(out.flows)
            return Stream(text=out.text)
        return out
    env.writes[absolute] = out
    return Stream()


def _after(out: Stream, after: list[Node], env: Env, ctx: Ctx) -> Stream:
    """What tree-sitter hangs under a here-document: ``| next stages`` or ``&& more commands``."""
    for node in after:
        if node.type == "pipeline":
            for stage in node.named_children:
                out = run(stage, env.copy(), ctx, out)
        else:
            out.add(run(node, env, ctx, Stream()))
    return out
