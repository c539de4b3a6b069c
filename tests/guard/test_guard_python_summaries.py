"""Interpreter code that reads a big file but prints a summary of it is allowed; the same code printing the file
is still denied. Four principles (codeprints.py, codeloops.py):

- code that never prints (no print, stdout, pprint...) prints nothing: what it reads goes to a file;
- a print of numbers counted in a loop (``n = 0`` ... ``n += ...``), after the loop, prints a number;
- an archive's or a folder's listing (``namelist()``, ``getnames()``, ``os.listdir``) prints names, not content;
- a print of the lines a condition picks (``if 'ERROR' in l``, ``re.search``, ``startswith``) is a grep of that
  pattern, sized as greps are: a rare pattern is allowed, a common one denied.

Files are made in the test: a 400 KB log (one line in 8,000 an ERROR), a 600 KB JSON-lines file, a zip and a tar
archive with a 400 KB member.
"""

from __future__ import annotations

import io
import json
import tarfile
import zipfile
from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("summaries")
    (root / "big.log").write_text("2024-01-01 INFO worker-3 something happened here\n" * 8000
                                  + "2024-01-01 ERROR worker-3 it broke\n")
    (root / "big.txt").write_text("some words of text " * 21_000)
    (root / "out").mkdir()
    with (root / "events.jsonl").open("w") as out:
        for n in range(8000):
            out.write(json.dumps({"type": "buy" if n % 3 else "sell", "n": n, "pad": "y" * 40}) + "\n")
    with zipfile.ZipFile(root / "report.docx", "w") as archive:
        archive.writestr("word/document.xml", "<w:t>words</w:t>" * 25_000)
    with tarfile.open(root / "logs.tar", "w") as archive:
        data = b"a log line\n" * 40_000
        member = tarfile.TarInfo("logs/app.log")
        member.size = len(data)
        archive.addfile(member, io.BytesIO(data))
    return root


def _loop(body: str) -> str:
    return f"python3 - <<'EOF'\n{body}\nEOF"


ALLOWED = [
    # 1. never prints: the file is copied to another file
    "python3 -c \"open('out/x.txt','w').write(open('big.txt').read())\"",
    "python3 -c \"import json; json.dump([json.loads(l) for l in open('events.jsonl')], open('out/e.json', 'w'))\"",
    _loop("with open('big.log') as src, open('out/copy.log', 'w') as dst:\n    for line in src:\n"
          "        dst.write(line.upper())"),
    _loop("with open('big.log') as f, open('out/e.txt', 'w') as out:\n    for line in f:\n"
          "        print(line, end='', file=out)"),
    "ruby -e \"File.write('out/r.txt', File.read('big.txt'))\"",
    "python3 -c \"open('out/x.txt','w').write(open('big.txt').read()); print('done', 'out/x.txt')\"",
    # 2. a count or a sum printed after the loop
    _loop('import json\nn = 0\nfor line in open("events.jsonl"):\n    n += json.loads(line)["type"] == "buy"\n'
          "print(n)"),
    _loop("total = errors = 0\nwith open('big.log') as f:\n    for line in f:\n        total += 1\n"
          "        errors += 'ERROR' in line\nprint(f'{errors:,} of {total} lines', errors / total)"),
    "node -e \"let n = 0; for (const l of require('fs').readFileSync('big.log', 'utf8').split('\\n')) "
    "n += l.length; console.log(n)\"",
    # 3. names, not content
    "python3 -c \"import zipfile; print(zipfile.ZipFile('report.docx').namelist())\"",
    "python3 -c \"import zipfile; "
    "[print(i.filename, i.file_size) for i in zipfile.ZipFile('report.docx').infolist()]\"",
    "python3 -c \"import tarfile; print(tarfile.open('logs.tar').getnames())\"",
    "python3 -c \"import os; print(os.listdir('out'))\"",
    "python3 -c \"import glob; print(glob.glob('*.log')); print(len(open('big.log').read()))\"",
    # 4. a grep of a rare pattern
    "python3 -c \"[print(l, end='') for l in open('big.log') if 'ERROR' in l]\"",
    "python3 -c \"import re; [print(l, end='') for l in open('big.log') if re.search(r'ERR(OR)?', l)]\"",
    _loop("for line in open('big.log'):\n    if 'ERROR' in line:\n        print(line, end='')"),
    _loop("with open('big.log') as f:\n    for line in f:\n        if line.startswith('2024-01-01 ERROR'):\n"
          "            print(line.rstrip())"),
    "python3 -c \"[print(l, end='') for l in open('big.log') if 'ERROR' in l and 'worker' in l]\"",
    "python3 -c \"print(''.join(l for l in open('big.log') if 'ERROR' in l))\"",
    "node -e \"console.log(require('fs').readFileSync('big.log', 'utf8').split('\\n')"
    ".filter(l => l.includes('ERROR')).join('\\n'))\"",
    "python3 -c \"import re; p = re.compile('error', re.I); "
    "[print(l, end='') for l in open('big.log') if p.search(l)]\"",
    "python3 -c \"[print(l, end='') for l in open('big.log') if l[:16] == '2024-01-01 ERROR']\"",  # a start
    "python3 -c \"d = open('big.txt').read(); print(d[:4] == 'some')\"",  # prints a comparison
    "F=big.txt python3 -c \"import os; print(len(open(os.environ['F']).read()))\"",
]

DENIED = [
    "python3 -c \"import sys; sys.stdout.write(open('big.txt').read())\"",
    "python3 -c \"open('/dev/stdout', 'w').write(open('big.txt').read())\"",
    "python3 -c \"open('out/y.txt','w').write(open('big.txt').read())\" && cat out/y.txt",  # the copy is read
    _loop("text = ''\nfor line in open('big.log'):\n    text += line\nprint(text)"),
    "python3 -c \"import zipfile; z = zipfile.ZipFile('report.docx'); "
    "[print(z.read(n).decode()) for n in z.namelist()]\"",
    "python3 -c \"import tarfile; t = tarfile.open('logs.tar'); "
    "[print(t.extractfile(m).read().decode()) for m in t.getmembers()]\"",
    "python3 -c \"[print(l, end='') for l in open('big.log') if 'INFO' in l]\"",
    "python3 -c \"[print(l, end='') for l in open('big.log') if 'ERROR' not in l]\"",
    _loop("for line in open('big.log'):\n    if 'INFO' in line:\n        print(line, end='')"),
    _loop("for line in open('big.log'):\n    if 'ERROR' in line:\n        print(line, end='')\n"
          "    print(line, end='')"),
    "python3 -c \"[print(l, end='') for l in open('big.log') if 'ERROR' in l or 'INFO' in l]\"",
    "python3 -c \"import re; p = re.compile('INFO'); [print(l, end='') for l in open('big.log') if p.search(l)]\"",
    "python3 -c \"print(''.join(l for l in open('big.log') if 'INFO' in l))\"",
    "node -e \"console.log(require('fs').readFileSync('big.log', 'utf8').split('\\n')"
    ".filter(l => !l.includes('ERROR')).join('\\n'))\"",
    "python3 -c \"import sys; [print(l, end='', file=sys.stderr) for l in open('big.log')]\"",
    "ruby -e \"File.write('out/s.txt', File.read('big.txt'))\" && cat out/s.txt",
    "python3 -c \"n = 0; t = open('big.txt').read(); print(f'{n}: {t}')\"",
    "ruby -e \"n = 0; t = File.read('big.txt'); puts n, \\\"#{t}\\\"\"",  # ruby interpolates
    # the condition tests the whole text, or the print reads a file: no grep of lines
    _loop("text = open('big.log').read()\nif 'ERROR' in text:\n    print(text)"),
    _loop("for name in ['big.log', 'small.txt']:\n    if name.startswith('big'):\n"
          "        print(open(name).read())"),
    "python3 -c \"[print(l, end='') for l in open('big.log') if l[:15] == '2024-01-01 INFO']\"",
    # the file named by an environment variable the command's prefix or an export set
    "F=big.txt python3 -c \"import os; print(open(os.environ['F']).read())\"",
    "export F=big.txt; python3 -c \"import os; print(open(os.getenv('F', 'x')).read())\"",
    "F=big.txt node -e \"console.log(require('fs').readFileSync(process.env.F, 'utf8'))\"",
    "F=big.txt perl -e 'open(my $h, $ENV{F}); print <$h>'",
    # a slice the `if` compares picks items, it cuts none: every stream of the file is printed
    "python3 -c \"import zlib, re; d = open('big.txt', 'rb').read(); [print(zlib.decompress(m).decode('latin1')) "
    "for m in re.findall(rb'stream\\r?\\n(.*?)\\r?\\nendstream', d, re.S) if m[:1] == b'x']\"",
]


@pytest.mark.parametrize("command", ALLOWED)
def test_code_printing_a_summary_of_a_big_file_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


@pytest.mark.parametrize("command", DENIED)
def test_code_printing_the_big_file_is_still_denied(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command


def test_a_refused_filter_names_the_bounded_grep(work: Path) -> None:
    reason = check_command("python3 -c \"[print(l, end='') for l in open('big.log') if 'INFO' in l]\"",
                           cwd=work).reason
    assert "boundread extract big.log --grep INFO" in reason
