"""The shell guard on realistic agent commands: dumps of big or binary files denied, ordinary work allowed.

Files generated in tmp_path: a 5 MB log, a 12-page PDF (from the packaged sample report), a zip,
a 30 MB one-line JSON, small texts, and a folder to cd into (``data/``, holding its own copies).
Each row is one command; DUMPS print 100 KB or more of a guarded file, LEGIT print a bounded part,
nothing, or a small file.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from boundread.guard import check_command

SAMPLE = Path(__file__).resolve().parents[2] / "src" / "boundread" / "data" / "sample-report.pdf"


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("table")
    log = "2026-12-01T05:51:05Z INFO worker-3 request served in 12 ms\n" * 86_000  # ~5 MB
    (root / "app.log").write_text(log)
    (root / "numbered.log").write_text("".join(f"2026-12-01T05:51:05Z INFO request {n}\n" for n in range(30_000)))
    shutil.copy(SAMPLE, root / "report.pdf")
    (root / "big.json").write_text('{"rows": [' + ",".join(['{"a": 12345678}'] * 1_900_000) + "]}")  # 30 MB
    (root / "small.txt").write_text("hello\n" * 10)
    (root / "small.json").write_text('{"a": 1}\n')
    (root / "list.txt").write_text("app.log\n")
    (root / "script.sh").write_text("cat app.log\n")
    with zipfile.ZipFile(root / "a.zip", "w") as zf:
        for number in range(3):
            zf.writestr(f"member{number}.txt", "x" * 10)
    with zipfile.ZipFile(root / "many.zip", "w") as zf:
        for number in range(1200):  # 360 KB of text: `unzip -p many.zip` prints more than the cap
            zf.writestr(f"f{number}.txt", "x" * 299 + "\n")
    data = root / "data"
    data.mkdir()
    shutil.copy(SAMPLE, data / "report.pdf")
    (data / "huge.log").write_text(log)
    (data / "notes.txt").write_text("notes\n")
    subprocess.run(["tar", "-czf", str(root / "x.tar.gz"), "-C", str(root), "small.txt"], check=True)
    return root


DUMPS = [
    # cd, pushd, sub-shells and chains
    "cd data && cat report.pdf",
    "cd data; cat huge.log",
    "cd ./data && less huge.log",
    "pushd data && cat report.pdf",
    "pushd data >/dev/null; cat huge.log; popd",
    "cd data && cd .. && cat app.log",
    "(cd data && cat huge.log)",
    "cd data || exit 1; cat report.pdf",
    "cd data\ncat huge.log",
    "cd $PWD/data && cat report.pdf",
    "cd data && strings report.pdf",
    "cd data && xxd report.pdf",
    "cd /tmp && cd - && cat app.log",
    "cd data && head -c 100000000 huge.log",
    'cd data && for f in *.log; do cat "$f"; done',
    # expansions
    "cat *.pdf",
    "cat *.log",
    "cat data/*",
    'cat "$PWD/app.log"',
    "cat $PWD/report.pdf",
    "cat ${PWD}/app.log",
    "cat $(pwd)/app.log",
    "cat `pwd`/report.pdf",
    'cat "$(pwd)/data/huge.log"',
    "F=app.log; cat $F",
    'F=report.pdf; cat "$F"',
    "F=app.log && cat ${F}",
    "export F=app.log; cat $F",
    "D=data; cat $D/huge.log",
    "cat $'app.log'",
    "cat $'app\\x2elog'",
    "cat {app,small}.log",
    "cat app.{log,txt}",
    "cat a*.log",
    "cat ?pp.log",
    "cat [a]pp.log",
    "cat data/h*",
    "cat ./*.pdf",
    "cat ./app.log",
    "F=data/huge.log; head -c 100000000 $F",
    "N=100000000; head -c $N app.log",
    "cat ${F:-app.log}",
    "X=report; cat $X.pdf",
    # bounding stages that do not bound
    "head -n 1000000 app.log",
    "head -c 100000000 report.pdf",
    "cat app.log | head -c 100000000",
    "head -n 100000 app.log",
    "tail -n +1 app.log",
    "tail -c +1 report.pdf",
    "tail -n 1000000 app.log",
    "head -1 big.json",
    "tail -1 big.json",
    "head -n 5 big.json",
    "sed -n 1p big.json",
    "head -c 5000000 app.log",
    "head -n -1 app.log",
    "sed -n '1,1000000p' app.log",
    "sed -n p app.log",
    "sed 1,100000p app.log",
    "awk 'NR<1000000' app.log",
    "grep -m 1000000 '' app.log",
    "xxd -l 100000000 report.pdf",
    "od -N 100000000 -c report.pdf",
    "dd if=app.log bs=1M count=10",
    "pdftotext report.pdf -",
    "cat app.log | tail -c 100000000",
    "head -c 100000000 app.log | cat",
    "cat report.pdf | head -n 100000",
    # the dumper family
    "awk 1 app.log",
    "awk '{print}' app.log",
    "awk '{print $0}' app.log",
    "gawk 1 app.log",
    "sed -n p app.log",
    "sed '' app.log",
    "sed 's/INFO/info/' app.log",
    "perl -ne print app.log",
    "perl -pe '' app.log",
    "perl -ne 'print' app.log",
    "ruby -pe '' app.log",
    "ruby -ne 'print' app.log",
    "jq . big.json",
    "jq -c . big.json",
    "jq '.[]' big.json",
    "jq -r . big.json",
    "cat big.json | jq .",
    "grep '' app.log",
    "grep . app.log",
    "grep -v xyz app.log",
    "grep -e '' app.log",
    "grep '.*' app.log",
    "grep '^' app.log",
    "rg '' app.log",
    "egrep '' app.log",
    "sort app.log",
    "sort -u app.log numbered.log",  # the distinct lines: numbered.log's are all distinct (app.log's one line is not)
    "uniq numbered.log",
    "cut -c1-1000 app.log",
    "cut -d' ' -f1- app.log",
    "paste app.log",
    "fold -w 80 app.log",
    "rev app.log",
    "tr a-z A-Z < app.log",
    "cat app.log | tr -d x",
    "iconv -f utf-8 -t utf-8 app.log",
    "expand app.log",
    "pr app.log",
    "fmt app.log",
    "nl app.log",
    "tac app.log",
    "diff -a report.pdf small.txt",
    "diff /dev/null app.log",
    "openssl base64 -in report.pdf",
    "openssl enc -base64 -in report.pdf",
    "base64 report.pdf",
    "base64 -w0 report.pdf",
    "gzip -c app.log",
    "gzip -c report.pdf",
    "bzip2 -c app.log",
    "xz -c app.log",
    "zstd -c app.log",
    "tar -cf - app.log",
    "tar -czf - report.pdf",
    "tar cf - app.log",
    "zip - app.log",
    "zip -q - report.pdf",
    "curl file://$PWD/app.log",
    "curl -s file://$PWD/report.pdf",
    "cp app.log /dev/stdout",
    "cp report.pdf /dev/stderr",
    "cat app.log > /proc/self/fd/1",
    "cat report.pdf > /dev/./stdout",
    "cat app.log | tee /dev/stderr | wc -c",
    "tee /dev/stderr < app.log",
    "cat report.pdf | tee /dev/stdout > copy.pdf",
    "dd if=report.pdf",
    "dd if=app.log of=/dev/stdout",
    "pdftotext report.pdf /dev/stdout",
    "pdftotext -layout report.pdf -",
    "strings report.pdf",
    "od -c report.pdf",
    "hexdump -C report.pdf",
    "xxd report.pdf",
    "pv app.log",
    "bat app.log",
    "more app.log",
    "less report.pdf",
    "cat app.log | sort",
    "cat app.log | awk '{print}'",
    "cat app.log | sed 's/a/b/'",
    "cat app.log | cut -c1-",
    "column -t app.log",
    "shuf app.log",
    "cat -A app.log",
    "cat -n app.log",
    "cat x.tar.gz",
    # compound commands, functions, shells, interpreters
    'for f in *.pdf; do cat "$f"; done',
    "for f in app.log; do cat $f; done",
    "for f in data/*; do cat $f; done",
    "{ cat app.log; }",
    "{ echo start; cat report.pdf; } | cat",
    "if true; then cat app.log; fi",
    "if [ -f app.log ]; then cat app.log; else echo no; fi",
    'while read l; do echo "$l"; done < app.log',
    "while IFS= read -r line; do printf '%s\\n' \"$line\"; done < app.log",
    "case x in x) cat app.log;; esac",
    'show() { cat "$1"; }; show app.log',
    "function dump { cat report.pdf; }; dump",
    "f() { cat $1; }; f report.pdf",
    "bash -c 'cat app.log'",
    'sh -c "cat report.pdf"',
    "bash -lc 'cd data && cat huge.log'",
    "bash -c \"bash -c 'cat app.log'\"",
    'sh -c "sh -c \\"sh -c \'sh -c \\\\\\"cat app.log\\\\\\"\'\\""',
    "eval cat app.log",
    "eval 'cat report.pdf'",
    'eval "$(echo cat app.log)"',
    "bash <<< 'cat app.log'",
    "bash <<'EOF'\ncat app.log\nEOF",
    "echo 'cat app.log' | bash",
    "echo 'cat report.pdf' | sh",
    "bash script.sh",
    "sh script.sh",
    "source script.sh",
    ". ./script.sh",
    "cat > s.sh <<'EOF'\ncat app.log\nEOF\nbash s.sh",
    "python3 - <<'EOF'\nprint(open('app.log').read())\nEOF",
    "python3 - <<'EOF'\nimport sys\nsys.stdout.write(open('report.pdf', 'rb').read().decode('latin-1'))\nEOF",
    "python3 -c \"print(open('app.log').read())\"",
    'python -c \'import sys; print(open("report.pdf","rb").read())\'',
    "python3 -c \"for l in open('app.log'): print(l, end='')\"",
    "node -e \"console.log(require('fs').readFileSync('app.log','utf8'))\"",
    "node -p \"require('fs').readFileSync('app.log','utf8')\"",
    "node - <<'EOF'\nprocess.stdout.write(require('fs').readFileSync('app.log'))\nEOF",
    "perl -e 'open(F, \"app.log\"); print <F>'",
    "ruby -e 'puts File.read(\"app.log\")'",
    "php -r 'echo file_get_contents(\"app.log\");'",
    "cat app.log | python3 -c 'import sys; print(sys.stdin.read())'",
    "cat app.log | python3 -c 'import sys; sys.stdout.write(sys.stdin.read())'",
    "cat app.log | perl -pe ''",
    "python3 -m json.tool big.json",
    "cat big.json | python3 -m json.tool",
    "python3 <<'EOF'\nwith open('app.log') as f:\n    print(f.read())\nEOF",
    # xargs and find
    "ls | xargs cat",
    "ls *.log | xargs cat",
    "echo app.log | xargs cat",
    "printf '%s\\n' app.log | xargs cat",
    "cat list.txt | xargs cat",
    "xargs cat < list.txt",
    "xargs -a list.txt cat",
    "ls data | xargs -I{} cat data/{}",
    "find . -name '*.log' | xargs cat",
    "find . -name app.log -exec cat {} +",
    "find . -exec cat {} +",
    "find . -name '*.pdf' -exec cat {} \\;",
    "find data -type f -exec cat {} \\;",
    "find . -maxdepth 1 -name '*.log' | xargs -n1 cat",
    "find . -name '*.log' -print0 | xargs -0 cat",
    "cat app.log | xargs echo",
    "ls | xargs -I % sh -c 'cat %'",
    "find . -name '*.log' -exec head -c 100000000 {} \\;",
    # writes read back
    "cp app.log x.txt && cat x.txt",
    "cp report.pdf /tmp/r.txt; cat /tmp/r.txt",
    "cp app.log y.txt; less y.txt",
    "ln -s app.log z.txt && cat z.txt",
    "ln -sf report.pdf l && cat l",
    "cat app.log > copy.txt; cat copy.txt",
    "cat report.pdf > r.txt && head -c 100000000 r.txt",
    "cp app.log out/ && cat out/app.log",
    "tee t.txt < app.log >/dev/null; cat t.txt",
    "dd if=app.log of=d.txt; cat d.txt",
    # misc
    "sudo cat app.log",
    "env cat report.pdf",
    "time cat app.log",
    "nohup cat app.log",
    "timeout 10 cat report.pdf",
    "command cat app.log",
    "exec cat app.log",
    "/usr/bin/cat app.log",
    "LC_ALL=C sort app.log",
    "stdbuf -o0 cat app.log",
    "cat app.log 2>&1",
    "cat app.log >&2",
    "cat report.pdf 1>&2",
    "cat < app.log",
    "< app.log cat",
    "echo $(cat app.log)",
    'X=$(cat app.log); echo "$X"',
    "cat small.txt app.log",
    "cat small.txt - < app.log",
    "true && cat app.log",
    "false || cat report.pdf",
    "cat app.log & wait",
    "! cat app.log",
    "diff <(cat app.log) small.txt",
    "cat <(cat app.log)",
    "unzip -p many.zip",
    "unzip many.zip",
    "unzip -o many.zip -d out",
    "7z x many.zip",
    "tar -xzf x.tar.gz -O",
]

LEGIT = [
    "zcat x.tar.gz | tar -t",
    "zcat x.tar.gz | tar -tv",
    "cat report.pdf | pdftotext - out.txt",
    "cat app.log | (head -c 100)",
    "cat app.log | { head -n 5; }",
    "unzip -o a.zip member1.txt -d dir",
    "unzip -o many.zip f1.txt -d out",
    "unzip -l many.zip",
    "unzip a.zip -d out",
    "tar -tzf x.tar.gz",
    "cat app.log | wc -l",
    "cat report.pdf | sha256sum",
    "sha256sum report.pdf app.log",
    "wc -c report.pdf",
    "md5sum report.pdf",
    "cat app.log | python3 -c 'import sys; print(len(sys.stdin.read()))'",
    "cat report.pdf | curl -T - https://example.com/upload",
    "curl -T report.pdf https://example.com/up",
    "curl --data-binary @app.log https://example.com",
    "curl -o out.pdf https://example.com/x.pdf",
    "cd data && head -n 20 huge.log",
    "cd data && ls -la",
    "cd data && wc -l huge.log",
    "cd data && cat notes.txt",
    "pushd data && cat notes.txt && popd",
    "(cd data && head -c 1000 report.pdf)",
    "cd data; boundread info report.pdf",
    "head -n 50 app.log",
    "head -c 1000 report.pdf",
    "tail -n 100 app.log",
    "tail app.log",
    "sed -n 1,50p app.log",
    "sed -n '100,150p' app.log",
    "awk 'NR<=20' app.log",
    "grep -m 20 '' app.log",
    "grep -c INFO app.log",
    "grep -n ERROR app.log",
    "grep -l INFO *.log",
    "grep -q INFO app.log && echo yes",
    "grep ERROR app.log | head",
    "rg ERROR app.log",
    "grep -r TODO data",
    "xxd -l 64 report.pdf",
    "od -N 64 -c report.pdf",
    "head -c 200 big.json",
    "jq '.rows[0]' big.json",
    "jq length big.json",
    "jq .a small.json",
    "jq . small.json",
    "cat small.json | jq .",
    "cut -c1-100 big.json | head -c 500",
    "pdftotext -f 1 -l 2 report.pdf -",
    "pdftotext -l 3 report.pdf -",
    "pdftotext report.pdf out.txt",
    "pdftotext report.pdf",
    "pdfinfo report.pdf",
    "file report.pdf",
    "ls -la",
    "ls *.pdf",
    "ls data",
    "find . -name '*.pdf'",
    "find . -type f | wc -l",
    "find . -name '*.log' -exec wc -l {} +",
    "find . -name '*.log' -exec head -n 5 {} \\;",
    "ls | xargs wc -l",
    "ls *.log | xargs -n1 head -n 3",
    "cat small.txt",
    "cat small.txt | sort",
    "sort small.txt | uniq -c",
    "awk 1 small.txt",
    "sed -n p small.txt",
    'for f in *.txt; do head -n 3 "$f"; done',
    'for f in *.log; do wc -l "$f"; done',
    'for f in *.pdf; do boundread info "$f"; done',
    "F=app.log; wc -l $F",
    'F=report.pdf; file "$F"',
    'cat "$PWD/small.txt"',
    "cat $(pwd)/small.txt",
    "cat ~/nonexistent-file-x.pdf",
    "cp report.pdf backup.pdf",
    "cp app.log /tmp/x.log && wc -l /tmp/x.log",
    "mv copy.txt old.txt",
    "cat app.log > copy.log",
    "cat report.pdf > /dev/null",
    "cat app.log | gzip > app.log.gz",
    "gzip -k app.log",
    "gzip -c app.log > app.log.gz",
    "tar -czf backup.tgz data",
    "zip -r backup.zip data",
    "tar -cf - data | wc -c",
    "tar -cf - app.log | gzip > a.tgz",
    "sort app.log > sorted.log",
    "sort -o sorted.log app.log",
    "sort app.log | uniq -c | sort -rn | head -20",
    "awk '{print $3}' app.log | sort | uniq -c | head",
    "cut -d' ' -f2 app.log | sort -u | head",
    "tr a-z A-Z < small.txt",
    "diff small.txt small.json",
    "diff -q report.pdf data/report.pdf",
    "cmp report.pdf data/report.pdf",
    "openssl dgst -sha256 report.pdf",
    "openssl base64 -in report.pdf -out r.b64",
    "base64 report.pdf > r.b64",
    "base64 report.pdf | head -c 200",
    "python3 -c \"print(open('app.log').read(200))\"",
    "python3 -c \"print(open('small.txt').read())\"",
    "python3 - <<'EOF'\nwith open('app.log') as f:\n    print(sum(1 for _ in f))\nEOF",
    "python3 - <<'EOF'\nimport json\nprint(len(json.load(open('big.json'))['rows']))\nEOF",
    "node -e \"console.log(require('fs').statSync('app.log').size)\"",
    "perl -ne 'print if /ERROR/' app.log",
    "perl -ne '$n++; END {print $n}' app.log",
    "ruby -e 'puts File.size(\"app.log\")'",
    "bash -c 'wc -l app.log'",
    "bash -c 'head -n 5 app.log'",
    "sh -c 'cat small.txt'",
    "eval 'wc -c app.log'",
    "echo 'cat app.log'",
    "echo cat report.pdf",
    "printf 'cat %s\\n' app.log",
    "grep 'cat app.log' small.txt",
    "git status && git diff",
    "git log --oneline | head",
    "npm test",
    "make -j4",
    "pytest -q",
    "python3 -m pytest tests",
    "docker ps",
    "ls -la | head",
    "du -sh data",
    "stat app.log",
    "df -h",
    "cat <<EOF > notes.md\ncat app.log\nEOF",
    "git commit -m \"$(cat <<'EOF'\ncat app.log\nEOF\n)\"",
    "# cat app.log",
    'echo "$(wc -l < app.log)"',
    "X=$(wc -l < app.log); echo $X",
    "wc -l < app.log",
    "head -n 5 < app.log",
    "cat app.log | head -n 5 | tail -n 2",
    "tail -n 20 app.log | grep ERROR",
    "cat app.log | grep -c ERROR",
    "cat app.log | grep ERROR",
    "zcat x.tar.gz | wc -c",
    'while read l; do echo "$l"; done < small.txt',
    "cat list.txt",
    "if [ -s app.log ]; then echo big; fi",
    "test -f report.pdf && echo ok",
    'show() { head -n 3 "$1"; }; show app.log',
    "cd data && cat notes.txt | wc -l",
    "cat small.txt > /dev/stdout",
    "dd if=app.log bs=1k count=4",
    "dd if=app.log of=copy.log",
    "xargs -a list.txt wc -l",
    "cat list.txt | xargs wc -l",
    "find . -name '*.log' -print0 | xargs -0 wc -l",
    "ls | xargs -I{} echo {}",
    "ln -s app.log link.log",
    "cp app.log x.txt && wc -l x.txt",
    "cp app.log x.txt && head -n 5 x.txt",
    "tee log.txt < small.txt",
    "cat app.log | tee copy.log | wc -l",
    "curl -s https://example.com | head",
    "curl -sI https://example.com",
    "head -c 100000 small.txt",
    "tail -n +1 small.txt",
    "head -n 1000000 small.txt",
    "jq . < small.json",
    "sed -i 's/a/b/' app.log",
    "awk 'END {print NR}' app.log",
    "awk '{s+=length($0)} END {print s}' app.log",
    "7z l many.zip",
    "unzip -l a.zip | tail -1",
    "python3 -c \"import zipfile; print(len(zipfile.ZipFile('a.zip').namelist()))\"",
]


@pytest.mark.parametrize("command", DUMPS)
def test_dump_is_denied(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", decision
    assert "boundread " in decision.reason


@pytest.mark.parametrize("command", LEGIT)
def test_ordinary_command_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", decision.reason


def test_table_is_big_enough() -> None:
    assert len(set(DUMPS)) + len(set(LEGIT)) >= 300
    assert len(set(DUMPS)) >= 150 and len(set(LEGIT)) >= 150


def test_a_huge_word_parses_in_linear_time(work: Path) -> None:
    start = time.perf_counter()
    assert check_command("cat " + "a" * 300_000, cwd=work).decision == "allow"
    assert check_command("cat app.log " + "b" * 300_000, cwd=work).decision == "deny"
    assert time.perf_counter() - start < 10  # the hook's 10 s timeout (~0.1 s here); a hand-written tokenizer took 81 s


def test_a_syntax_error_does_not_fail_open(work: Path) -> None:
    for command in ("cat app.log )", "cat report.pdf; if then fi", "cat 'app.log (("):
        assert check_command(command, cwd=work).decision == "deny", command


def test_deep_nesting_falls_back_to_the_scan(work: Path) -> None:
    command = "(" * 3000 + "cat app.log" + ")" * 3000
    assert check_command(command, cwd=work).decision == "deny"


def test_the_reason_names_the_file_as_the_payload_cwd_reaches_it(work: Path) -> None:
    decision = check_command("cd data && cat report.pdf", cwd=work)
    assert "boundread info data/report.pdf" in decision.reason


def test_the_parser_loads_no_slow_module(work: Path) -> None:
    code = (
        "import sys; from boundread.guard import check_command; check_command('cat x | head', cwd='.'); "
        "print(sorted({'typing', 'importlib.resources', 'tree_sitter'} & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=work)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("command", [
    "cat report.pdf", "cat small.txt", "head -n 20 app.log", "head -c 100000000 app.log", "wc -l app.log",
    "awk 1 app.log", "sed -n p app.log", "git status", "ls -la data", "tail -n 100 app.log", "xxd report.pdf",
    "grep -c INFO app.log", "dd if=report.pdf", "cp report.pdf /dev/stdout", "cat data/huge.log",
    "cd data && cat report.pdf", "cd data && cat report.pdf | head -n 5", "cd data; cat huge.log | wc -l",
    "cat app.log | head -c 100", "cat app.log | head -c 100000000", "cat app.log | tee /dev/stderr | wc -c",
    "ls | xargs cat", "cd data || cat app.log", "pushd data && cat huge.log && popd", "cat small.txt;",
    "cd data && cd .. && cat app.log", "zcat x.tar.gz | tar -t", "cat report.pdf | pdftotext - out.txt",
    "if true; then cat app.log; fi", "for f in app.log; do cat $f; done", "time cat app.log",
])
def test_a_plain_command_decides_as_the_parser_does(work: Path, command: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast path for lists of pipelines of plain words agrees with the full walk."""
    from boundread.guard import shell

    fast = shell.file_uses(command, work)
    monkeypatch.setattr(shell, "_plain", lambda text: None)
    assert fast == shell.file_uses(command, work)
