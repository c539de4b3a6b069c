"""The project folder the command sets run in: big files an agent dumps, small ones it reads every day.

Built in a tmp folder by the test's fixture (and by bench/guard_sets.py), deterministic (seeded), in about
10 s on 2 cores. Every "big" file is well over guard-check's default 256 KB text cap, so a command that
prints one of them whole is a dump whatever the cap's future value; every "small" file is under 25,000
characters, so printing it whole is ordinary work. Names the sets use:

text       big.log (3 MB app log: INFO 90%, WARN/DEBUG, ERROR 0.1%), access.log (2 MB nginx), big.txt (1 MB
           prose), logs/app-1..6.log (120 KB each: one is under the cap, all six are not), data.csv (2 MB),
           data.json (2 MB pretty), min.json (1.5 MB one line), events.jsonl (2 MB), big.yaml (1 MB),
           bundle.min.js (1 MB one line), a.txt/b.txt (1 MB and 0.7 MB sorted id lists, a third of b's ids in
           a), docs/**/part-N.txt (800 KB in 40 files), big.log.gz
small      small.txt, small.log, small.csv, small.json, config.yaml, README.md, notes/*.md, src/*.py,
           tests/test_app.py, a-small.txt/b-small.txt, Makefile, package.json
documents  report.pdf (120 pages), small.pdf, report.docx (~400 KB of text), small.docx, book.xlsx (15,000
           rows), small.xlsx
databases  app.db (events: 40,000 rows; users: 50; settings: 5), small.db
archives   bundle.zip (readme.txt 5 KB, data/big.log 3 MB, docs/guide.md), logs.tar.gz (big.log, small.txt)
binary     program (2 MB ELF), photo.png (1.5 MB)
special    pipe (a FIFO)
repo/      a git repository: src/app.py, data/fixtures.json (2 MB); HEAD regenerated the fixtures, the
           worktree rewrites them again (a big `git diff`) and changes one line of src/app.py
"""

from __future__ import annotations

import gzip
import io
import json
import os
import random
import shutil
import sqlite3
import subprocess
import tarfile
import zipfile
from pathlib import Path

LEVELS = ["INFO"] * 900 + ["WARN"] * 50 + ["DEBUG"] * 49 + ["ERROR"]
SENTENCE = ("the order service retried the payment after a timeout while the cache was warming and the "
            "worker pool drained its queue before the nightly report was generated for every region")
WORDS = SENTENCE.split(" ")


def build(root: Path) -> Path:
    """Write the whole folder under ``root`` (created); returns it."""
    root.mkdir(parents=True, exist_ok=True)
    rng = random.Random(19)
    _texts(root, rng)
    _documents(root, rng)
    _databases(root, rng)
    _archives(root)
    _binary(root, rng)
    _repo(root / "repo", rng)
    os.mkfifo(root / "pipe")
    (root / "out").mkdir()
    return root


def _log_line(rng: random.Random, n: int, level: str | None = None) -> str:
    level = level or rng.choice(LEVELS)
    return (f"2026-03-{1 + n // 20000:02d}T{(n // 3600) % 24:02d}:{(n // 60) % 60:02d}:{n % 60:02d}Z {level} "
            f"[worker-{n % 7}] GET /api/v1/items/{rng.randrange(100000)} {rng.choice((200, 200, 200, 404, 500))} "
            f"{rng.randrange(1, 900)}ms user={rng.choice(('alice', 'bob', 'carol', 'dave'))}\n")


def _prose(rng: random.Random, chars: int) -> str:
    out: list[str] = []
    size = 0
    while size < chars:
        line = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(8, 16))).capitalize() + ".\n"
        out.append(line)
        size += len(line)
    return "".join(out)


def _texts(root: Path, rng: random.Random) -> None:
    lines = [_log_line(rng, n) for n in range(40_000)]
    for n in range(0, 40_000, 1000):  # the rare level: exactly 40 lines
        lines[n + 500] = _log_line(rng, n + 500, "ERROR")
    lines = [line if "ERROR" not in line or n % 1000 == 500 else line.replace("ERROR", "INFO")
             for n, line in enumerate(lines)]
    (root / "big.log").write_text("".join(lines))
    with gzip.open(root / "big.log.gz", "wt") as fh:
        fh.write("".join(lines))
    (root / "small.log").write_text("".join(lines[:60]))
    (root / "access.log").write_text("".join(
        f"10.0.{n % 256}.{n % 200} - - [01/Mar/2026:10:{n % 60:02d}:00 +0000] \"GET /static/app.{n % 9}.js HTTP/1.1\" "
        f"{rng.choice((200, 304, 404))} {rng.randrange(100, 90000)} \"-\" \"Mozilla/5.0 (X11; Linux x86_64)\"\n"
        for n in range(14_000)))
    (root / "big.txt").write_text(_prose(rng, 1_000_000))
    (root / "logs").mkdir()
    for k in range(1, 7):
        (root / "logs" / f"app-{k}.log").write_text("".join(_log_line(rng, n) for n in range(1500)))
    header = "id,name,email,city,amount,created\n"
    (root / "data.csv").write_text(header + "".join(
        f"{n},User {n},user{n}@example.com,{rng.choice(('Lisbon', 'Oslo', 'Quito', 'Pune'))},"
        f"{rng.randrange(100, 99999) / 100},2026-0{1 + n % 9}-1{n % 10}\n" for n in range(25_000)))
    (root / "small.csv").write_text(header + "".join(f"{n},User {n},u{n}@example.com,Oslo,1.5,2026-01-01\n"
                                                     for n in range(30)))
    items = [{"id": n, "name": f"item {n}", "tags": ["a", "b"], "price": n * 1.25, "active": n % 3 == 0}
             for n in range(14_000)]
    (root / "data.json").write_text(json.dumps({"count": len(items), "items": items}, indent=2))
    (root / "min.json").write_text(json.dumps([{**item, "note": "x" * 40} for item in items[:12_000]]))
    (root / "events.jsonl").write_text("".join(json.dumps({"ts": n, "type": "click", "user": f"u{n % 50}",
                                                           "path": f"/p/{n}"}) + "\n" for n in range(30_000)))
    (root / "small.json").write_text(json.dumps({"name": "demo", "version": "1.2.0", "items": items[:5]}, indent=2))
    (root / "big.yaml").write_text("".join(f"- id: {n}\n  name: item {n}\n  price: {n * 1.25}\n"
                                           for n in range(30_000)))
    (root / "config.yaml").write_text("server:\n  port: 8080\n  host: 0.0.0.0\ndatabase:\n  url: sqlite:///app.db\n")
    (root / "bundle.min.js").write_text("!function(){" + ";".join(f"var a{n}=function(b){{return b*{n}}}"
                                                                   for n in range(40_000)) + "}();\n")
    ids = sorted(rng.sample(range(10**6, 10**7), 120_000))
    (root / "a.txt").write_text("".join(f"{i} alpha-{i % 97}\n" for i in ids[::2]))  # ~1 MB, sorted
    (root / "b.txt").write_text("".join(f"{i} beta-{i % 89}\n" for i in ids[::3]))  # ~0.7 MB; ids[::6] in both
    (root / "a-small.txt").write_text("".join(f"{n} alpha\n" for n in range(1, 40)))
    (root / "b-small.txt").write_text("".join(f"{n} beta\n" for n in range(20, 60)))
    for k in range(40):
        folder = root / "docs" / f"section-{k // 8}" / ("deep" if k % 2 else "")
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"part-{k}.txt").write_text(_prose(rng, 20_000))
    (root / "notes").mkdir()
    for k in range(10):
        (root / "notes" / f"note-{k}.md").write_text(f"# Note {k}\n\n" + _prose(rng, 800))
    (root / "small.txt").write_text("hello world\n" * 20)
    (root / "README.md").write_text("# demo\n\nA small project used by the command sets.\n\n" + _prose(rng, 2000))
    (root / "Makefile").write_text("test:\n\tpytest -q\n")
    (root / "package.json").write_text(json.dumps({"name": "demo", "version": "1.0.0",
                                                   "scripts": {"test": "jest"}}, indent=2))
    (root / "src").mkdir()
    for name in ("app", "util", "models"):
        (root / "src" / f"{name}.py").write_text(f'"""{name}."""\n\n\ndef main():\n    # TODO: more\n    return 1\n'
                                                 * 10)
    (root / "tests").mkdir()
    (root / "tests" / "test_app.py").write_text("def test_main():\n    assert True\n")


def _documents(root: Path, rng: random.Random) -> None:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.set_font("helvetica", size=9)
    for page in range(120):
        pdf.add_page()
        pdf.multi_cell(0, 4, text=f"Page {page + 1}. " + _prose(rng, 2500).replace("\n", " "))
    pdf.output(str(root / "report.pdf"))
    small = FPDF()
    small.set_font("helvetica", size=12)
    small.add_page()
    small.cell(text="A one-page memo.")
    small.output(str(root / "small.pdf"))
    import docx

    document = docx.Document()
    for _ in range(1600):
        document.add_paragraph(_prose(rng, 250).replace("\n", " "))
    document.save(str(root / "report.docx"))
    memo = docx.Document()
    memo.add_paragraph("A short memo.")
    memo.save(str(root / "small.docx"))
    import xlsxwriter

    book = xlsxwriter.Workbook(str(root / "book.xlsx"), {"constant_memory": True})
    sheet = book.add_worksheet("Orders")
    for row in range(15_000):
        sheet.write_row(row, 0, [row, f"customer {row}", f"c{row}@example.com", "Lisbon", row * 1.5, "2026-01-01"])
    book.close()
    little = xlsxwriter.Workbook(str(root / "small.xlsx"))
    little.add_worksheet("Sheet1").write_row(0, 0, ["a", "b", "c"])
    little.close()


def _databases(root: Path, rng: random.Random) -> None:
    with sqlite3.connect(root / "app.db") as db:
        db.execute("create table events (id integer primary key, ts text, kind text, user text, payload text)")
        db.executemany("insert into events values (?, ?, ?, ?, ?)",
                       ((n, f"2026-03-01T10:{n % 60:02d}:00", rng.choice(("click", "view", "buy")), f"u{n % 50}",
                         f'{{"path": "/p/{n}", "ms": {rng.randrange(900)}}}') for n in range(40_000)))
        db.execute("create table users (id integer primary key, name text, email text)")
        db.executemany("insert into users values (?, ?, ?)", ((n, f"user {n}", f"u{n}@example.com") for n in range(50)))
        db.execute("create table settings (key text, value text)")
        db.executemany("insert into settings values (?, ?)", (("theme", "dark"), ("lang", "en"), ("tz", "UTC"),
                                                               ("page", "50"), ("beta", "no")))
    db.close()
    with sqlite3.connect(root / "small.db") as db:
        db.execute("create table notes (id integer primary key, body text)")
        db.executemany("insert into notes values (?, ?)", ((n, f"note {n}") for n in range(20)))
    db.close()


def _archives(root: Path) -> None:
    with zipfile.ZipFile(root / "bundle.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("readme.txt", "Read me.\n" * 560)  # ~5 KB
        zf.write(root / "big.log", "data/big.log")
        zf.writestr("docs/guide.md", "# Guide\n\nSmall.\n")
    with tarfile.open(root / "logs.tar.gz", "w:gz") as tf:
        tf.add(root / "big.log", "big.log")
        data = b"small\n"
        info = tarfile.TarInfo("small.txt")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))


def _binary(root: Path, rng: random.Random) -> None:
    (root / "program").write_bytes(b"\x7fELF\x02\x01\x01" + rng.randbytes(2_000_000))
    (root / "photo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + rng.randbytes(1_500_000))


def _repo(repo: Path, rng: random.Random) -> None:
    git = shutil.which("git")
    if git is None:  # the set's git commands then find no repository (their answers are still checked)
        return
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}

    def run(*args: str) -> None:
        subprocess.run([git, *args], cwd=repo, env=env, check=True, capture_output=True)

    (repo / "src").mkdir(parents=True)
    (repo / "data").mkdir()
    app = "".join(f"def handler_{n}(request):\n    return {n}\n\n" for n in range(40))
    (repo / "src" / "app.py").write_text(app)
    (repo / "README.md").write_text("# repo\n")
    run("init", "-q", "-b", "main")
    run("add", ".")
    run("commit", "-q", "-m", "init")
    fixtures = [{"id": n, "name": f"fixture {n}", "value": rng.random()} for n in range(30_000)]
    (repo / "data" / "fixtures.json").write_text(json.dumps(fixtures, indent=1))
    run("add", ".")
    run("commit", "-q", "-m", "add fixtures")
    (repo / "src" / "app.py").write_text(app.replace("return 3\n", "return 33\n"))
    run("commit", "-q", "-am", "fix handler 3")
    for item in fixtures:
        item["value"] = rng.random()
    (repo / "data" / "fixtures.json").write_text(json.dumps(fixtures, indent=1))
    run("commit", "-q", "-am", "regenerate fixtures")
    for item in fixtures:
        item["value"] = rng.random()
    (repo / "data" / "fixtures.json").write_text(json.dumps(fixtures, indent=1))
    (repo / "src" / "app.py").write_text(app.replace("return 7\n", "return 77\n"))
