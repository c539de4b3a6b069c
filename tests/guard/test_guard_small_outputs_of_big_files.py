"""Small outputs of big files are allowed: what the fresh2 set's everyday commands found refused.

A count computed in code (``.split('\\n').length``, ``.count('\\n')``, ``filter(...).length``), the last bytes of a
binary (``xxd -s -32``), the text of a one-page PDF (``pdftotext small.pdf -``: as many pages as a Read may take),
and the first lines of a one-line file cut to a width (``fold -w 100 bundle.min.js | head -n 5``). Their
unbounded forms stay refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("small-outputs")
    (root / "events.jsonl").write_text("".join(f'{{"ts": {n}, "user": "u{n % 50}"}}\n' for n in range(30_000)))
    (root / "bundle.min.js").write_text("!function(){" + ";".join(f"var a{n}=function(b){{return b*{n}}}"
                                                                   for n in range(40_000)) + "}();\n")
    (root / "program").write_bytes(bytes(range(256)) * 8000)
    for name, pages in (("small.pdf", 1), ("report.pdf", 60)):
        pdf = FPDF()
        pdf.set_font("helvetica", size=9)
        for page in range(pages):
            pdf.add_page()
            pdf.multi_cell(0, 4, text=f"Page {page + 1}. " + "the order service retried the payment " * 60)
        pdf.output(str(root / name))
    return root


ALLOWED = [
    "node -e \"const n=require('fs').readFileSync('events.jsonl','utf8').trim().split('\\n').length; console.log(n)\"",
    "node -e \"const rows=require('fs').readFileSync('events.jsonl','utf8').split('\\n').filter((l) => l).length;"
    " console.log(rows)\"",
    "python3 -c \"n = open('events.jsonl').read().count('\\n'); print(n)\"",
    "xxd -s -32 program",
    "xxd -s-64 program",
    "pdftotext small.pdf -",
    "pdftotext small.pdf - | cat",
    "pdftotext small.pdf out.txt && cat out.txt",
    "fold -w 100 bundle.min.js | head -n 5",
    "cat bundle.min.js | fold -w 100 | head -n 5",
    "fold -bw 120 bundle.min.js | head -3",
]

DENIED = [
    "node -e \"const s=require('fs').readFileSync('events.jsonl','utf8'); console.log(s)\"",
    "python3 -c \"s = open('events.jsonl').read(); print(s)\"",
    "xxd -s 32 program",
    "xxd -s -900000 program",
    "pdftotext report.pdf -",
    "pdftotext report.pdf out.txt && cat out.txt",
    "fold -w 100 bundle.min.js",
    "fold -w 100 bundle.min.js | head -n 5000",
    "head -n 5 bundle.min.js",  # five lines of a one-line megabyte
    "fold -w $W bundle.min.js | head -n 5",  # a width not known here
]


@pytest.mark.parametrize("command", ALLOWED)
def test_a_small_output_of_a_big_file_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


@pytest.mark.parametrize("command", DENIED)
def test_its_unbounded_form_is_refused(work: Path, command: str) -> None:
    assert check_command(command, cwd=work).decision == "deny", command
