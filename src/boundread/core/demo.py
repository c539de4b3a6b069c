"""The demo's sample files: the report and workbook that ship in the package, plus a log and a zip
made here, so the README's tour runs on any machine."""

from __future__ import annotations

import zipfile
from importlib.resources import files
from pathlib import Path

LOG_LINES = 5000
STAMP = (2026, 11, 29, 8, 0, 0)  # the zip's entry times: the same listing on every machine and day


def write_samples(folder: Path) -> dict[str, Path]:
    """Write report.pdf, prices.xlsx, server.log and catalogue.zip into ``folder`` (made if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    data = files("boundread") / "data"
    paths = {name: folder / name for name in ("report.pdf", "prices.xlsx", "server.log", "catalogue.zip")}
    paths["report.pdf"].write_bytes((data / "sample-report.pdf").read_bytes())
    paths["prices.xlsx"].write_bytes((data / "sample-prices.xlsx").read_bytes())
    with paths["server.log"].open("w", encoding="utf-8") as log:
        for n in range(1, LOG_LINES + 1):
            level = "ERROR" if n % 997 == 0 else "WARN" if n % 250 == 0 else "INFO"
            log.write(f"2026-11-29T08:{n // 600 % 60:02d}:{n % 60:02d}Z {level} worker-{n % 4} "
                      f"request {n} {'failed: upstream timeout' if level == 'ERROR' else 'served in 12 ms'}\n")
    members = {"catalogue/report.pdf": paths["report.pdf"].read_bytes(),
               "catalogue/prices.xlsx": paths["prices.xlsx"].read_bytes(),
               "catalogue/README.txt": b"Catalogue 2026: the report and the price list.\n"}
    with zipfile.ZipFile(paths["catalogue.zip"], "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data_bytes in members.items():
            entry = zipfile.ZipInfo(name, STAMP)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            zf.writestr(entry, data_bytes)
    return paths
