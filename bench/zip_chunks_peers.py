"""Issue 24 items 3-4, side by side with the tool a user would pick instead, interleaved in one run:

- ``extract big.zip --member NAME`` (a 300,000-entry zip) against ``unzip -p``: must be <= 3x;
- ``list-zip`` (first page) of the same zip against ``unzip -l``: must be <= 1.2x;
- ``chunks`` of a 1 GB log against a naive Python split (lines into files of the same size): <= 1.5x, < 100 MB.

Each round runs every command once, in turn, so load that comes and goes hits both sides of a ratio alike.
Each figure is the median over the rounds, wall seconds and CPU seconds (user + system of the child), and the
load average is printed before and after: on a shared 2-core machine the CPU ratio is the steadier one.

    .venv/bin/python bench/zip_chunks_peers.py [--inputs DIR] [--rounds 3] [--log-mb 1024]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
BOUNDREAD = str(Path(sys.executable).with_name("boundread"))
ENTRIES = 300_000
NAIVE_SPLIT = (
    "import sys, os\n"
    "src, out, budget = sys.argv[1], sys.argv[2], int(sys.argv[3])\n"
    "os.makedirs(out, exist_ok=True)\n"
    "n, buf, size = 0, [], 0\n"
    "def flush():\n"
    "    global n, buf, size\n"
    "    n += 1\n"
    "    with open(f'{out}/chunk-{n:05d}.txt', 'w', encoding='utf-8') as fh:\n"
    "        fh.write(''.join(buf))\n"
    "    buf, size = [], 0\n"
    "with open(src, encoding='utf-8', errors='replace') as fh:\n"
    "    for line in fh:\n"
    "        if size + len(line) > budget and buf:\n"
    "            flush()\n"
    "        buf.append(line)\n"
    "        size += len(line)\n"
    "if buf:\n"
    "    flush()\n"
)


def member_name(i: int) -> str:
    return f"dir{i // 1000:03d}/file-{i:06d}.txt"


def make_inputs(folder: Path, log_mb: int) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    big_zip, log = folder / "entries300k.zip", folder / f"log{log_mb}m.log"
    if not big_zip.exists():
        tmp = big_zip.with_suffix(".tmp")
        with zipfile.ZipFile(tmp, "w") as zf:
            for i in range(ENTRIES):
                zf.writestr(zipfile.ZipInfo(member_name(i), (2024, 1, 1, 0, 0, 0)), f"content {i}\n")
        tmp.replace(big_zip)
    if not log.exists():
        sys.path.insert(0, str(HERE))
        from inputs import make_log

        make_log(log, log_mb << 20)
    return big_zip, log


def timed(argv: list[str], cwd: Path) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds and peak RSS (MB) of one run, measured in a fresh wrapper process."""
    code = (
        "import resource, subprocess, sys, time, json\n"
        "start = time.perf_counter()\n"
        "done = subprocess.run(json.loads(sys.argv[1]), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
        "wall = time.perf_counter() - start\n"
        "use = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "if done.returncode:\n"
        "    sys.exit(done.stderr.decode()[-400:] or f'exit {done.returncode}')\n"
        "print(wall, use.ru_utime + use.ru_stime, use.ru_maxrss / 1024)\n"
    )
    import json

    out = subprocess.run([sys.executable, "-c", code, json.dumps(argv)], capture_output=True, text=True, cwd=cwd,
                         check=False)
    if out.returncode:
        raise SystemExit(f"{' '.join(argv)} failed: {out.stderr.strip()}")
    wall, cpu, peak = (float(x) for x in out.stdout.split())
    return wall, cpu, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=Path, default=Path("/tmp/boundread-bench"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--log-mb", type=int, default=1024)
    args = parser.parse_args()
    unzip = shutil.which("unzip")
    if unzip is None:
        raise SystemExit("unzip is not on PATH (apt-get install unzip)")
    big_zip, log = make_inputs(args.inputs, args.log_mb)
    work = Path(tempfile.mkdtemp(prefix="zipchunks-bench-"))
    env_out = work / "out"
    os.environ["BOUNDREAD_OUT_DIR"] = str(env_out)
    last = member_name(ENTRIES - 1)
    pairs = {
        "extract --member (300k-entry zip)": (
            [BOUNDREAD, "extract", str(big_zip), "--member", last, "-o", "-"], [unzip, "-p", str(big_zip), last], 3.0),
        "list-zip first page (300k entries)": (
            [BOUNDREAD, "list-zip", str(big_zip)], [unzip, "-l", str(big_zip)], 1.2),
        f"chunks of a {args.log_mb} MB log": (
            [BOUNDREAD, "chunks", str(log), "-o", str(work / "chunks"), "--max-chunks", "100000"],
            [sys.executable, "-c", NAIVE_SPLIT, str(log), str(work / "naive"), "80000"], 1.5),
    }
    results: dict[str, list[tuple[tuple[float, float, float], tuple[float, float, float]]]] = {k: [] for k in pairs}
    load_before = os.getloadavg()
    for _ in range(args.rounds):
        for what, (ours, peer, _limit) in pairs.items():
            shutil.rmtree(work / "chunks", ignore_errors=True)
            shutil.rmtree(work / "naive", ignore_errors=True)
            results[what].append((timed(ours, work), timed(peer, work)))
    load_after = os.getloadavg()
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, load "
          f"{load_before[0]:.1f} before / {load_after[0]:.1f} after, {args.rounds} interleaved rounds, medians")
    print("| row | boundread wall / CPU | peer wall / CPU | ratio wall / CPU | limit | peak MB |")
    print("|---|---|---|---|---|---|")
    for what, (_ours, peer, limit) in pairs.items():
        runs = results[what]
        ow, oc, om = (statistics.median(r[0][k] for r in runs) for k in range(3))
        pw, pc = (statistics.median(r[1][k] for r in runs) for k in range(2))
        name = Path(peer[0]).name if peer[0] != sys.executable else "naive Python split"
        mark = "ok" if oc / pc <= limit else "MISS"
        print(f"| {what} | {ow:.3f} s / {oc:.3f} s | {name} {pw:.3f} s / {pc:.3f} s | "
              f"{ow / pw:.2f}x / {oc / pc:.2f}x | <= {limit:g}x ({mark} on CPU) | {om:.0f} |")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
