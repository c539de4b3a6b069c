"""The files an agent meets in the e2e tests: the demo's samples, and a log too big to read whole."""

from __future__ import annotations

from pathlib import Path

from boundread.core.demo import write_samples

HUGE_LOG_LINES = 60_000  # about 5.7 MB: far above the guard's 256 KB text threshold


def project_files(folder: Path) -> dict[str, Path]:
    """report.pdf (12 pages), prices.xlsx, server.log, catalogue.zip and huge.log in ``folder``."""
    paths = write_samples(folder)
    huge = folder / "huge.log"
    with huge.open("w", encoding="utf-8") as log:
        for n in range(1, HUGE_LOG_LINES + 1):
            log.write(f"2026-11-29T08:00:00Z INFO worker-{n % 4} request {n:08d} served in 12 ms, "
                      f"upstream=backend-{n % 7} bytes={n * 37 % 100000}\n")
    paths["huge.log"] = huge
    return paths
