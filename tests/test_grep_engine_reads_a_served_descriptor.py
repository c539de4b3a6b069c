"""The MCP server reads a served file through a link to ``/proc/self/fd/N`` (the file it checked, race-free): a
grep by rg reads that same file, not the descriptor N of rg's own process (which hung the call till its deadline)."""

from __future__ import annotations

import os
from pathlib import Path
from unittest import mock

import pytest

from boundread.contract.model import Request
from boundread.core import engine
from boundread.formats.text import rgengine
from boundread.limits import Limits
from tests.helpers import needs_rg


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="no /proc: the server reads the real path there")
def test_a_grep_through_a_descriptor_link_reads_the_served_file(tmp_path: Path) -> None:
    needs_rg()
    log = tmp_path / "huge.log"
    log.write_text("".join(f"request {n:08d} served\n" for n in range(1, 20_001)), encoding="utf-8")
    fd = os.open(log, os.O_RDONLY)
    try:
        link = tmp_path / "scratch" / "huge.log"
        link.parent.mkdir()
        link.symlink_to(f"/proc/self/fd/{fd}")
        assert rgengine.child_path(str(link)) == f"/proc/{os.getpid()}/fd/{fd}"
        answers: list[bool] = []
        real = rgengine.scan

        def spy(*args: object) -> bool:
            answers.append(real(*args))  # type: ignore[arg-type]
            return answers[-1]

        with mock.patch.object(rgengine, "scan", spy):
            result = engine.extract(link, Request(limits=Limits(timeout=20)), engine.Filters(grep="request 00015000 "),
                                    to_stdout=True)
    finally:
        os.close(fd)
    assert answers == [True]  # rg read it
    assert result.text is not None and "15000:request 00015000 served" in result.text
    assert result.done == "1 matching line of 20,000 read"


def test_a_plain_path_is_given_to_rg_as_it_is(tmp_path: Path) -> None:
    plain = tmp_path / "a.log"
    plain.write_text("x\n", encoding="utf-8")
    assert rgengine.child_path(str(plain)) == str(plain)
