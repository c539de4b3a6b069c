"""How fast the MCP server answers: ``initialize`` and ``tools/list`` after the process starts (``boundread mcp``
against the SDK's own stdio server, which answers only once it has loaded), a grep over a 1 GB log under a 3 s
call deadline, and quick calls made while a slow one runs.

    .venv/bin/python bench/mcp_timing.py [--gb 1.0] [--timeout 3] [--starts 5]

Prints the median seconds to the initialize and tools/list answers and their ratio, the seconds to write the
log, the seconds the grep took to answer (due by the deadline; the rest is
the transport's slack), the server's peak memory, and when each of three ``info`` calls made 0.3 s after a
slow grep answered against the slow one. tests/test_mcp.py asserts what holds on a loaded machine (that the
answers come, in order, within four times the deadline); the seconds are measured here and asserted nowhere.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client
from mcp.client.stdio import StdioServerParameters

BIN = Path(sys.executable).with_name("boundread")
LINE = b"2026-11-29T08:00:00Z INFO worker-1 request served in 12 ms upstream=backend-3 bytes=12345\n"


def big_log(path: Path, size: int) -> None:
    """About ``size`` bytes of log lines, with one FATAL line in the middle (as the test writes it)."""
    block = LINE * 10_000
    count = max(1, size // len(block))
    with path.open("wb") as out:
        for n in range(count):
            if n == count // 2:
                out.write(b"2026-11-29T09:00:00Z FATAL disk full on /var\n")
            out.write(block)


def peak_kb(marker: str) -> int | None:
    """VmHWM of the running ``boundread mcp`` whose arguments hold ``marker``; None without /proc."""
    for proc in Path("/proc").iterdir() if Path("/proc/self/status").exists() else ():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
            if b"mcp" in argv and marker.encode() in b" ".join(argv):
                status = (proc / "status").read_text()
                return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM")))
        except (OSError, StopIteration):
            continue
    return None


def server(root: Path, timeout: float) -> StdioServerParameters:
    env = {**os.environ, "BOUNDREAD_OUT_DIR": str(root / "boundread-out")}
    return StdioServerParameters(command=str(BIN), args=["mcp", "--root", str(root), "--timeout", f"{timeout:g}"],
                                 cwd=str(root), env=env)


async def grep(root: Path, timeout: float) -> dict[str, Any]:
    async with Client(server(root, timeout), read_timeout_seconds=120) as client:
        start = time.monotonic()
        hits = await client.call_tool("extract", {"path": "huge.log", "grep": "F.T.L"})  # every line is read
        took = time.monotonic() - start
        envelope = hits.structured_content or {}
        return {"seconds": took, "timed_out": envelope.get("timed_out"), "peak_kb": peak_kb(str(root))}


async def parallel(root: Path, timeout: float) -> dict[str, float]:
    done: dict[str, float] = {}
    (root / "small.txt").write_text("hello\n", encoding="utf-8")
    async with Client(server(root, timeout), read_timeout_seconds=120) as client:
        start = time.monotonic()

        async def call(name: str, tool: str, args: dict[str, Any]) -> None:
            await client.call_tool(tool, args)
            done[name] = time.monotonic() - start

        async with anyio.create_task_group() as group:
            group.start_soon(call, "slow", "extract", {"path": "huge.log", "grep": "N.V.R"})
            await anyio.sleep(0.3)
            for n in range(3):
                group.start_soon(call, f"quick{n}", "info", {"path": "small.txt"})
    return done


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "bench", "version": "1"}}}
SDK_ONLY = ("import sys; from boundread.mcp import server; from boundread.mcp.config import Config; "
            "server.build(Config(roots=(sys.argv[1],))).run('stdio')")


def startup(command: list[str], cwd: Path) -> tuple[float, float]:
    """Seconds from the start of ``command`` to its initialize answer, and to its tools/list answer."""
    started = time.monotonic()
    proc = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(json.dumps(INIT).encode() + b"\n")
    proc.stdin.flush()
    proc.stdout.readline()
    answered = time.monotonic() - started
    proc.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
                     b'{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n')
    proc.stdin.flush()
    proc.stdout.readline()
    listed = time.monotonic() - started
    proc.stdin.close()
    proc.wait(timeout=30)
    proc.stdout.close()
    return answered, listed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gb", type=float, default=1.0, help="the log's size in GB (default 1)")
    parser.add_argument("--timeout", type=float, default=3.0, help="the server's call deadline in seconds")
    parser.add_argument("--starts", type=int, default=5, help="server starts timed (the median is printed)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="boundread-mcp-bench-") as tmp:
        root = Path(tmp)
        ours = [startup([str(BIN), "mcp"], root) for _ in range(args.starts)]
        sdk = [startup([sys.executable, "-c", SDK_ONLY, str(root)], root) for _ in range(args.starts)]
        for n, what in enumerate(("initialize", "tools/list")):
            mine, theirs = statistics.median(t[n] for t in ours), statistics.median(t[n] for t in sdk)
            print(f"{what:<10} answered in  {mine:6.2f} s  (the SDK's own stdio server: {theirs:.2f} s, "
                  f"{theirs / mine:.1f}x)")
        started = time.monotonic()
        big_log(root / "huge.log", int(args.gb * (1 << 30)))
        print(f"wrote {args.gb:g} GB log          {time.monotonic() - started:6.2f} s")
        found = anyio.run(grep, root, args.timeout)
        peak = "n/a" if found["peak_kb"] is None else f"{found['peak_kb'] / 1024:.0f} MB"
        print(f"grep answered in         {found['seconds']:6.2f} s  (deadline {args.timeout:g} s, "
              f"slack {found['seconds'] - args.timeout:+.2f} s, timed out: {found['timed_out']}, peak {peak})")
        done = anyio.run(parallel, root, args.timeout)
        quick = max(done[f"quick{n}"] for n in range(3))
        print(f"3 info calls beside it   {quick:6.2f} s  (the slow grep: {done['slow']:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
