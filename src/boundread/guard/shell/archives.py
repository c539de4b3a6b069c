"""Archives, compressors and converters: ``tar``, ``unzip``, ``7z``, ``gzip -c``, ``zip -``, ``pdftotext``,
``curl file://``, ``openssl base64``. Each prints a file, unpacks it, writes it, or consumes its stdin."""

from __future__ import annotations

from boundread.guard import bounds
from boundread.guard.shell import members
from boundread.guard.shell.state import UNKNOWN, Env, Stream, visible

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Ctx

_COMPRESSORS = frozenset({"gzip", "gunzip", "pigz", "unpigz", "bzip2", "bunzip2", "pbzip2", "xz", "unxz", "lzma",
                          "unlzma", "zstd", "unzstd", "lz4", "brotli", "lzip", "lzop"})
PROGRAMS = _COMPRESSORS | {"tar", "bsdtar", "gtar", "unzip", "funzip", "7z", "7za", "7zz", "7zr", "zip",
                           "pdftotext", "curl", "openssl"}
_PDFTOTEXT_VALUES = frozenset({"-f", "-l", "-r", "-x", "-y", "-W", "-H", "-enc", "-eol", "-opw", "-upw",
                               "-fixed"})


def run(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    from boundread.guard.shell.reads import files, operands, unpacked

    if name in _COMPRESSORS:
        flags = "".join(a.lstrip("-") for a in args if a.startswith("-") and not a.startswith("--"))
        names = [n for n in operands(args, frozenset({"-S", "--suffix", "-o"})) if n != "-"]
        if "c" in flags or "--stdout" in args or "--to-stdout" in args or not names:
            out = files(env, names, name) if names else Stream(stdin.named(name), "")
            gunzips = name in ("gunzip", "unpigz") or (name in ("gzip", "pigz") and (
                "d" in flags or "--decompress" in args or "--uncompress" in args))
            return unpacked(out) if gunzips else out
        return Stream()  # in place
    if name in ("tar", "bsdtar", "gtar"):
        return _tar(name, args, env, ctx, stdin)
    if name in ("unzip", "funzip"):
        return _unzip(name, args, env, ctx)
    if name.startswith("7z"):
        names = operands(args[1:]) if args else []
        if args and args[0] in ("x", "e") and names:
            if "-so" in args:
                return files(env, names[:1], name)
            ctx.unpack(env.path(names[0]), name)
            folder = next((arg[2:] for arg in args if arg.startswith("-o") and len(arg) > 2), ".")
            members.unpacked(env, ctx, names[0], folder, None, f"{name} x {names[0]}")  # a zip or a tar: its members
        return Stream()
    if name == "zip":
        names = operands(args, frozenset({"-x", "-i", "-b", "-n", "-t", "-tt", "-P", "-Z"}))
        if names[:1] == ["-"]:
            return files(env, names[1:], "zip -")
        return Stream()
    if name == "pdftotext":
        return _pdftotext(args, env, ctx, stdin)
    if name == "curl":
        return _curl(args, env)
    return _openssl(args, env, stdin)


def _tar(name: str, args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    from boundread.guard.shell.reads import files

    mode, to_stdout = "", False
    archive: str | None = None
    members_named: list[str] = []
    folder = ""  # -C / --directory: where the members are read from
    k = 0
    while k < len(args):
        arg = args[k]
        if arg.startswith("--"):
            mode = {"--extract": "x", "--get": "x", "--create": "c", "--list": "t"}.get(arg, mode)
            to_stdout |= arg == "--to-stdout"
            if arg.startswith("--file="):
                archive = arg.split("=", 1)[1]
            elif arg == "--file" and k + 1 < len(args):
                archive, k = args[k + 1], k + 1
            elif arg.startswith("--directory="):
                folder = arg.split("=", 1)[1]
            elif arg == "--directory" and k + 1 < len(args):
                folder, k = args[k + 1], k + 1
            elif arg in ("--exclude", "--transform") and k + 1 < len(args):
                k += 1
        elif arg.startswith("-") or (k == 0 and arg.isalpha()):
            letters = arg.lstrip("-")
            for letter in "xct":
                if letter in letters:
                    mode = letter
            to_stdout |= "O" in letters
            if "C" in letters and k + 1 < len(args) and "f" not in letters:
                folder, k = args[k + 1], k + 1
            if "f" in letters:
                rest = letters[letters.index("f") + 1:]
                if rest and arg.startswith("-"):
                    archive = rest
                elif k + 1 < len(args):
                    archive, k = args[k + 1], k + 1
        else:
            members_named.append(arg)
        k += 1
    if mode == "c":  # no -f: GNU tar writes to stdout (a pipe: an agent's shell is no terminal)
        if archive not in (None, "-") and not (UNKNOWN not in archive and visible(env.path(archive))):
            return Stream()
        inside = env.copy() if folder else env
        if folder and UNKNOWN not in folder:
            inside.cwd = inside.path(folder)
        return files(inside, _tree(members_named, inside, ctx), "tar -cf -")
    if mode != "x":
        return Stream()  # -t lists; the listing is names, not content
    if archive in (None, "-"):
        if to_stdout:
            return Stream(stdin.named(name), "")
        for path, _found, _shown in stdin.flows:
            ctx.unpack(path, name)
        return Stream()
    if to_stdout:  # `tar -xOf A member`: that member, as long as its own size
        return files(env, [archive], name, members.printed(env, ctx, archive, members_named, True,
                                                           _words(f"tar -xOf {archive}", members_named)))
    ctx.unpack(env.path(archive), name)
    members.unpacked(env, ctx, archive, folder or ".", True, f"tar -xf {archive}")
    return Stream()


#: Files one ``tar -c`` of folders may list, and directory entries it may walk, before it says it capped.
TREE_FILES, TREE_WALK = 256, 5_000


def _tree(members: list[str], env: Env, ctx: Ctx) -> list[str]:
    """The members as tar reads them: a folder is every file under it (bounded; a cap is said)."""
    import os

    out: list[str] = []
    seen = 0
    for member in members:
        absolute = env.path(member) if UNKNOWN not in member else ""
        if not absolute or not os.path.isdir(absolute):
            out.append(member)
            continue
        for folder, dirs, names in os.walk(absolute):
            dirs.sort()
            for name in sorted(names):
                seen += 1
                if seen > TREE_WALK or len(out) >= TREE_FILES:
                    ctx.cap(f"`tar -c {member}` holds more than {len(out)} files; the first {len(out)} were checked")
                    return out
                out.append(os.path.join(folder, name))
    return out


def _unzip(name: str, args: list[str], env: Env, ctx: Ctx) -> Stream:
    from boundread.guard.shell.reads import files

    flags = "".join(a.lstrip("-") for a in args if a.startswith("-"))
    positional: list[str] = []
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg in ("-d", "-x", "-P"):
            skip = True
        elif not arg.startswith("-"):
            positional.append(arg)
    if not positional or any(flag in flags for flag in "lvtZz"):
        return Stream()
    if "p" in flags or "c" in flags:
        if UNKNOWN in positional[0] or any(ch in member for member in positional[1:] for ch in "*?[") or \
                any(UNKNOWN in member for member in positional[1:]):  # members named by a pattern: their sizes
            return files(env, positional[:1], name, members.printed(
                env, ctx, positional[0], positional[1:], False, _words(f"unzip -p {positional[0]}", positional[1:])))
        from boundread.guard.shell.reads import unpacked  # `unzip -p A member`: that member's text

        return unpacked(files(env, positional[:1], _words(f"unzip -p {positional[0]}", positional[1:])),
                        positional[1:])
    named = positional[1:]
    folder = next((args[k + 1] for k, arg in enumerate(args[:-1]) if arg == "-d"), ".")
    if named and not any(ch in member for member in named for ch in "*?["):  # only the members named: not
        members.unpacked(env, ctx, positional[0], folder, False, f"unzip {positional[0]}", named)  # the whole archive
        return Stream()
    ctx.unpack(env.path(positional[0]), name)
    members.unpacked(env, ctx, positional[0], folder, False, f"unzip {positional[0]}")
    return Stream()


def _words(program: str, named: list[str]) -> str:
    text = " ".join([program, *named])
    return text if len(text) <= 60 else text[:57] + "..."


def _pdftotext(args: list[str], env: Env, ctx: Ctx, stdin: Stream) -> Stream:
    """``pdftotext F -`` prints the text; ``pdftotext F [OUT]`` writes it to OUT (F.txt by default), which a
    later ``cat OUT`` prints: the same text, judged as the PDF."""
    from boundread.guard.shell.reads import files, operands, write

    names = operands(args, _PDFTOTEXT_VALUES)
    if not names:
        return Stream()
    source, out = names[0], names[1] if len(names) > 1 else None
    if out is not None and UNKNOWN in out:
        return Stream()  # written to a file, whatever its name
    if out is None or (out != "-" and not visible(env.path(out))):
        if out is None and source != "-":
            out = source[:-4] + ".txt" if source.lower().endswith(".pdf") else source + ".txt"
        if out is not None and source != "-":
            text = files(env, [source], "pdftotext", _pages(args))
            text.exact = False
            write(env, ctx, out, text)
        return Stream()  # written to a file
    if source == "-":
        from boundread.guard.shell.reads import bounded

        return bounded(stdin, _pages(args), "pdftotext")
    return files(env, [source], "pdftotext", _pages(args))


def _pages(args: list[str]) -> bounds.Bound:
    """``-f F -l L``: the pages pdftotext converts; without ``-l``, to the last page: the whole document's text
    (bounds.DOCUMENT: a PDF of a few pages prints as much as that range would)."""
    first = _value(args, "-f")
    last = _value(args, "-l")
    if last is not None:
        return bounds.Bound(PAGES, max(0, last - (first or 1) + 1), words=f"pdftotext -f {first or 1} -l {last}")
    return bounds.Bound(bounds.DOCUMENT, 0, words="pdftotext")


PAGES = "pages"


def _value(args: list[str], flag: str) -> int | None:
    if flag in args and args.index(flag) + 1 < len(args):
        parsed = bounds.count(args[args.index(flag) + 1])
        return parsed[1] if parsed is not None and not parsed[0] else None
    return None


def _curl(args: list[str], env: Env) -> Stream:
    from boundread.guard.shell.reads import files

    if any(arg in ("-o", "--output", "-O", "--remote-name", "-I", "--head") or arg.startswith("--output=")
           for arg in args):
        return Stream()
    paths = []
    for arg in args:
        if arg.lower().startswith("file://"):
            rest = arg[7:]
            paths.append(rest if rest.startswith("/") else "/" + rest.split("/", 1)[-1])
    return files(env, paths, "curl file://")


def _openssl(args: list[str], env: Env, stdin: Stream) -> Stream:
    from boundread.guard.shell.reads import files

    sub = args[0] if args else ""
    if sub in ("dgst", "sha1", "sha256", "sha512", "md5", "rand", "version", "list", "speed", "s_client"):
        return Stream()
    if "-out" in args or "-noout" in args:
        return Stream()
    if "-in" in args and args.index("-in") + 1 < len(args):
        source = args[args.index("-in") + 1]
        return files(env, [source], f"openssl {sub}") if UNKNOWN not in source else Stream()
    return Stream(stdin.named(f"openssl {sub}"), "")


