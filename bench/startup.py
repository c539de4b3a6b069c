"""How fast boundread starts: small-file commands and guard-check against ``python -c pass``, interleaved.

    .venv/bin/python bench/startup.py [--runs 30]

Each round runs every row once, in turn, so a change of load hits all rows alike; the table gives each row's
median wall time, best wall time and median CPU time (user + system), each with its ratio to the same figure
of ``python -c pass`` run by the same interpreter; on a loaded machine the best and CPU columns are the
steadier. The load average is printed before and after. .pyc files are written (PYTHONDONTWRITEBYTECODE is
dropped), as an installed package has them. The MCP start (``initialize`` answered) is measured by
bench/mcp_timing.py. guard-check runs with a state folder of its own: no budget ledger, whatever ~ holds
(a budget adds its SQLite round trip, ~3 ms with the sqlite3 import). Issue 24 asks for info/extract <= 3x
and guard-check <= 2x.

``--instructions`` also counts each guard-check row's instructions with valgrind's callgrind (and those of
``python -c pass``): the same count whatever else the machine is doing, so a change of a few percent shows.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).with_name("boundread")
#: a for loop with $() and pipes, as issue 24 measured it
LOOP = "for f in $(ls *.log | sort); do cat \"$f\" | grep -v DEBUG | tee -a all.txt > /dev/null; done"


INIT = (json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                   "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                              "clientInfo": {"name": "bench", "version": "1"}}}) + "\n").encode()


def rows(folder: Path) -> list[tuple[str, list[str], bytes | None]]:
    small = folder / "small.txt"
    small.write_text("hello world\nline two\n", encoding="utf-8")
    for n in range(3):  # files for the loop to find: big enough that the guard looks at what reads them
        (folder / f"app{n}.log").write_bytes(b"2026-12-02 INFO ok\n" * 200_000)
    hook, plain = ({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command},
                    "cwd": str(folder), "session_id": "bench"} for command in (LOOP, "ls -la"))
    lean, old = str(script(folder, LEAN)), str(script(folder, OLD_PIP))
    return [
        ("python -c pass", [sys.executable, "-c", "pass"], None),
        ("boundread --version", [str(BIN), "--version"], None),
        ("boundread info small.txt", [str(BIN), "info", str(small)], None),
        ("boundread info small.txt --json", [str(BIN), "info", str(small), "--json"], None),
        ("boundread extract small.txt", [str(BIN), "extract", str(small)], None),
        ("boundread extract small.txt --stdout", [str(BIN), "extract", str(small), "--stdout"], None),
        ("boundread pages --help", [str(BIN), "pages", "--help"], None),
        ("boundread mcp: initialize answered", [str(BIN), "mcp"], None),
        ("guard-check, plain command", [lean, "guard-check"], json.dumps(plain).encode()),
        ("guard-check, loop with $() and pipes", [lean, "guard-check"], json.dumps(hook).encode()),
        ("guard-check, plain, pip<25.2's script", [old, "guard-check"], json.dumps(plain).encode()),
        ("guard-check, loop, pip<25.2's script", [old, "guard-check"], json.dumps(hook).encode()),
    ]


#: The console script as pip 25.2+ and uv write it, and as pip before 25.2 did (distlib's template; a venv of this
#: machine's Python 3.11.7 comes with pip 23.2.1): that one runs ``import re`` first, to strip a Windows suffix from
#: argv[0]. The guard-check rows run both, whatever pip installed this venv.
LEAN = ("#!{python}\nimport sys\nfrom boundread.__main__ import main\nif __name__ == '__main__':\n"
        "    sys.argv[0] = sys.argv[0].removesuffix('.exe')\n    sys.exit(main())\n")
OLD_PIP = ("#!{python}\n# -*- coding: utf-8 -*-\nimport re\nimport sys\nfrom boundread.__main__ import main\n"
           "if __name__ == '__main__':\n    sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])\n"
           "    sys.exit(main())\n")


def script(folder: Path, template: str) -> Path:
    """A console script for boundread written from ``template``, in ``folder``."""
    path = folder / f"boundread-{'lean' if template is LEAN else 'old-pip'}"
    path.write_text(template.format(python=sys.executable), encoding="utf-8")
    path.chmod(0o755)
    return path


def once(argv: list[str], stdin: bytes | None, cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one run; for ``boundread mcp``, until its first answer
    (the CPU column then holds the whole run's, the server's exit included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    if argv[-1] == "mcp":
        proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                cwd=cwd, env=env)
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(INIT)
        proc.stdin.flush()
        proc.stdout.readline()
        wall = time.perf_counter() - start
        proc.stdin.close()
        proc.wait(timeout=60)
        proc.stdout.close()
    else:
        subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd, env=env,
                       check=False)
        wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--instructions", action="store_true", help="count instructions too (valgrind)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        # a state folder of its own: guard-check in a session without a budget, whatever ledger ~ holds
        env = {**os.environ, "BOUNDREAD_OUT_DIR": str(folder / "out"), "BOUNDREAD_STATE_DIR": str(folder / "state")}
        env.pop("FORCE_COLOR", None)
        env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: .pyc files, else every run compiles what changed
        table = rows(folder)
        times: dict[str, list[float]] = {name: [] for name, _, _ in table}
        cpus: dict[str, list[float]] = {name: [] for name, _, _ in table}
        load = os.getloadavg()
        for argv in (argv for _, argv, _ in table):  # warm the page cache and the .pyc files
            subprocess.run(argv, input=b"{}", capture_output=True, cwd=folder, env=env, check=False)
        for _ in range(args.runs):
            for name, argv, stdin in table:
                wall, cpu = once(argv, stdin, folder, env)
                times[name].append(wall)
                cpus[name].append(cpu)
        after = os.getloadavg()
        counted = {name: instructions(argv, stdin, folder, env) for name, argv, stdin in table
                   if name == "python -c pass" or name.startswith("guard-check")} if args.instructions else {}
    base = statistics.median(times["python -c pass"])
    base_best, base_cpu = min(times["python -c pass"]), statistics.median(cpus["python -c pass"])
    print(f"load average before {load[0]:.2f}, after {after[0]:.2f}; {os.cpu_count()} cores; "
          f"{args.runs} interleaved rounds; {time.strftime('%Y-%m-%d')}")
    print(f"| {'row':<38} | median ms | ratio | best ms | ratio | CPU ms | ratio |")
    # guard-check rows: through pip 25.2+'s (and uv's) script unless the row names pip<25.2's
    print(f"|{'-' * 40}|-----------|-------|---------|-------|--------|-------|")
    for name, walls in times.items():
        median, best, cpu = statistics.median(walls), min(walls), statistics.median(cpus[name])
        print(f"| {name:<38} | {median * 1000:9.1f} | {median / base:4.2f}x | {best * 1000:7.1f} | "
              f"{best / base_best:4.2f}x | {cpu * 1000:6.1f} | {cpu / base_cpu:4.2f}x |")
    if counted:
        print("\ninstructions (callgrind):")
        for name, count in counted.items():
            print(f"  {name:<38} {count / 1e6:7.1f} million  {count / counted['python -c pass']:4.2f}x")


def instructions(argv: list[str], stdin: bytes | None, cwd: Path, env: dict[str, str]) -> int:
    """The instructions one run executes, as valgrind's callgrind counts them."""
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/out", *argv],
                             input=stdin, capture_output=True, cwd=cwd, env=env, check=False)
    found = re.search(rb"Collected : (\d+)", run.stderr)
    if found is None:
        sys.exit(f"bench: valgrind counted nothing: {run.stderr.decode(errors='replace')[-300:]}")
    return int(found.group(1))


if __name__ == "__main__":
    main()
