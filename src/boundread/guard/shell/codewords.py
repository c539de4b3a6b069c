"""The words of interpreter code that codeprints.py and databases.py both read: its string literals, the ones that
could name a file, and the calls that reduce what is printed (a count, a slice, a LIMIT). Their own module, so
neither of the two imports the other for them.
"""

from __future__ import annotations

import re

#: A string literal, either quote, at most 4,096 characters (group 2 is its text).
LITERAL = re.compile(r"""(['"])((?:(?!\1)[^\\\n]|\\.){0,4096})\1""")
#: What makes a print a summary, not the file: a count, a length, a slice, a head, a hash, a LIMIT.
REDUCED = re.compile(
    r"\blen\(|\bsum\(|\bCounter\(|\.count\(|\bcount\(|\.length\b|\.size\b|\bmax\(|\bmin\(|(?<!\.)\bany\(|(?<!\.)\ball\(|"
    r"\bset\(|most_common|\.shape\b|getsize|\bnrow\(|\bncol\(|\blength\(|\bdim\(|"
    r"\[\s*:\s*-?\d+\s*\]|\[\s*-\d+\s*:\s*\]|\[\s*\d+\s*:\s*-?\d+\s*\]|\.slice\(\s*-?\d|\.substring\(|"
    r"\.substr\(|islice\(|\.readline\(\s*\)|\.head\(|\.tail\(|\bhead\(|\btail\(|\.nunique\(|\.describe\(|"
    r"\.info\(|\.columns\b|\.sheetnames\b|\.dtypes\b|\bhashlib\b|\.hexdigest\(|\bmd5\b|\bsha\d+\b|"
    r"\blimit\s+\d+|\.fetchone\(|\.fetchmany\(|\.keys\(", re.IGNORECASE)


def literals(code: str) -> list[str]:
    """The string literals of ``code`` that could name a file."""
    return [found.group(2) for found in LITERAL.finditer(code) if looks_like_path(found.group(2))][:64]


def looks_like_path(text: str) -> bool:
    return 0 < len(text) < 4096 and "\n" not in text and not text.startswith(("http:", "https:")) \
        and text not in ("r", "rb", "w", "wb", "utf-8", "utf8", "ascii", "latin-1")
