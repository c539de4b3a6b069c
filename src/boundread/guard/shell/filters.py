"""sed and awk used as grep: ``sed -n '/RE/p'``, ``sed '/RE/!d'``, ``awk '/RE/'``, ``awk '/RE/ {print $2}'``.

They print the lines that match RE (or a part of each), as ``grep RE`` does, so they are sized as a grep's
matches are: a MATCHES bound carrying the pattern (bounds.Grep), which ``decide`` estimates on a sample of the
file - ``sed -n '/INFO/p'`` of a log of INFO lines is most of it, ``sed -n '/ERROR/p'`` a few lines. A script
that does anything else is left as bounds.py reads it.

An awk condition on fields is sized by a pattern that every line it keeps matches (a superset: the estimate errs
towards printing): ``$2 == "INFO"`` by the lines holding ``INFO``, ``$5 ~ /5[0-9][0-9]/`` by the regex anywhere in
the line, ``length($0) > 80`` by ``.{81}``, ``A && B`` by either side, ``A || B`` by both. What no pattern bounds
(``$3 > 1000``, ``$2 != "DEBUG"``, ``NF > 3``) may print every line: it is sized as the whole file. Conditions on
the line number (``NR % 100 == 0``) are left as bounds.py reads them.
"""

from __future__ import annotations

from boundread.guard.bounds import MATCHES, Bound, Grep, awk_operands
from boundread.guard.scripts import literal_end

_RE = r"/((?:[^/\\]|\\.)+)/"
_SED_VALUES = frozenset({"-l", "--line-length", "-s"})


def sed(name: str, args: list[str]) -> tuple[list[str], Bound] | None:
    """(the files, the bound) of ``sed -n '/RE/p' [F...]``, ``sed -n -e '/A/p' -e '/B/p'``, ``sed '/RE/!d'``."""
    import re

    quiet, extended = False, False
    scripts: list[str] = []
    names: list[str] = []
    k = 0
    while k < len(args):
        arg = args[k]
        if arg in ("-e", "--expression") and k + 1 < len(args):
            scripts.append(args[k + 1])
            k += 1
        elif arg in _SED_VALUES:
            k += 1
        elif arg.startswith("-") and arg != "-" and not arg.startswith("--"):
            quiet |= "n" in arg
            extended |= "E" in arg or "r" in arg
            if "i" in arg or "f" in arg:
                return None  # in place, or a script file
        elif arg in ("--quiet", "--silent", "--regexp-extended"):
            quiet |= arg != "--regexp-extended"
            extended |= arg == "--regexp-extended"
        else:
            names.append(arg)
        k += 1
    if not scripts and names:
        scripts, names = [names[0]], names[1:]
    commands = [part.strip() for script in scripts for part in re.split(r"[;\n]", script) if part.strip()]
    verb = r"\s*p\s*" if quiet else r"\s*!\s*d\s*"
    found = [re.fullmatch(_RE + r"(I?)" + verb, command) for command in commands]
    if not found or not all(found):
        return None
    patterns = tuple(match.group(1) for match in found if match)
    folded = all(match.group(2) for match in found if match)
    spec = Grep(patterns, "extended" if extended else "basic", ignore_case=folded)
    return names, Bound(MATCHES, 0, words=_shown(name, ["-n", *scripts] if quiet else scripts), grep=spec)


def awk(name: str, args: list[str]) -> tuple[list[str], Bound | None] | None:
    """(the files, the bound) of an awk program of one rule, a condition that prints its lines (or a part of each):
    ``awk '/RE/'``, ``awk '$2 == "INFO" {print $4}'``; the bound None when the condition may keep every line."""
    import re

    operands = awk_operands(args)
    if operands is None:
        return None
    program, names = operands
    brace = _outside(program, "{")
    condition, action = program[:brace], program[brace:]
    printed = re.fullmatch(r"\s*(\{\s*printf?\b[^{}>|]*\}\s*)?;?\s*", action)  # to stdout: no `> file`, `| cmd`
    if condition.strip() in ("", "BEGIN", "END", "BEGINFILE", "ENDFILE") or not printed:
        return None
    kept = _Condition(condition).parse()
    if kept is None:
        return None
    if not kept:
        return names, None
    return names, Bound(MATCHES, 0, words=_shown(name, [program]), grep=Grep(kept, "extended"))


_TOKEN = (r'\s*(?:(?P<str>"(?:[^"\\]|\\.)*")|(?P<num>\d+(?:\.\d+)?)|(?P<field>\$(?:\d+|\(\d+\)))'
          r"|(?P<word>[A-Za-z_]\w*))")
_OPS = ("==", "!=", "<=", ">=", "!~", "~", "<", ">")
_ERE_META = frozenset("\\.[]()*+?{}|^$")
_ESCAPES = {"t": "\t", "n": "\n", '"': '"', "/": "/", "\\": "\\"}


def _outside(program: str, char: str) -> int:
    """Where ``char`` first stands outside a string or a regex literal; the program's length when nowhere."""
    i, last = 0, ""
    while i < len(program):
        ch = program[i]
        if ch == '"' or (ch == "/" and last in ("", "(", "!", "~", "&", "|", ",")):
            i = literal_end(program, i)
            last = ch
            continue
        if ch == char:
            return i
        last = last if ch.isspace() else ch
        i += 1
    return len(program)


class _Condition:
    """A recursive descent over an awk condition (``||``, ``&&``, ``!``, parentheses, comparisons), giving what
    it keeps: patterns any one of which each kept line matches (a superset of its lines, never fewer); () when it
    may keep every line (no pattern bounds it); None when it is not read here."""

    def __init__(self, text: str) -> None:
        self.text, self.at = text, 0

    def parse(self) -> tuple[str, ...] | None:
        try:
            kept = self._or()
        except ValueError:
            return None
        return kept if not self.text[self.at:].strip() else None

    def _or(self) -> tuple[str, ...] | None:
        kept = self._and()
        while self._take("||"):
            other = self._and()
            kept = None if kept is None or other is None else () if not kept or not other else (*kept, *other)
        return kept

    def _and(self) -> tuple[str, ...] | None:
        kept = self._not()
        while self._take("&&"):
            other = self._not()
            if not kept:  # either side that a pattern bounds bounds both; else every line, or not read
                kept = other if other or kept is None else ()
        return kept

    def _not(self) -> tuple[str, ...] | None:
        if self._take("!"):
            kept = self._not()
            return None if kept is None else ()  # what a pattern leaves out is no pattern's
        if self._take("("):
            kept = self._or()
            if not self._take(")"):
                raise ValueError("unclosed")
            return kept
        return self._comparison()

    def _comparison(self) -> tuple[str, ...] | None:
        left = self._operand()
        op = next((op for op in _OPS if self._take(op)), None)
        if op is None:  # a value alone: a regex matches; a field or NF is true on most lines
            return (left[1],) if left[0] == "regex" else None if left[0] == "line" else ()
        right = self._operand()
        kinds = {left[0], right[0]}
        value = next((side[1] for side in (left, right) if side[0] != "field"), "")
        if "line" in kinds:  # NR, FNR: where the line stands, which bounds.py reads
            return None
        if op == "~" and left[0] == "field" and right[0] in ("regex", "str"):  # `$1 ~ "abc"`: a regex in a string
            return (right[1],) if right[1] else ()
        if op == "==" and kinds in ({"field", "str"}, {"field", "num"}):
            return (_ere(value),) if value else ()
        if left[0] == "length" and right[0] == "num" and op in (">", ">=", "=="):
            least = int(float(right[1])) + (op == ">")
            return (f".{{{least}}}",) if least > 0 else ()
        return ()

    def _operand(self) -> tuple[str, str]:
        import re

        self.at = len(self.text) - len(self.text[self.at:].lstrip())
        if self.text.startswith("/", self.at):
            end = literal_end(self.text, self.at)
            source, self.at = self.text[self.at + 1:end - 1], end
            return "regex", source
        match = re.compile(_TOKEN).match(self.text, self.at)
        if match is None or match.lastgroup is None:
            raise ValueError("no operand")
        self.at = match.end()
        kind, value = match.lastgroup, match.group(match.lastgroup)
        if kind == "str":
            return "str", re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), value[1:-1])
        if kind == "word" and value == "length":
            if self._take("("):
                field = re.compile(r"\s*\$(?:\d+|\(\d+\))").match(self.text, self.at)
                self.at = field.end() if field else self.at
                if not self._take(")"):
                    raise ValueError("length(")
            return "length", value
        if kind == "word":
            return ("line" if value in ("NR", "FNR") else "field"), value  # NF, a variable: a value of the line
        return kind, value

    def _take(self, token: str) -> bool:
        rest = self.text[self.at:].lstrip()
        if not rest.startswith(token) or (len(token) == 1 and rest[:2] in ("!=", "!~", "<=", ">=")):
            return False
        self.at = len(self.text) - len(rest) + len(token)
        return True


def _ere(text: str) -> str:
    """``text`` as an extended regex that matches it literally."""
    return "".join("\\" + ch if ch in _ERE_META else ch for ch in text)


def _shown(name: str, scripts: list[str]) -> str:
    from boundread.guard.shellquote import quote

    text = " ".join([name, *(script if script == "-n" else quote(script) for script in scripts)])
    return text if len(text) <= 60 else text[:57] + "..."
