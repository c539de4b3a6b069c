"""Shells and interpreters: ``bash -c``, ``sh script``, ``python3 - <<EOF``, ``perl -ne print f``, ``node -e``.

A shell's script (its ``-c`` text, a script file, a here-document or piped text) is walked like the
command itself, at any depth. An interpreter's code is read for the files it names: one that reads
a file whole and prints is a dumper of it; one that prints what it reads from stdin passes its stdin on.
"""

from __future__ import annotations

from boundread.guard.shell.state import UNKNOWN, Env, Stream, read_file, small_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

_CODE_FLAGS = {"-c", "-e", "-E", "--eval", "-p", "--print", "-r", "-x"}


#: perl's and ruby's switches whose value is glued to them (``-Mstrict``, ``-I lib``, ``-i.bak``, ``-F,``, ruby's
#: ``-E enc``): the rest of the cluster is that value, not more switches; ``-0``/``-l`` take the digits after them.
_GLUED_VALUES = {"perl": "MmIixFdDC", "ruby": "rICxFWKTE"}


def _glued_code(name: str, letters: str) -> int:
    """Where the code starts in a cluster of switches that ends with it (``pe1``: 1, after the e), as the index of
    the ``e``; -1 when the cluster holds no code."""
    values = _GLUED_VALUES["ruby" if name.startswith("ruby") else "perl"]
    code = "e" if name.startswith("ruby") else "eE"
    at = 0
    while at < len(letters):
        letter = letters[at]
        if letter in code:
            return at
        if letter in values:
            return -1
        at += 1
        if letter in "0l":  # `-0777`, `-l012`: octal digits; `-0x1F`: hex ones
            digits = "01234567"
            if letter == "0" and letters[at:at + 1] in ("x", "X"):
                at, digits = at + 1, "0123456789abcdefABCDEF"
            while at < len(letters) and letters[at] in digits:
                at += 1
    return -1


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
            if module == "sqlite3":  # Python 3.12's sqlite3 command line
                from boundread.guard.shell import databases

                return databases.run("sqlite3", args[k + 2:], env, ctx, stdin)
            rest = args[k + 2:]
            if module == "zipfile" and rest[:1] in (["-e"], ["--extract"]) and len(rest) >= 3:
                return ctx.command(["unzip", "-q", rest[1], "-d", rest[2]], env, stdin)  # what unzip -d would write
            if module in ("json.tool", "base64", "quopri", "uu", "zipfile", "tarfile", "gzip"):
                names = [a for a in args[k + 2:] if not a.startswith("-")]
                if module in ("json.tool", "base64", "quopri"):
                    return files(env, names[:1], f"{name} -m {module}") if names else Stream(stdin.named(name))
            return Stream()
        elif code is None and not operands and arg.startswith("-") and arg != "-":
            letters = arg.lstrip("-")
            glued = _glued_code(name, letters) if name.startswith(("perl", "ruby")) and not arg.startswith("--") \
                else -1
            if 0 <= glued < len(letters) - 1:  # `perl -pe1`, `perl -e1`, `perl -ne'print'`: code glued to the e
                flags += letters[:glued + 1]
                code = letters[glued + 1:]
            else:
                flags += letters
                if letters[-1:] in ("e", "E", "c") and len(letters) > 1:  # perl -ne CODE, ruby -pe CODE
                    code, k = (args[k + 1] if k + 1 < len(args) else ""), k + 1
        else:
            operands.append(arg)
        k += 1
    if code is None and name.startswith(("deno", "bun")) and operands[:1] in (["eval"], ["run"], ["e"]):
        sub, operands = operands[0], operands[1:]  # `deno eval CODE`, `bun run script.ts`
        if sub != "run" and operands:
            code, operands = operands[0], operands[1:]
    if code is None:
        if not operands or operands[0] == "-":
            code, stdin, operands = small_text(stdin), Stream(), operands[1:]  # `python3 - <<'EOF'`
        else:
            code, operands = small_text(read_file(env, operands[0], name)), operands[1:]
    if UNKNOWN in code:
        return Stream()
    from boundread.guard.shell import codeprints  # its patterns compile only for code

    return codeprints.prints(name, code, flags, operands, env, ctx, stdin)


_MAKE_DRY = frozenset({"-n", "--just-print", "--dry-run", "--recon"})
_MAKE_VALUED = frozenset("CfIoWjlEO")  # short options whose value may follow in the same word


def make(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``make``: what the recipes it runs for its targets print, walked as a shell script in its folder (``-C``);
    the makefile is ``-f FILE`` (``-f -``: its stdin, ``printf 'all:\\n\\tcat big.log\\n' | make -f -``), else the
    folder's own (scriptfiles.makefile). ``-n`` prints the recipes instead of running them; a makefile that is
    not known (too big, built at run time) leaves make what it was: a program whose output is not known."""
    from boundread.guard.shell import scriptfiles

    if args[-1:] in (["-f"], ["--file"], ["--makefile"]):  # tree-sitter drops the `-` of `-f - <<EOF`
        args = [*args, "-"]
    folder, given, targets = scriptfiles.make_args(args)
    if UNKNOWN in folder or UNKNOWN in given:
        return Stream()
    inner = env.copy()
    if folder:
        inner.cwd = inner.path(folder)
    if given == "-":
        text = small_text(stdin)
    else:
        path = scriptfiles.makefile(inner.cwd, given)
        text = small_text(read_file(inner, path, "make")) if path else ""
    if not text:
        return Stream()
    script = scriptfiles.recipes(text, targets)
    if any(arg in _MAKE_DRY or (arg[:1] == "-" and arg[1:].isalpha() and arg[1] not in _MAKE_VALUED and "n" in arg)
           for arg in args):  # `-n`, `-sn`; not `-Cdown`, a folder
        return Stream([], script + "\n" if script else "")
    return ctx.shell(script, inner, Stream()) if script else Stream()
