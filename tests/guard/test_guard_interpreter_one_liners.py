"""Interpreter one-liners: code that opens, reads or converts a named file and prints it is a dump of it; the
same code printing an aggregate or a slice (len, sum, Counter, [:N], .slice(0, N), readline) is not.

Files are made in the test: a 400 KB log (one line in 8,000 an ERROR), a small text, a CSV and a JSON file over
the cap, a Word document, a SQLite database with a big table.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from boundread.guard import check_command
from boundread.guard.shell import file_uses, madeup


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import docx

    root = tmp_path_factory.mktemp("interp")
    (root / "big.log").write_text("2024-01-01 INFO worker-3 something happened here\n" * 8000
                                  + "2024-01-01 ERROR worker-3 it broke\n")  # ~400 KB
    (root / "small.txt").write_text("a few lines\n" * 10)
    (root / "big.csv").write_text("id,kind,value\n" + "".join(f"{n},click,{n * 7}\n" for n in range(30_000)))
    (root / "big.json").write_text('{"items": [' + ",".join(f'{{"id": {n}}}' for n in range(40_000)) + "]}")
    document = docx.Document()
    for number in range(50):
        document.add_paragraph(f"paragraph {number}")
    document.save(str(root / "report.docx"))
    with sqlite3.connect(root / "app.db") as db:
        db.execute("create table events (id integer primary key, kind text, payload text)")
        db.executemany("insert into events values (?, ?, ?)",
                       ((n, "click", f'{{"path": "/p/{n}", "ms": {n % 900}}}') for n in range(20_000)))
        db.execute("create table settings (key text, value text)")
        db.execute("insert into settings values ('theme', 'dark')")
    db.close()
    return root


DUMPS = [
    # Python: read, iterate, unpack, copy, fileinput, argv
    "python3 -c \"print(*open('big.log'), sep='')\"",
    "python3 -c \"import sys; sys.stdout.write(open('big.log').read())\"",
    "python3 -c \"import fileinput; [print(l, end='') for l in fileinput.input('big.log')]\"",
    "python3 -c \"import fileinput; print(''.join(fileinput.input(['big.log'])))\"",
    "python3 -c \"import sys; [sys.stdout.write(l) for l in open(sys.argv[1])]\" big.log",
    "python3 -c \"import mmap; f=open('big.log','rb'); print(mmap.mmap(f.fileno(), 0, access=1).read().decode())\"",
    "python3 -c \"import sys; sys.stdout.writelines(open('big.log'))\"",
    "python3 - <<'EOF'\nwith open('big.log') as f:\n    for line in f:\n        print(line, end='')\nEOF",
    "node -e \"require('fs').createReadStream(process.argv[1]).pipe(process.stdout)\" big.log",
    "ruby -e 'print $<.read' big.log",
    "node -e \"console.log(JSON.stringify(require('./big.json'), null, 2))\"",  # require of a .json: the file parsed
    "printf 'System.out.println(java.nio.file.Files.readString(java.nio.file.Path.of(\"big.log\")));\\n/exit\\n' "
    "| jshell -q",
    "jshell -q <<'J'\njava.nio.file.Files.lines(java.nio.file.Path.of(\"big.log\")).forEach(System.out::println)\n"
    "/exit\nJ",
    "echo 'puts [read [open big.log]]' | tclsh",
    "tclsh <<'TCL'\nset f [open {big.log}]\nwhile {[gets $f line] >= 0} { puts $line }\nTCL",
    # the commands the code runs
    "python3 -c \"import os; os.execvp('cat', ['cat', 'big.log'])\"",
    "python3 -c \"import subprocess as sp; sp.run(['cat', 'big.log'])\"",
    "python3 -c \"import subprocess; subprocess.run(['cat', 'big.log'])\"",
    "python3 -c \"import subprocess; subprocess.call('cat big.log', shell=True)\"",
    "python3 -c \"import os; os.system('cat big.log')\"",
    "python3 -c \"import os; print(os.popen('cat big.log').read())\"",
    "node -e \"require('child_process').execSync('cat big.log', {stdio: 'inherit'})\"",
    "perl -e 'print `cat big.log`'",
    # perl/ruby line loops that print (nearly) every line
    "perl -lne print big.log",
    "perl -ne 'print unless /ERROR/' big.log",
    "perl -ne 'print if /INFO/' big.log",  # nine lines in ten: judged as grep INFO is, from a sample
    "cat big.log | ruby -ne 'print if /info/i'",
    "deno eval \"console.log(Deno.readTextFileSync('big.log'))\"",
    # converters
    "python3 -c \"import docx; print('\\n'.join(p.text for p in docx.Document('report.docx').paragraphs))\"",
    "python3 - <<'EOF'\nimport docx\nfor p in docx.Document('report.docx').paragraphs:\n    print(p.text)\nEOF",
    "python3 -c \"import zipfile; print(zipfile.ZipFile('report.docx').read('word/document.xml').decode())\"",
    "python3 -c \"import json; print(json.dumps(json.load(open('big.json')), indent=2))\"",
    "python3 -c \"import pandas as pd; print(pd.read_csv('big.csv').to_string())\"",
    "python3 -c \"import csv; [print(r[0]) for r in csv.reader(open('big.csv'))]\"",  # a column of each row
    # SQLite from code
    "python3 -c \"import sqlite3; [print(r) for r in sqlite3.connect('app.db').execute('SELECT * FROM events')]\"",
    "python3 -c \"import sqlite3; print('\\n'.join(sqlite3.connect('app.db').iterdump()))\"",
    "node -e \"const db=new (require('better-sqlite3'))('app.db'); "
    "console.log(db.prepare('select * from events').all())\"",
]

EVERYDAY = [
    "python3 -c \"print(sum(1 for _ in open('big.log')))\"",
    "python3 -c \"print(len(open('big.log').read()))\"",
    "python3 -c \"import collections; print(collections.Counter(l.split()[1] for l in open('big.log')))\"",
    "python3 -c \"print(open('big.log').readlines()[-10:])\"",
    "python3 -c \"print(open('big.log').read()[:2000])\"",
    "python3 -c \"import itertools; print(''.join(itertools.islice(open('big.log'), 20)))\"",
    "python3 -c \"f=open('big.log'); [print(f.readline(), end='') for _ in range(15)]\"",
    "python3 -c \"print(open('small.txt').read())\"",
    "python3 - <<'EOF'\nwith open('big.log') as f:\n    print(sum(1 for _ in f))\nEOF",
    "python3 -c \"import asyncio; asyncio.run(main())\"",
    "python3 -c \"import json; d = json.load(open('big.json')); print(d['items'][0])\"",
    "python3 -c \"import csv; print(next(csv.reader(open('big.csv'))))\"",
    "node -e \"console.log(JSON.parse(require('fs').readFileSync('big.json', 'utf8')).items[0])\"",
    "python3 -c \"import subprocess; print(len(subprocess.check_output(['cat', 'big.log'])))\"",
    "python3 -c \"import os; os.system('wc -l big.log')\"",
    "node -e \"console.log(require('fs').readFileSync('big.log','utf8').split('\\n').length)\"",
    "node -e \"console.log(require('fs').readFileSync('big.log','utf8').slice(0, 3000))\"",
    "node -p \"require('fs').readFileSync('big.log','utf8').length\"",
    "node -e \"console.log(require('./big.json').items.length)\"",
    "jshell -q <<'J'\nSystem.out.println(java.nio.file.Files.lines(java.nio.file.Path.of(\"big.log\")).count())\n"
    "/exit\nJ",
    "echo 'puts [llength [split [read [open big.log]] \"\\n\"]]' | tclsh",
    "tclsh <<'TCL'\nset f [open big.log]\n"
    "while {[gets $f line] >= 0} { if {[string match *ERR* $line]} { puts $line } }\nTCL",
    "node -e \"const fs = require('fs'); console.log(fs.existsSync('big.json'))\"",
    "perl -ne 'print if /ERROR/' big.log",
    "perl -ne 'next unless /ERROR/; print' big.log",
    "python3 -c \"import pandas as pd; print(pd.read_csv('big.csv'))\"",  # a frame prints its first and last rows
    "python3 -c \"import json; print(json.load(open('big.json')).keys())\"",
    "python3 -c \"import sqlite3; "
    "print(sqlite3.connect('app.db').execute('select * from events limit 5').fetchall())\"",
    "python3 -c \"import sqlite3; print(sqlite3.connect('app.db').execute('select * from settings').fetchall())\"",
    "python3 -c \"import sqlite3; "
    "print(sqlite3.connect('app.db').execute('select count(*) from events').fetchone())\"",
]


@pytest.mark.parametrize("command", DUMPS)
def test_code_that_prints_a_big_file_is_denied(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command


@pytest.mark.parametrize("command", EVERYDAY)
def test_code_that_prints_a_count_or_a_slice_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


def test_a_query_refusal_names_a_limit(work: Path) -> None:
    command = ("python3 -c \"import sqlite3; "
               "print(sqlite3.connect('app.db').execute('select * from events').fetchall())\"")
    assert check_command(command, cwd=work).decision == "deny"
    made = [madeup.parse(use.path) for use in file_uses(command, work) if use.path.startswith(madeup.MARK)]
    assert made and made[0] is not None and made[0][2].split("  or  ") == [
        "boundread info app.db", "boundread sheets app.db events --rows 1-50",
        "sqlite3 app.db 'select * from events limit 50'"]
