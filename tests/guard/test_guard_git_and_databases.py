"""Git's printers and the database clients are judged by what they print, sized where it is made.

A repository made in the test: a 600 KB JSON file committed, then rewritten (a big ``git diff``), and one line of
a small source file changed. A SQLite database with a big table and a small one, a CSV over the cap. Big outputs
are refused with the bounded form to run; small ones, and big ones cut by a bound, are allowed.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from boundread.guard import check_command
from boundread.guard.shell import PRINT, file_uses, madeup


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("gitdb")
    repo = root / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "data").mkdir()
    git = shutil.which("git")
    assert git is not None, "git is needed to make the test's repository"
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}

    def run(*args: str) -> None:
        subprocess.run([git, *args], cwd=repo, env=env, check=True, capture_output=True)

    app = "".join(f"def handler_{n}(request):\n    return {n}\n\n" for n in range(40))
    (repo / "src" / "app.py").write_text(app)
    (repo / "data" / "fixtures.json").write_text(json.dumps([{"id": n, "v": n * 3} for n in range(20_000)], indent=1))
    run("init", "-q", "-b", "main")
    run("add", ".")
    run("commit", "-q", "-m", "init")
    (repo / "src" / "app.py").write_text(app.replace("return 3\n", "return 33\n"))
    run("commit", "-q", "-am", "fix handler 3")
    (repo / "data" / "fixtures.json").write_text(json.dumps([{"id": n, "v": n * 7} for n in range(20_000)], indent=1))
    (root / "big.csv").write_text("id,kind\n" + "".join(f"{n},click\n" for n in range(40_000)))
    with sqlite3.connect(root / "app.db") as db:
        db.execute("create table events (id integer primary key, kind text, payload text)")
        db.executemany("insert into events values (?, ?, ?)",
                       ((n, "click", f'{{"path": "/p/{n}", "ms": {n % 900}}}') for n in range(20_000)))
        db.execute("create table settings (key text, value text)")
        db.execute("insert into settings values ('theme', 'dark')")
    db.close()
    with sqlite3.connect(root / "small.db") as db:
        db.execute("create table notes (id integer primary key, body text)")
        db.executemany("insert into notes values (?, ?)", ((n, f"note {n}") for n in range(20)))
    db.close()
    return root


DUMPS = [
    ("cd repo && git diff", "git diff --stat"),
    ("git -C repo diff data/fixtures.json", "git diff --stat"),
    ("cd repo && git log -p", "git log --oneline -20"),
    ("cd repo && git blame data/fixtures.json", "git blame -L 1,200 data/fixtures.json"),
    ("cd repo && git show HEAD~1", "git show --stat HEAD~1"),
    ("cd repo && git archive HEAD | tar -xO", "git archive HEAD | tar -t"),
    ("cd repo && git cat-file -p HEAD~1:data/fixtures.json", "fixtures.json"),
    ("cd repo && git reflog -p", "git log --oneline -20"),
    ("sqlite3 app.db .dump", "select * from events limit 50"),
    ("sqlite3 app.db 'select * from events order by id desc'", "select * from events limit 50"),
    ("sqlite3 -json app.db 'select * from events'", "select * from events limit 50"),
    ("sqlite3 app.db <<< 'select * from events;'", "select * from events limit 50"),
    ("printf '.headers on\\nselect * from events;\\n' | sqlite3 app.db", "select * from events limit 50"),
    ("litecli app.db -e 'select * from events'", "select * from events limit 50"),
    ("sqlite-utils rows app.db events", "select * from events limit 50"),
    ("python3 -m sqlite3 app.db 'select * from events'", "select * from events limit 50"),
    ("sqlite3 app.db '.output stdout' .dump", "select * from events limit 50"),
    ("sqlite3 'file:app.db?mode=ro' 'select * from events'", "select * from events limit 50"),
    ("duckdb -csv -c \"select * from 'big.csv'\"", "big.csv"),
]

EVERYDAY = [
    "cd repo && git status",
    "cd repo && git diff --stat",
    "cd repo && git diff --name-only",
    "cd repo && git diff -- src/",
    "cd repo && git diff | head -n 200",
    "cd repo && git show HEAD",
    "cd repo && git log --oneline -20",
    "cd repo && git blame src/app.py",
    "cd repo && git blame -L 1,20 data/fixtures.json",
    "cd repo && git archive HEAD src | tar -t",
    "cd repo && git cat-file -p HEAD",
    "cd repo && git cat-file -s HEAD~1:data/fixtures.json",
    "cd repo && git stash show -p",
    "cd repo && git archive HEAD src | tar -xO",
    "cd repo && git diff > /tmp/boundread-test.patch",
    "sqlite3 app.db 'select count(*) from events'",
    "sqlite3 app.db 'select * from events limit 10'",
    "sqlite3 app.db 'select * from settings'",
    "sqlite3 app.db 'select * from events' | head -n 20",
    "sqlite3 small.db .dump",
    "sqlite3 app.db .tables",
    "sqlite3 app.db '.output /tmp/boundread-test.sql' .dump",
    "sqlite-utils rows app.db events --limit 20",
    "sqlite-utils tables app.db",
    "duckdb -c \"select * from 'big.csv'\"",  # its default mode shows 40 rows
    "duckdb -csv -c \"select kind, count(*) from 'big.csv' group by kind\"",
]


@pytest.mark.parametrize(("command", "instead"), DUMPS)
def test_a_big_output_is_refused_with_its_bounded_form(work: Path, command: str, instead: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny", command
    found = [use for use in file_uses(command, work) if use.action == PRINT]
    made = [madeup.parse(use.path) for use in found if use.path.startswith(madeup.MARK)]
    assert any(instead in part[2] for part in made if part) or any(instead in use.path for use in found), found


@pytest.mark.parametrize("command", EVERYDAY)
def test_a_small_or_bounded_output_is_allowed(work: Path, command: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "allow", (command, decision.reason)


def test_a_bounded_output_next_to_another_print_is_allowed(work: Path) -> None:
    """A made-up output cut by ``head`` or written to a file says nothing about the command's other prints."""
    (work / "repo" / "README.md").write_text("# repo\n")
    for command in ("cd repo && git diff > /tmp/boundread-test.patch; cat README.md",
                    "cd repo && git diff | head -n 100 && cat README.md",
                    "sqlite3 app.db 'select * from events' | head -n 5; cat big.csv | head -n 3"):
        decision = check_command(command, cwd=work)
        assert decision.decision == "allow", (command, decision.reason)


def test_an_object_printed_by_its_hash_is_sized(work: Path) -> None:
    blob = subprocess.run(["git", "rev-parse", "HEAD~1:data/fixtures.json"], cwd=work / "repo", check=True,
                          capture_output=True, text=True).stdout.strip()
    assert check_command(f"cd repo && git cat-file -p {blob}", cwd=work).decision == "deny"
    assert check_command(f"cd repo && git cat-file -p {blob} | head -n 50", cwd=work).decision == "allow"


def test_the_database_is_never_written(work: Path) -> None:
    before = sorted(path.name for path in work.iterdir())
    check_command("sqlite3 app.db 'select * from events'", cwd=work)
    assert sorted(path.name for path in work.iterdir()) == before  # no -journal, -wal or -shm left


def test_a_made_up_output_has_a_reason_of_its_own() -> None:
    flow = madeup.flow(3_000_000, "every row of app.db", "sqlite3 app.db 'select * from t limit 50'", "sqlite3")
    text = madeup.reason(flow[0], "sqlite3 app.db .dump")
    assert text is not None and "about 3.0 MB" in text and "sqlite3 app.db 'select * from t limit 50'" in text
    assert madeup.reason("/work/big.log", "cat") is None


def test_git_is_run_without_the_programs_its_config_names(tmp_path: Path) -> None:
    """A clean filter, an external diff, a textconv would run a program the repository names: none runs."""
    git = shutil.which("git")
    assert git is not None
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}

    def run(*args: str) -> None:
        subprocess.run([git, "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=tmp_path, env=env,
                       check=True, capture_output=True)

    (tmp_path / ".gitattributes").write_text("*.txt filter=mark diff=mark\n")
    (tmp_path / "a.txt").write_text("one\n")
    run("init", "-q")
    run("add", ".")
    run("commit", "-q", "-m", "init")
    marker = tmp_path / "ran"
    for key in ("filter.mark.clean", "diff.mark.textconv", "diff.mark.command", "diff.external"):
        run("config", key, f"touch {marker}; cat")
    (tmp_path / "a.txt").write_text("two\n")
    check_command("git diff && git log -p && git show HEAD", cwd=tmp_path)
    assert not marker.exists()


@pytest.mark.parametrize(("command", "bounded"), [
    ("sqlite3 app.db .dump", "sqlite3 app.db 'select * from events limit 50'"),
    ("cd repo && git diff", "git diff --stat"),
    ("cd repo && git blame data/fixtures.json", "git blame -L 1,200 data/fixtures.json"),
])
def test_the_refusal_of_a_made_up_output_names_its_bounded_form(work: Path, command: str, bounded: str) -> None:
    decision = check_command(command, cwd=work)
    assert decision.decision == "deny" and decision.rule == "output-size"
    assert "made by the command" in decision.reason and bounded in decision.reason


@pytest.fixture
def csv_file(tmp_path: Path) -> Path:
    (tmp_path / "data.csv").write_text("".join(f"{n},widget number {n},{n * 3}\n" for n in range(30_000)))
    return tmp_path


@pytest.mark.parametrize("command", [
    "sqlite3 :memory: \".import --csv data.csv t\" \"select * from t\"",
    "sqlite3 -csv :memory: <<'SQL'\n.import --csv data.csv t\nselect * from t;\nSQL",
    "sqlite3 :memory: '.mode csv' '.import data.csv t' '.dump t'",
    "sqlite3 :memory: '.mode csv' '.import data.csv rows' '.dump'",
])
def test_a_file_imported_and_printed_back_is_that_file(csv_file: Path, command: str) -> None:
    """``.import FILE TABLE`` then a query of TABLE that neither filters, counts nor limits prints the file again."""
    decision = check_command(command, cwd=csv_file)
    assert decision.decision == "deny", command
    assert "data.csv" in decision.reason


@pytest.mark.parametrize("command", [
    "sqlite3 :memory: \".import --csv data.csv t\" \"select count(*) from t\"",
    "sqlite3 :memory: \".import --csv data.csv t\" \"select * from t limit 5\"",
    "sqlite3 :memory: \".import --csv data.csv t\" \"select * from t where 1 = 0\"",
    "sqlite3 :memory: \".import --csv data.csv t\" \".output out.txt\" \"select * from t\"",
    "sqlite3 new.db \".import --csv data.csv t\"",
])
def test_an_import_counted_limited_or_written_elsewhere_is_allowed(csv_file: Path, command: str) -> None:
    assert check_command(command, cwd=csv_file).decision == "allow", command
