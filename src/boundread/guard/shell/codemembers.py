"""Interpreter code that loads a JSON document and prints members of it by name: each member, sized as jq prints it.

``d = json.load(open('data.json')); print(d['count'])`` and ``const d = require('./data.json');
console.log(`${d.count} items`)`` print one value of a 2 MB document, not the document; they were judged as a
print of all of it. When every printing statement prints only members of the one document the code loads
(``d['a']['b']``, ``d.a.b``, ``d['items'][0]``, ``d.items.length``), numbers it counted and words written in it,
each member is run through jqeval as ``jq .a.b`` (the document parsed when it is at most jqeval.MOST) and the sum
is a BYTES bound on the document's flow. Anything else - the document itself printed, a member of another value,
a loop over the members - leaves the code judged as before.
"""

from __future__ import annotations

import re

from boundread.guard.shell import codeloops

TYPE_CHECKING = False
if TYPE_CHECKING:
    from boundread.guard.shell.state import Env

_FILE = r"""(?P<q>['"])(?P<file>[^'"\n]{1,1024})(?P=q)"""
#: ``d = json.load(open('F'))``, ``json.loads(open('F').read())``, ``json.loads(Path('F').read_text())``; node's
#: ``require('./F.json')``, ``JSON.parse(fs.readFileSync('F', ...))``: the name bound and the document's file.
_BINDS = (
    re.compile(r"\b(?P<var>[A-Za-z_]\w*)\s*=\s*json\.load\(\s*open\(\s*" + _FILE + r"[^)]*\)\s*\)"),
    re.compile(r"\b(?P<var>[A-Za-z_]\w*)\s*=\s*json\.loads\(\s*(?:open|Path)\(\s*" + _FILE
               + r"[^)]*\)\s*\.(?:read|read_text)\(\s*\)\s*\)"),
    re.compile(r"\b(?:const|let|var)\s+(?P<var>[A-Za-z_$][\w$]*)\s*=\s*require\(\s*"
               r"(?P<q>['\"])(?P<file>[^'\"\n]{1,1024}\.json)(?P=q)\s*\)"),
    re.compile(r"\b(?:const|let|var)\s+(?P<var>[A-Za-z_$][\w$]*)\s*=\s*JSON\.parse\(\s*"
               r"(?:require\(\s*['\"]fs['\"]\s*\)|fs)\.readFileSync\(\s*" + _FILE + r"[^)]*\)\s*\)"),
)
#: One accessor after the name: ``['key']``, ``["key"]``, ``[0]``, ``.key``.
_STEP = re.compile(r"""\[\s*(?:(['"])([^'"\n]{1,256})\1|(-?\d{1,9}))\s*\]|\.([A-Za-z_$][\w$]*)(?!\s*\()""")


def printed(name: str, code: str, env: Env, statements: list[tuple[str, int]]) -> tuple[str, int] | None:
    """(the document's file as the code names it, the bytes its printing ``statements`` - each with where it starts
    in ``code``, as codeprints finds them - print of it) when they print only members of it; None otherwise."""
    from boundread.guard.shell import jqeval

    bound = [match for pattern in _BINDS for match in pattern.finditer(code)]
    if len(bound) != 1:
        return None
    var, source = bound[0].group("var"), bound[0].group("file")
    python = name.startswith(("python", "pypy"))
    programs: list[str] = []
    known = codeloops.numbers(code) if "=" in code else set()
    for part, start in statements:
        found = _members(part, var, python, len(programs))
        if found is None:
            return None
        replaced, paths = found
        if not codeloops.prints_numbers(replaced, code, start, known | {f"m{n}_" for n in
                                                                         range(len(programs) + len(paths))},
                                        python=python):
            return None
        programs.extend(paths)
    if not programs:
        return None
    import os

    absolute = env.path(source)
    try:
        size = os.path.getsize(absolute)
    except OSError:
        return None
    total = 0
    for program in programs:
        one = jqeval.printed(program, absolute, size, compact=True, raw=True)
        if one is None:
            return None
        total += one
    return source, total


def _members(part: str, var: str, python: bool, first: int) -> tuple[str, list[str]] | None:
    """``part`` with each member of ``var`` it prints replaced by a name of its own (``m0_``...), and the jq
    program of each; None when ``var`` stands in it alone (the document itself)."""
    out: list[str] = []
    paths: list[str] = []
    at = 0
    for match in re.finditer(rf"(?<![\w$.]){re.escape(var)}(?![\w$])", part):
        steps, end = [], match.end()
        while (step := _STEP.match(part, end)) is not None:
            key, index, attribute = step.group(2), step.group(3), step.group(4)
            if attribute is not None and python:
                return None  # `d.get`, `d.items`: a method of a python dict, not a member
            steps.append(f".[{index}]" if index is not None else
                         f".{key or attribute}" if (key or attribute or "").isidentifier() else f'.["{key}"]')
            end = step.end()
        if not steps:
            return None
        if not python and steps[-1] == ".length":  # `d.items.length`: a count
            steps, suffix = steps[:-1], " | length"
        else:
            suffix = ""
        out.append(part[at:match.start()] + f" m{first + len(paths)}_ ")
        paths.append("".join(steps) + suffix if steps else "length")
        at = end
    out.append(part[at:])
    return "".join(out), paths
