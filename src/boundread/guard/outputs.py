"""How much of a file one use of a command prints, and the sum over the uses of one command.

A bound is a bound only when what it lets through fits the caps (decide); this module says how many bytes
that is, so that the uses of one command can be added up: ``head -n 1000 logs/*.log`` prints a part of
each of six files, each part fits, the six together do not. A grep's part is estimated from a sample of the
file (guard/estimate.py); ``grep INFO big.log`` is refused for its own output, with the bounded grep to run.
Only the bytes are looked at, never more than the cap of a file (or an estimate's 256 KB sample).
"""

# os.path on purpose, not pathlib: importing pathlib costs milliseconds of start-up on the hook path.
from __future__ import annotations

import os
import stat

from boundread.bytelevel import sniff
from boundread.guard import facts
from boundread.guard.bounds import DOCUMENT, UNPACKED

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.bounds import Bound, Grep
    from boundread.guard.config import GuardConfig

#: The units that mark a stage's output (bounds.Bound), not a bound on it.
_MARKERS = ("fields", "json-pretty", "json-elements", UNPACKED)
#: What one PDF page (or slide) prints as text, about, for a sum (a dense page of prose is ~3,000 characters).
PAGE_BYTES = 4096
#: The matches a grep's bounded command asks for.
MATCHES = 200


def part(absolute: str, found: tuple[Bound, ...], cfg: GuardConfig) -> tuple[int | None, int]:
    """(the bytes the tightest of these bounds lets through when that is a real part of the file within the
    cap, else None; a grep's estimated output when one of them is a grep, else -1).

    A bound at least as big as the file is the whole file: its verdict is the whole read's, so
    ``head -c 1000 f.pdf`` passes and ``head -c 100000000 f.pdf`` does not."""
    try:
        info = os.stat(absolute)
    except (OSError, ValueError):
        return None, -1
    if not stat.S_ISREG(info.st_mode):
        return None, -1
    size, cap = info.st_size, cfg.text_max_bytes
    best: int | None = None
    grep = -1
    if any(bound.unit == "distinct" for bound in found):  # sort -u, sort | uniq -c: the distinct values
        best = _distinct(absolute, size, next((bound.grep for bound in found if bound.grep is not None), None), cfg)
    mark = max((at for at, bound in enumerate(found) if bound.unit == UNPACKED), default=-1)
    if mark >= 0:
        from boundread.guard import gunzipped

        if not gunzipped.unpackable(absolute):  # `zcat -f notes.txt`: not gzip, printed as it is
            mark = -1
    whole = all(bound.unit in _MARKERS for bound in found[:mark])  # a gunzip of the whole file (mark >= 0)
    members = found[mark].members if mark >= 0 else ()  # `unzip -p a.zip big.log`
    for at, bound in enumerate(found):
        if bound.unit == "distinct" or at <= mark:  # up to a gunzip: bounds on the compressed bytes
            continue
        if mark >= 0 and bound.grep is None:  # after one: lines or bytes of the file's text
            got = gunzipped.part(absolute, bound, cap, members) if whole else None
        else:
            got = _one(absolute, size, bound, cfg, members)
        if bound.grep is not None and got is not None:
            grep = max(grep, got)
            got = got if got <= cap else None
        if got is not None and (best is None or got < best):
            best = got
    if grep >= 0 and best is not None and best < grep:
        grep = -1  # another bound (`| head`) holds it
    return best, grep


def _one(absolute: str, size: int, bound: Bound, cfg: GuardConfig, members: tuple[str, ...] = ()) -> int | None:
    cap = cfg.text_max_bytes
    if bound.unit in _MARKERS:  # markers of a stage: no bound in bytes
        return None
    if bound.unit in ("matches", "text-matches"):  # a grep: the lines that match, of a text file only
        return _grep(absolute, size, bound.grep, text_only=bound.unit == "text-matches", members=members)
    if bound.unit == DOCUMENT:  # `pandoc memo.docx`: at most the text its XML holds, when that is small
        from boundread.guard import doctext

        try:
            kind = sniff.sniff_path(absolute).kind
        except OSError:
            return None
        if kind == sniff.PDF:  # `pdftotext memo.pdf -`: a PDF of a quarter of the pages a range may take (5 of
            pages = facts.pdf_pages(absolute, size)  # 20): a page's text is guessed, not bounded as XML bounds it
            return pages * PAGE_BYTES if pages and pages <= cfg.pdf_page_cap // doctext.SHARE else None
        return doctext.most(absolute, kind, cap)
    if bound.unit == "pages":  # `pdftotext -f 1 -l 5 f.pdf -`: as many pages as a Read may take
        return bound.count * PAGE_BYTES if bound.count <= cfg.pdf_page_cap else None
    if bound.unit == "bytes":
        if bound.count <= cap and (bound.count < size or bound.skip > 0):
            return min(bound.count, max(0, size - bound.skip))
        return None
    if bound.unit == "any-lines":  # lines here and there (`sed -n '1p;$p'`): each as long as the longest sampled
        sample = facts.text_lines(absolute, size)
        most = min(size, bound.count * (max(sample[1], 1) if sample is not None else size))
        return most if most <= cap else None
    if bound.skip == 0 or bound.from_end:
        span = facts.lines_size(absolute, size, bound.count, from_end=bound.from_end, most=cap)
        return span[0] if span is not None and span[1] else None
    end = facts.lines_size(absolute, size, bound.skip + bound.count, from_end=False, most=cap)
    if end is not None:
        start = facts.lines_size(absolute, size, bound.skip, from_end=False, most=cap)
        return end[0] - (start[0] if start is not None else 0) if end[1] or bound.skip else None
    sample = facts.text_lines(absolute, size)  # lines deep in a big file: from the sample's longest line
    longest = max(sample[1], 1) if sample is not None else size
    return bound.count * longest if bound.count * longest <= cap else None


def _grep(absolute: str, size: int, spec: Grep | None, *, text_only: bool, members: tuple[str, ...] = ()) -> int | None:
    """A grep's output: estimated for a text file (or gzip, for zgrep; or the text of a zip's ``members``, as
    ``unzip -p`` prints it); a binary file's is one line ("Binary file matches"), but with ``-a``
    (``text_only``) its bytes: the file's own verdict decides."""
    try:
        kind = sniff.sniff_path(absolute).kind
    except OSError:
        return None
    if spec is None or (text_only and kind != sniff.TEXT):
        return 0 if kind == sniff.TEXT else None
    if kind == sniff.GZ and spec.compressed:
        from boundread.guard import estimate

        unpacked = facts.gzip_size(absolute, size)
        return estimate.printed(absolute, size, spec, max(unpacked or 0, size))
    if kind == sniff.ZIP and spec.compressed:
        from boundread.guard import estimate, gunzipped

        unpacked = gunzipped.declared(absolute, members)
        return estimate.printed(absolute, size, spec, unpacked or 0, members) if unpacked is not None else None
    if kind != sniff.TEXT:
        return 0
    from boundread.guard import estimate

    return estimate.printed(absolute, size, spec)


def _distinct(absolute: str, size: int, spec: Grep | None, cfg: GuardConfig) -> int | None:
    """What the distinct lines (or a grep's distinct matches) of a text file take, when that fits the cap."""
    try:
        kind = sniff.sniff_path(absolute).kind
    except OSError:
        return None
    compressed = spec is not None and spec.compressed and kind == sniff.GZ
    if kind != sniff.TEXT and not compressed:
        return None
    from boundread.guard import estimate

    unpacked = max(facts.gzip_size(absolute, size) or 0, size) if compressed else None
    got = estimate.distinct(absolute, size, spec, unpacked)
    return got if got <= cfg.text_max_bytes else None


def printed_whole(absolute: str) -> int:
    """What a whole print of an allowed file adds to the sum: its size (0 when it is not a regular file)."""
    try:
        info = os.stat(absolute)
    except (OSError, ValueError):
        return 0
    return info.st_size if stat.S_ISREG(info.st_mode) else 0


def _utf16(path: str, spec: Grep) -> bool:
    """A grep that decodes (rg) reads this file as UTF-16 (its BOM; UTF-32's is not decoded) and prints UTF-8."""
    if not path or not spec.decodes or spec.compressed:
        return False
    try:
        with open(path, "rb") as fh:
            head = fh.read(4)
    except OSError:
        return False
    return head.startswith((b"\xff\xfe", b"\xfe\xff")) and head != b"\xff\xfe\x00\x00"


def grep_reason(shown: str, bound: Bound, printed: int, size: int, cfg: GuardConfig, path: str = "",
                members: tuple[str, ...] | None = None) -> str:
    """A grep that prints more than the cap of one file: how much, and the bounded greps to run. ``path`` (the
    file itself) lets the share say when rg prints a UTF-16 file's text as UTF-8, not its raw bytes. ``members``:
    the grep reads what ``unzip -p`` prints of these members of a zip (none: all of them)."""
    from boundread.guard import reason
    from boundread.guard.config import shown_size
    from boundread.units import human_bytes

    spec = bound.grep
    assert spec is not None
    quoted = reason.quote(shown)
    share = min(100, round(100 * printed / max(size, 1)))
    what = f"`{bound.words}` would print about {human_bytes(printed)} of {quoted}"
    described = f"{'gzip file' if spec.compressed else 'text file'}, {human_bytes(size)}" + \
        f"{' unpacked' if spec.compressed else ''}; " + \
        f"{'its matches are' if spec.only else 'the lines it prints are'} about {share}% of a sample of it" + \
        (" (its UTF-16 text, printed as UTF-8)" if _utf16(path, spec) else "")
    counted = _counting(bound.words)
    if members is not None:
        return _zip_grep_reason(what, quoted, members, spec, printed, size, counted, cfg)
    if counted and spec.piped:  # `cat f | grep X`: `grep -c X` alone would count an empty stdin - name the file
        counted = _counting_file(counted, quoted, spec)
    cmds = [grep_command(quoted, spec), *([f"{counted}   (how many lines match)"] if counted else [])]
    return reason.compose(what, described, f"a grep result over {shown_size(cfg.text_max_bytes)} floods the context",
                          cmds, "Narrow the pattern, or take the matches a page at a time (`next:` names the rest).")


def _zip_grep_reason(what: str, quoted: str, members: tuple[str, ...], spec: Grep, printed: int, size: int,
                     counted: str, cfg: GuardConfig) -> str:
    """``unzip -p a.zip [members] | grep X`` over the cap: a member's bounded grep (after the listing when the
    grep read more than one), and the count of the same pipe."""
    from boundread.guard import reason
    from boundread.guard.config import shown_size
    from boundread.units import human_bytes

    named = " ".join(reason.quote(member) for member in members)
    share = min(100, round(100 * printed / max(size, 1)))
    described = f"zip archive, {human_bytes(size)} of text in {named or 'all its members'}; the lines it prints " \
                f"are about {share}% of a sample of it"
    pipe = f"unzip -p {quoted}{' ' + named if named else ''} | "
    if spec.invert:  # extract has no inverted grep: the same pipe, with -m
        cmds = [pipe + grep_command("", spec).rstrip()]
    elif len(members) == 1:
        cmds = [grep_command(f"{quoted} --member {named}", spec)]
    else:
        cmds = [f"boundread list-zip {quoted} --max-entries 200", grep_command(f"{quoted} --member NAME", spec)]
    if counted:
        cmds.append(f"{pipe}{counted}   (how many lines match)")
    return reason.compose(what, described, f"a grep result over {shown_size(cfg.text_max_bytes)} floods the context",
                          cmds, "Narrow the pattern, or take the matches a page at a time (`next:` names the rest).")


def grep_command(quoted: str, spec: Grep, stdout: bool = True) -> str:
    """The bounded grep of one file: ``boundread extract F --grep PAT --max-matches N`` (an inverted grep,
    which extract has no option for: the same pattern with ``-m N``)."""
    from boundread.guard import reason

    if spec.invert:
        pattern = "|".join(spec.patterns) if len(spec.patterns) != 1 else spec.patterns[0]
        flag = {"fixed": " -F", "extended": " -E", "perl": " -P"}.get(spec.syntax, "")
        return f"grep -v{flag}{' -i' if spec.ignore_case else ''} -m {MATCHES} -- {reason.quote(pattern)} {quoted}"
    pattern, flags = bounded_pattern(spec)
    context = f" --context {max(spec.before, spec.after)}" if spec.before or spec.after else ""
    return f"boundread extract {quoted} --grep {reason.quote(pattern)}{flags}{context} --max-matches {MATCHES}" + \
        reason.FIT + (" --stdout" if stdout else "")


#: The greps whose ``-c`` counts the lines that match.
_COUNTERS = frozenset({"grep", "egrep", "fgrep", "zgrep", "zegrep", "zfgrep", "bzgrep", "xzgrep", "rg", "ag", "ack",
                       "git"})


def _counting(words: str) -> str:
    """The grep as written with ``-c`` after its program name: how many lines match ('' when cut short, or when
    the program is no grep: ``sed -c -n /RE/p`` is no count)."""
    if words.endswith("...") or words.partition(" ")[0].rsplit("/", 1)[-1] not in _COUNTERS:
        return ""
    if words.startswith("git "):  # `git -C repo grep PAT`: -c after grep (before it, -c sets a config)
        head, found, tail = words.partition(" grep ")
        return f"{head} grep -c {tail}" if found else ""
    for program in ("rg ", "ag ", "ack "):
        if words.startswith(program):
            return program + "-c " + words[len(program):]
    name, _, rest = words.partition(" ")
    return f"{name} -c {rest}"


def _counting_file(counted: str, quoted: str, spec: Grep) -> str:
    """The count of a grep that read a pipe, run on the file the pipe carried: of a gzip file's text (``zcat f.gz |
    grep X``), by the program's gzip-reading kin (``zgrep -c``, ``rg -z -c``); '' when it has none."""
    name, _, rest = counted.partition(" ")
    if spec.compressed and not name.startswith("z"):
        if name in ("grep", "egrep", "fgrep"):
            name = "z" + name
        elif name == "rg":
            rest = "-z " + rest
        else:
            return ""
    return f"{name} {rest} {quoted}"


def bounded_pattern(spec: Grep) -> tuple[str, str]:
    """(the grep's patterns as one Python regex for ``boundread extract --grep``, ' -i' or '')."""
    from boundread.guard import estimate

    sources = [estimate.python_source(p, spec.syntax) for given in spec.patterns for p in given.split("\n")]
    return "|".join(sources) if len(sources) != 1 else sources[0], " -i" if spec.ignore_case else ""


def sum_reason(cmd: str, parts: list[tuple[str, int, Grep | None]], total: int, cfg: GuardConfig) -> str:
    """Several bounded or small reads that add up past the cap: what each gives, and how to take less."""
    from boundread.guard import reason
    from boundread.guard.config import shown_size
    from boundread.units import human_bytes

    shown = cmd if len(cmd) <= 120 else cmd[:117] + "..."
    listed = ", ".join(f"{path} {human_bytes(size)}" for path, size, _grep in parts[:3]) + \
        (", ..." if len(parts) > 3 else "")
    first = reason.quote(reason.operand(parts[0][0]))
    grep = parts[0][2]
    share = max(1, 100 * cfg.text_max_bytes // max(total, 1))
    one = f"{grep_command(first, grep)}   (one file at a time)" if grep is not None else \
        f"boundread extract {first} --lines 1-200{reason.FIT}   (one file at a time)"
    cmds = [one, f"wc -l FILES   (how big each is), then fewer files, or about {share}% as much of each"]
    return reason.compose(f"`{shown}` would print about {human_bytes(total)} in all from {len(parts)} files",
                          listed, f"each part fits, but together they are over {shown_size(cfg.text_max_bytes)}",
                          cmds, "Split it into calls that each print less, or narrow it to the files you need.")
