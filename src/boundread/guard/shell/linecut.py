"""``... | cut -c1-N``: a later cut bounds each line of what came before it to N characters; ``fold -w N | head -n
K``: a fold cuts every line to N columns, so the K lines a later head keeps are K x N characters at most.

``grep 'a39999=' bundle.min.js | cut -c1-80`` prints at most 81 bytes a line, whatever the grep matched - the
whole output is at most (lines of cut's input) x (N + 1). The lines of cut's input are known only when every
stage before it prints lines of the file it reads as they are (or fewer of them): ``cat``, ``grep`` (not ``-o``,
which prints each match on a line of its own), ``head``, ``sort``, ``uniq``. A stage that may split lines
(``tr ';' '\\n'``, ``sed``, ``fold``, ``jq``) or unpack them (``zcat``, ``zgrep``) leaves cut's input unknown, and
nothing is bounded here: the stages' own bounds decide, as before.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from tree_sitter import Node

    from boundread.guard.shell.state import Ctx, Env, Stream

#: Programs that print lines of what they read as they are, or fewer of them (their options checked below).
_KEEPERS = frozenset({"cat", "grep", "egrep", "fgrep", "rg", "head", "tail", "sort", "uniq", "tac"})
#: Options that make one of those print other lines: cat -A/-v/-e/-T mark them (-n and -b keep the count),
#: grep -o prints each match on a line, -z/--null-data and rg -z/--pre change what a line is.
_SPLITTERS = {"cat": "AvetET", "grep": "ozZ", "egrep": "ozZ", "fgrep": "ozZ", "rg": "ozUr"}
_LONG_SPLITTERS = ("--only-matching", "--null-data", "--search-zip", "--pre", "--multiline", "--show-all",
                   "--replace", "--zero-terminated")


def argv(stage: Node) -> list[str] | None:
    """The words of a plain command stage as written (quotes removed); None when it expands anything or is not
    a plain command - then nothing is assumed about it."""
    text = (stage.text or b"").decode("utf-8", "replace")
    if stage.type != "command" or any(ch in text for ch in "$`<>(){}*?[\\"):
        return None
    if "'" not in text and '"' not in text:  # no quotes, no backslash: shlex.split splits on these alone
        spaced = text.replace("\t", " ").replace("\r", " ").replace("\n", " ")
        return [word for word in spaced.split(" ") if word]  # as shlex, without loading it (and re)
    import shlex

    try:
        return shlex.split(text)
    except ValueError:
        return None


def keeps_lines(words: list[str] | None) -> bool:
    """Does this stage print only lines of its input or of the files it names, as they are?"""
    if not words or words[0].rsplit("/", 1)[-1] not in _KEEPERS:
        return False
    name = words[0].rsplit("/", 1)[-1]
    letters = _SPLITTERS.get(name, "")
    for word in words[1:]:
        if word.startswith(_LONG_SPLITTERS) or (name in ("sort", "uniq", "head", "tail") and word in ("-z",)):
            return False
        if word.startswith("-") and not word.startswith("--") and set(word[1:]) & set(letters):
            return False
    return True


def bounded(words: list[str] | None, before_kept: bool, stream: Stream, env: Env, ctx: Ctx) -> Stream:
    """``stream``, what a ``cut -c1-N`` stage printed, with each flow from a file bounded by the file's lines x
    (N + 1) bytes - when every stage before the cut kept the file's lines (``before_kept``)."""
    from boundread.guard.bounds import BYTES, Bound
    from boundread.guard.shell import summaries
    from boundread.guard.shell.state import UNKNOWN, Stream

    if not before_kept or not words or words[0].rsplit("/", 1)[-1] != "cut":
        return stream
    width = summaries.cut_width(words[1:])
    if width is None or any(not word.startswith("-") for word in words[1:] if not _value_of_option(words, word)):
        return stream  # `cut -c1-80 FILE`: its files are bounded where cut reads them (dumpers)
    flows = []
    for path, found, shown in stream.flows:
        lines = summaries.shape(env.path(path), ctx) if UNKNOWN not in path and env.path(path) not in env.writes \
            else None
        bound = (Bound(BYTES, lines[0] * (width + 1), words=f"cut -c1-{width}"),) if lines else ()
        flows.append((path, (*found, *bound), shown))
    return Stream(flows, stream.text, stream.exact)


def _value_of_option(words: list[str], word: str) -> bool:
    """Is ``word`` the value of the option before it (``cut -c 1-80``, ``-d ,``)?"""
    at = words.index(word)
    return at > 1 and words[at - 1] in ("-c", "-b", "-d", "-f", "--characters", "--bytes", "--delimiter",
                                        "--fields", "--output-delimiter")


def fold_width(words: list[str] | None, width: int | None) -> int | None:
    """The width every line has at most after this stage: ``fold [-w N]`` sets it (80 by default); a stage that
    keeps lines as they are (or fewer of them) keeps it; any other stage loses it."""
    if not words:
        return None
    if words[0].rsplit("/", 1)[-1] == "fold":
        found, rest = 80, words[1:]
        for at, word in enumerate(rest):
            short = word.startswith("-") and not word.startswith("--")
            if word == "--width" or (short and word.endswith("w")):  # `-w 100`, `-bw 100`
                value = rest[at + 1] if at + 1 < len(rest) else ""
            elif word.startswith("--width="):
                value = word.split("=", 1)[1]
            elif short and "w" in word:  # `-w100`, `-sw100`
                value = word[word.index("w") + 1:]
            elif short and word[1:].isdigit():  # `fold -100`
                value = word[1:]
            else:
                continue
            if not value.isdigit():
                return None  # a width not known here: no bound
            found = int(value)
        return found
    return width if keeps_lines(words) else None


def folded(words: list[str] | None, width: int | None, stream: Stream) -> Stream:
    """``stream``, what a ``head -n K`` stage printed of lines at most ``width`` columns long (a ``fold`` before
    it), with each flow bounded by K x (4 x width + 1) bytes: a column is a character, up to 4 bytes of UTF-8."""
    from boundread.guard import bounds
    from boundread.guard.shell.state import Stream

    if width is None or not words or words[0].rsplit("/", 1)[-1] != "head":
        return stream
    reading = bounds.reading("head", words[1:])
    if reading is None or reading.files or reading.bound is None or reading.bound.unit != bounds.LINES:
        return stream
    bound = bounds.Bound(bounds.BYTES, reading.bound.count * (4 * width + 1), words=f"fold -w {width} | head")
    return Stream([(path, (*found, bound), shown) for path, found, shown in stream.flows], stream.text, stream.exact)
