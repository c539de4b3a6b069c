"""Shells and interpreters: ``bash -c``, ``sh script``, ``python3 - <<EOF``, ``perl -ne print f``, ``node -e``.

A shell's script (its ``-c`` text, a script file, a here-document or piped text) is walked like the
command itself, at any depth. An interpreter's code is read for the files it names: one that reads
a file whole and prints is a dumper of it; one that prints what it reads from stdin passes its stdin on.
"""

from __future__ import annotations

import re

from boundread.guard.shell.state import UNKNOWN, Env, Stream, read_file, small_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

_CODE_FLAGS = {"-c", "-e", "-E", "--eval", "-p", "--print", "-r", "-x"}
_LITERAL = re.compile(r"""(['"])((?:(?!\1)[^\\\n]|\\.){1,4096})\1""")
_READ_ALL = re.compile(
    r"\.read\(\s*(-1)?\s*\)|\.readlines\(\s*\)|\.read_text\(|\.read_bytes\(|\bin\s+open\(|copyfileobj|"
    r"readFileSync|readFile\(|createReadStream|Bun\.file|Deno\.readTextFile|File\.(read|readlines|foreach|binread)|"
    r"IO\.(read|readlines|copy_stream|binread)|<\$?\w*>|\bslurp\b|file_get_contents|\breadfile\(|fpassthru|"
    r"readLines\(|\.lines\(|\bjoin\(\s*['\"]['\"]\s*,\s*<|io\.open|\.readall\(|np\.fromfile|pd\.read_")
_PRINTS = re.compile(r"\bprint|\bputs\b|\bsay\b|stdout|console\.log|\becho\b|\bpp?\b|readfile\(|fpassthru|"
                     r"\.pipe\(|copy_stream|\bwrite\(|\bcat\(|\bio\.write")
_STDIN_PRINTED = re.compile(
    r"(print|write|puts|console\.log|say|echo)\s*\(?\s*(sys\.stdin|process\.stdin|STDIN|<>|<STDIN>|\$stdin|\$_|"
    r"line|l|data|content|chunk|text|buf|s|input\(\))\b|copyfileobj\(\s*sys\.stdin|stdin\.pipe\(|"
    r"for\s+(\w+)\s+in\s+sys\.stdin\s*:\s*print|-p\b")
_STDIN = re.compile(r"sys\.stdin|process\.stdin|STDIN|<>|\$stdin|readFileSync\(\s*(0|['\"]/dev/stdin)|input\(|"
                    r"fileinput|php://stdin|ARGF")


def shell(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    for k, arg in enumerate(args):
        if arg.startswith("-") and not arg.startswith("--") and "c" in arg[1:]:
            script = args[k + 1] if k + 1 < len(args) else ""
            return ctx.shell(script, _positional(env, args[k + 2:]), stdin) if UNKNOWN not in script else Stream()
        if not arg.startswith(("-", "+")):
            text = small_text(read_file(env, arg, name))
            return ctx.shell(text, _positional(env, args[k:]), Stream()) if text else Stream()
        if arg in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file"):
            break
    return ctx.shell(small_text(stdin), env.copy(), Stream())  # `bash <<EOF`, `echo 'cat f' | sh`


def _positional(env: Env, words: list[str]) -> Env:
    """The shell's copy with ``$0`` and ``$1``... bound: ``bash -c 'cat "$1"' _ f.pdf``, ``sh script.sh f.pdf``."""
    inner = env.copy()
    inner.args = list(words[1:])
    if words:
        inner.vars["0"] = words[0]
    return inner


def interpreter(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    from boundread.guard.shell.reads import files

    code: str | None = None
    flags = ""
    operands: list[str] = []
    k = 0
    while k < len(args):
        arg = args[k]
        if code is None and not operands and arg in _CODE_FLAGS:
            code = args[k + 1] if k + 1 < len(args) else ""
            flags += arg.lstrip("-")[:1]
            k += 1
        elif code is None and not operands and arg == "-m":
            module = args[k + 1] if k + 1 < len(args) else ""
            if module in ("json.tool", "base64", "quopri", "uu", "zipfile", "tarfile", "gzip"):
                names = [a for a in args[k + 2:] if not a.startswith("-")]
                if module in ("json.tool", "base64", "quopri"):
                    return files(env, names[:1], f"{name} -m {module}") if names else Stream(stdin.named(name))
            return Stream()
        elif code is None and not operands and arg.startswith("-") and arg != "-":
            letters = arg.lstrip("-")
            flags += letters
            if letters[-1:] in ("e", "E", "c") and len(letters) > 1:  # perl -ne CODE, ruby -pe CODE
                code, k = (args[k + 1] if k + 1 < len(args) else ""), k + 1
        else:
            operands.append(arg)
        k += 1
    if code is None:
        if not operands or operands[0] == "-":
            code, stdin, operands = small_text(stdin), Stream(), operands[1:]  # `python3 - <<'EOF'`
        else:
            code, operands = small_text(read_file(env, operands[0], name)), operands[1:]
    if UNKNOWN in code:
        return Stream()
    return _code(name, code, flags, operands, env, stdin)


def _code(name: str, code: str, flags: str, operands: list[str], env: Env, stdin: Stream) -> Stream:
    from boundread.guard.shell.reads import files

    out = Stream()
    line_loop = ("p" in flags or "n" in flags) and name.startswith(("perl", "ruby"))
    selective = re.search(r"\bif\b|\bunless\b|=~|/.+/|\bnext\b|\bEND\b", code) is not None
    every_line = line_loop and ("p" in flags or (re.search(r"\b(print|say|puts)\b", code) is not None
                                                 and not selective))
    node_print = name.startswith(("node", "bun", "deno")) and "p" in flags
    prints = every_line or node_print or _PRINTS.search(code) is not None
    if every_line:
        out.add(files(env, [o for o in operands if o != "-"], name))
    elif prints and (_READ_ALL.search(code) or node_print):
        literals = [match.group(2) for match in _LITERAL.finditer(code)][:64]
        out.add(files(env, [lit for lit in literals if _looks_like_path(lit)], name))
        if (name.startswith(("perl", "ruby")) and "<>" in code) or "ARGF" in code or "fileinput" in code:
            out.add(files(env, [o for o in operands if o != "-"], name))
    if stdin.flows and ((every_line and not operands) or (_STDIN.search(code) and _STDIN_PRINTED.search(code))):
        out.flows.extend(stdin.named(name))
    return out


def _looks_like_path(text: str) -> bool:
    return 0 < len(text) < 4096 and "\n" not in text and not text.startswith(("http:", "https:")) \
        and text not in ("r", "rb", "w", "wb", "utf-8", "utf8", "ascii", "latin-1")
