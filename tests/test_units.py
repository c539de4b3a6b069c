"""One unit system for sizes: decimal (units.py), in messages, options and the man page alike."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from boundread.cli import docs
from boundread.guard.config import GuardConfig
from boundread.limits import Limits
from boundread.units import KB, MB, human_bytes

ROOT = Path(__file__).resolve().parents[1]


def test_the_constants_are_decimal_and_read_back_as_written() -> None:
    assert (KB, MB) == (1000, 1_000_000)
    assert human_bytes(Limits().max_member_bytes) == "32.0 MB"
    assert human_bytes(112_816_697) == "112.8 MB" and human_bytes(999) == "999 B" and human_bytes(KB) == "1.0 kB"


def test_man_page_sizes_are_in_units_py_units() -> None:
    settings = "\n".join(docs._guard_settings())
    man = (ROOT / "man" / "boundread.1").read_text(encoding="utf-8")
    scale = {"B": 1, "kB": KB, "MB": MB, "GB": 1000 * MB}
    for value in (GuardConfig().text_max_bytes, GuardConfig().image_max_bytes, GuardConfig().extract_max_bytes):
        found = re.search(rf"Default: ([\d.]+) (B|kB|MB|GB) \({value:,} bytes\)\.", settings)
        assert found, (value, settings)
        assert abs(float(found.group(1)) * scale[found.group(2)] - value) <= value * 0.001  # decimal, not KiB
        assert found.group(0) in man
    assert not re.search(r"\d(KB|MB|KiB|MiB)\.", settings)  # the old binary '256KB.' form


def test_an_estimate_names_its_sample_in_decimal_units(monkeypatch: pytest.MonkeyPatch) -> None:
    from boundread.contract.model import Request
    from boundread.contract.source import source_for_bytes
    from boundread.formats.office import odp
    from tests.formats.test_pptx import make_odp

    assert odp.COUNT_BUDGET == 16 * MB
    monkeypatch.setattr(odp, "COUNT_BUDGET", 300)  # the test presentation's content.xml is larger
    details = odp.info(source_for_bytes("a.odp", make_odp()), Request())
    assert "slide count estimated from the first 300 B of content.xml" in details.warnings
