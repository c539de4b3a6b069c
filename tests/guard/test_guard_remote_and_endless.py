"""Commands whose output has no bound the file can give (issue 19 part 2): devices that never end
(``cat /dev/urandom``), FIFOs that block (``less pipe``); and, unless a bound is given, the logs of a
container, a pod, the journal or another host (``docker logs web``, ``kubectl logs``, ``journalctl``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from boundread.guard import check_command


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("endless")
    os.mkfifo(root / "pipe")
    (root / "small.txt").write_text("hello\n")
    return root


def _reason(command: str, cwd: Path) -> str | None:
    decision = check_command(command, cwd=cwd)
    return decision.reason if decision.denied else None


@pytest.mark.parametrize("command", [
    "cat /dev/urandom", "cat /dev/zero", "head -c 100000000 /dev/zero", "od -x /dev/urandom", "xxd /dev/urandom",
    "base64 /dev/urandom", "tr -dc a-z < /dev/urandom", "less pipe", "cat pipe", "head -n 5 /dev/zero",
])
def test_a_device_or_a_fifo_printed_without_a_byte_bound_is_denied(command: str, folder: Path) -> None:
    reason = _reason(command, folder)
    assert reason is not None, command
    assert "has no bound" in reason and "head -c 1024" in reason


@pytest.mark.parametrize("command", [
    "head -c 100 /dev/urandom", "head -c 32 /dev/urandom | base64", "cat /dev/null", "cat small.txt > /dev/null",
    "echo hi | cat /dev/stdin", "cat /proc/cpuinfo", "dd if=/dev/zero of=/tmp/x bs=1M count=1",
])
def test_a_bounded_or_harmless_device_read_is_allowed(command: str, folder: Path) -> None:
    assert _reason(command, folder) is None, command
