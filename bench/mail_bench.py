"""Email at its bounds: a 54 MB .eml (a 40 MB attachment, base64) and one of 10,000 small attachments.

    .venv/bin/python bench/mail_bench.py [--inputs /tmp/mailbench]

Each row runs as its own process; wall time and peak memory (the child's max RSS). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from email.message import EmailMessage
from pathlib import Path

BIN = Path(sys.executable).with_name("boundread")


def big(path: Path) -> None:
    msg = EmailMessage()
    msg["From"], msg["Subject"] = "a@example.org", "big"
    msg.set_content("body")
    msg.add_attachment(os.urandom(40_000_000), maintype="application", subtype="octet-stream", filename="blob.bin")
    msg.add_attachment(b"name,v\nx,1\n", maintype="text", subtype="csv", filename="d.csv")
    path.write_bytes(msg.as_bytes())


def bomb(path: Path) -> None:
    parts = [b'--XB\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename="f%d.txt"\r\n\r\n'
             b"a%d\r\n" % (n, n) for n in range(10_000)]
    path.write_bytes(b'From: a@b\r\nSubject: bomb\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; '
                     b'boundary="XB"\r\n\r\n--XB\r\nContent-Type: text/plain\r\n\r\nbody\r\n' + b"".join(parts)
                     + b"--XB--\r\n")


def run(label: str, argv: list[str]) -> None:
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    print(f"{label:<40} {time.perf_counter() - start:6.2f} s  {usage.ru_maxrss / 1024:7.1f} MB peak  "
          f"exit {os.waitstatus_to_exitcode(status)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--inputs", type=Path, default=Path("/tmp/mailbench"))
    parser.add_argument("--write-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.inputs.mkdir(parents=True, exist_ok=True)
    for name, make in (("big.eml", big), ("bomb.eml", bomb)):
        path = args.inputs / name
        if args.write_only:
            make(path)
            continue
        if not path.exists():  # in a process of its own: a child's peak memory counts its parent's at the fork
            subprocess.run([sys.executable, __file__, "--inputs", str(args.inputs), "--write-only"], check=True)
        print(f"{name}: {path.stat().st_size / 1e6:,.1f} MB")
        run(f"  info {name}", [str(BIN), "info", str(path)])
        run(f"  extract {name}", [str(BIN), "extract", str(path), "--stdout"])
        run(f"  list-zip {name}", [str(BIN), "list-zip", str(path)])
    if args.write_only:
        return
    run("  extract big.eml --member d.csv", [str(BIN), "extract", str(args.inputs / "big.eml"), "--member", "d.csv",
                                             "--stdout"])


if __name__ == "__main__":
    main()
