"""Editors run as filters: ``ex -sc '%p|q!' f``, ``vim -es +'%p' f``, ``ed -s f <<< ',p'``, ``emacs --batch``.

In batch mode an editor prints what its commands print: ``%p``/``,p``/``1,$p`` (and ``nu``, ``l``, ``#``,
``w !cat``, ``w /dev/stdout``) the whole buffer - the file -, ``10,20p`` those lines, ``p`` alone the current
line. Commands come from ``-c``/``+``/``--cmd`` or, for ``ed`` and ``ex -s``, from stdin (a here-string or a pipe
whose text is known). ``g/re/p`` prints the lines that match, sized as grep's are. An editor opened for a
person (no ``-e``/``-s``) prints nothing the agent reads.
"""

from __future__ import annotations

from boundread.guard.bounds import LINES, Bound
from boundread.guard.shell.reads import files
from boundread.guard.shell.state import UNKNOWN, Env, Stream, read_file, small_text

PROGRAMS = frozenset({"ex", "vi", "vim", "nvim", "view", "vim.tiny", "vim.basic", "ed", "red", "emacs"})
_VIM_VALUES = frozenset({"-c", "--cmd", "-S", "-u", "-U", "-i", "-T", "-w", "-W", "-s", "-t", "-q", "-r",
                         "--servername", "--startuptime"})
_PRINTS = frozenset({"p", "pr", "pri", "prin", "print", "P", "nu", "num", "numb", "numbe", "number", "#", "l",
                     "li", "lis", "list", "n"})
_WHOLE = frozenset({"%", ",", "1,$", "0,$", "%,", "1,", ";"})


def run(name: str, args: list[str], env: Env, stdin: Stream) -> Stream:
    """What an editor in batch mode prints of its files."""
    if name == "emacs":
        return _emacs(args, env)
    if name in ("ed", "red"):
        given = [arg for arg in args if not arg.startswith("-") or arg == "-"]
        script = small_text(stdin) if UNKNOWN not in stdin.text else ""  # `ed -s f < script.ed` too
        return _printed(given[:1], script.splitlines(), env, _shown(name, args))
    commands: list[str] = []
    names: list[str] = []
    batch = name == "ex"
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in ("-c", "--cmd") and k + 1 < len(args):
            commands.append(args[k + 1])
            k += 1
        elif arg == "-S" and k + 1 < len(args):  # `vim -es -S script.vim f`: the commands in a file
            commands.extend(small_text(read_file(env, args[k + 1], name)).splitlines())
            k += 1
        elif arg.startswith("+"):
            commands.append(arg[1:])
        elif arg.startswith("-") and arg != "-":
            letters = arg[1:] if not arg.startswith("--") else ""
            batch |= "e" in letters or "E" in letters or arg == "--batch"  # -es, -Es: ex mode, silent
            if len(letters) > 1 and letters.endswith("c") and k + 1 < len(args):  # `ex -sc '%p|q!'`
                commands.append(args[k + 1])
                k += 1
            elif arg in _VIM_VALUES - {"-s"} and k + 1 < len(args):
                k += 1
        else:
            names.append(arg)
        k += 1
    if not batch:
        return Stream()
    if not commands and UNKNOWN not in stdin.text:
        commands = small_text(stdin).splitlines()  # `ex -s f <<< '%p'`, `ex -s f < script`: the script on stdin
    return _printed(names[:1], commands, env, _shown(name, args))


def _shown(name: str, args: list[str]) -> str:
    from boundread.guard.reason import quote

    text = " ".join([name, *(quote(arg) for arg in args)])
    return text if len(text) <= 60 else text[:57] + "..."


def _printed(names: list[str], commands: list[str], env: Env, shown: str) -> Stream:
    """The files as the commands print them: whole, a range of lines, or nothing."""
    if not names or names[0] == UNKNOWN:
        return Stream()
    whole, bound = False, None
    for line in commands:
        matched = _global_print(line.strip().lstrip(":").strip(), shown)
        if matched is not None:  # `g/INFO/p`: the lines that match, sized as grep's
            bound = matched
            continue
        for command in line.split("|"):
            found = _print_range(command.strip().lstrip(":").strip())
            if found is None:
                continue
            if found == "whole":
                whole = True
            elif isinstance(found, tuple):
                first, last = found
                bound = Bound(LINES, max(0, last - first + 1), max(0, first - 1), words=shown)
    if whole:
        out = files(env, names, shown)
    elif bound is not None:
        out = files(env, names, bound.words, bound)
    else:
        return Stream()
    out.exact = False
    return out


def _global_print(command: str, shown: str) -> Bound | None:
    """``g/RE/p`` (``global``, ``v`` for the lines that do not match; ``nu``, ``#``, ``l`` print too): the
    matching lines, a MATCHES bound that decide sizes as it sizes grep's (vim's simple patterns are grep's basic
    ones); None for anything else, a pattern holding a ``/`` included."""
    import re

    from boundread.guard.bounds import MATCHES, Grep

    match = re.fullmatch(r"(g|global|v|vglobal|g!)\s*/([^/\\]+)/\s*(p|pr|print|P|nu|number|#|l|list)?\s*(\|.*)?",
                         command)
    if match is None:
        return None
    invert = match.group(1) in ("v", "vglobal", "g!")
    return Bound(MATCHES, 0, words=shown, grep=Grep((match.group(2),), "basic", invert=invert))


def _print_range(command: str) -> str | tuple[int, int] | None:
    """"whole" when ``command`` prints the whole buffer, (first, last) for a range of line numbers, None
    when it prints no line or one (``p`` alone, ``q``, ``s/a/b/``) or only the lines that match (``g/re/p``)."""
    import re

    if re.match(r"^(%|1,\$|,)?\s*w(rite)?!?\s*(!\s*cat|>*\s*/dev/(stdout|fd/1|tty))\b", command):
        return "whole"
    match = re.match(r"^(%|,|;|\d+,\$|\d+\s*,\s*\d+|\d+|\.|\$|\.,\$)?\s*([a-zA-Z#]+)\s*\d*\s*$", command)
    if match is None:
        return None
    given, verb = match.group(1) or "", match.group(2)
    if verb not in _PRINTS:
        return None
    if given in _WHOLE or re.match(r"^\d+,\$$", given) or given == ".,$":
        return "whole"
    numbers = re.match(r"^(\d+)\s*,\s*(\d+)$", given)
    if numbers:
        return int(numbers.group(1)), int(numbers.group(2))
    return None


def _emacs(args: list[str], env: Env) -> Stream:
    """``emacs --batch F --eval '(princ (buffer-string))'``: the buffer printed, the file whole."""
    if not any(arg in ("--batch", "-batch", "--script", "-script") for arg in args):
        return Stream()
    evals = [args[k + 1] for k, arg in enumerate(args[:-1]) if arg in ("--eval", "-eval")]
    prints = any(("princ" in code or "message" in code or "send-string-to-terminal" in code)
                 and ("buffer-string" in code or "buffer-substring" in code or "insert-file" in code)
                 for code in evals)
    if not prints:
        return Stream()
    skip = {args[k + 1] for k, arg in enumerate(args[:-1]) if arg in ("--eval", "-eval", "-l", "--load", "-f",
                                                                      "--funcall", "--script", "-script")}
    names = [arg for arg in args if not arg.startswith("-") and arg not in skip]
    out = files(env, names[:4], "emacs --batch")
    out.exact = False
    return out
