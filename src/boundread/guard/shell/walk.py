"""The walk over bash's syntax tree: each node runs on a model of the shell and yields its stdout Stream.

Lists and ``;`` chains share the shell (``cd`` carries on), sub-shells and pipeline stages get a copy,
redirections route a stream to a file (remembered, to be read back), to ``/dev/null``, or to the
conversation. Compound commands, loops (bounded), functions and here-documents are followed.
"""

from __future__ import annotations

from boundread.guard.shell import params, programs, words
from boundread.guard.shell.params import ALIAS
from boundread.guard.shell.reads import INPUT_FD
from boundread.guard.shell.state import ARGS, UNKNOWN, Ctx, Env, Stream, joined_text, read_file, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from boundread.guard.shell.state import Flow

_SEQUENCES = frozenset({"program", "compound_statement", "do_group", "else_clause", "elif_clause", "ERROR",
                        "if_statement", "case_statement", "case_item", "negated_command", "list",
                        "c_style_for_statement"})
_STDERR = frozenset({"/dev/stderr", "/dev/fd/2", "/proc/self/fd/2", "/dev/tty", "/dev/console"})
#: Compound commands whose bodies may not run (or run again): an `exec >FILE` inside holds after them only
#: where that hides nothing the shell's stdout showed before (see _maybe).
_CONDITIONAL = frozenset({"if_statement", "case_statement", "while_statement", "until_statement",
                          "for_statement", "c_style_for_statement"})
_SHOWN = "/dev/tty"  # the conversation itself, whatever `exec >FILE` did to stdout since (`>&3` after `exec 3>&1`)


def run(node: Node, env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    ctx.step()
    kind = node.type
    if kind in _CONDITIONAL:
        saved, fds = env.stdout, dict(env.fds)
        try:
            return _run(node, kind, env, ctx, stdin)
        finally:
            _maybe(saved, fds, env)
    if kind == "list" and len(node.named_children) > 1:  # `a && b`, `a || b`: b may not run
        first, *rest = node.named_children
        out = _sequence([first], env, ctx, stdin)
        saved, fds = env.stdout, dict(env.fds)
        out.add(_sequence(rest, env, ctx, stdin))
        _maybe(saved, fds, env)
        return out
    return _run(node, kind, env, ctx, stdin)


def _shows(target: str | None, env: Env) -> bool:
    """Does output sent to this stdout target reach the conversation?"""
    return target is None or (UNKNOWN not in target and visible(env.path(target)))


def _maybe(saved: str | None, fds: dict[str, str | None], env: Env) -> None:
    """After a body that may not have run: stdout (and each descriptor) is what it was before when that
    showed the output - an `exec >/dev/null` in an `if` hides nothing after it - else what the body left."""
    if _shows(saved, env) or (saved is not None and UNKNOWN not in saved and env.path(saved) != "/dev/null"
                              and not _shows(env.stdout, env)):
        env.stdout = saved
    for fd, target in fds.items():
        if _shows(target, env) or fd not in env.fds:
            env.fds[fd] = target


def _run(node: Node, kind: str, env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    if kind == "command":
        return _command(node, env, ctx, stdin, [])
    if kind == "redirected_statement":
        return _redirected(node, env, ctx, stdin)
    if kind == "pipeline":
        from boundread.guard.shell import linecut

        stream, kept = stdin, True  # kept: every stage so far printed lines of the files it read, as they are
        width = None  # the most a line is long after a `fold` (and stages that keep lines)
        for stage in node.named_children:
            stage_env, words = env.copy(), linecut.argv(stage)
            stream = linecut.bounded(words, kept, run(stage, stage_env, ctx, stream), stage_env, ctx)
            stream = linecut.folded(words, width, stream)
            kept = kept and linecut.keeps_lines(words)
            width = linecut.fold_width(words, width)
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
    elif kind == "unset_command":  # `unset IFS`: as the `unset` builtin does
        programs.run(["unset", *((child.text or b"").decode("utf-8", "replace") for child in node.named_children)],
                     env, ctx, stdin)
    elif kind == "function_definition":
        name, body = node.child_by_field_name("name"), node.child_by_field_name("body")
        if name is not None and body is not None:
            env.functions[(name.text or b"").decode("utf-8", "replace")] = body
    elif kind == "for_statement":
        from boundread.guard.shell import loops  # only a command with a loop needs it

        return loops.for_loop(node, env, ctx, stdin)
    elif kind in ("while_statement", "until_statement"):
        from boundread.guard.shell import loops

        read = loops.while_read(node, env, ctx, stdin)
        if read is not None:
            return read
        out = _sequence(node.named_children, env, ctx, stdin)
        condition = node.child_by_field_name("condition")
        if condition is not None and b"read" in (condition.text or b""):
            out.flows.extend(stdin.named("while read"))  # `while read l; do echo "$l"; done < f`
        return loops.endless(node, out, ctx)
    elif kind in ("command_substitution", "process_substitution"):
        return _sequence(node.named_children, env.copy(), ctx, Stream())
    return Stream()


def _sequence(nodes: list[Node], env: Env, ctx: Ctx, stdin: Stream, last: list[Node] | None = None) -> Stream:
    """Each node in turn; ``last``: the redirections of the whole (``a && b > f``), for the last node only."""
    out = Stream()
    for at, child in enumerate(nodes):
        after = child.next_sibling
        background = after is not None and after.type == "&"  # `exec >/dev/null & cat f`: a job of its own
        shell = env.copy() if background else env
        found = run(child, shell, ctx, stdin) if last is None or at < len(nodes) - 1 else \
            _apply(child, last, shell, ctx, stdin)
        if env.stdout is not None and (found.flows or found.text):  # after `exec >FILE`: into FILE
            found = _route(found, env.stdout, env, ctx, append=True)
        out.add(found)
    return out


def _assign(node: Node, env: Env, ctx: Ctx) -> None:
    name_node, value_node = node.child_by_field_name("name"), node.child_by_field_name("value")
    if name_node is None:
        return
    name = (name_node.text or b"").decode("utf-8", "replace")
    flows: list[Flow] = []
    if value_node is not None and value_node.type == "array":  # `files=(a b)`: each element's words
        items: list[str] = []
        for child in value_node.named_children:
            items.extend(_fields(child, env, ctx, flows))
        params.assign(env, name, items)
        env.var_flows[name] = flows
        return
    found = "" if value_node is None else words.value(value_node, env, ctx, flows)
    if found is None:
        env.vars.pop(name, None)
    else:
        env.vars[name] = found
    env.var_flows[name] = flows


def _with_prefix(prefix: list[Node], argv: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """Run ``argv`` with the variables its prefix sets (``F=big.log python3 -c "...os.environ['F']..."``): set for
    that command (its code and a function it calls see them), then as they were - its words were expanded before."""
    saved: dict[str, tuple[str | None, list[Flow] | None]] = {}  # None: not set before
    for node in prefix:
        name_node = node.child_by_field_name("name")
        if name_node is not None:
            name = (name_node.text or b"").decode("utf-8", "replace")
            saved.setdefault(name, (env.vars.get(name), env.var_flows.get(name)))
            _assign(node, env, ctx)
    try:
        return command(argv, env, ctx, stdin)
    finally:
        for name, (value, flows) in saved.items():
            if value is None:
                env.vars.pop(name, None)
            else:
                env.vars[name] = value
            if flows is None:
                env.var_flows.pop(name, None)
            else:
                env.var_flows[name] = flows


def command(argv: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """Run one argv: a function defined earlier, else a program."""
    ctx.step()
    alias = env.vars.get(ALIAS + argv[0]) if argv else None
    if alias is not None:  # `alias show='cat f'; show`: the text it stands for, then the words after it
        return _alias(argv, alias, env, ctx, stdin)
    body = env.functions.get(argv[0]) if argv else None
    if body is None:
        out = programs.run(argv, env, ctx, stdin)
        out.exact = programs.exact(argv, out, stdin)  # `cut -f2 f`, `git ls-files`: not a known text
        ctx.step(len(out.flows) // 16)  # `cat w w w ...` of a file written with 256 flows: paid for (the deadline
        # bounds the rest: a loop of them checks it each pass)
        return out
    saved, env.args = env.args, argv[1:]
    try:
        return run(body, env, ctx, stdin)
    finally:
        env.args = saved


def _alias(argv: list[str], alias: str, env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """An alias expanded once (``alias ls='ls -l'`` does not expand its own ``ls`` again, as in bash)."""
    from boundread.guard.reason import quote

    del env.vars[ALIAS + argv[0]]
    try:
        return ctx.shell(" ".join([alias, *(quote(arg) for arg in argv[1:])]), env, stdin)
    finally:
        env.vars[ALIAS + argv[0]] = alias


def _command(node: Node, env: Env, ctx: Ctx, stdin: Stream, redirects: list[Node]) -> Stream:
    flows: list[Flow] = []
    argv: list[str] = []
    prefix: list[Node] = []
    for child in node.named_children:
        kind = child.type
        if kind.endswith("_redirect"):
            redirects = [*redirects, child]
        elif kind == "variable_assignment":
            prefix.append(child)  # `LC_ALL=C cat f`: in that command's environment only
        elif kind == "command_name":
            argv.extend(_fields(child.named_children[0], env, ctx, flows) if child.named_children else [])
        else:
            argv.extend(_fields(child, env, ctx, flows))
    if len(argv) > ARGS + 1:
        ctx.cap(f"`{argv[0] if argv[0] != UNKNOWN else 'the command'}` has more than {ARGS} arguments; "
                f"the first {ARGS} were checked")
        argv = argv[:ARGS + 1]
    for word in extra_words(redirects):
        argv.extend(_fields(word, env, ctx, flows))
    redirected = _inputs(redirects, env, ctx, stdin)
    stdin, target, after, append, opened = redirected
    if argv == ["exec"] and (target is not None or opened):  # `exec >FILE`: what the shell prints goes to FILE
        for fd, where in opened.items():  # `exec 3>&1`: a copy of stdout as it was; `exec 3>&-` closes it
            if where == "-":
                env.fds.pop(fd, None)
            else:
                env.fds[fd] = where
        if target is not None:
            _exec_stdout(target, append, env)
        return _after(Stream(flows), after, env, ctx)
    out = (_with_prefix(prefix, argv, env, ctx, stdin) if prefix else command(argv, env, ctx, stdin)) if argv \
        else Stream()
    out.flows.extend(flows)  # `echo $(cat f)`: the substitution's output is printed by the command
    out = _route(out, target, env, ctx, append)
    return _after(out, after, env, ctx)


def extra_words(redirects: list[Node]) -> list[Node]:
    """The words tree-sitter hangs on a redirection after its target: ``tee < access.log out.log`` parses as the
    redirection ``< access.log out.log``, but bash reads ``access.log`` and passes ``out.log`` to tee."""
    return [word for redirect in redirects if redirect.type == "file_redirect"
            for word in redirect.children_by_field_name("destination")[1:]]


def _exec_stdout(target: str, append: bool, env: Env) -> None:
    absolute = env.path(target) if UNKNOWN not in target else ""
    env.stdout = None if absolute and visible(absolute) and absolute not in _STDERR else target
    if absolute and not append and not visible(absolute) and absolute != "/dev/null":
        env.writes[absolute] = Stream()  # `exec >FILE` empties it; what follows is added to it


def _fields(node: Node, env: Env, ctx: Ctx, flows: list[Flow]) -> list[str]:
    found = words.expand(node, env, ctx, flows)
    return [UNKNOWN] if found is None else found


def _redirected(node: Node, env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    redirects = [child for child in node.named_children if child.type.endswith("_redirect")]
    return _apply(node.child_by_field_name("body"), redirects, env, ctx, stdin)


def _apply(body: Node | None, redirects: list[Node], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``body`` run with ``redirects``. tree-sitter hangs a trailing redirection on the whole ``a && b > f`` or
    ``a | b < f``; bash applies it to the last command only (``b``), so it goes down to that one."""
    kind = body.type if body is not None else ""
    if body is not None and kind == "command":
        return _command(body, env, ctx, stdin, redirects)
    if body is not None and kind == "redirected_statement":  # its own redirections first, then the outer ones
        own = [child for child in body.named_children if child.type.endswith("_redirect")]
        return _apply(body.child_by_field_name("body"), [*own, *redirects], env, ctx, stdin)
    if body is not None and kind in ("list", "pipeline") and len(body.named_children) > 1:
        ctx.step()
        first, *rest = body.named_children
        if kind == "pipeline":
            stream = stdin
            for stage in body.named_children[:-1]:
                stream = run(stage, env.copy(), ctx, stream)
            return _apply(body.named_children[-1], redirects, env.copy(), ctx, stream)
        out = _sequence([first], env, ctx, stdin)  # `a && b > f`: b may not run, as in run()
        saved, fds = env.stdout, dict(env.fds)
        out.add(_sequence(rest, env, ctx, stdin, redirects))
        _maybe(saved, fds, env)
        return out
    stdin, target, after, append, _opened = _inputs(redirects, env, ctx, stdin)
    out = run(body, env, ctx, stdin) if body is not None else Stream()
    return _after(_route(out, target, env, ctx, append), after, env, ctx)


def _inputs(redirects: list[Node], env: Env, ctx: Ctx,
            stdin: Stream) -> tuple[Stream, str | None, list[Node], bool, dict[str, str | None]]:
    """(the stdin the redirections give, where stdout goes - None: where it went -, what follows a heredoc,
    whether stdout is appended to, the descriptors above 2 they open: ``3>&1``, ``3>f``, ``3>&-`` as "-")."""
    target: str | None = None
    append = False
    opened: dict[str, str | None] = {}
    after: list[Node] = []
    for redirect in redirects:
        kind = redirect.type
        if kind == "herestring_redirect":
            flows: list[Flow] = []
            found = [words.value(child, env, ctx, flows) for child in redirect.named_children]
            text = "".join(UNKNOWN if part is None else part for part in found)  # `<<< "$(git ls-files)"`
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
            if destinations[0].type == "process_substitution":
                if operator == "<" and fd in ("", "0"):  # `done < <(find ...)`: what it prints is the stdin
                    stdin = run(destinations[0], env, ctx, Stream())
                elif operator in (">", ">>", ">|", "&>", "&>>") and fd in ("", "1"):
                    target = None  # `> >(wc -l)`: the output goes through it, as through a pipe (see _after)
                    after.append(destinations[0])
                continue
            dest = words.value(destinations[0], env, ctx, []) or UNKNOWN  # the rest: arguments (extra_words)
            if operator in ("<", "<>") and fd in ("", "0"):
                stdin = read_file(env, dest, "")
            elif operator in ("<", "<>") and fd.isdigit():  # `exec 3< big.log`: read later by `<&3`, /dev/fd/3
                env.vars[INPUT_FD + fd] = UNKNOWN if UNKNOWN in dest else env.path(dest)
            elif operator == "<&" and dest == "-":
                env.vars.pop(INPUT_FD + fd, None)
            elif operator == "<&" and fd in ("", "0") and dest.isdigit():
                source = env.vars.get(INPUT_FD + dest)
                stdin = read_file(env, source, "") if source is not None else stdin
            elif operator in ("&>", "&>>") or (operator in (">", ">>", ">|") and fd in ("", "1")):
                target, append = dest, operator in ("&>>", ">>")
            elif operator in (">", ">>", ">|") and fd.isdigit() and int(fd) > 2:
                opened[fd] = dest
            elif operator == ">&" and fd in ("", "1"):
                target, append = _descriptor(dest, opened, env), True
            elif operator == ">&" and fd.isdigit() and int(fd) > 2:  # `3>&1`: a copy of stdout as it is now
                opened[fd] = "-" if dest == "-" else (target if target is not None else env.stdout) \
                    if dest == "1" else _descriptor(dest, opened, env)
    return stdin, target, after, append, opened


def _descriptor(dest: str, opened: dict[str, str | None], env: Env) -> str | None:
    """Where ``>&N`` sends stdout: 2 is stderr, 1 stays, ``-`` closes it; a descriptor ``exec 3>&1`` or
    ``3>f`` opened goes where it went then; an unknown one is taken to be the conversation."""
    if dest in ("1", "2", "-"):
        return {"1": None, "2": "/dev/stderr", "-": "/dev/null"}[dest]
    where = opened[dest] if dest in opened else env.fds.get(dest, _SHOWN)
    return _SHOWN if where is None or where == "-" else where


def _heredoc(redirect: Node, env: Env, ctx: Ctx) -> Stream:
    body = next((child for child in redirect.named_children if child.type == "heredoc_body"), None)
    if body is None:
        return Stream()
    flows: list[Flow] = []
    for child in body.named_children:  # an unquoted delimiter: $(...) in the body runs
        ctx.step()
        if child.type == "command_substitution":
            words.substitute(child, env, ctx, flows)
    text = (body.text or b"").decode("utf-8", "replace")
    ctx.step(len(text) // 256)  # a function with a here-document, called in a loop: each copy is paid for
    return Stream(flows, text)


def _route(out: Stream, target: str | None, env: Env, ctx: Ctx, append: bool = False) -> Stream:
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
    if append:  # `>>` and an exec'd stdout: added to what the file held (the disk's, or this command's writes)
        written = read_file(env, absolute, "")
        out = Stream([*written.flows, *out.flows], joined_text(written.text, out.text), written.exact and out.exact)
    env.writes[absolute] = out
    return Stream()


def _after(out: Stream, after: list[Node], env: Env, ctx: Ctx) -> Stream:
    """What tree-sitter hangs under a here-document: ``| next stages`` or ``&& more commands``; and a
    ``>(...)`` stdout went to."""
    for node in after:
        if node.type == "process_substitution":  # `cmd > >(head -1)`: it reads what cmd prints
            out = _sequence(node.named_children, env.copy(), ctx, out)
        elif node.type == "pipeline":
            for stage in node.named_children:
                out = run(stage, env.copy(), ctx, out)
        else:
            out.add(run(node, env, ctx, Stream()))
    return out
