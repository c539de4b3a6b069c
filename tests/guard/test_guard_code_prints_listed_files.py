"""Interpreter code that loops over a listing and prints each file's content prints those files.

``for f in glob.glob('logs/*.log'): print(open(f).read())`` named no file in a literal the guard could read, so it
passed, though it prints six logs. The listing is now expanded as the shell expands a glob (python's glob and
pathlib, ruby's Dir.glob, php's glob, os.listdir, node's readdirSync), and the files it gives are the ones printed;
a loop that prints names or sizes stays allowed. Also from the fresh2 set: perl's and ruby's ``system("cat",
"data.csv")`` (an argv given as arguments), and ``sh -c "grep -v '^$' big.txt"`` (a ``$`` no name follows is
itself, inside double quotes as outside).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("listed")
    line = "2026-12-01T05:51:05Z INFO worker-3 GET /api/v1/items/42 200 12ms user=alice\n"
    (root / "logs").mkdir()
    for n in range(6):  # 90 KB each: one fits the cap, six do not
        (root / "logs" / f"app-{n}.log").write_text(line * 1200)
    (root / "docs" / "deep").mkdir(parents=True)
    for n in range(8):
        (root / "docs" / "deep" / f"part-{n}.txt").write_text("the order service retried the payment\n" * 1200)
    (root / "notes").mkdir()
    (root / "notes" / "a.md").write_text("# a\n")
    (root / "data.csv").write_text("id,name\n" + "".join(f"{n},name {n}\n" for n in range(40_000)))
    (root / "big.txt").write_text("a line of prose\n\n" * 40_000)
    return root


DUMPS = [
    "python3 - <<'EOF'\nimport glob\nfor f in glob.glob('logs/*.log'):\n    print(open(f).read())\nEOF",
    "python3 -c \"import glob; [print(open(f).read()) for f in sorted(glob.glob('docs/**/*.txt', recursive=True))]\"",
    "python3 -c \"from pathlib import Path\nfor p in Path('docs').rglob('*.txt'): print(p.read_text())\"",
    "python3 -c \"import os\nfor f in os.listdir('logs'): print(open('logs/' + f).read())\"",
    "node -e \"const fs=require('fs');"
    "for(const f of fs.readdirSync('logs'))process.stdout.write(fs.readFileSync('logs/'+f))\"",
    "ruby -e 'Dir.glob(\"logs/*.log\").each { |f| puts File.read(f) }'",
    "php -r 'foreach (glob(\"logs/*.log\") as $f) echo file_get_contents($f);'",
    "perl -e 'system(\"cat\", \"data.csv\")'",
    "ruby -e 'system(\"cat\", \"data.csv\")'",
    "sh -c \"grep -v '^$' big.txt\"",
    "bash -c \"cat big.txt | grep -v '^$'\"",
]

ALLOWED = [
    "python3 -c \"import glob\nfor f in glob.glob('logs/*.log'): print(f, len(open(f).read()))\"",
    "python3 -c \"import glob; print(glob.glob('logs/*.log'))\"",
    "python3 -c \"import os\nfor f in os.listdir('notes'): print(open('notes/' + f).read())\"",  # one small file
    "node -e \"const fs=require('fs');"
    "for(const f of fs.readdirSync('logs'))console.log(f, fs.readFileSync('logs/'+f).length)\"",
    "perl -e 'system(\"wc\", \"-l\", \"data.csv\")'",
    "perl -e 'system(\"head\", \"-n\", \"5\", \"data.csv\")'",
    "sh -c \"grep -c '^$' big.txt\"",
]


@pytest.mark.parametrize("command", DUMPS)
def test_what_the_code_prints_is_judged(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command


@pytest.mark.parametrize("command", ALLOWED)
def test_names_counts_and_small_files_stay_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)
