"""Every command under a small address-space limit (RLIMIT_AS), on big generated inputs.

Bounded by construction means memory grows with what was asked, not with the file: a 300-page PDF,
a 100,000-row workbook, a 200 MB log and a zip holding a 150 MB member are all read within the same
small limit. The inputs are generated once per session (bench/inputs.py makes the PDF, workbook and
log) and each command runs as the installed console script, so the limit covers the whole process.
"""

from __future__ import annotations

import resource
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.sweep_helpers import MB, SCRIPT, child_env, run_measured

BENCH = Path(__file__).resolve().parents[1] / "bench"

# RLIMIT_AS limits virtual address space, not resident memory. A bare `boundread --version` already maps
# tens of MB (the interpreter, shared libraries, and the allocator's arenas), and pypdfium2/openpyxl map
# more as they load: so the limit is that measured baseline plus a fixed 150 MB of headroom. A command
# whose memory grew with the file (a 200 MB log read whole, a workbook loaded whole, a PDF parsed whole)
# would blow through it with a MemoryError or an abort.
HEADROOM = 150 * MB


def _baseline_address_space() -> int:
    """VmPeak of the console script running `--version` in one interpreter (bytes)."""
    probe = (
        "import runpy, sys\n"
        f"sys.argv = [{str(SCRIPT)!r}, '--version']\n"
        "try:\n"
        f"    runpy.run_path({str(SCRIPT)!r}, run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "peak = [l for l in open('/proc/self/status') if l.startswith('VmPeak:')][0]\n"
        "sys.stderr.write(peak.split()[1])\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return int(done.stderr.strip().splitlines()[-1]) * 1024


@pytest.fixture(scope="session")
def limit() -> int:
    if not Path("/proc/self/status").is_file():
        pytest.skip("needs /proc to measure the baseline address space")
    return _baseline_address_space() + HEADROOM


@pytest.fixture(scope="session")
def big(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    sys.path.insert(0, str(BENCH))
    try:
        import inputs  # type: ignore[import-not-found]  # bench/inputs.py: the same generators the benchmarks use
    finally:
        sys.path.remove(str(BENCH))
    folder = tmp_path_factory.mktemp("big")
    files = {
        "pdf": inputs.make_pdf(folder / "report.pdf", 300),
        "xlsx": inputs.make_xlsx(folder / "orders.xlsx", 100_000, cols=5),
        "log": inputs.make_log(folder / "server.log", 200 * MB),
    }
    zpath = folder / "bundle.zip"
    with zipfile.ZipFile(zpath, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf, \
            open(files["log"], "rb") as log:
        zf.writestr("readme.txt", "the big member is a server log\n")
        with zf.open("big.log", "w", force_zip64=True) as member:
            for _ in range(150):
                member.write(log.read(MB))
        log.seek(0)
        zf.writestr("mid.log", log.read(20 * MB))
    files["zip"] = zpath
    return files


# (input, command words after the file, expected exit code)
CASES: list[tuple[str, tuple[str, ...], int]] = [
    ("pdf", ("info",), 0),
    ("pdf", ("pages", "{}", "1-5"), 0),
    ("pdf", ("pages", "{}", "296-300", "--layout"), 0),
    ("pdf", ("extract", "{}", "--lines", "1-1000"), 0),
    ("pdf", ("extract", "{}", "--grep", "PAGE-2[0-9]{2}"), 0),
    ("xlsx", ("info",), 0),
    ("xlsx", ("sheets",), 0),
    ("xlsx", ("sheets", "{}", "1", "--max-rows", "50"), 0),
    ("xlsx", ("sheets", "{}", "1", "--rows", "99950-100001"), 0),
    ("xlsx", ("extract", "{}", "--grep", "freight"), 0),
    ("log", ("info",), 0),
    ("log", ("extract",), 0),
    ("log", ("extract", "{}", "--lines", "1-1000"), 0),
    ("log", ("extract", "{}", "--grep", "ERROR", "--context", "1"), 0),
    ("log", ("extract", "{}", "--grep", "no such line anywhere"), 0),  # reads to the end of 200 MB
    ("zip", ("info",), 0),
    ("zip", ("list-zip",), 0),
    ("zip", ("extract", "{}", "--member", "readme.txt"), 0),
    ("zip", ("extract", "{}", "--member", "mid.log", "--grep", "ERROR"), 0),
    ("zip", ("extract", "{}", "--member", "big.log"), 7),  # over max_member_bytes: refused, not loaded
]


def _words(case: tuple[str, ...], path: Path) -> tuple[str, ...]:
    if "{}" not in case:
        return (*case, str(path))
    return tuple(str(path) if word == "{}" else word for word in case)


def _limited(limit: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def test_the_limit_bites(limit: int, big: dict[str, Path], tmp_path: Path) -> None:
    """The limit is real: with 30 MB instead of 150 MB of headroom, reading a member of 20 MB fails.
    (Otherwise the tests below could not fail.)"""
    assert limit < 1024 * MB
    args = ("extract", str(big["zip"]), "--member", "mid.log", "--json")
    ran = run_measured(args, cwd=tmp_path, env=child_env(), hard_timeout=60,
                       preexec_fn=_limited(limit - HEADROOM + 30 * MB))
    assert ran.code != 0, ran.describe()


@pytest.mark.parametrize(("which", "words", "expected"), CASES,
                         ids=[f"{c[0]}-{c[1][0]}-{i}" for i, c in enumerate(CASES)])
def test_command_within_memory_limit(
    which: str, words: tuple[str, ...], expected: int, big: dict[str, Path], limit: int, tmp_path: Path
) -> None:
    args = (*_words(words, big[which]), "--json", "--timeout", "60")
    ran = run_measured(args, cwd=tmp_path, env=child_env(), hard_timeout=90, preexec_fn=_limited(limit))
    why = f"limit {limit / MB:.0f} MB\n" + ran.describe()
    assert not ran.killed and "Traceback" not in ran.stderr, why
    assert "MemoryError" not in ran.stdout + ran.stderr, why
    assert ran.code == expected, why
    print(f"\n{' '.join(words)} on {which}: exit {ran.code}, peak RSS {ran.peak_rss / MB:.0f} MB "
          f"(address-space limit {limit / MB:.0f} MB)")
    data = ran.json()
    if expected == 0 and "chars" in data:
        assert 0 < data["chars"] <= 100_000 or "no such line" in " ".join(words), why
