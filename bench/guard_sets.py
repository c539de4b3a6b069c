"""The guard against the command sets in tests/guard/sets: the pre-tool bypass and the false denies.

    .venv/bin/python bench/guard_sets.py                      # both parts, deny mode, a table per class
    .venv/bin/python bench/guard_sets.py --part tuning --failures
    .venv/bin/python bench/guard_sets.py --mode redirect --run   # what the rewrites print, run for real
    .venv/bin/python bench/guard_sets.py --run --labels       # check each label: run every command for real

Each command goes to guard-check (``boundread.guard.main.run``, in this process) as a Claude Code PreToolUse
payload, from the folder tests/guard/sets/workspace.py builds (in ``--work DIR``, default a tmp folder; reused
when it is there). A dump that is allowed is a bypass; an everyday command that is denied is a false deny.

``--run`` runs commands for real (``bash -c`` in the folder, 10 s each, output read up to 4 MB): with ``--labels``
every case, to check that each dump prints over 256 KB and each everyday command under 25,000 characters (a
program that is not installed - exit 127 - or a remote host cannot say: "unverified"); in redirect mode the
command each rewrite runs instead, to show what reaches the model. Nothing here is asserted: the test
tests/guard/test_guard_heldout.py asserts the rates.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "guard"))
sys.path.insert(0, str(ROOT / "src"))

from sets import cases, workspace  # noqa: E402

DUMP_BYTES = 256 * 1024
EVERYDAY_CHARS = 25_000
READ_MOST = 4 * 1024 * 1024


def measured(command: str, cwd: Path) -> tuple[int, int | None]:
    """(characters printed on stdout and stderr, exit code; None when it ran out of time) - read up to READ_MOST."""
    with subprocess.Popen(["bash", "-c", command], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          stdin=subprocess.DEVNULL, start_new_session=True) as proc:
        assert proc.stdout is not None
        got = 0
        try:
            import selectors
            import time

            deadline = time.monotonic() + 10
            with selectors.DefaultSelector() as sel:
                sel.register(proc.stdout, selectors.EVENT_READ)
                while got < READ_MOST and time.monotonic() < deadline:
                    if not sel.select(max(0.0, deadline - time.monotonic())):
                        break
                    chunk = os.read(proc.stdout.fileno(), 65536)
                    if not chunk:
                        break
                    got += len(chunk)
        finally:
            timed_out = proc.poll() is None
            if timed_out:
                os.killpg(proc.pid, 9)
                proc.wait()
        return got, None if timed_out else proc.returncode


def label_note(case: cases.Case, size: int, code: int | None) -> str:
    """'' when the real output fits the case's label, else what is off."""
    if case.kind == "dumps":
        if size > DUMP_BYTES or code is None:
            return ""
        return "unverified (not installed or no such host)" if code in (127, 255) or case.cls == "remote" \
            else f"printed only {size:,} (exit {code})"
    return f"printed {size:,} characters" if size > EVERYDAY_CHARS else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, help="the workspace folder (built there when missing)")
    parser.add_argument("--part", choices=(*cases.PARTS, "all"), default="all")
    parser.add_argument("--mode", choices=("deny", "redirect"), default="deny")
    parser.add_argument("--failures", action="store_true", help="list each bypass and false deny")
    parser.add_argument("--run", action="store_true", help="run commands for real (see above)")
    parser.add_argument("--labels", action="store_true", help="with --run: check every case's label")
    args = parser.parse_args()
    scratch = tempfile.mkdtemp(prefix="boundread-sets-")
    for name, value in (("XDG_CONFIG_HOME", "config"), ("BOUNDREAD_STATE_DIR", "state"), ("BOUNDREAD_OUT_DIR", "out"),
                        ("XDG_STATE_HOME", "xstate")):
        os.environ[name] = str(Path(scratch) / value)
    for name in [name for name in os.environ if name.startswith("BOUNDREAD_GUARD_")]:
        del os.environ[name]
    work = args.work or Path(tempfile.gettempdir()) / "boundread-sets-work"
    if not (work / "repo").exists():
        print(f"building the workspace in {work} ...", file=sys.stderr)
        workspace.build(work)
    parts = cases.PARTS if args.part == "all" else (args.part,)
    for part in parts:
        table: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # dumps, bypass, everyday, false deny
        failures: list[str] = []
        notes: list[str] = []
        for kind in cases.KINDS:
            for case in cases.load(kind, part):
                answer = cases.ask(case, work, args.mode)
                row = table[case.cls]
                wrong = (answer.decision == "allow" and answer.command == case.command) if kind == "dumps" \
                    else answer.decision == "deny"
                row[0 if kind == "dumps" else 2] += 1
                row[1 if kind == "dumps" else 3] += wrong
                if wrong:
                    failures.append(f"  {'bypass' if kind == 'dumps' else 'false deny'} [{case.cls}] {case.command}"
                                    + (f"\n      {answer.reason[:300]}" if kind == "everyday" else ""))
                if args.run and args.labels:
                    note = label_note(case, *measured(case.command, work))
                    if note:
                        notes.append(f"  [{kind} {case.cls}] {case.command!r}: {note}")
                if args.run and answer.command != case.command:
                    size, code = measured(answer.command, work)
                    notes.append(f"  rewrite [{case.cls}] {case.command!r} -> {answer.command!r}: {size:,} characters "
                                 f"(exit {code})")
        dumps = sum(row[0] for row in table.values())
        bypass = sum(row[1] for row in table.values())
        everyday = sum(row[2] for row in table.values())
        false = sum(row[3] for row in table.values())
        print(f"\n{part} part, {args.mode} mode: bypass {bypass}/{dumps} = {100 * bypass / max(dumps, 1):.1f}%, "
              f"false denies {false}/{everyday} = {100 * false / max(everyday, 1):.1f}%")
        print(f"{'class':<14}{'dumps':>7}{'bypass':>8}{'everyday':>10}{'false deny':>12}")
        for cls, (n, b, e, f) in sorted(table.items()):
            print(f"{cls:<14}{n:>7}{b:>8}{e:>10}{f:>12}")
        if args.failures and failures:
            print("\n".join(failures))
        if notes:
            print("\n".join(notes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
